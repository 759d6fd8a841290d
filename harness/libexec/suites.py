#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the outside suites' cases on the unpatched and patched kernel.

usage: suites.py --base NAME --known FILE BASELINE_LOG PATCHED_LOG TEST...

Each log is a guest console (harness/libexec/guest_tests.py --hostroot)
whose tests (harness/guest/ext) print nested results: KTAP lines of their
own ("ok 3 desc", four spaces in), and, for run_vmtests.sh and other
kselftest runners, a program's own TAP under "# " after its "# running
PROGRAM" title. Every case is keyed by test, program and description
(numbers dropped; a repeated key gets "#2", "#3"). For each test prints
one KTAP result: it fails when a case fails on the patched kernel but not
on the unpatched one, runs on the unpatched kernel but not on the patched
one (missing or skipped), or fails on both without a line for it in
FILE ("BASE REGEX -- reason", REGEX matched against "TEST: CASE"; a reason
starting "flaky:" also covers a failure on one kernel only). Besides the
printed cases, each test and each program under run_program() (its "#
NAME: exit status N" line) is a case "ended" that fails when it was
killed or timed out (status 124 or over 128) or never ended; a test with
no other case on the patched kernel fails (it ran nothing). Ends with
"N passed, N failed"; exits non-zero on any failure.
"""

import argparse
import re
import sys

TOP_RE = re.compile(r"^(not ok|ok) \d+ (\S+)")
TOP_STATUS_RE = re.compile(r"^not ok \d+ \S+ # exit status (\d+)")
CASE_RE = re.compile(r"^    (not ok|ok) \d+ (.*?)\s*$")
INNER_RE = re.compile(r"^    # (not ok|ok) \d+ (.*?)\s*$")
RUNNING_RE = re.compile(r"^    # running (.*?)\s*$")
PROGRAM_END_RE = re.compile(r"^    # (.+): exit status (\d+)\s*$")
# a directive after the description ("desc # SKIP why") or, as kselftest's
# ksft_test_result_skip() prints it, before ("# SKIP desc")
DIRECTIVE_RE = re.compile(r"(?:^|\s+)#\s*(SKIP|XFAIL|exit=\S+|TODO)\b\s*(.*)$", re.I)


# descriptions that carry a measurement, which differs from run to run:
# the case is keyed by the part before it
MEASURED_RE = re.compile(r"^(transact_test Extra pages) \d+ .*$")


def status(word, desc):
    m = DIRECTIVE_RE.search(desc)
    name = desc[:m.start()] if m else desc
    name = MEASURED_RE.sub(r"\1", name)
    if m and not name:
        name = m.group(2)
    if m and m.group(1).upper() in ("SKIP", "XFAIL"):
        return name, "skip"
    return name, "pass" if word == "ok" else "fail"


def ended(rc):
    """A program's or test's exit status: killed or timed out, or not."""
    return "fail" if rc == 124 or rc > 128 else "pass"


def cases(logfile, tests):
    """{test: {case: status}} and {test: top-level status} of a console,
    read from the guest's ZMP_BOOTED line on."""
    with open(logfile, errors="replace") as f:
        lines = f.read().replace("\r", "").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("ZMP_BOOTED"):
            lines = lines[i:]
            break
    out, top = {t: {} for t in tests}, {}
    block, program = [], None
    for line in lines:
        m = TOP_RE.match(line)
        if m and m.group(2) in out:
            t = m.group(2)
            top[t] = "pass" if m.group(1) == "ok" else "fail"
            m = TOP_STATUS_RE.match(line)
            block.append(("ended", ended(int(m.group(1))) if m else "pass"))
            seen = {}
            for key, st in block:
                seen[key] = seen.get(key, 0) + 1
                if seen[key] > 1:
                    key = "%s#%d" % (key, seen[key])
                out[t][key] = st
            block, program = [], None
            continue
        m = RUNNING_RE.match(line)
        if m:
            program = m.group(1)
            continue
        m = PROGRAM_END_RE.match(line)
        if m and program == m.group(1):
            block.append(("%s: ended" % program, ended(int(m.group(2)))))
            program = None
            continue
        m = INNER_RE.match(line)
        if m and program:
            name, st = status(m.group(1), m.group(2))
            block.append(("%s: %s" % (program, name), st))
            continue
        m = CASE_RE.match(line)
        if m:
            name, st = status(m.group(1), m.group(2))
            block.append((name, st))
            program = None
    return out, top


def known_failures(path, base):
    """The lines of @path for @base: [(regex, reason)]."""
    known = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            b, _, rest = line.partition(" ")
            regex, sep, reason = rest.partition(" -- ")
            if not sep or not reason.strip() or not regex.strip():
                raise SystemExit("%s:%d: not BASE REGEX -- REASON" % (path, n))
            if b in (base, "*"):
                known.append((re.compile(regex.strip()), reason.strip()))
    return known


def judge(test, base, new, known):
    """Compare one suite's cases, {case: status} on the unpatched (@base)
    and patched (@new) kernel: returns (failures, notes)."""
    bad, notes = [], []
    for key in list(base) + [k for k in new if k not in base]:
        bs, ps = base.get(key, "none"), new.get(key, "none")
        what = "%s: %s" % (test, key)
        if ps == "fail" and bs == "fail":
            why = [r for rx, r in known if rx.search(what)]
            if why:
                notes.append("fails on both: %s (%s)" % (key, why[0]))
            else:
                bad.append("fails on both, no reason recorded: %s" % key)
        elif ps == "fail":
            flaky = [r for rx, r in known
                     if rx.search(what) and r.startswith("flaky:")]
            if flaky:
                notes.append("fails on patched only: %s (%s)" % (key, flaky[0]))
            else:
                bad.append("fails on patched, %s on baseline: %s" % (bs, key))
        elif bs in ("pass", "fail") and ps in ("skip", "none"):
            flaky = [r for rx, r in known if ps == "none" and
                     rx.search(what) and r.startswith("flaky:")]
            if flaky:
                notes.append("%s on baseline, none on patched: %s (%s)" %
                             (bs, key, flaky[0]))
            else:
                bad.append("%s on baseline, %s on patched: %s" % (bs, ps, key))
        elif bs == "fail":
            notes.append("fails on baseline only: %s" % key)
    return bad, notes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True)
    ap.add_argument("--known", required=True)
    ap.add_argument("baseline")
    ap.add_argument("patched")
    ap.add_argument("tests", nargs="+")
    a = ap.parse_args()
    known = known_failures(a.known, a.base)
    base, base_top = cases(a.baseline, a.tests)
    new, new_top = cases(a.patched, a.tests)
    print("TAP version 13")
    n = failed = 0
    for t in a.tests:
        n += 1
        b, p = base[t], new[t]
        bad, notes = judge(t, b, p, known)
        if not [k for k in p if k != "ended"]:
            bad.append("the patched kernel reported no case but the end "
                       "(top level: %s; unpatched: %d cases)"
                       % (new_top.get(t, "none"), len(b)))
        counts = {}
        for st in p.values():
            counts[st] = counts.get(st, 0) + 1
        summary = ", ".join("%d %s" % (counts[k], k) for k in sorted(counts))
        ok = not bad
        failed += not ok
        print("%s %d %s: %d cases on patched (%s), %d on baseline%s" % (
            "ok" if ok else "not ok", n, t, len(p), summary or "none", len(b),
            "" if ok else "; differs"))
        for line in bad + notes:
            print("    # " + line)
    print("1..%d" % n)
    print("%d passed, %d failed" % (n - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
