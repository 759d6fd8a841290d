#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The harness judging logs: every kernel log the harness reads (UML KUnit,
x86_64 and arm64 guests) goes through guest.kernel_reports(), and a report
fails the run. These cases feed it logs with and without reports, through
the module and through `guest.py reports` (the path kunit.sh takes), and
check the KTAP reading of guest results. Prints KTAP and ends with
"N passed, N failed".
"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "lib"))
import guest  # noqa: E402

CLEAN_X86 = """[    0.000000] Linux version 6.12.117 (root@host) #1 SMP
[    1.234567] zram: Added device: zram0
ZMP_BOOTED 6.12.117
TAP version 13
1..1
ok 1 zram-blocks-swap
ZMP_END
"""

HUNG_TASK = "[  245.1] INFO: task kworker/u4:2:57 blocked for more than 122 seconds."
RCU_STALL = "[   30.5] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:"
RCU_SELF_STALL = "[   30.5] rcu: INFO: rcu_sched self-detected stall on CPU"
SOFT_LOCKUP = "[   60.0] watchdog: BUG: soft lockup - CPU#1 stuck for 26s! [swapstress:80]"
ARM64_OOPS = "[   12.0] Internal error: Oops: 0000000096000004 [#1] PREEMPT SMP"

UML_VIRT_PCI = """WARNING: CPU: 0 PID: 1 at ../src/arch/um/drivers/virt-pci.c:1005 0x60006890
Modules linked in:
Call Trace:
 um_pci_init+0x1/0x2
---[ end trace 0000000000000000 ]---
"""

ARM64_CALL_TRACE = """[   20.1] CPU: 1 PID: 80 Comm: swaptest Not tainted 7.2.13 #1
[   20.1] Call trace:
[   20.1]  f+0x1/0x2
"""
BAD_SWAP = "[   40.2] swap_info_get: Bad swap offset entry 00012345"
READ_ERROR = "[   41.0] Read-error on swap-device (253:1:2048)"
EXPECT = "[   40.9] ZMP_EXPECT Read-error on swap-device\n"
EXPECT_END = "[   41.5] ZMP_EXPECT_END\n"
OOM = "[   50.0] Out of memory: Killed process 81 (swaptest)"
ALLOC_FAIL = """[   51.0] swaptest: page allocation failure: order:2, mode:0x140dca
[   51.0] Call trace:
[   51.0]  dump_backtrace+0x0/0x1
"""

KUNIT_OK = """    ok 1 zsmalloc_test_classes
# Totals: pass:1 fail:0 skip:0 total:1
ok 1 zsmalloc
"""


def cases():
    """(name, log, expected number of report lines)"""
    return [
        ("a clean x86_64 log has no report", CLEAN_X86, 0),
        ("a hung task fails an x86_64 run", CLEAN_X86 + HUNG_TASK + "\n", 1),
        ("an RCU stall fails an x86_64 run", CLEAN_X86 + RCU_STALL + "\n", 1),
        ("an RCU self-detected stall fails a run", RCU_SELF_STALL + "\n", 1),
        ("a soft lockup fails an arm64 run", SOFT_LOCKUP + "\n", 1),
        ("an arm64 Oops fails an arm64 run", ARM64_OOPS + "\n", 1),
        ("UML's virt-pci warning alone is not a report", UML_VIRT_PCI + KUNIT_OK, 0),
        ("a hung task after UML's virt-pci warning fails a KUnit run",
         UML_VIRT_PCI + KUNIT_OK + HUNG_TASK + "\n", 1),
        ("an RCU stall fails a KUnit run", KUNIT_OK + RCU_STALL + "\n", 1),
        ("a hung task inside UML's virt-pci warning, which never ends, fails",
         UML_VIRT_PCI.replace("---[ end trace 0000000000000000 ]---\n", "")
         + HUNG_TASK + "\n", 1),
        ("a stack dump long after an unended virt-pci warning fails",
         UML_VIRT_PCI.replace("---[ end trace 0000000000000000 ]---\n", "")
         + "x\n" * 80 + ARM64_CALL_TRACE, 1),
        ("an arm64 stack dump fails an arm64 run", ARM64_CALL_TRACE, 1),
        ("a bad swap entry fails a run", BAD_SWAP + "\n", 1),
        ("a swap read error fails a run", READ_ERROR + "\n", 1),
        ("a swap read error a test expects does not",
         EXPECT + READ_ERROR + "\n" + EXPECT_END, 0),
        ("a swap read error after the expected ones fails",
         EXPECT + READ_ERROR + "\n" + EXPECT_END + READ_ERROR + "\n", 1),
        ("an OOM kill fails a run", OOM + "\n", 1),
        ("an allocation failure dump fails an arm64 run", ALLOC_FAIL, 2),
    ]


def reports_cli(text):
    """The report lines that `guest.py reports LOG` prints (kunit.sh)."""
    with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
        f.write(text)
        f.flush()
        r = subprocess.run([sys.executable, os.path.join(guest.HARNESS, "lib",
                                                         "guest.py"),
                            "reports", f.name], capture_output=True,
                           text=True, check=True)
    return r.stdout.splitlines()


def skip_cases():
    """harness/guest/expected-skips as guest_tests.py applies it, and the
    skips ktap.py counts."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import guest_tests  # noqa: E402
    import ktap  # noqa: E402
    out = []
    built = {"CONFIG_ZRAM_WRITEBACK", "CONFIG_ZRAM_MULTI_PAGES",
             "CONFIG_THP_SWAP"}
    for base, label, test, reason, config, want in (
            ("7.2", "test-guest", "zram-block-sizes", "no block_size attribute",
             built, False),
            ("7.2", "test-debug", "zram-blocks-writeback-compressed",
             "no compressed_writeback", built, False),
            ("6.12", "test-guest", "zram-blocks-writeback-compressed",
             "no compressed_writeback", built, True),
            ("6.12", "test-debug", "zram-blocks-writeback-compressed",
             "no compressed_writeback", built, True),
            ("6.12", "test-debug", "swapin-block-fill", "no fill", built,
             False),
            ("6.12", "test-guest", "zram-blocks-swap", "whatever", built,
             False),
            # named options decide, whatever the list says
            ("6.12", "test-guest", "zram-block-sizes",
             "no CONFIG_ZRAM_MULTI_PAGES", built, False),
            ("7.2", "test-guest", "zram-blocks-writeback",
             "no CONFIG_ZRAM_WRITEBACK", built, False),
            ("7.2", "test-guest", "zram-blocks-writeback",
             "no CONFIG_ZRAM_WRITEBACK", built - {"CONFIG_ZRAM_WRITEBACK"},
             True),
            ("7.2", "test-arm64-16k", "zram-blocks-swap",
             "swap splits large folios here (no CONFIG_THP_SWAP)",
             built - {"CONFIG_THP_SWAP"}, True),
            ("7.2", "test-arm64", "zram-blocks-swap",
             "swap splits large folios here (no CONFIG_THP_SWAP)", built,
             False)):
        got = guest_tests.skip_refused(
            config, guest_tests.expected_skips(base, label), test,
            reason) is None
        out.append(("%s on %s in %s (%s): a skip is %s" % (
            test, base, label, reason, "allowed" if want else "a failure"),
            got == want, "got %s" % got))
    got = guest_tests.booted_base(CLEAN_X86)
    out.append(("the base is read from the booted release", got == "6.12", got))
    text = "TAP version 13\nok 1 a\nok 2 b # SKIP why\nnot ok 3 c\n1..3\n"
    got = (ktap.count(text), ktap.skipped(text))
    out.append(("ktap.py counts skips among the passes",
                got == ((2, 1), 1), repr(got)))
    return out


def suite_cases():
    """harness/libexec/suites.py: reading nested cases, and the verdicts of
    its unpatched-against-patched comparison."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import re
    import suites  # noqa: E402
    out = []
    log = ("    ok 1 a KUnit case before the guest's init\nZMP_BOOTED 7.2.13\n"
           "TAP version 13\n1..2\n    # running ./cow\n    # ok 1 a\n"
           "    # not ok 2 b\n    # ok 3 c # SKIP no THP\n"
           "    # ok 4 # SKIP d (no hugetlb)\n    not ok 1 cow # exit=1\n"
           "    ok 2 rmap\n    ok 3 rmap\n    # running test_zswap\n"
           "    # ok 1 e\n    # test_zswap: exit status 137\n"
           "not ok 1 mm-selftests\n    ok 1 x\n"
           "not ok 2 stress-ng # exit status 124\n")
    with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
        f.write(log)
        f.flush()
        got, top = suites.cases(f.name, ["mm-selftests", "stress-ng"])
    want = {"./cow: a": "pass", "./cow: b": "fail", "./cow: c": "skip",
            "./cow: d (no hugetlb)": "skip", "cow": "fail", "rmap": "pass",
            "rmap#2": "pass", "test_zswap: e": "pass",
            "test_zswap: ended": "fail", "ended": "pass"}
    out.append(("suites.py reads a program's cases under run_vmtests.sh, "
                "kselftest skips, a killed program",
                got["mm-selftests"] == want and top["mm-selftests"] == "fail",
                repr(got["mm-selftests"])))
    with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
        f.write("ZMP_BOOTED 6.12.117\n    no hugetlbfs support in kernel?\n"
                "not ok 1 mm-selftests # exit status 1\n")
        f.flush()
        r = subprocess.run([sys.executable, os.path.join(os.path.dirname(
            os.path.abspath(__file__)), "suites.py"), "--base", "6.12",
            "--known", os.devnull, f.name, f.name, "mm-selftests"],
            capture_output=True, text=True)
    out.append(("suites.py: a test that ran no case fails",
                r.returncode == 1 and "not ok 1 mm-selftests" in r.stdout,
                r.stdout + r.stderr))
    out.append(("suites.py: a test that timed out did not end",
                got["stress-ng"] == {"x": "pass", "ended": "fail"},
                repr(got["stress-ng"])))
    known = [(re.compile("^s: known"), "the base's own"),
             (re.compile("^s: timing"), "flaky: a timeout under TCG")]
    for what, base, new, want in (
            ("the same on both", {"a": "pass", "b": "skip"},
             {"a": "pass", "b": "skip"}, True),
            ("fails on patched only", {"a": "pass"}, {"a": "fail"}, False),
            ("fails on both, no reason", {"a": "fail"}, {"a": "fail"}, False),
            ("fails on both, reason given", {"known": "fail"},
             {"known": "fail"}, True),
            ("skips on patched, runs on baseline", {"a": "pass"},
             {"a": "skip"}, False),
            ("missing on patched", {"a": "pass", "b": "pass"}, {"a": "pass"},
             False),
            ("fails on baseline only", {"a": "fail"}, {"a": "pass"}, True),
            ("new case on patched", {}, {"a": "pass"}, True),
            ("a flaky case failing on patched only", {"timing": "pass"},
             {"timing": "fail"}, True),
            ("a known, not flaky, case failing on patched only",
             {"known": "pass"}, {"known": "fail"}, False)):
        bad, _ = suites.judge("s", base, new, known)
        out.append(("suites.py: %s is %s" % (what, "ok" if want else "a failure"),
                    (not bad) == want, repr(bad)))
    return out


def stats_cases():
    """thrash-compare's rank-sum test, whose p README's workloads table
    prints: ties share their mean rank, the exact two-sided p of three
    rounds against three, and the sampled p of twelve against twelve."""
    import thrash_compare as tc
    out = []
    got = tc.ranks([10, 20, 20, 30])
    out.append(("rank-sum: ties share their mean rank",
                got == [1, 2.5, 2.5, 4], repr(got)))
    p, how = tc.rank_sum_p([1, 2, 3], [4, 5, 6])
    out.append(("rank-sum: 3 rounds all above 3 give the exact p 0.1",
                abs(p - 0.1) < 1e-12 and how == "exact", "%r %s" % (p, how)))
    p, how = tc.rank_sum_p([1, 2, 3], [3, 2, 1])
    out.append(("rank-sum: the same rounds give p 1",
                p == 1.0, "%r %s" % (p, how)))
    p, how = tc.rank_sum_p(list(range(12)), list(range(100, 112)))
    out.append(("rank-sum: 12 against 12 is sampled, and separated rounds "
                "give a small p", p < 0.001 and "permutations" in how,
                "%r %s" % (p, how)))
    return out


def main():
    results = []
    for name, text, want in cases():
        got = len(guest.kernel_reports(text))
        results.append((name, got == want, "%d report line(s), want %d" % (got, want)))
        got = len(reports_cli(text))
        results.append((name + " (guest.py reports)", got == want,
                        "%d report line(s), want %d" % (got, want)))
    parsed = guest.parse_ktap(CLEAN_X86, ["zram-blocks-swap", "bad-input"])
    ok = [(n, o) for n, o, _ in parsed] == [("zram-blocks-swap", True),
                                            ("bad-input", False)]
    results.append(("a guest test without a result line fails", ok, repr(parsed)))
    # a test that printed a failed check beyond its plan and exited 0
    # (ktap_finished counts passes against the plan only)
    extra_fail = CLEAN_X86.replace(
        "ok 1 zram-blocks-swap",
        "    1..1\n    ok 1 a check\n    not ok 2 a check outside the plan\n"
        "    ok 2 # SKIP a skip is no failure\nok 1 zram-blocks-swap")
    parsed = guest.parse_ktap(extra_fail, ["zram-blocks-swap"])
    ok = [(n, o) for n, o, _ in parsed] == [("zram-blocks-swap", False)]
    results.append(("a nested failed result fails its test", ok, repr(parsed)))
    skipped = CLEAN_X86.replace(
        "ok 1 zram-blocks-swap",
        "    not ok 1 a check # SKIP no backing device\nok 1 zram-blocks-swap")
    parsed = guest.parse_ktap(skipped, ["zram-blocks-swap"])
    ok = [(n, o) for n, o, _ in parsed] == [("zram-blocks-swap", True)]
    results.append(("a nested skip does not fail its test", ok, repr(parsed)))
    results += skip_cases()
    results += suite_cases()
    results += stats_cases()
    print("TAP version 13")
    print("1..%d" % len(results))
    for i, (name, ok, why) in enumerate(results, 1):
        print("%s %d %s%s" % ("ok" if ok else "not ok", i, name,
                              "" if ok else " # " + why))
    failed = sum(1 for r in results if not r[1])
    print("%d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
