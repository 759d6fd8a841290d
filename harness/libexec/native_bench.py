#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise harness/bin/bench-native: per algorithm, folio size and
operation, each kernel's median over its rounds, the rounds' spread, and
patched over baseline as the geometric mean of the rounds' ratios (rounds
paired in the order they ran) with a 95% confidence interval (Student's t
over the logarithms). Times are the host's wall clock (UML runs natively).
Fails when a round is missing, reports an error or a mismatched byte."""

import argparse
import glob
import json
import math
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "lib"))
import guest  # noqa: E402

# two-sided 95% Student's t, by degrees of freedom
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447,
       7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131,
       20: 2.086, 30: 2.042}

# (key in the result line, label, unit, scale): totals of a pass, then
# per-bio latency percentiles
METRICS = [
    ("write_ns", "write, whole folios", "ms", 1e-6),
    ("read_ns", "read, whole folios", "ms", 1e-6),
    ("page_read_ns", "read, 4 KiB in order", "ms", 1e-6),
    ("strided_read_ns", "read, 4 KiB strided", "ms", 1e-6),
    ("write_p50_ns", "write p50 a folio", "us", 1e-3),
    ("write_p99_ns", "write p99 a folio", "us", 1e-3),
    ("read_p50_ns", "read p50 a folio", "us", 1e-3),
    ("read_p99_ns", "read p99 a folio", "us", 1e-3),
    ("page_p50_ns", "4 KiB read p50, in order", "us", 1e-3),
    ("page_p99_ns", "4 KiB read p99, in order", "us", 1e-3),
    ("strided_p50_ns", "4 KiB read p50, strided", "us", 1e-3),
    ("strided_p99_ns", "4 KiB read p99, strided", "us", 1e-3),
    ("classified_p50_ns", "read p50 a folio, debug_stat read around it",
     "us", 1e-3),
    ("compr", "compr_data_size", "bytes", 1),
    ("used", "mem_used_total", "bytes", 1),
]

# the last whole pass's folios, by how the patched kernel read each one's
# block (zram_bench.c's enum read_kind), compared over the same folios on
# both kernels: (kind, JSON metric, label)
READ_KINDS = [
    (1, "in_place_p50_ns",
     "read p50 a folio, objects the patched kernel read in place"),
    (2, "copied_p50_ns",
     "read p50 a folio, objects the patched kernel copied"),
    (0, "other_p50_ns",
     "read p50 a folio, objects within a page or same-filled"),
]
# fewer folios of a kind in a round than this, and the kind gets no row
READ_KIND_MIN = 20


def t95(df):
    keys = sorted(k for k in T95 if k <= df)
    return T95[keys[-1]]


# "version:", "1", "0", miss_free and 7.2's block line's four counters
DEBUG_STAT_72_TOKENS = 8


def load(work, kind, rounds):
    """{(algo, unit_kb): [result of round 1, ...]} for one kernel"""
    res, bad = {}, []
    for r in range(1, rounds + 1):
        path = os.path.join(work, "%s-%d.results" % (kind, r))
        done = None
        for line in open(path):
            if line.startswith("ZMP_UB_DONE"):
                done = int(line.split()[1])
                continue
            d = json.loads(line[len("ZMP_UB "):])
            mm = d["mm_stat"].split()
            d["compr"], d["used"] = int(mm[1]), int(mm[2])
            # debug_stat: "version: 1", writestall (0 on 7.2) and
            # miss_free, then 7.2's block line: buffered_reads,
            # in_place_reads, copied_reads, deferred_frees (6.12's block
            # line has only the first and the last)
            dbg = d.get("debug_stat", "").split()
            if len(dbg) == DEBUG_STAT_72_TOKENS:
                d["in_place"], d["copied"] = int(dbg[5]), int(dbg[6])
            if d["mismatches"] or d["error"]:
                bad.append("%s round %d %s %d KiB: %d mismatches, error %d" % (
                    kind, r, d["algo"], d["unit_kb"], d["mismatches"],
                    d["error"]))
            res.setdefault((d["algo"], d["unit_kb"]), []).append(d)
        if done != 0:
            bad.append("%s round %d: the benchmark ended with %s" % (
                kind, r, done))
    return res, bad


def read_times(work, kind, r, key):
    """[(ns, read kind)] a folio of the last whole pass, or None"""
    path = os.path.join(work, "%s-%d-reads-%s-%d.txt" % (kind, r, *key))
    if not os.path.exists(path):
        return None
    return [tuple(int(x) for x in line.split()) for line in open(path)]


def kind_series(work, rounds, key):
    """(metric, label, unit, scale, baseline medians, patched medians) of
    each read kind: a round's median over the folios the patched kernel
    read that way, on each kernel, in rounds paired as they ran"""
    rows = []
    pairs = [(read_times(work, "baseline", r, key),
              read_times(work, "patched", r, key))
             for r in range(1, rounds + 1)]
    if any(b is None or p is None or len(b) != len(p) for b, p in pairs):
        return rows
    for kind, metric, label in READ_KINDS:
        bs, ps, ns = [], [], []
        for b, p in pairs:
            idx = [i for i, (_, k) in enumerate(p) if k == kind]
            if len(idx) < READ_KIND_MIN:
                break
            bs.append(statistics.median(b[i][0] for i in idx))
            ps.append(statistics.median(p[i][0] for i in idx))
            ns.append(len(idx))
        else:
            rows.append((metric, "%s (%d of %d folios, a round's median)" % (
                label, statistics.median_low(ns), len(pairs[0][1])),
                "us", 1e-3, bs, ps))
    return rows


def ratio_ci(bs, ps):
    """geometric mean of ps[i] / bs[i] and its 95% interval"""
    logs = [math.log(p / b) for b, p in zip(bs, ps) if b > 0 and p > 0]
    if len(logs) < 2:
        return None
    m = statistics.mean(logs)
    h = t95(len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(m), math.exp(m - h), math.exp(m + h)


def spread(xs):
    """(max - min) / median, in percent"""
    med = statistics.median(xs)
    return 100.0 * (max(xs) - min(xs)) / med if med else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--rounds", type=int, required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--size", type=int, required=True)
    ap.add_argument("--order", type=int, required=True)
    ap.add_argument("--command", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--md", required=True)
    a = ap.parse_args()

    base, bad = load(a.work, "baseline", a.rounds)
    patched, bad2 = load(a.work, "patched", a.rounds)
    bad += bad2
    rows = []
    for key in sorted(set(base) | set(patched),
                      key=lambda k: (k[0] != "zstd", k[1])):
        b, p = base.get(key, []), patched.get(key, [])
        if len(b) != a.rounds or len(p) != a.rounds:
            bad.append("%s %d KiB: %d baseline and %d patched rounds of %d"
                       % (key[0], key[1], len(b), len(p), a.rounds))
            continue
        series = [(m, label, unit, scale, [d[m] for d in b],
                   [d[m] for d in p]) for m, label, unit, scale in METRICS]
        # a device storing pages reads no block; 6.12's debug_stat does
        # not say how a block was read
        if p[0]["block_kb"] > 4 and all("in_place" in d for d in p):
            series += kind_series(a.work, a.rounds, key)
        for m, label, unit, scale, bs, ps in series:
            ci = ratio_ci(bs, ps)
            rows.append({
                "algo": key[0], "unit_kb": key[1],
                "block_kb": p[0]["block_kb"], "metric": m, "label": label,
                "unit": unit,
                "baseline": [x * scale for x in bs],
                "patched": [x * scale for x in ps],
                "baseline_median": statistics.median(bs) * scale,
                "patched_median": statistics.median(ps) * scale,
                "baseline_spread_pct": spread(bs),
                "patched_spread_pct": spread(ps),
                "ratio": ci[0] if ci else None,
                "ratio_lo": ci[1] if ci else None,
                "ratio_hi": ci[2] if ci else None,
            })

    commit = guest.git_commit()
    date = time.strftime("%Y-%m-%d %H:%M:%S")
    base_name = os.environ.get("ZMP_BASE_LABEL", "")
    head = ("command: %s\nbase: %s, commit %s, %s\nclock: the host's wall "
            "clock (UML, native); %d rounds a kernel, interleaved; %d MiB of "
            "%s, one bio per folio\n" % (
                a.command, base_name, commit, date, a.rounds, a.size,
                os.path.basename(a.corpus)))
    lines = [head, "| algorithm | folio | patched block | operation | "
             "baseline median | patched median | spread b, p | "
             "patched/baseline [95% CI] |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        fmt = "%.0f" if r["unit"] == "bytes" else "%.1f"
        ratio = ("%.3f [%.3f, %.3f]" % (r["ratio"], r["ratio_lo"],
                                        r["ratio_hi"])
                 if r["ratio"] is not None else "-")
        lines.append("| %s | %d KiB | %d KiB | %s | %s %s | %s %s | "
                     "%.1f%%, %.1f%% | %s |" % (
                         r["algo"], r["unit_kb"], r["block_kb"], r["label"],
                         fmt % r["baseline_median"], r["unit"],
                         fmt % r["patched_median"], r["unit"],
                         r["baseline_spread_pct"], r["patched_spread_pct"],
                         ratio))
    reads, block_reads = [], {}
    for key in sorted(patched, key=lambda k: (k[0] != "zstd", k[1])):
        ds = patched[key]
        # a device storing pages decompresses no object over pages
        if ds and ds[0]["block_kb"] > 4 and all("in_place" in d for d in ds):
            n = (statistics.median_low([d["in_place"] for d in ds]),
                 statistics.median_low([d["copied"] for d in ds]))
            block_reads["%s %d KiB" % key] = {"in_place": n[0],
                                              "copied": n[1]}
            reads.append("%s %d KiB: %d in place, %d copied"
                         % (key[0], key[1], n[0], n[1]))
    if reads:
        lines += ["", "patched, block decompressions of objects over several "
                  "pages, a round's median (debug_stat): " + "; ".join(reads)]
    text = "\n".join(lines) + "\n"
    print(text)
    for b in bad:
        print("error: " + b)
    with open(a.md, "w") as f:
        f.write(text)
    with open(a.json, "w") as f:
        json.dump({"command": a.command, "base": base_name,
                   "commit": commit, "date": date,
                   "clock": "wall (UML)", "rounds": a.rounds,
                   "size_mib": a.size, "corpus": os.path.basename(a.corpus),
                   "order": a.order, "rows": rows,
                   "block_reads": block_reads, "errors": bad}, f,
                  indent=1)
    print("JSON: %s\ntable: %s" % (a.json, a.md))
    print("%d passed, %d failed" % (0 if bad else 1, 1 if bad else 0))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
