# SPDX-License-Identifier: GPL-2.0
"""The swap benchmark, host side (called by harness/bin/bench).

Boots each kernel once per round, alternating baseline and patched, and has
the guest map SIZE MiB of anonymous memory, fill it from the corpus, page it
out to zram with MADV_PAGEOUT, touch it back in and compare every byte.
Writes a table (stdout), a JSON file and a PNG plot of the per-round times.
"""

import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "lib"))
import guest  # noqa: E402
import insnprof  # noqa: E402
from corpus import (  # noqa: E402
    add_run_host_py_args, boot_round, fail, prepare_corpus, pyplot)

MIB = 1 << 20
ROUND_PREFIX = "ZMP_ROUND "
LATENCY_PREFIX = "ZMP_LATENCY "
CONF_PREFIX = "ZMP_CONF "
PHONE_PREFIX = "ZMP_PHONE "
BESIDE_PREFIX = "ZMP_BESIDE "
# the phone profile's steps, as bench.sh reports them
PHONE_STAGES = ("recompressed", "written_back", "swapped_in")
LATENCY_KEYS = ("faults", "p50_us", "p90_us", "p99_us", "max_us", "mean_us")
MM_KEYS = ("orig_data_size", "compr_data_size", "mem_used_total",
           "pages_compacted", "huge_pages")

# the kernel base the trees are made of (harness/base/bases.conf)
BASE = os.environ.get("ZMP_BASE", "")


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="harness/bin/bench",
        description="Swap benchmark: MADV_PAGEOUT to zram and back, "
                    "baseline vs patched kernel, every byte verified.")
    ap.add_argument("--corpus", help="corpus file, raw or .zst "
                    "(default: the shipped py.anon followed by node.anon)")
    ap.add_argument("--algo", choices=("zstd", "lz4"), default="zstd")
    ap.add_argument("--size", type=int, default=100, metavar="MiB",
                    help="anonymous memory mapped and swapped (default 100)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds per kernel, one boot each (default 3)")
    ap.add_argument("--kernel", choices=("baseline", "patched", "both"),
                    default="both")
    ap.add_argument("--fallback", action="store_true",
                    help="forced fallback: every large folio allocation at "
                    "swap-in fails (fail_page_alloc, order >= 2, the "
                    "benchmark task only)")
    ap.add_argument("--tile", action="store_true",
                    help="repeat the corpus until it fills --size, each copy "
                    "right after the last (a corpus whose length is not a "
                    "block multiple is cut into other blocks each time): "
                    "a large pool of corpus-like data")
    ap.add_argument("--smp", type=int, default=2, metavar="N",
                    help="guest vCPUs (default 2); the benchmark itself is "
                    "one task")
    ap.add_argument("--append", default="", metavar="PARAMS",
                    help="extra kernel command line parameters for the guest")
    ap.add_argument("--host-time", dest="icount", action="store_false",
                    help="time with the host's clock under multi-threaded "
                    "TCG (default: the guest's clock counts executed "
                    "instructions, qemu -icount shift=0, 1 ns each: "
                    "deterministic, and not skewed by what TCG's "
                    "translation of each kernel build costs)")
    ap.add_argument("--profile", action="store_true",
                    help="also count the instructions executed in each kernel "
                    "function (qemu plugin harness/host/tbprof.c, round 1 "
                    "of each kernel, whole boot); needs the instruction clock")
    ap.add_argument("--profile-swapin", action="store_true",
                    help="as --profile, but count only round 1's swap-in "
                    "(from a getpriority() call swapbench makes before it "
                    "to one after it)")
    ap.add_argument("--writers", type=int, default=1, metavar="N",
                    help="page the memory out from N threads at once (1-8, "
                    "default 1): N CPUs storing into zram together")
    ap.add_argument("--latency", action="store_true",
                    help="after each round, swap the memory out and in twice "
                    "more, touching pages in order and in a random order, "
                    "and report the distribution of swap-in fault latency "
                    "(p50, p90, p99, max, in the benchmark's clock); then "
                    "swap it out once more and free it 16 KiB at a time "
                    "(MADV_DONTNEED, which frees swap slots), timing each "
                    "call")
    ap.add_argument("--compact", action="store_true",
                    help="compact memory between swap-out and swap-in "
                    "(untimed): migration moves zsmalloc pages, so block "
                    "objects are read copied rather than in place")
    ap.add_argument("--no-mthp", action="store_true",
                    help="4 KiB folios only (every mTHP size never)")
    ap.add_argument("--mthp", default="16", metavar="KiB[,KiB...]",
                    help="the mTHP sizes enabled (default 16; several, "
                    "e.g. 16,64: a fault takes the largest it can have)")
    ap.add_argument("--block-size", type=int, metavar="KiB",
                    help="the patched zram device's block_size (default: "
                    "16, which the guest sets: new devices store pages); "
                    "above 16 the patched kernel is built with "
                    "ZSMALLOC_MULTI_PAGES_ORDER 4 "
                    "(largest block 64 KiB)")
    ap.add_argument("--level", type=int, metavar="N",
                    help="the patched zram device's compression level "
                    "(algorithm_params level=N: zstd's level, lz4's "
                    "acceleration; the user-space reference follows it); "
                    "the baseline keeps the algorithm's default")
    ap.add_argument("--level-both", action="store_true",
                    help="the baseline's device takes --level too")
    ap.add_argument("--phone", choices=("plain", "compressed"),
                    help="the phone profile: lz4, and between swap-out and "
                    "swap-in zstd recompression of idle memory (priority 1) "
                    "and idle writeback to a backing device; compressed: "
                    "with compressed_writeback. Reports memory after "
                    "recompression, bytes written to and read from the "
                    "backing device, and swap-in after writeback")
    ap.add_argument("--recompress-beside", action="store_true",
                    help="zstd recompression of idle memory (priority 1) in "
                    "a loop beside the swap traffic, from before swap-out to "
                    "after swap-in; implies --latency")
    ap.add_argument("--out", default=os.path.join(guest.WORK, "results", BASE),
                    help="directory for the JSON and PNG (default %(default)s)")
    ap.add_argument("--timeout", type=int, default=900,
                    help="seconds one guest may run (default 900)")
    add_run_host_py_args(ap)
    a = ap.parse_args(argv)
    if not 1 <= a.size <= 4096:
        ap.error("--size must be 1..4096 MiB")
    if not 1 <= a.smp <= 8:
        ap.error("--smp must be 1..8")
    if not 1 <= a.writers <= 8:
        ap.error("--writers must be 1..8")
    if not 1 <= a.rounds <= 1000:
        ap.error("--rounds must be 1..1000")
    if a.profile_swapin:
        a.profile = True
    if a.profile and not a.icount:
        ap.error("--profile counts instructions: not with --host-time")
    if a.fallback and a.no_mthp:
        ap.error("--fallback needs mTHP: it fails their swap-in")
    if a.no_mthp and "--mthp" in argv:
        ap.error("--no-mthp and --mthp exclude each other")
    try:
        a.mthp_sizes = sorted({int(x) for x in a.mthp.split(",")})
    except ValueError:
        ap.error("--mthp: sizes in KiB, separated by commas")
    if not all(s in (16, 32, 64, 128, 256, 512, 1024) for s in a.mthp_sizes):
        ap.error("--mthp: anonymous mTHP sizes, 16..1024 KiB")
    # the largest size enabled: what a fault gets when it can
    a.mthp = a.mthp_sizes[-1]
    if a.block_size is not None and a.block_size not in (4, 8, 16, 32, 64):
        ap.error("--block-size: 4, 8, 16, 32 or 64 KiB")
    if a.level is not None and not (-7 <= a.level <= 22 if a.algo == "zstd"
                                    else 1 <= a.level <= 65537):
        ap.error("--level: zstd's level (-7..22) or lz4's acceleration (1..)")
    if a.phone and a.algo != "lz4":
        if "--algo" in argv:
            ap.error("--phone writes with lz4")
        a.algo = "lz4"
    if a.phone and (a.fallback or a.latency or a.writers != 1):
        ap.error("--phone: not with --fallback, --latency or --writers")
    if a.recompress_beside:
        if a.phone or a.level is not None or a.fallback:
            ap.error("--recompress-beside: not with --phone, --level or "
                     "--fallback")
        a.latency = True
    if a.level_both and a.level is None:
        ap.error("--level-both needs --level")
    if a.no_mthp:
        a.mthp, a.mthp_sizes = 0, []
    return a


def block_kb(a):
    """The block size the patched device stores (16 KiB: its default)."""
    return a.block_size or 16


def stored_block_kb(a):
    """The block the patched kernel compresses the corpus in: its block
    size when the largest mTHP covers whole blocks, else 4 KiB pages."""
    return block_kb(a) if a.mthp and a.mthp >= block_kb(a) else 4


def patched_variant(a):
    """The patched kernel build: blocks over 16 KiB need order 4."""
    return "guest-order4" if block_kb(a) > 16 else "guest"


def reference(img, algo, size_bytes, level=None):
    exe = guest.host_tool("zref")
    cmd = [exe, img, algo, str(size_bytes)]
    if level is not None:
        cmd.append("level=%d" % level)
    r = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return json.loads(r.stdout)


def run_round(a, kind, kernel, img, rnd):
    label = "bench-%s-r%d" % (kind, rnd)
    initrd = os.path.join(guest.WORK, "initramfs-bench.cpio.gz")
    conf = {"MODE": "bench", "ALGO": a.algo, "SIZE": a.size, "ROUNDS": 1,
            "MTHP_KB": " ".join(str(s) for s in a.mthp_sizes) or 0,
            "ZRAM_BLOCK_KB": block_kb(a),
            "ZRAM_LEVEL": 0 if kind == "baseline" and not a.level_both
                          else (a.level or 0),
            "FAIL_SWAPIN": int(a.fallback),
            "LATENCY": int(a.latency), "COMPACT": int(a.compact),
            "WRITERS": a.writers, "PHONE": a.phone or "",
            "BESIDE": int(a.recompress_beside),
            "PROFILE_MARK": int(a.profile_swapin),
            "DISKSIZE": "%dM" % (2 * a.size + 64)}
    guest.make_initramfs(initrd, conf, a.src)
    mem = "%dM" % max(1024, 3 * a.size + 512)
    prof = os.path.join(guest.LOGS, label + ".prof")
    extra = []
    if a.profile and rnd == 1:
        if os.path.exists(prof):
            os.remove(prof)
        extra = insnprof.qemu_args(prof, insnprof.mark_address(kernel)
                                   if a.profile_swapin else None)
    text, logfile = boot_round(label, kernel, initrd, a.timeout,
                               drives=[img], mem=mem, smp=a.smp,
                               append=a.append, icount=a.icount, extra=extra)
    rounds = [json.loads(l[len(ROUND_PREFIX):]) for l in text.splitlines()
              if l.startswith(ROUND_PREFIX)]
    if "ZMP_EXIT 0" not in text or len(rounds) != 1:
        tail = "\n  ".join(text.splitlines()[-15:])
        fail("%s: the guest run failed (console: %s):\n  %s"
             % (label, logfile, tail))
    r = rounds[0]
    confs = [json.loads(l[len(CONF_PREFIX):]) for l in text.splitlines()
             if l.startswith(CONF_PREFIX)]
    r["zram_conf"] = confs[0] if confs else {}
    if kind != "baseline" and a.block_size and \
            r["zram_conf"].get("block_size") != a.block_size * 1024:
        fail("%s: the device's block_size is %s, not %d KiB (console: %s)"
             % (label, r["zram_conf"].get("block_size"), a.block_size, logfile))
    if (kind != "baseline" or a.level_both) and a.level and \
            r["zram_conf"].get("level") != a.level:
        fail("%s: the device's level is %s, not %d (console: %s)"
             % (label, r["zram_conf"].get("level"), a.level, logfile))
    if r["mismatches"]:
        fail("%s: %d bytes differ after swap-in" % (label, r["mismatches"]))
    if a.phone:
        phone = {}
        for l in text.splitlines():
            if l.startswith(PHONE_PREFIX):
                x = json.loads(l[len(PHONE_PREFIX):])
                phone[x["stage"]] = {
                    "mm_stat": [int(v) for v in x["mm_stat"].split()],
                    "bd_stat": [int(v) for v in x["bd_stat"].split()]}
        if sorted(phone) != sorted(PHONE_STAGES):
            fail("%s: the phone profile did not report every step "
                 "(console: %s)" % (label, logfile))
        r["phone"] = phone
    if a.recompress_beside:
        beside = [json.loads(l[len(BESIDE_PREFIX):]) for l in text.splitlines()
                  if l.startswith(BESIDE_PREFIX)]
        if not beside or not beside[0]["passes"]:
            fail("%s: no recompression pass beside the run (console: %s)"
                 % (label, logfile))
        r["beside_passes"] = beside[0]["passes"]
    lat = [json.loads(l[len(LATENCY_PREFIX):]) for l in text.splitlines()
           if l.startswith(LATENCY_PREFIX)]
    if a.latency:
        if sorted(x["order"] for x in lat) != ["free", "random",
                                                "sequential"]:
            fail("%s: not every latency pass in the output (console: %s)"
                 % (label, logfile))
        r["latency"] = {x.pop("order"): x for x in lat}
    r["kernel"] = kind
    r["round"] = rnd
    r["classes"] = classes_summary(text)
    r.update(debug_stat(text, label, logfile))
    if extra:
        r["profile"] = insnprof.functions(kernel, prof)
    return r


CLASSES_PREFIX = "ZMP_CLASSES "
DEBUG_STAT_PREFIX = "ZMP_DEBUG_STAT "


def debug_stat(text, label, logfile):
    """zram0's debug_stat as the guest printed it at the end of the boot:
    miss_free (the second field of its second line: "writestall N" on
    6.12, "0 N" on 7.2), and on a patched kernel deferred_frees (the last
    field of the series' block line: 7.2's has four fields, 6.12's two)."""
    lines = [l[len(DEBUG_STAT_PREFIX):].split() for l in text.splitlines()
             if l.startswith(DEBUG_STAT_PREFIX)]
    if len(lines) < 2 or len(lines[1]) != 2 or not lines[1][1].isdigit():
        fail("%s: no miss_free in zram0's debug_stat (console: %s)"
             % (label, logfile))
    out = {"miss_free": int(lines[1][1])}
    if len(lines) >= 3:
        block = lines[2]
        if len(block) not in (2, 4) or not all(x.isdigit() for x in block):
            fail("%s: debug_stat's block line is not the series' (console: "
                 "%s)" % (label, logfile))
        out["deferred_frees"] = int(block[-1])
    return out


def classes_summary(text):
    """Per family (base: objects up to a page; multi-page: larger), the
    debugfs zsmalloc classes table the guest printed after swap-out."""
    fams = {}
    for line in text.splitlines():
        if not line.startswith(CLASSES_PREFIX):
            continue
        f = line[len(CLASSES_PREFIX):].split()
        if len(f) < 18 or not f[0].isdigit():
            continue
        size, allocated, used, pages = int(f[1]), int(f[13]), int(f[14]), int(f[15])
        freeable = int(f[17])
        if not allocated:
            continue
        fam = fams.setdefault("base" if size <= 4096 else "multi-page", {
            "classes": 0, "obj_allocated": 0, "obj_used": 0,
            "pages_used": 0, "freeable": 0, "zspages_not_full": 0})
        fam["classes"] += 1
        fam["obj_allocated"] += allocated
        fam["obj_used"] += used
        fam["pages_used"] += pages
        fam["freeable"] += freeable
        fam["zspages_not_full"] += sum(int(x) for x in f[2:12])
    return fams


def mean(xs):
    return sum(xs) / len(xs) if xs else 0.0


def summarize(rounds):
    s = {}
    for key in ("swapout_ms", "swapin_ms", "swapout_stime_ms",
                "swapin_stime_ms", "sys_ms", "pswpout", "pswpin",
                "swpin_block_fallback", "swap_ra", "partial_reads", "buffered_reads",
                "in_place_reads", "copied_reads"):
        s[key] = mean([r.get(key, 0) for r in rounds])
    for key in MM_KEYS:
        s[key] = mean([r["mm_stat"][key] for r in rounds])
    for key in ("miss_free", "deferred_frees"):
        if all(key in r for r in rounds):
            s[key] = mean([r[key] for r in rounds])
    for order in ("sequential", "random", "free"):
        lat = [r["latency"][order] for r in rounds if "latency" in r]
        if lat:
            s["latency_" + order] = {
                k: max(x[k] for x in lat) if k == "max_us" else
                mean([x[k] for x in lat]) for k in LATENCY_KEYS}
    if all("beside_passes" in r for r in rounds):
        s["beside_passes"] = mean([r["beside_passes"] for r in rounds])
    if all("phone" in r for r in rounds):
        # mm_stat: compr_data_size, mem_used_total are its 2nd and 3rd;
        # bd_stat: pages stored, read and written (PAGE_SIZE each)
        pg = 4096
        for st in PHONE_STAGES:
            s["phone_%s_compr" % st] = mean(
                [r["phone"][st]["mm_stat"][1] for r in rounds])
            s["phone_%s_used" % st] = mean(
                [r["phone"][st]["mm_stat"][2] for r in rounds])
        s["phone_wb_bytes"] = mean(
            [r["phone"]["written_back"]["bd_stat"][2] * pg for r in rounds])
        s["phone_rd_bytes"] = mean(
            [(r["phone"]["swapped_in"]["bd_stat"][1] -
              r["phone"]["written_back"]["bd_stat"][1]) * pg for r in rounds])
    for key in ("swpout", "swpout_fallback"):
        sizes = {}
        for r in rounds:
            for k, v in r[key].items():
                sizes[k] = sizes.get(k, 0) + v
        s[key] = {k: v / len(rounds) for k, v in sizes.items() if v}
    return s


ROWS = (
    ("swap-out time (ms)", "swapout_ms", "%.0f"),
    ("swap-in time (ms)", "swapin_ms", "%.0f"),
    ("system time, swap-out (ms)", "swapout_stime_ms", "%.0f"),
    ("system time, swap-in (ms)", "swapin_stime_ms", "%.0f"),
    ("guest system time, all CPUs (ms)", "sys_ms", "%.0f"),
    ("orig_data_size (bytes)", "orig_data_size", "%.0f"),
    ("compr_data_size (bytes)", "compr_data_size", "%.0f"),
    ("mem_used_total (bytes)", "mem_used_total", "%.0f"),
    ("pages_compacted", "pages_compacted", "%.0f"),
    ("huge_pages", "huge_pages", "%.0f"),
    ("pswpout (pages)", "pswpout", "%.0f"),
    ("pswpin (pages)", "pswpin", "%.0f"),
    ("swpin_block_fallback (blocks; 6.12 results before swap_ra)",
     "swpin_block_fallback", "%.0f"),
    ("swap_ra (pages read ahead of their fault)", "swap_ra", "%.0f"),
    ("zram partial block reads", "partial_reads", "%.0f"),
    ("  of which from the stream buffer", "buffered_reads", "%.0f"),
    ("block decompressions, object read in place", "in_place_reads", "%.0f"),
    ("block decompressions, object copied first", "copied_reads", "%.0f"),
)


PHONE_ROWS = (
    ("phone: compr_data_size after recompression (bytes)",
     "phone_recompressed_compr"),
    ("phone: mem_used_total after recompression (bytes)",
     "phone_recompressed_used"),
    ("phone: written to the backing device (bytes)", "phone_wb_bytes"),
    ("phone: mem_used_total after writeback (bytes)",
     "phone_written_back_used"),
    ("phone: read from the backing device at swap-in (bytes)",
     "phone_rd_bytes"),
)


def ratios(kinds):
    """The (numerator, denominator) kinds of the ratio columns."""
    return [(k, "baseline") for k in kinds[1:] if kinds[0] == "baseline"]


def table(summary, kinds, ref, a, corpus_name, rounds):
    lines = []
    pairs = ratios(kinds)
    head = "| per round (mean of %d) |" % a.rounds + "".join(
        " %s |" % k for k in kinds) + "".join(" %s/%s |" % p for p in pairs)
    lines.append(head)
    lines.append("|---" * (len(kinds) + 1 + len(pairs)) + "|")

    def row(title, vals, fmt):
        line = "| %s |" % title + "".join(" " + (fmt % v) + " |" for v in vals)
        for n, d in pairs:
            vn, vd = vals[kinds.index(n)], vals[kinds.index(d)]
            line += (" %.3f |" % (vn / vd)) if vd else " - |"
        lines.append(line)

    for title, key, fmt in ROWS:
        row(title, [summary[k][key] for k in kinds], fmt)
    if all("beside_passes" in summary[k] for k in kinds):
        row("recompression passes beside the swap traffic",
            [summary[k]["beside_passes"] for k in kinds], "%.1f")
    if all("phone_wb_bytes" in summary[k] for k in kinds):
        for title, key in PHONE_ROWS:
            row(title, [summary[k][key] for k in kinds], "%.0f")
    orig = [summary[k]["orig_data_size"] for k in kinds]
    row("compr_data_size / orig (%)",
        [100.0 * summary[k]["compr_data_size"] / o if o else 0
         for k, o in zip(kinds, orig)], "%.2f")
    row("mem_used_total / compr_data_size (%)",
        [100.0 * summary[k]["mem_used_total"] / summary[k]["compr_data_size"]
         if summary[k]["compr_data_size"] else 0 for k in kinds], "%.2f")
    for order in ("sequential", "random", "free"):
        key = "latency_" + order
        if not all(key in summary[k] for k in kinds):
            continue
        what = ("slot free, MADV_DONTNEED of 16 KiB swapped out" if
                order == "free" else "swap-in fault latency, %s touch" % order)
        for stat, title in (("faults", "calls" if order == "free" else
                             "faults"), ("p50_us", "p50 (us)"),
                            ("p90_us", "p90 (us)"), ("p99_us", "p99 (us)"),
                            ("max_us", "max (us, of all rounds)"),
                            ("mean_us", "mean (us)")):
            row("%s: %s" % (what, title),
                [summary[k][key][stat] for k in kinds],
                "%.0f" if stat == "faults" else "%.1f")
    for key, title in (("miss_free", "slot frees missed, whole boot "
                        "(debug_stat miss_free)"),
                       ("deferred_frees", "slot frees deferred to the "
                        "block's lock holder, whole boot (debug_stat)")):
        if any(key in summary[k] for k in kinds):
            # "-" for a kernel without the counter (deferred_frees: the base)
            vals = [summary[k].get(key) for k in kinds]
            line = "| %s |" % title + "".join(
                " %s |" % ("-" if v is None else "%.0f" % v) for v in vals)
            for n, d in pairs:
                vn, vd = vals[kinds.index(n)], vals[kinds.index(d)]
                line += (" %.3f |" % (vn / vd)) if vn is not None and vd \
                    else " - |"
            lines.append(line)
    for key in ("swpout", "swpout_fallback"):
        sizes = sorted({s for k in kinds for s in summary[k][key]},
                       key=lambda s: int(s.split("-")[1][:-2]))
        for s in sizes:
            row("%s %s" % (s, key), [summary[k][key].get(s, 0) for k in kinds],
                "%.0f")
    out = ["", "corpus %s, %d MiB, %s, %s, %d round(s) per kernel "
           "(one boot each, alternating), %d vCPU(s)%s"
           % (corpus_name, a.size, a.algo,
              mthp_title(a), a.rounds, a.smp,
              "; times from the instruction clock (qemu -icount: 1 ms = "
              "1 M guest instructions)"
              if a.icount else "; times from the host clock"),
           ""] + lines
    if a.latency:
        out += ["", "fault latency: after each timed round, the memory paged "
                "out again and touched back page by page, in order and in a "
                "fixed random order; each touch that faulted timed alone "
                "(%s); percentiles over those faults, averaged over the "
                "rounds; slot free: the memory paged out once more and freed "
                "16 KiB at a time in the random order, each MADV_DONTNEED "
                "timed" % ("instruction clock: 1 us = 1000 guest "
                           "instructions" if a.icount else "host clock")]
    if a.recompress_beside:
        out += ["", "recompression beside: echo all > idle and type=idle "
                "priority=1 (zstd) > recompress, over and over, on the other "
                "vCPU from before swap-out to after the latency passes"]
    if a.compact:
        out += ["", "memory compacted between swap-out and swap-in of every "
                "round (/proc/sys/vm/compact_memory, untimed)"]
    out += ["", "user-space reference, same corpus bytes, %s "
            "(stored = min(compressed, block); same-filled blocks free as in zram):"
            % ("zstd level %d" % (a.level or 3) if a.algo == "zstd" else
               "lz4 acceleration %d" % (a.level or 1)),
            "| block | stored bytes | stored/orig | zram-like stored bytes |",
            "|---|---|---|---|"]
    for b in sorted({"4k", "16k", "%dk" % stored_block_kb(a)},
                    key=lambda b: int(b[:-1])):
        out.append("| %s | %d | %.2f%% | %d |"
                   % (b.upper().replace("K", " KiB"), ref["stored_" + b],
                      100.0 * ref["stored_" + b] / ref["bytes"],
                      ref["stored_zram_" + b]))
    out += ["", "zsmalloc pool right after the first swap-out (debugfs "
            "zsmalloc/zram0/classes, classes in use, by family):",
            "| kernel | family | classes | obj_allocated | obj_used | "
            "pages_used | freeable pages | zspages not full |",
            "|---|---|---|---|---|---|---|---|"]
    for k in kinds:
        first = [r for r in rounds if r["kernel"] == k and r["round"] == 1]
        fams = first[0].get("classes", {}) if first else {}
        for fam in ("base", "multi-page"):
            c = fams.get(fam)
            if c:
                out.append("| %s | %s | %d | %d | %d | %d | %d | %d |" % (
                    k, fam, c["classes"], c["obj_allocated"], c["obj_used"],
                    c["pages_used"], c["freeable"], c["zspages_not_full"]))
    if "baseline" in kinds and "patched" in kinds and \
            a.baseline_kernel and a.patched_kernel and \
            same_file(a.baseline_kernel, a.patched_kernel):
        out.append("\nnote: the baseline and patched kernels are the same build")
    return "\n".join(out)


def mthp_title(a):
    t = ("4 KiB folios only" if a.no_mthp else
         "%s KiB mTHP" % "+".join(str(s) for s in a.mthp_sizes))
    if a.block_size is not None:
        t += ", %d KiB blocks" % a.block_size
    if a.level is not None:
        t += ", %s level %d" % ("both" if a.level_both else "patched",
                                a.level)
    if a.fallback:
        t += ", every large swap-in allocation failing"
    if a.phone:
        t += ", phone profile (zstd recompression, idle writeback%s)" % (
            ", compressed" if a.phone == "compressed" else "")
    return t


def same_file(x, y):
    with open(x, "rb") as f, open(y, "rb") as g:
        return f.read() == g.read()


def plot(rounds, kinds, path, title):
    plt = pyplot()
    if not plt:
        return False
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, key, name in ((axes[0], "swapout_ms", "swap-out"),
                          (axes[1], "swapin_ms", "swap-in")):
        for k in kinds:
            rs = [r for r in rounds if r["kernel"] == k]
            ax.plot([r["round"] for r in rs], [r[key] for r in rs], "o-",
                    label=k)
        ax.set_xticks(sorted({r["round"] for r in rounds}))
        ax.set_title(name)
        ax.set_xlabel("round")
        ax.set_ylabel("ms (TCG guest)")
        ax.set_ylim(bottom=0)
        ax.legend()
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    return True


def main(argv):
    a = parse_args(argv)
    kinds = ["baseline", "patched"] if a.kernel == "both" else [a.kernel]
    if a.validate:
        if a.corpus and not (os.path.isfile(a.corpus) and
                             os.access(a.corpus, os.R_OK)):
            fail("corpus %s: not a readable file" % a.corpus)
        if a.corpus and not a.corpus.endswith(".zst") and not a.tile and \
                os.path.getsize(a.corpus) < a.size * MIB:
            fail("corpus %s has %d bytes, fewer than the %d MiB mapping "
                 "(use a smaller --size)" % (a.corpus, os.path.getsize(a.corpus), a.size))
        print(" ".join(k + ":" + (patched_variant(a) if k == "patched" else "guest")
                       for k in kinds))
        return 0
    kernels = {"baseline": a.baseline_kernel, "patched": a.patched_kernel}
    for k in kinds:
        if not kernels[k] or not os.path.isfile(kernels[k]):
            fail("no %s kernel image (harness/bin/bench builds it)" % k)
    # the tree the kernels were built from (harness/bin/bench built them
    # just before), not whatever is checked out when the rounds end
    commit = guest.git_commit()
    size_bytes = a.size * MIB
    corpus_name, img = prepare_corpus(a.corpus, size_bytes, a.tile)
    ref = reference(img, a.algo, size_bytes, a.level)
    rounds = []
    for rnd in range(1, a.rounds + 1):
        for k in kinds:
            guest.log("round %d/%d on %s" % (rnd, a.rounds, k))
            r = run_round(a, k, kernels[k], img, rnd)
            guest.log("  swap-out %.0f ms, swap-in %.0f ms, compr %d, used %d"
                      % (r["swapout_ms"], r["swapin_ms"],
                         r["mm_stat"]["compr_data_size"],
                         r["mm_stat"]["mem_used_total"]))
            rounds.append(r)
    summary = {k: summarize([r for r in rounds if r["kernel"] == k])
               for k in kinds}
    text = table(summary, kinds, ref, a, corpus_name, rounds)
    if a.profile:
        counts = {r["kernel"]: r.pop("profile") for r in rounds
                  if "profile" in r}
        text += ("\n\nguest instructions by function, round 1 of each kernel, "
                 "%s (M instructions):\n" % ("its swap-in" if a.profile_swapin
                                            else "the whole boot")
                 + insnprof.table(counts, kinds))
    text = "command: %s\nbase: %s, commit %s\n%s" % (
        os.environ.get("ZMP_BENCH_CMD", ""), BASE, commit, text)
    print(text)
    os.makedirs(a.out, exist_ok=True)
    stem = "swap-%s-%s-%dM%s%s%s" % (corpus_name, a.algo, a.size,
                                    ("-4k" if a.no_mthp else
                                     "-fallback" if a.fallback else "") +
                                    ("" if a.mthp_sizes in ([], [16]) else
                                     "-m" + "+".join("%dk" % s for s in
                                                     a.mthp_sizes)) +
                                    ("" if a.block_size is None else
                                     "-b%dk" % a.block_size) +
                                    ("" if a.level is None else
                                     "-l%d%s" % (a.level, "both" if
                                                 a.level_both else "")) +
                                    ("-compact" if a.compact else "") +
                                    ("" if not a.phone else
                                     "-phone-" + a.phone) +
                                    ("" if a.writers == 1 else
                                     "-w%d" % a.writers) +
                                    ("-beside" if a.recompress_beside
                                     else "") +
                                    ("-latency" if a.latency else ""),
                                    "" if a.smp == 2 else "-smp%d" % a.smp,
                                    "" if a.icount else "-hosttime")
    jpath = os.path.join(a.out, stem + ".json")
    with open(jpath, "w") as f:
        json.dump({"corpus": corpus_name, "algo": a.algo, "size_mib": a.size,
                   "smp": a.smp, "icount": a.icount,
                   "mthp": not a.no_mthp, "fallback": a.fallback,
                   "mthp_kb": a.mthp, "mthp_sizes_kb": a.mthp_sizes,
                   "block_kb": block_kb(a), "level": a.level,
                   "level_both": a.level_both,
                   "stored_block_kb": stored_block_kb(a),
                   "latency": a.latency, "compact": a.compact,
                   "writers": a.writers, "phone": a.phone,
                   "recompress_beside": a.recompress_beside,
                   "rounds_per_kernel": a.rounds,
                   "date": time.strftime("%Y-%m-%d %H:%M:%S"),
                   "base": BASE, "commit": commit,
                   "command": os.environ.get("ZMP_BENCH_CMD", ""),
                   "reference": ref, "summary": summary, "rounds": rounds,
                   "table": text}, f, indent=1)
    ppath = os.path.join(a.out, stem + ".png")
    print("\nJSON: %s" % jpath)
    if plot(rounds, kinds, ppath, "%s %s %d MiB %s" % (
            corpus_name, a.algo, a.size, mthp_title(a))):
        print("plot: %s" % ppath)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
