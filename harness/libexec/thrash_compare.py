# SPDX-License-Identifier: GPL-2.0
"""Pool the rounds of several thrash result files (harness/bin/thrash-compare).

A thrash round is one boot, and rounds vary widely (two compilers share
one vCPU, so a few instructions more or less move the build's peaks):
three rounds a kernel seldom tell a difference of 10-20% in swap-in.
This pools the rounds of result files that ran the same build the same
way, the unpatched rounds of all FILES and the patched rounds of the
files given to --patched (default: FILES), and prints for each counter
the medians, their ratio and the two-sided p of a rank-sum
(Wilcoxon-Mann-Whitney) permutation test, exact when the rounds are few.
"""

import argparse
import itertools
import json
import os
import random
import statistics
import sys

# args that may differ between pooled files: how many rounds, where to
ROUND_ARGS = ("rounds", "out", "timeout", "profile", "validate")
# and, for the unpatched rounds, the patched device's block size
PATCHED_ARGS = ("block_size",)
KEYS = ("sys_ms", "cg_sys_ms", "elapsed_ms", "pswpin", "pswpout",
        "workingset_refault_anon", "workingset_activate_anon",
        "pgsteal_anon", "pgmajfault")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def value(r, key):
    """A round's figure, or None where its kernel did not count it."""
    if key in r:
        return r[key]
    if key not in r["vm_after"] or key not in r["vm_before"]:
        return None
    return r["vm_after"][key] - r["vm_before"][key]


def same_setup(docs, skip=()):
    def setup(d):
        return (d["base"], {k: v for k, v in d["args"].items()
                            if k not in ROUND_ARGS + skip})
    first = setup(docs[0][1])
    for path, d in docs[1:]:
        if setup(d) != first:
            sys.exit(f"thrash-compare: {path} ran another setup than "
                     f"{docs[0][0]}: {setup(d)} != {first}")


def ranks(values):
    """Ranks from 1, ties given their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def rank_sum_p(a, b, trials=20000):
    """Two-sided p of the Wilcoxon-Mann-Whitney rank sum of @b."""
    r = ranks(a + b)
    n, total = len(b), len(r)
    mean = n * (total + 1) / 2
    seen = abs(sum(r[len(a):]) - mean)

    def extreme(idx):
        return abs(sum(r[i] for i in idx) - mean) >= seen - 1e-9

    count = 1
    for k in range(n):
        count = count * (total - k) // (k + 1)
    if count <= trials:
        hits = sum(extreme(c) for c in
                   itertools.combinations(range(total), n))
        return hits / count, "exact"
    rng = random.Random(1)
    hits = sum(extreme(rng.sample(range(total), n)) for _ in range(trials))
    return (hits + 1) / (trials + 1), f"{trials} permutations"


def main(argv):
    ap = argparse.ArgumentParser(prog="harness/bin/thrash-compare",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", help="result files whose unpatched "
                    "rounds are pooled")
    ap.add_argument("--patched", nargs="+", metavar="FILE",
                    help="result files whose patched rounds are pooled "
                    "(default: FILES); after FILES, as it takes every "
                    "file that follows it")
    a = ap.parse_args(argv)
    patched_files = a.patched or a.files
    for files in (a.files, patched_files):
        if len({os.path.realpath(f) for f in files}) != len(files):
            sys.exit("thrash-compare: a file is named twice")
    docs = [(p, load(p)) for p in dict.fromkeys(a.files + patched_files)]
    same_setup(docs, PATCHED_ARGS)
    by_path = dict(docs)
    same_setup([(p, by_path[p]) for p in patched_files])
    base = [r for p in a.files for r in by_path[p]["rounds"]
            if r["kernel"] == "baseline"]
    pat = [r for p in patched_files for r in by_path[p]["rounds"]
           if r["kernel"] == "patched"]
    if len(base) < 2 or len(pat) < 2:
        sys.exit("thrash-compare: need two rounds of each kernel")
    for name, paths in (("unpatched", a.files), ("patched", patched_files)):
        print(f"{name}: " + ", ".join(
            f"{p} ({by_path[p]['commit']})" for p in paths))
    print()
    print(f"| counter | unpatched median (n={len(base)}) | patched median "
          f"(n={len(pat)}) | patched/unpatched | p (rank sum, two-sided) |")
    print("|---|---|---|---|---|")
    for key in KEYS:
        x = [value(r, key) for r in base]
        y = [value(r, key) for r in pat]
        if None in x or None in y:
            print(f"| {key} | - | - | - | not counted in every round |")
            continue
        mx, my = statistics.median(x), statistics.median(y)
        p, how = rank_sum_p(x, y)
        ratio = f"{my / mx:.3f}" if mx else "-"
        print(f"| {key} | {mx:g} | {my:g} | {ratio} | {p:.3f} ({how}) |")
    print()
    for key in ("pswpin", "sys_ms"):
        for name, rounds in (("unpatched", base), ("patched", pat)):
            vals = [value(r, key) for r in rounds]
            if None not in vals:
                print(f"{key} rounds, {name}: {sorted(vals)}")


if __name__ == "__main__":
    main(sys.argv[1:])
