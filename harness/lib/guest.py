# SPDX-License-Identifier: GPL-2.0
"""Boot a kernel under qemu with the project's initramfs and read what it says.

The guest prints one KTAP document (MODE=test) or benchmark lines
(MODE=bench) on its serial console and powers off.  The host fails a run on
any `not ok`, on a missing result, on a kernel report (BUG, WARNING, KASAN,
lockdep, Oops, panic) and on a guest that does not power off in time.
"""

import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request

import ktap

HARNESS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(HARNESS)
WORK = os.environ.get("ZMP_WORK", "/var/tmp/zmp")
# the logs of the base's runs (harness/lib/common.sh)
LOGS = os.environ.get("ZMP_LOGS", os.path.join(WORK, "logs"))
SELFTESTS_SRC = None  # set by callers that install kselftests

# Console lines that mean the kernel found a bug, whatever the tests said:
# harness/lib/kernel-reports.txt, one pattern a line.
def report_patterns():
    with open(os.path.join(HARNESS, "lib", "kernel-reports.txt")) as f:
        return [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]


REPORT_RE = re.compile("(%s)" % "|".join(report_patterns()))



def git_commit():
    """The project's commit, with "-dirty" when a tracked file outside
    harness/results differs from it (as project_commit() in common.sh)."""
    r = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"],
                       capture_output=True, text=True)
    commit = r.stdout.strip() or "unknown"
    if subprocess.run(["git", "-C", ROOT, "diff", "--quiet", "HEAD", "--",
                       ".", ":(exclude)harness/results"]).returncode:
        commit += "-dirty"
    return commit


def log(msg):
    print("[%s] %s" % (time.strftime("%H:%M:%S"), msg), file=sys.stderr,
          flush=True)


CC = {"x86_64": "gcc", "arm64": "aarch64-linux-gnu-gcc"}


def compile_guest_programs(outdir, arch="x86_64"):
    """Statically link the guest programs (harness/guest/*.c) into @outdir;
    returns their paths.

    A program is rebuilt unless the hash of its source and zmp.h that it
    was built from matches: the work directory is shared by every
    checkout, so an older checkout's newer binary must not pass for this
    one's (modification times cannot tell).
    """
    os.makedirs(outdir, exist_ok=True)
    src = os.path.join(HARNESS, "guest")
    exes = []
    with open(os.path.join(src, "zmp.h"), "rb") as f:
        header = f.read()
    for name in sorted(os.listdir(src)):
        if not name.endswith(".c"):
            continue
        exe = os.path.join(outdir, name[:-2])
        exes.append(exe)
        cfile = os.path.join(src, name)
        with open(cfile, "rb") as f:
            digest = hashlib.sha256(f.read() + header).hexdigest()
        stamp = exe + ".sha256"
        if os.path.exists(exe) and os.path.exists(stamp):
            with open(stamp) as f:
                if f.read().strip() == digest:
                    continue
        subprocess.run([CC[arch], "-O2", "-Wall", "-Werror", "-static", "-o",
                        exe, cfile], check=True)
        with open(stamp, "w") as f:
            f.write(digest + "\n")
    return exes


FIO_ORIG = "http://deb.debian.org/debian/pool/main/f/fio/fio_3.33.orig.tar.gz"
FIO_ORIG_SHA256 = "d2410e13e0f379d061d077cc5ae325835bb7c6186aa7bafc1df954cbc9b014fc"
# fio's optional engines and libraries, none of which the guest has
FIO_CONFIGURE = ["--build-static", "--disable-native", "--disable-numa",
                 "--disable-rdma", "--disable-rados", "--disable-rbd",
                 "--disable-http", "--disable-gfapi", "--disable-libnfs",
                 "--disable-pmem", "--disable-xnvme", "--disable-libzbc",
                 "--disable-tcmalloc", "--disable-dfs", "--disable-lex",
                 "--disable-shm"]


def fetch_checked(url, sha256, dest):
    """Download @url (a Debian source tarball) to @dest once, checking it."""
    if not os.path.exists(dest):
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        log("fetching %s" % url)
        urllib.request.urlretrieve(url, dest + ".tmp")
        with open(dest + ".tmp", "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        if digest != sha256:
            raise SystemExit("%s has sha256 %s, expected %s" % (url, digest, sha256))
        os.replace(dest + ".tmp", dest)
    return dest


def build_fio(arch="x86_64"):
    """A static fio for the guest, from Debian's fio 3.33 source."""
    d = os.path.join(WORK, "fio-" + arch)
    exe = os.path.join(d, "fio-3.33", "fio")
    if os.path.exists(exe):
        return exe
    tarball = fetch_checked(FIO_ORIG, FIO_ORIG_SHA256,
                            os.path.join(WORK, "downloads", os.path.basename(FIO_ORIG)))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with tarfile.open(tarball) as t:
        t.extractall(d)
    src = os.path.dirname(exe)
    log("building fio for the %s guest in %s" % (arch, src))
    subprocess.run(["./configure", "--cc=" + CC[arch]] + FIO_CONFIGURE, cwd=src,
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["make", "-j%d" % os.cpu_count(), "fio"], cwd=src, check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run([CC[arch].replace("gcc", "strip"), exe], check=True)
    return exe


def host_tool(name, **make_vars):
    """Path of host tool NAME (harness/host/Makefile), built if stale."""
    out = os.path.join(WORK, "host-bin")
    os.makedirs(out, exist_ok=True)
    subprocess.run(["make", "-s", "-C", os.path.join(HARNESS, "host"),
                    "O=" + out, name] +
                   ["%s=%s" % kv for kv in sorted(make_vars.items())],
                   check=True)
    return os.path.join(out, name)


def install_kselftests(src_tree, dest):
    """Install tools/testing/selftests/zram of SRC_TREE into DEST."""
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    sel = os.path.join(src_tree, "tools/testing/selftests")
    shutil.copytree(os.path.join(sel, "zram"), os.path.join(dest, "zram"))
    shutil.copytree(os.path.join(sel, "kselftest"),
                    os.path.join(dest, "kselftest"))


def compile_test_zswap(src_tree, exe, arch="x86_64"):
    """Statically link tools/testing/selftests/cgroup/test_zswap of SRC_TREE
    (cgroup_util.c beside it, or in lib/ as in later kernels)."""
    d = os.path.join(src_tree, "tools/testing/selftests/cgroup")
    util, inc = os.path.join(d, "cgroup_util.c"), []
    if not os.path.exists(util):
        util = os.path.join(d, "lib", "cgroup_util.c")
        inc = ["-I", os.path.join(d, "lib", "include")]
    subprocess.run([CC[arch], "-O2", "-static", "-I", os.path.dirname(d)] + inc +
                   ["-o", exe, os.path.join(d, "test_zswap.c"), util], check=True)


def make_initramfs(path, conf, src_tree, arch="x86_64"):
    """Write a gzip'd newc cpio: busybox, guest programs, tests, kselftests."""
    root = tempfile.mkdtemp(prefix="zmp-initramfs-", dir=WORK)
    try:
        for d in ("bin", "zmp/bin", "zmp/tests", "proc", "sys", "dev", "tmp"):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        busybox = ("/bin/busybox" if arch == "x86_64" else
                   os.path.join(WORK, "arm64", "busybox"))
        shutil.copy(busybox, os.path.join(root, "bin/busybox"))
        for applet in ("sh",):
            os.symlink("busybox", os.path.join(root, "bin", applet))
        g = os.path.join(HARNESS, "guest")
        shutil.copy(os.path.join(g, "init"), os.path.join(root, "init"))
        shutil.copy(os.path.join(g, "lib.sh"), os.path.join(root, "zmp/lib.sh"))
        for sh in ("bench.sh", "appswitch.sh", "frag.sh", "hostroot.sh"):
            shutil.copy(os.path.join(g, sh), os.path.join(root, "zmp", sh))
        for sub in ("tests", "ext"):
            os.makedirs(os.path.join(root, "zmp", sub), exist_ok=True)
            for t in os.listdir(os.path.join(g, sub)):
                shutil.copy(os.path.join(g, sub, t),
                            os.path.join(root, "zmp", sub, t))
        for exe in compile_guest_programs(
                os.path.join(WORK, "guest-bin" + ("" if arch == "x86_64" else "-" + arch)),
                arch):
            shutil.copy(exe, os.path.join(root, "zmp/bin", os.path.basename(exe)))
        shutil.copy(build_fio(arch), os.path.join(root, "zmp/bin/fio"))
        install_kselftests(src_tree, os.path.join(root, "kselftest"))
        compile_test_zswap(src_tree, os.path.join(root, "zmp/bin/test_zswap"), arch)
        with open(os.path.join(root, "zmp/run.conf"), "w") as f:
            for k, v in conf.items():
                f.write("%s=%s\n" % (k, shlex.quote(str(v))))
        subprocess.run("find . | cpio -o -H newc --quiet | gzip -1 > '%s'" % path,
                       shell=True, cwd=root, check=True)
    finally:
        shutil.rmtree(root)


# qemu's arguments that export the host's root, read-only, to a guest
# that mounts it as its root (harness/guest/hostroot.sh, ROOTFS=host)
HOSTROOT_QEMU = ["-virtfs", "local,path=/,mount_tag=hostroot,"
                 "security_model=none,readonly=on,multidevs=remap"]


def run_qemu(kernel, initrd, logfile, timeout, drives=(), mem="1G", smp=2,
             append="", arch="x86_64", icount=False, extra=(), machine=None,
             icount_sleep=False):
    """Boot; returns (console text, timed_out).

    With @icount, the guest's clocks count executed instructions (one
    nanosecond each, qemu -icount shift=0) instead of host time: times the
    guest measures are then instruction counts, the same whatever TCG's
    translation of the code costs on the host; with @icount_sleep, the
    clock follows the host's while the guest idles (waiting for the
    host's I/O), where it otherwise jumps to the next timer.  @extra: more qemu
    arguments; @machine: the -machine argument, if not the arch's own.
    """
    params = "loglevel=5 panic=-1 oops=panic panic_on_warn=0 " + append
    if arch == "arm64":
        cmd = ["qemu-system-aarch64", "-machine", machine or "virt", "-cpu", "max",
               "-m", mem, "-smp", str(smp), "-nographic", "-no-reboot",
               "-kernel", kernel, "-initrd", initrd,
               "-append", "console=ttyAMA0 " + params]
    else:
        cmd = ["qemu-system-x86_64", "-machine", machine or "q35", "-cpu", "max",
               "-m", mem, "-smp", str(smp), "-nographic", "-no-reboot",
               "-kernel", kernel, "-initrd", initrd,
               "-append", "console=ttyS0 " + params]
    if arch == "x86_64" and os.access("/dev/kvm", os.R_OK | os.W_OK) and \
            os.environ.get("ZMP_KVM") == "1":
        cmd += ["-accel", "kvm"]
    else:
        cmd += ["-accel", "tcg"]
        if icount:
            cmd += ["-icount", "shift=0,sleep=%s" % ("on" if icount_sleep else "off")]
    cmd += list(extra)
    for d in drives:
        cmd += ["-drive", "file=%s,format=raw,if=virtio,readonly=on" % d]
    timed_out = False
    with open(logfile, "wb") as out:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out,
                             stderr=subprocess.STDOUT)
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            p.kill()
            p.wait()
    with open(logfile, "rb") as f:
        text = f.read().decode("utf-8", "replace").replace("\r", "")
    return text, timed_out


# A known report that is not ours, from its first line to its end: UML's
# virt-pci driver warns at every boot without a PCI host.
BENIGN_REPORT_RE = re.compile(r"WARNING: .* at \S*arch/um/drivers/virt-pci\.c")
END_OF_REPORT_RE = re.compile(r"---\[ end trace ")


# A dump's own lines after a benign warning; its end line may never come,
# so the dump ends after this many lines, or at a report of another kind
BENIGN_DUMP_RE = re.compile(r"Call [Tt]race:")
BENIGN_DUMP_LINES = 60
EXPECT_RE = re.compile(r"ZMP_EXPECT (.*)$")
EXPECT_END_RE = re.compile(r"ZMP_EXPECT_END")


def kernel_reports(text):
    """The lines of @text that report a kernel bug (kernel-reports.txt),
    but for the lines of a benign warning's dump and those a test said it
    expects (ZMP_EXPECT REGEX ... ZMP_EXPECT_END, from expect_reports)."""
    reports, benign, expected = [], 0, None
    for line in text.splitlines():
        if EXPECT_END_RE.search(line):
            expected = None
            continue
        m = EXPECT_RE.search(line)
        if m:
            expected = re.compile(m.group(1).strip())
            continue
        if BENIGN_REPORT_RE.search(line):
            benign = BENIGN_DUMP_LINES
            continue
        if benign:
            benign = 0 if END_OF_REPORT_RE.search(line) else benign - 1
            if not REPORT_RE.search(line) or BENIGN_DUMP_RE.search(line):
                continue
        if expected and expected.search(line):
            continue
        if REPORT_RE.search(line):
            reports.append(line)
    return reports


def kunit_results(text):
    """Top-level results of KUnit suites built into the kernel, which run
    and print before /init starts: a list of (name, ok, line)."""
    boot = "\n".join(re.sub(r"^\[\s*[0-9.]+\] ", "", line)
                     for line in text.split("ZMP_BOOTED")[0].splitlines())
    return [("kunit:" + name, ok, line)
            for name, ok, line in ktap.results("KTAP version 1\n" + boot)]


def parse_ktap(text, expected):
    """Top-level KTAP results of the guest's tests, as a list of (name, ok,
    line), with a failure for each expected test that has no result."""
    results = ktap.results(text.split("ZMP_BOOTED", 1)[-1])
    seen = {r[0] for r in results}
    for name in expected:
        if name not in seen:
            results.append((name, False, "not ok - %s: no result (guest died?)" % name))
    return results


if __name__ == "__main__":
    # guest.py reports LOG: the kernel-report lines of a kernel log
    if len(sys.argv) != 3 or sys.argv[1] != "reports":
        sys.exit("usage: guest.py reports LOG")
    with open(sys.argv[2], errors="replace") as f:
        for r in kernel_reports(f.read()):
            print(r)
