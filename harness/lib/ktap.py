#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The one KTAP reader of the harness.

Every step of the test command prints a KTAP document: a version line,
one "ok N NAME" or "not ok N NAME" line a result (a "# SKIP" directive
counts as passed), the plan "1..N" before or after them, and a last line
"N passed, N failed" for the reader. Nested results (indented) belong to
the top-level result after them.

usage: ktap.py count LOG         "N passed, N failed, N skipped" of LOG's top-level
                                 results; exit 1 when one failed or none
       ktap.py kunit JSON LABEL  KTAP of the test cases in kunit.py's JSON
                                 (one line a case, named LABEL: suite.case)
"""

import json
import re
import sys

RESULT_RE = re.compile(r"^(not ok|ok) (\d+) (.*?)\s*(#\s*(\S+).*)?$")
NESTED_FAIL_RE = re.compile(r"^\s+not ok \d+ (.*?)\s*(#\s*(\S+).*)?$")
PLAN_RE = re.compile(r"^1\.\.(\d+)")


def results(text):
    """Top-level results of the KTAP documents in @text: (name, ok, line).

    Lines before a "TAP version" line are ignored, and so are results in
    the documents a kernel prints before the guest's own (KUnit at boot
    is read with kunit_results() in guest.py). A top-level "ok" whose
    nested results hold a "not ok" (but a SKIP, TODO or XFAIL) is a
    failure: a test that prints more results than its plan, or exits 0
    after a failed check, must not pass."""
    out, in_doc, nested_fail = [], False, None
    for line in text.splitlines():
        if re.match(r"^(K)?TAP version \d+$", line):
            in_doc = True
            continue
        if not in_doc:
            continue
        m = NESTED_FAIL_RE.match(line)
        if m and (m.group(3) or "").upper() not in ("SKIP", "TODO", "XFAIL"):
            nested_fail = nested_fail or line.strip()
            continue
        m = RESULT_RE.match(line)
        if m:
            ok = m.group(1) == "ok"
            if ok and nested_fail:
                ok = False
                line = "%s (a nested result failed: %s)" % (line, nested_fail)
            out.append((m.group(3), ok, line))
            nested_fail = None
    return out


def plan(text):
    for line in text.splitlines():
        m = PLAN_RE.match(line)
        if m:
            return int(m.group(1))
    return None


def count(text):
    """(passed, failed); a document that results fewer lines than its plan
    says, or none at all, fails once more."""
    res = results(text)
    passed = sum(1 for r in res if r[1])
    failed = len(res) - passed
    p = plan(text)
    if not res or (p is not None and p > len(res)):
        failed += 1
    return passed, failed


def skipped(text):
    """How many top-level results passed with a SKIP directive."""
    return sum(1 for _, ok, line in results(text)
               if ok and re.search(r"#\s*SKIP\b", line, re.I))


def kunit_cases(data, label):
    """KTAP lines for the test cases of kunit.py's --json output."""
    lines, n = [], 0

    def walk(group, prefix):
        nonlocal n
        name = group.get("name", "")
        path = "%s.%s" % (prefix, name) if prefix and name else name or prefix
        for case in group.get("test_cases", []):
            n += 1
            status = case.get("status", "FAIL")
            ok = status in ("PASS", "SKIP")
            lines.append("%s %d %s: %s.%s%s" % (
                "ok" if ok else "not ok", n, label, path, case.get("name"),
                " # SKIP" if status == "SKIP" else ""))
        for sub in group.get("sub_groups", []):
            walk(sub, path)

    # the root group is kunit.py's own ("KUnit Test Group"): its suites
    for case in data.get("test_cases", []):
        walk({"test_cases": [case]}, "")
    for sub in data.get("sub_groups", []):
        walk(sub, "")
    return lines


def main(argv):
    if len(argv) == 2 and argv[0] == "count":
        with open(argv[1], errors="replace") as f:
            text = f.read()
        passed, failed = count(text)
        print("%d passed, %d failed, %d skipped" % (passed, failed,
                                                    skipped(text)))
        return 1 if failed else 0
    if len(argv) == 3 and argv[0] == "kunit":
        with open(argv[1]) as f:
            for line in kunit_cases(json.load(f), argv[2]):
                print(line)
        return 0
    print(__doc__.split("\n\n")[-1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
