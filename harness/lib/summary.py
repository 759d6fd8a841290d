# SPDX-License-Identifier: GPL-2.0
"""Summarise the swap benchmark's JSON files: one row a run, patched over
baseline.  usage: summary.py DIR"""

import glob
import json
import os
import re
import sys


def main(argv):
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        print("usage: harness/bin/bench-summary DIR", file=sys.stderr)
        return 2
    print("| command (harness/bin/bench ...) | date | CPUs online | clock "
          "| swap-out "
          "| swap-in | system time | compr_data_size "
          "| patched vs user-space reference | used/compr baseline "
          "| used/compr patched |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for f in sorted(glob.glob(os.path.join(argv[0], "*.json"))):
        d = json.load(open(f))
        s = d["summary"]
        if "baseline" not in s or "patched" not in s:
            continue
        b, p = s["baseline"], s["patched"]
        # without mTHP zram compresses page by page: its limit is the 4 KiB one
        ref = d["reference"]["stored_zram_16k" if d["mthp"] else "stored_zram_4k"]
        # runs before the JSON had "smp" booted a guest that had only its
        # boot CPU online (no ACPI), whatever qemu's -smp said; runs before
        # it had "icount" timed with the host's clock
        print("| %s | %s | %d | %s | %.3f | %.3f | %.3f | %.3f | %+.3f%% | %.1f%% "
              "| %.1f%% |" % (
            re.sub(r"--out \S+", "", d["command"].replace(
                "harness/bin/bench", "")).strip() or "(defaults)",
            d["date"][:16], d.get("smp", 1),
            "instructions" if d.get("icount") else "host",
            p["swapout_ms"] / b["swapout_ms"], p["swapin_ms"] / b["swapin_ms"],
            p["sys_ms"] / b["sys_ms"],
            p["compr_data_size"] / b["compr_data_size"],
            100.0 * (p["compr_data_size"] - ref) / ref,
            100.0 * b["mem_used_total"] / b["compr_data_size"],
            100.0 * p["mem_used_total"] / p["compr_data_size"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
