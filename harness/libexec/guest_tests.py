#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run named guest tests in one boot and judge them.

usage: guest_tests.py --kernel BZIMAGE --src TREE --corpus RAW --label NAME
                      [--timeout S] [--mem SIZE] TEST...

Prints KTAP (harness/lib/ktap.py): a result for each test, and a failed
one for kernel reports on the console (BUG, WARNING, KASAN, lockdep, ...:
the patterns of kernel-reports.txt) and for a guest that hangs or stops
early; on the last line `N passed, N failed`; exits non-zero on any
failure.
"""

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "lib"))
import guest  # noqa: E402
import ktap  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--src", required=True, help="kernel tree of the kselftests")
    ap.add_argument("--corpus", required=True, help="raw corpus image")
    ap.add_argument("--label", required=True)
    ap.add_argument("--console", help="the console's log (default: "
                    "LOGS/LABEL.log; another boot of the same run with the "
                    "same label must not overwrite it)")
    ap.add_argument("--timeout", type=int, default=1500)
    ap.add_argument("--mem", default="1G")
    ap.add_argument("--kunit", action="append", default=[], metavar="SUITE",
                    help="a KUnit suite built into the kernel that must pass")
    ap.add_argument("--append", action="append", default=[],
                    help="more kernel parameters (may be given again)")
    ap.add_argument("--arch", choices=("x86_64", "arm64"), default="x86_64")
    ap.add_argument("--machine", help="qemu -machine (virt,mte=on for MTE)")
    ap.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                    help="a variable for the guest tests (run.conf)")
    ap.add_argument("--hostroot", action="store_true",
                    help="the tests of harness/guest/ext, in the host's root "
                    "over 9p (a kernel of the ext variants), with two fake "
                    "NUMA nodes and four vCPUs (the mm selftests' page "
                    "migration needs three)")
    ap.add_argument("tests", nargs="+")
    a = ap.parse_args()

    for f in (a.kernel, a.corpus):
        if not os.path.isfile(f):
            ap.error("%s: no such file" % f)
    logdir = guest.LOGS
    os.makedirs(logdir, exist_ok=True)
    # named after the log directory too (one a base: LOGS/<base>), as
    # runs of two bases with the same label may overlap
    initrd = os.path.join(guest.WORK, "initramfs-%s-%s.cpio.gz" % (
        os.path.basename(os.path.normpath(logdir)), a.label))
    logfile = a.console or os.path.join(logdir, "%s.log" % a.label)
    conf = {"MODE": "test", "TESTS": " ".join(a.tests)}
    for kv in a.conf:
        k, sep, v = kv.partition("=")
        if not sep or not k.isidentifier():
            ap.error("--conf %s: not KEY=VALUE" % kv)
        conf[k] = v
    extra, smp = [], 2
    if a.hostroot:
        smp = 4
        conf["ROOTFS"] = "host"
        extra = guest.HOSTROOT_QEMU
        a.append.append("numa=fake=2")
    guest.make_initramfs(initrd, conf, a.src, a.arch)
    guest.log("booting %s: %s (console: %s)" % (a.label, " ".join(a.tests), logfile))
    drives = [a.corpus]
    if "erofs-lz4" in a.tests:
        # /dev/vdb, vdc, vdd: the test's erofs images, made from the corpus
        edir = os.path.join(guest.WORK, "erofs")
        subprocess.run([sys.executable, os.path.join(guest.HARNESS, "libexec",
                                                     "erofs_images.py"),
                        a.corpus, edir], check=True)
        drives += [os.path.join(edir, i)
                   for i in ("lz4.img", "lz4hc.img", "lz4-4k.img")]
    text, timed_out = guest.run_qemu(a.kernel, initrd, logfile, a.timeout,
                                     drives=drives, mem=a.mem,
                                     append=" ".join(a.append), arch=a.arch,
                                     machine=a.machine, extra=extra,
                                     smp=smp)
    results = guest.kunit_results(text)
    seen = {r[0] for r in results}
    results += [("kunit:" + k, False, "no result") for k in a.kunit
                if "kunit:" + k not in seen]
    results += guest.parse_ktap(text, a.tests)
    verdicts = []
    print("TAP version 13")

    def verdict(ok, what, details=()):
        verdicts.append(ok)
        print("%s %d %s: %s" % ("ok" if ok else "not ok", len(verdicts), a.label, what))
        for d in details:
            print("    " + d)

    took = dict(re.findall(r"^\s+# (\S+) took (\d+) s$", text, re.M))
    skips = skip_reasons(text)
    allowed = expected_skips(booted_base(text), a.label)
    config = kernel_config(a.kernel)
    for name, ok, line in results:
        why = ok and name in skips and skip_refused(config, allowed, name,
                                                    skips[name])
        if why:
            verdict(False, "%s: skipped where it must run (%s; %s)"
                    % (name, skips[name], why))
            print_test_output(text, name)
            continue
        verdict(ok, name + (" # SKIP " + skips[name] if name in skips else ""))
        if name in took:
            print("# %s took %s s" % (name, took[name]))
        if not ok:
            print_test_output(text, name)
    # a run's own failures, counted only when they happen
    reports = guest.kernel_reports(text)
    if reports:
        verdict(False, "kernel reports on the console", reports[:20])
    if timed_out:
        verdict(False, "the guest did not power off within %d s" % a.timeout)
    elif "ZMP_END" not in text:
        verdict(False, "the guest stopped before its tests ended",
                text.splitlines()[-30:])
    print("1..%d" % len(verdicts))
    passed, failed = verdicts.count(True), verdicts.count(False)
    skipped = sum(1 for name, ok, _ in results if ok and name in skips and
                  not skip_refused(config, allowed, name, skips[name]))
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


def booted_base(text):
    """The base the guest's kernel was built from: its release, from the
    ZMP_BOOTED line, to the base names of bases.conf (7.2.13 -> 7.2)."""
    m = re.search(r"ZMP_BOOTED (\d+)\.(\d+)", text)
    return "%s.%s" % m.groups() if m else None


def expected_skips(base, label):
    """The tests harness/guest/expected-skips lets skip on @base in run
    @label ("*": any test)."""
    tests = set()
    with open(os.path.join(guest.HARNESS, "guest", "expected-skips")) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 4 or line.startswith("#"):
                continue
            if fields[0] in ("*", base) and fields[1] in ("*", label):
                tests.add(fields[2])
    return tests


def kernel_config(kernel):
    """The options set (=y or =m) in the .config of the tree @kernel was
    built in (BUILD/arch/x86/boot/bzImage -> BUILD/.config)."""
    path = os.path.join(kernel.rsplit("/arch/", 1)[0], ".config")
    if not os.path.isfile(path):
        raise SystemExit("%s: no .config beside the kernel" % path)
    with open(path) as f:
        return {m.group(1) for m in re.finditer(r"^(CONFIG_\w+)=[ym]$",
                                                 f.read(), re.M)}


def skip_refused(config, allowed, name, reason):
    """Why the skip of @name for @reason must fail, or None if it may pass.

    A reason that names kernel options ("no CONFIG_ZRAM_WRITEBACK") is
    decided by the kernel's .config alone: the skip passes only when one of
    them is not set, wherever the test runs. Any other reason (a feature
    the base does not have) must be listed in harness/guest/expected-skips.
    """
    options = re.findall(r"CONFIG_\w+", reason)
    if options:
        if all(o in config for o in options):
            return "the kernel was built with " + ", ".join(options)
        return None
    if "*" in allowed or name in allowed:
        return None
    return "not in harness/guest/expected-skips"


def skip_reasons(text):
    """Test name -> the reason its "1..0 # SKIP REASON" plan gave."""
    skips, reason = {}, ""
    for line in text.splitlines():
        m = re.match(r"\s+1\.\.0 # SKIP (.*)", line)
        if m:
            reason = m.group(1).strip()
            continue
        m = re.match(r"ok \d+ (\S+) # SKIP", line)
        if m:
            skips[m.group(1)], reason = reason, ""
    return skips


def print_test_output(text, name):
    """Show the indented KTAP of a failed test, with its verdict line."""
    lines, block = text.splitlines(), []
    for line in lines:
        if line.startswith("    ") or line.startswith("\t"):
            block.append(line)
            continue
        m = ktap.RESULT_RE.match(line)
        if m:
            if m.group(3) == name:
                print("\n".join(block[-60:]))
                return
            block = []


if __name__ == "__main__":
    sys.exit(main())
