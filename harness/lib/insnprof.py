"""Where the guest's instructions go: harness/bin/bench --profile.

qemu runs the guest with the TCG plugin harness/host/tbprof.c, which counts
the instructions executed in every translated block; this module builds
the plugin (against the plugin header of Debian's qemu 7.2 source, fetched
from Debian's archive and checked by its sha256) and attributes the counts
to kernel functions with the kernel's System.map.
"""
import bisect
import collections
import os
import tarfile

import guest

QEMU_ORIG = "http://deb.debian.org/debian/pool/main/q/qemu/qemu_7.2+dfsg.orig.tar.xz"
QEMU_ORIG_SHA256 = "91aca71520040edc40b8d437aa3004dae614f58e286cf653ee8996c07af2962f"
HEADER = "qemu-7.2.0/include/qemu/qemu-plugin.h"
# the compression libraries' symbol prefixes (lib/zstd, lib/lz4)
LIB_PREFIXES = ("ZSTD_", "HUF_", "FSE_", "HIST_", "BIT_", "LZ4_")
# user space, and what ran before the kernel's own addresses (tbprof.c)
USER = "(user space)"


def plugin():
    """Path of tbprof.so, built on first use."""
    inc = os.path.join(guest.WORK, "qemu-plugin")
    hdr = os.path.join(inc, "qemu-plugin.h")
    if not os.path.exists(hdr):
        tarball = guest.fetch_checked(
            QEMU_ORIG, QEMU_ORIG_SHA256,
            os.path.join(guest.WORK, "downloads", os.path.basename(QEMU_ORIG)))
        os.makedirs(inc, exist_ok=True)
        with tarfile.open(tarball) as t:
            with t.extractfile(HEADER) as f, open(hdr + ".tmp", "wb") as o:
                o.write(f.read())
        os.replace(hdr + ".tmp", hdr)
        os.remove(tarball)
    return guest.host_tool("tbprof.so", QEMU_PLUGIN_INC=inc)


# swapbench --mark calls getpriority() before and after its swap-in
MARK_SYMBOL = "__x64_sys_getpriority"


def qemu_args(out, mark=None):
    arg = "%s,out=%s" % (plugin(), out)
    if mark is not None:
        arg += ",mark=%x" % mark
    return ["-plugin", arg]


def mark_address(kernel):
    """Address of MARK_SYMBOL in the build that made the image @kernel."""
    with open(system_map(kernel)) as f:
        for line in f:
            a, t, n = line.split()[:3]
            if n == MARK_SYMBOL:
                return int(a, 16)
    raise SystemExit("profile: no %s in %s" % (MARK_SYMBOL, system_map(kernel)))


def system_map(kernel):
    """The System.map of the build that made the image @kernel."""
    d = os.path.dirname(os.path.abspath(kernel))
    while d != "/":
        p = os.path.join(d, "System.map")
        if os.path.exists(p):
            return p
        d = os.path.dirname(d)
    raise SystemExit("profile: no System.map above %s" % kernel)


def functions(kernel, prof):
    """Counter: kernel function (or USER) -> instructions executed."""
    if os.path.getsize(prof) == 0:
        raise SystemExit("profile: %s is empty (with a mark: the guest's "
                         "mark did not run exactly twice)" % prof)
    addrs, names = [], []
    with open(system_map(kernel)) as f:
        for line in f:
            a, t, n = line.split()[:3]
            if t in "tTwW":
                addrs.append(int(a, 16))
                names.append(n)
    c = collections.Counter()
    with open(prof) as f:
        for line in f:
            pc, insns, execs = line.split()
            pc = int(pc, 16)
            if pc < 0xffff800000000000:
                c[USER] += int(insns) * int(execs)
                continue
            i = bisect.bisect_right(addrs, pc) - 1
            c[names[i] if i >= 0 else "?"] += int(insns) * int(execs)
    return c


def in_library(name):
    return name.startswith(LIB_PREFIXES)


def table(counts, kinds, top=30):
    """Markdown: the top functions of all @kinds, M instructions each."""
    lines = ["| function | " + " | ".join(kinds) + " |",
             "|---" * (len(kinds) + 1) + "|"]

    def row(title, vals):
        lines.append("| %s | %s |" % (title, " | ".join(
            "%.1f" % (v / 1e6) for v in vals)))

    row("all (kernel and user space)",
        [sum(counts[k].values()) for k in kinds])
    row("kernel, zstd and lz4 (%s functions)" % ", ".join(LIB_PREFIXES),
        [sum(v for n, v in counts[k].items() if in_library(n)) for k in kinds])
    row("kernel, everything else",
        [sum(v for n, v in counts[k].items()
             if n != USER and not in_library(n)) for k in kinds])
    row(USER, [counts[k][USER] for k in kinds])
    total = collections.Counter()
    for k in kinds:
        total.update(counts[k])
    for name, _ in total.most_common(top + 1):
        if name != USER:
            row("`%s`" % name, [counts[k][name] for k in kinds])
    return "\n".join(lines)
