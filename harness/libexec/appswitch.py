# SPDX-License-Identifier: GPL-2.0
"""The app-switch profile, host side (called by harness/bin/appswitch).

Boots the unpatched and the patched kernel in turn, one boot a round, and
has the guest (harness/guest/appswitch.sh, harness/guest/appswitch.c) keep
several apps' heaps from the corpus in memory cgroups under one limit, on
the phone's swap (lz4, zstd recompression of idle memory, idle writeback
to a backing device), and bring the apps to the foreground in turn: the
hot ones every pass, the cold ones in rotation. Reports the time to bring
an app back and its faults' distribution (hot and cold apps apart), the
pool's memory and the bytes written to and read from the backing device,
as a table (stdout) and a JSON file. Every app's bytes are compared with
the corpus each time it comes back.
"""

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "lib"))
import guest  # noqa: E402
from corpus import (  # noqa: E402
    add_run_host_py_args, boot_round, fail, prepare_corpus)

MIB = 1 << 20
BASE = os.environ.get("ZMP_BASE", "")
PREFIXES = ("ZMP_SWITCH ", "ZMP_STAT ", "ZMP_APPSWITCH ", "ZMP_CONF ")


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="harness/bin/appswitch",
        description="App-switch profile: apps' heaps under one memory "
                    "limit brought back in turn on the phone's swap, "
                    "baseline vs patched kernel, every byte verified.")
    ap.add_argument("--corpus", help="corpus file, raw or .zst (default: "
                    "the shipped py.anon followed by node.anon)")
    ap.add_argument("--apps", type=int, default=6, help="apps (default 6)")
    ap.add_argument("--hot", type=int, default=3,
                    help="apps brought back every pass (default 3)")
    ap.add_argument("--size", type=int, default=24, metavar="MiB",
                    help="each app's heap (default 24)")
    ap.add_argument("--limit", type=int, default=64, metavar="MiB",
                    help="memory.max of the apps' parent cgroup (default 64)")
    ap.add_argument("--passes", type=int, default=7,
                    help="passes (default 7: each cold app comes back twice)")
    ap.add_argument("--writeback", type=int, default=8, metavar="MiB",
                    help="idle writeback allowed a pass (default 8)")
    ap.add_argument("--mthp", type=int, nargs="+", default=[16],
                    metavar="KiB", help="mTHP sizes on (default 16)")
    ap.add_argument("--block-size", type=int, default=16, metavar="KiB",
                    help="the patched device's block_size (default 16)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds per kernel, one boot each (default 3)")
    ap.add_argument("--timeout", type=int, default=2400,
                    help="seconds one guest may run (default 2400)")
    ap.add_argument("--out", default=os.path.join(guest.WORK, "results", BASE),
                    help="directory for the JSON (default %(default)s)")
    add_run_host_py_args(ap)
    a = ap.parse_args(argv)
    if not 2 <= a.apps <= 32 or not 1 <= a.hot < a.apps or a.passes < 2 \
            or a.size < 1 or a.limit < 16 or a.rounds < 1 or a.writeback < 0:
        ap.error("need 2..32 apps, 1 <= --hot < --apps, --passes >= 2, "
                 "--limit >= 16, --writeback >= 0")
    if a.block_size not in (4, 8, 16):
        ap.error("--block-size: 4, 8 or 16 (the guest kernel's blocks)")
    return a


def run_round(a, kind, kernel, img, rnd):
    label = "appswitch-%s-r%d" % (kind, rnd)
    initrd = os.path.join(guest.WORK, "initramfs-appswitch.cpio.gz")
    conf = {"MODE": "appswitch", "APPS": a.apps, "HOT": a.hot,
            "SIZE": a.size, "PASSES": a.passes, "LIMIT_MIB": a.limit,
            "WB_MIB": a.writeback,
            "MTHP_KB": " ".join(str(s) for s in a.mthp),
            "ZRAM_BLOCK_KB": a.block_size,
            "DISKSIZE": "%dM" % (2 * a.apps * a.size + 64)}
    guest.make_initramfs(initrd, conf, a.src)
    text, logfile = boot_round(label, kernel, initrd, a.timeout,
                               drives=[img], mem="1G", smp=2, icount=True)
    got = {p: [json.loads(l[len(p):]) for l in text.splitlines()
               if l.startswith(p)] for p in PREFIXES}
    if "ZMP_EXIT 0" not in text or len(got["ZMP_APPSWITCH "]) != 1:
        fail("%s: the guest run failed (console: %s):\n  %s"
             % (label, logfile, "\n  ".join(text.splitlines()[-15:])))
    conf = got["ZMP_CONF "][0]
    if kind == "patched" and conf["block_size"] != a.block_size * 1024:
        fail("%s: the device's block_size is %s, not %d KiB"
             % (label, conf["block_size"], a.block_size))
    # one after each pass, then one after the apps exited
    stats = got["ZMP_STAT "][:-1]
    end = got["ZMP_STAT "][-1]
    if len(stats) != a.passes:
        fail("%s: %d reports of passes, not %d (console: %s)"
             % (label, len(stats), a.passes, logfile))
    mm = [int(x) for x in stats[-1]["mm_stat"].split()]
    bd = [int(x) for x in end["bd_stat"].split()]
    before = [int(x) for x in end["swap_before"].split()]
    after = [int(x) for x in end["swap_after"].split()]
    switches = got["ZMP_SWITCH "]
    later = [s for s in switches if s["pass"]]
    return {"kernel": kind, "round": rnd, "summary": got["ZMP_APPSWITCH "][0],
            "switches": switches, "conf": conf,
            "hot_ms": statistics.median([s["pass_ms"] for s in later
                                         if not s["cold"]]),
            "cold_ms": statistics.median([s["pass_ms"] for s in later
                                          if s["cold"]]),
            "used_per_pass": [int(s["mm_stat"].split()[2]) for s in stats],
            "mem_used_total": mm[2], "mem_used_max": mm[4],
            "compr_data_size": mm[1],
            "bd_read_bytes": bd[1] * 4096, "bd_write_bytes": bd[2] * 4096,
            "pswpin": after[0] - before[0], "pswpout": after[1] - before[1]}


ROWS = (
    ("hot app brought back: its pass over its pages (ms, median)",
     lambda r: r["hot_ms"], "%.1f"),
    ("hot apps' faults p50 (us)", lambda r: r["summary"]["hot_faults"]["p50_us"], "%.1f"),
    ("hot apps' faults p99 (us)", lambda r: r["summary"]["hot_faults"]["p99_us"], "%.1f"),
    ("hot apps' faults", lambda r: r["summary"]["hot_faults"]["faults"], "%.0f"),
    ("cold app brought back: its pass over its pages (ms, median)",
     lambda r: r["cold_ms"], "%.1f"),
    ("cold apps' faults p50 (us)", lambda r: r["summary"]["cold_faults"]["p50_us"], "%.1f"),
    ("cold apps' faults p99 (us)", lambda r: r["summary"]["cold_faults"]["p99_us"], "%.1f"),
    ("cold apps' faults", lambda r: r["summary"]["cold_faults"]["faults"], "%.0f"),
    ("pool after the last pass: mem_used_total (MiB)",
     lambda r: r["mem_used_total"] / MIB, "%.2f"),
    ("pool, mean after each pass (MiB)",
     lambda r: statistics.mean(r["used_per_pass"]) / MIB, "%.2f"),
    ("pool: mem_used_max (MiB)", lambda r: r["mem_used_max"] / MIB, "%.2f"),
    ("written to the backing device (MiB)", lambda r: r["bd_write_bytes"] / MIB, "%.2f"),
    ("read from the backing device (MiB)", lambda r: r["bd_read_bytes"] / MIB, "%.2f"),
    ("pswpout (pages)", lambda r: r["pswpout"], "%.0f"),
    ("pswpin (pages)", lambda r: r["pswpin"], "%.0f"),
)


def table(rounds, kinds, a):
    out = ["app-switch profile: %d apps of %d MiB (%d hot), memory.max %d MiB, "
           "%d passes, lz4 with zstd recompression of idle memory and up to "
           "%d MiB of idle writeback a pass, mTHP %s KiB on, block_size %d "
           "KiB (patched), %d round(s) a kernel; medians over the rounds; "
           "times on the instruction clock (qemu -icount shift=0)"
           % (a.apps, a.size, a.hot, a.limit, a.passes, a.writeback,
              "+".join(str(s) for s in a.mthp), a.block_size, a.rounds), ""]
    out += ["| | " + " | ".join(kinds) + " | patched/baseline |",
            "|---|---|---|---|"]
    for title, fn, fmt in ROWS:
        vals = [statistics.median([fn(r) for r in rounds if r["kernel"] == k])
                for k in kinds]
        ratio = "%.3f" % (vals[1] / vals[0]) if vals[0] else "-"
        out.append("| %s | %s | %s |" % (
            title, " | ".join(fmt % v for v in vals), ratio))
    return "\n".join(out)


def main(argv):
    a = parse_args(argv)
    kinds = ["baseline", "patched"]
    if a.validate:
        print("baseline:guest patched:guest")
        return 0
    kernels = {"baseline": a.baseline_kernel, "patched": a.patched_kernel}
    for k in kinds:
        if not kernels[k] or not os.path.isfile(kernels[k]):
            fail("no %s kernel image (harness/bin/appswitch builds it)" % k)
    commit = guest.git_commit()
    corpus_name, img = prepare_corpus(a.corpus, MIB)
    rounds = []
    for rnd in range(1, a.rounds + 1):
        for k in kinds:
            guest.log("round %d/%d on %s" % (rnd, a.rounds, k))
            r = run_round(a, k, kernels[k], img, rnd)
            guest.log("  hot back in %.1f ms, cold %.1f ms, pool %.1f MiB, "
                      "written back %.1f MiB" % (
                          r["hot_ms"], r["cold_ms"], r["mem_used_total"] / MIB,
                          r["bd_write_bytes"] / MIB))
            rounds.append(r)
    cmd = os.environ.get("ZMP_BENCH_CMD", "")
    text = "command: %s\nbase: %s, commit %s, corpus %s\n%s" % (
        cmd, BASE, commit, corpus_name, table(rounds, kinds, a))
    print(text)
    os.makedirs(a.out, exist_ok=True)
    stem = "appswitch-%s-a%dx%dM-h%d-l%dM-m%s-b%dk" % (
        corpus_name, a.apps, a.size, a.hot, a.limit,
        "+".join("%dk" % s for s in a.mthp), a.block_size)
    jpath = os.path.join(a.out, stem + ".json")
    with open(jpath, "w") as f:
        json.dump({"base": BASE, "commit": commit, "command": cmd,
                   "corpus": corpus_name,
                   "date": time.strftime("%Y-%m-%d %H:%M:%S"),
                   "args": {k: v for k, v in vars(a).items()
                            if not k.endswith("kernel") and k != "src"},
                   "rounds": rounds, "table": text}, f, indent=1)
    print("\nJSON: %s" % jpath)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
