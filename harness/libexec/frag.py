# SPDX-License-Identifier: GPL-2.0
"""Fragmentation experiment, host side (called by harness/studies/frag).

The shape of the merged-size-class experiment (fill, delete in steps:
orig / compr / used / overhead per step) and of the compaction one (pages
freed by compaction when nearly empty), on a zram block device written
for the baseline and the patched kernel in turn.  With 4 KiB folios both
kernels take zram's page path and base classes only, and must agree to the
byte (the command fails if they do not); with 16 KiB folios the patched
kernel stores multi-page blocks.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "lib"))
import corpus  # noqa: E402
import guest  # noqa: E402

PREFIX = "ZMP_FRAG "


def run(a, kind, kernel, img):
    initrd = os.path.join(guest.WORK, "initramfs-frag.cpio.gz")
    guest.make_initramfs(initrd, {"MODE": "frag", "ALGO": a.algo,
                                  "SIZE": a.size, "STEPS": a.steps, "UNIT": a.unit,
                                  "DISKSIZE": "%dM" % (2 * a.size)}, a.src)
    text, logfile = corpus.boot_round("frag-" + kind, kernel, initrd,
                                      a.timeout, drives=[img], mem="1G")
    if "ZMP_EXIT 0" not in text:
        corpus.fail("%s: the guest run failed (console: %s)" % (kind, logfile))
    return [json.loads(l[len(PREFIX):]) for l in text.splitlines()
            if l.startswith(PREFIX)]


def main(argv):
    ap = argparse.ArgumentParser(prog="harness/studies/frag", description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", help="corpus file, raw or .zst (default: py.anon + node.anon)")
    ap.add_argument("--algo", choices=("zstd", "lz4"), default="zstd")
    ap.add_argument("--size", type=int, default=64, metavar="MiB")
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--unit", type=int, choices=(4, 16), default=4,
                    help="KiB written from one folio and discarded at once; "
                    "16: 16 KiB mTHP, multi-page blocks on the patched kernel")
    ap.add_argument("--timeout", type=int, default=900)
    corpus.add_run_host_py_args(ap)
    a = ap.parse_args(argv)
    if not 1 <= a.size <= 2048 or not 1 <= a.steps <= 100:
        ap.error("--size must be 1..2048 MiB and --steps 1..100")
    if a.validate:
        print("baseline patched")
        return 0
    name, img = corpus.prepare_corpus(a.corpus, a.size << 20)
    res = {k: run(a, k, getattr(a, k + "_kernel"), img)
           for k in ("baseline", "patched")}
    print("command: %s" % os.environ.get("ZMP_BENCH_CMD", ""))
    print("\ncorpus %s, %d MiB written to zram (%s) in %d KiB folios, "
          "discarded %d KiB at a time in %d random steps, then compacted\n"
          % (name, a.size, a.algo, a.unit, a.unit, a.steps))
    keys = ("live_units", "orig_data_size", "compr_data_size",
            "mem_used_total", "overhead_pct", "pages_compacted", "objs_moved")
    print("| kernel | phase | step | " + " | ".join(keys) + " |")
    print("|---" * (3 + len(keys)) + "|")
    for k in ("baseline", "patched"):
        for r in res[k]:
            print("| %s | %s | %d | " % (k, r["phase"], r["step"]) +
                  " | ".join(("%.2f" if key == "overhead_pct" else "%d") % r[key]
                             for key in keys) + " |")
    for k in ("baseline", "patched"):
        last = res[k][-1]
        if last["pages_compacted"] and last["objs_moved"]:
            print("%s: %.1f objects moved per page compaction freed"
                  % (k, last["objs_moved"] / last["pages_compacted"]))
    # the baseline has no objs_moved counter: compare the rest
    strip = [{x: v for x, v in r.items() if x != "objs_moved"}
             for r in res["baseline"] + res["patched"]]
    same = strip[:len(res["baseline"])] == strip[len(res["baseline"]):]
    print("\nbaseline and patched identical at every step: %s" % ("yes" if same else "no"))
    # 4 KiB folios take zram's page path on both kernels: they must agree
    return 0 if same or a.unit != 4 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
