#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run named guest tests in one boot and judge them.

usage: guest_tests.py --kernel BZIMAGE --src TREE --corpus RAW --label NAME
                      [--timeout S] [--mem SIZE] TEST...

Prints one line per test, `ok`/`FAIL`, and on the last line
`N passed, N failed`; exits non-zero on any failure.  A kernel report
(BUG, WARNING, KASAN, lockdep, ...) on the console counts as one more
failure, and so does a guest that hangs.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guest  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--src", required=True, help="kernel tree of the kselftests")
    ap.add_argument("--corpus", required=True, help="raw corpus image")
    ap.add_argument("--label", required=True)
    ap.add_argument("--timeout", type=int, default=1500)
    ap.add_argument("--mem", default="1G")
    ap.add_argument("--kunit", action="append", default=[], metavar="SUITE",
                    help="a KUnit suite built into the kernel that must pass")
    ap.add_argument("--append", default="", help="more kernel parameters")
    ap.add_argument("--arch", choices=("x86_64", "arm64"), default="x86_64")
    ap.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                    help="a variable for the guest tests (run.conf)")
    ap.add_argument("tests", nargs="+")
    a = ap.parse_args()

    for f in (a.kernel, a.corpus):
        if not os.path.isfile(f):
            ap.error("%s: no such file" % f)
    logdir = os.path.join(guest.WORK, "logs")
    os.makedirs(logdir, exist_ok=True)
    initrd = os.path.join(guest.WORK, "initramfs-%s.cpio.gz" % a.label)
    logfile = os.path.join(logdir, "%s.log" % a.label)
    conf = {"MODE": "test", "TESTS": " ".join(a.tests)}
    for kv in a.conf:
        k, sep, v = kv.partition("=")
        if not sep or not k.isidentifier():
            ap.error("--conf %s: not KEY=VALUE" % kv)
        conf[k] = v
    guest.make_initramfs(initrd, conf, a.src, a.arch)
    guest.log("booting %s: %s (console: %s)" % (a.label, " ".join(a.tests), logfile))
    text, timed_out = guest.run_qemu(a.kernel, initrd, logfile, a.timeout,
                                     drives=[a.corpus], mem=a.mem,
                                     append=a.append, arch=a.arch)
    passed = failed = 0
    results = guest.kunit_results(text)
    seen = {r[0] for r in results}
    results += [("kunit:" + k, False, "no result") for k in a.kunit
                if "kunit:" + k not in seen]
    results += guest.parse_ktap(text, a.tests)
    for name, ok, line in results:
        print("%s %s: %s" % ("ok  " if ok else "FAIL", a.label, name))
        if ok:
            passed += 1
        else:
            failed += 1
            print_test_output(text, name)
    reports = guest.kernel_reports(text)
    if reports:
        failed += 1
        print("FAIL %s: kernel reports on the console:" % a.label)
        for r in reports[:20]:
            print("    " + r)
    if timed_out:
        failed += 1
        print("FAIL %s: the guest did not power off within %d s" % (a.label, a.timeout))
    elif "ZMP_END" not in text:
        failed += 1
        print("FAIL %s: the guest stopped before its tests ended" % a.label)
        print("\n".join("    " + l for l in text.splitlines()[-30:]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def print_test_output(text, name):
    """Show the indented KTAP of a failed test, with its verdict line."""
    lines, block = text.splitlines(), []
    for line in lines:
        if line.startswith("    ") or line.startswith("\t"):
            block.append(line)
            continue
        if guest.KTAP_TOP_RE.match(line):
            if line.split()[2 if line.startswith("ok") else 3] == name:
                print("\n".join(block[-60:]))
                return
            block = []


if __name__ == "__main__":
    sys.exit(main())
