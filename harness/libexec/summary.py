# SPDX-License-Identifier: GPL-2.0
"""Summarise the swap benchmark's JSON files: one row a run, patched over
baseline.  usage: summary.py DIR | summary.py --readme README RESULTS_DIR
(--readme: README's headline table, between its headline markers, from
the files RESULTS_DIR/headline.list names)"""

import glob
import json
import os
import re
import sys


BEGIN, END = "<!-- headline:begin -->", "<!-- headline:end -->"
LBEGIN, LEND = "<!-- latency:begin -->", "<!-- latency:end -->"
CBEGIN, CEND = "<!-- blocks:begin -->", "<!-- blocks:end -->"


def run_name(d):
    """What a run measured, in a few words."""
    what = "%s %s %d MiB" % (d["corpus"].replace(".anon", ""), d["algo"],
                             d["size_mib"])
    if not d["mthp"]:
        what += ", 4 KiB folios only"
    elif d["fallback"]:
        what += ", no 16 KiB folio at swap-in"
    if d.get("compact"):
        what += ", memory compacted before swap-in"
    if d.get("level") is not None:
        what += ", %s level %d" % ("both devices at" if d.get("level_both")
                                   else "patched device at", d["level"])
    return what


def headline_runs(results):
    """The JSON of every run headline.list names, in its order."""
    with open(os.path.join(results, "headline.list")) as f:
        names = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    runs = []
    for name in names:
        with open(os.path.join(results, name)) as f:
            runs.append(json.load(f))
    return runs


def latency(results):
    """The README table of swap-in fault latency, from the headline runs
    that measured it (bench --latency): baseline -> patched, us of the
    benchmark's clock."""
    rows = ["| run | touch order | faults | p50 | p90 | p99 | max | commit |",
            "|---|---|---|---|---|---|---|---|"]
    for d in headline_runs(results):
        b, p = d["summary"]["baseline"], d["summary"]["patched"]
        for order in ("sequential", "random"):
            key = "latency_" + order
            if key not in b or key not in p:
                continue
            rows.append("| %s | %s | %.0f, %.0f | %s | %s | %s | %s | %s |" % (
                run_name(d), order, b[key]["faults"], p[key]["faults"],
                *("%.1f -> %.1f" % (b[key][k], p[key][k])
                  for k in ("p50_us", "p90_us", "p99_us", "max_us")),
                d.get("commit", "not stamped")))
    return "\n".join(rows)


def headline(results):
    """The README table of the runs headline.list names."""
    rows = ["| run | base | swap-out | swap-in | compr_data_size "
            "| compr/ref | mem_used_total | used/compr base, patched "
            "| commit, date | command |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for d in headline_runs(results):
        b, p = d["summary"]["baseline"], d["summary"]["patched"]
        ref = d["reference"]["stored_zram_%dk" % d.get("stored_block_kb", 16 if d["mthp"] else 4)]
        rows.append("| %s | %s | %.3f | %.3f | %.3f | %+.3f%% | %.3f "
                    "| %.1f%%, %.1f%% | %s, %s | `%s` |" % (
            run_name(d), d.get("base", "6.12"),
            p["swapout_ms"] / b["swapout_ms"], p["swapin_ms"] / b["swapin_ms"],
            p["compr_data_size"] / b["compr_data_size"],
            100.0 * (p["compr_data_size"] - ref) / ref,
            p["mem_used_total"] / b["mem_used_total"],
            100.0 * b["mem_used_total"] / b["compr_data_size"],
            100.0 * p["mem_used_total"] / p["compr_data_size"],
            d.get("commit", "not stamped"), d["date"][:10],
            re.sub(r" --out \S+", "", d["command"]) or "harness/bin/bench"))
    return "\n".join(rows)


def block_runs(results):
    """The runs with a block size set (bench --block-size), by base,
    algorithm, mTHP size, fallback or not, block size."""
    runs = []
    for f in glob.glob(os.path.join(results, "*", "*-b*k*.json")):
        with open(f) as fh:
            d = json.load(fh)
        if "baseline" in d["summary"] and "patched" in d["summary"] and \
                "--block-size" in d["command"]:
            runs.append(d)
    runs.sort(key=lambda d: (d.get("base", ""), d["algo"], d["mthp_kb"],
                             d["fallback"], d["block_kb"]))
    return runs


def curve(results):
    """The README table of block sizes: one row a --block-size run."""
    rows = ["| base, corpus | algorithm | mTHP | block | swap-out | swap-in "
            "| compr_data_size | compr/ref | mem_used_total | used/compr "
            "base, patched | fault p50 sequential, random (us) | command |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for d in block_runs(results):
        b, p = d["summary"]["baseline"], d["summary"]["patched"]
        ref = d["reference"]["stored_zram_%dk" % d["stored_block_kb"]]
        lat = "-"
        if all("latency_sequential" in x and "latency_random" in x
               for x in (b, p)):
            lat = "%.1f -> %.1f, %.1f -> %.1f" % (
                b["latency_sequential"]["p50_us"],
                p["latency_sequential"]["p50_us"],
                b["latency_random"]["p50_us"], p["latency_random"]["p50_us"])
        rows.append("| %s, %s %d MiB | %s | %d KiB%s | %d KiB | %.3f | %.3f "
                    "| %.3f | %+.3f%% | %.3f | %.1f%%, %.1f%% | %s | `%s` |" % (
            d.get("base", "6.12"), d["corpus"].replace(".anon", ""),
            d["size_mib"], d["algo"], d["mthp_kb"],
            ", none at swap-in" if d["fallback"] else "", d["block_kb"],
            p["swapout_ms"] / b["swapout_ms"], p["swapin_ms"] / b["swapin_ms"],
            p["compr_data_size"] / b["compr_data_size"],
            100.0 * (p["compr_data_size"] - ref) / ref,
            p["mem_used_total"] / b["mem_used_total"],
            100.0 * b["mem_used_total"] / b["compr_data_size"],
            100.0 * p["mem_used_total"] / p["compr_data_size"], lat,
            re.sub(r" --out \S+", "", d["command"])))
    return "\n".join(rows)


def write_readme(readme, results):
    with open(readme) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        print("%s: no headline markers" % readme, file=sys.stderr)
        return 1
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    text = head + BEGIN + "\n" + headline(results) + "\n" + END + tail
    if CBEGIN in text and CEND in text:
        head, rest = text.split(CBEGIN, 1)
        tail = rest.split(CEND, 1)[1]
        text = head + CBEGIN + "\n" + curve(results) + "\n" + CEND + tail
    if LBEGIN in text and LEND in text:
        head, rest = text.split(LBEGIN, 1)
        tail = rest.split(LEND, 1)[1]
        text = head + LBEGIN + "\n" + latency(results) + "\n" + LEND + tail
    with open(readme, "w") as f:
        f.write(text)
    return 0


def main(argv):
    if len(argv) == 3 and argv[0] == "--readme":
        return write_readme(argv[1], argv[2])
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
        ref = d["reference"]["stored_zram_%dk" % d.get("stored_block_kb", 16 if d["mthp"] else 4)]
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
