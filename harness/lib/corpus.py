# SPDX-License-Identifier: GPL-2.0
"""The benchmark corpora as raw images for the guest's /dev/vda."""

import argparse
import os
import subprocess
import sys

import guest

MIB = 1 << 20


def fail(msg):
    print("%s: error: %s" % (os.path.basename(sys.argv[0]), msg), file=sys.stderr)
    sys.exit(1)


def add_run_host_py_args(ap):
    """The arguments harness/lib/common.sh's run_host_py() passes a host
    script: the kernels it built, the patched tree, and --validate (print
    the kernels to build, then exit)."""
    ap.add_argument("--baseline-kernel", help=argparse.SUPPRESS)
    ap.add_argument("--patched-kernel", help=argparse.SUPPRESS)
    ap.add_argument("--src", help=argparse.SUPPRESS)
    ap.add_argument("--validate", action="store_true", help=argparse.SUPPRESS)


def pyplot():
    """matplotlib's pyplot on the Agg backend, or None (with a word on
    stderr) where matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("%s: matplotlib is missing, no plot"
              % os.path.basename(sys.argv[0]), file=sys.stderr)
        return None
    return plt


def boot_round(label, kernel, initrd, timeout, **qemu):
    """Boot a benchmark's guest (guest.run_qemu() with @qemu), its console
    in LOGS/@label.log; returns (console text, log path). Fails the run for
    a guest that did not finish in @timeout seconds and for kernel reports
    on the console."""
    logfile = os.path.join(guest.LOGS, label + ".log")
    os.makedirs(os.path.dirname(logfile), exist_ok=True)
    text, timed_out = guest.run_qemu(kernel, initrd, logfile, timeout, **qemu)
    if timed_out:
        fail("%s: the guest did not finish within %d s (console: %s)"
             % (label, timeout, logfile))
    reports = guest.kernel_reports(text)
    if reports:
        fail("%s: kernel reports on the console (%s):\n  %s"
             % (label, logfile, "\n  ".join(reports[:10])))
    return text, logfile


def tile_image(img, real, size_bytes):
    """Repeat the first @real bytes of @img until it holds @size_bytes."""
    tiled = "%s-tiled-%dM.img" % (img[:-len(".img")], size_bytes // MIB)
    tmp = tiled + ".tmp"
    with open(img, "rb") as f:
        data = f.read(real)
    with open(tmp, "wb") as out:
        left = size_bytes
        while left > 0:
            out.write(data[:left])
            left -= min(left, len(data))
    os.replace(tmp, tiled)
    return tiled


def prepare_corpus(path, size_bytes, tile=False):
    """A raw image of the corpus for the guest's /dev/vda."""
    d = os.path.join(guest.WORK, "corpus")
    os.makedirs(d, exist_ok=True)
    if path is None:
        parts = [os.path.join(guest.HARNESS, "corpus", n)
                 for n in ("py.anon.zst", "node.anon.zst")]
        name = "py+node.anon"
    else:
        parts = [path]
        name = os.path.basename(path)
        if name.endswith(".zst"):
            name = name[:-len(".zst")]
    for p in parts:
        if not os.path.isfile(p) or not os.access(p, os.R_OK):
            fail("corpus %s: not a readable file" % p)
    img = os.path.join(d, name + ".img")
    tmp = img + ".tmp"
    with open(tmp, "wb") as out:
        for p in parts:
            if p.endswith(".zst"):
                r = subprocess.run(["zstd", "-dcq", p], stdout=out)
                if r.returncode:
                    fail("corpus %s: zstd could not unpack it" % p)
            else:
                with open(p, "rb") as f:
                    while True:
                        b = f.read(MIB)
                        if not b:
                            break
                        out.write(b)
        real = out.tell()
        out.write(b"\0" * ((-real) % 4096))	# virtio-blk wants whole sectors
    os.replace(tmp, img)
    if real < size_bytes and tile:
        return name + "-tiled", tile_image(img, real, size_bytes)
    if real < size_bytes:
        fail("corpus %s has %d bytes, fewer than the %d MiB mapping "
             "(use a smaller --size or --tile)" % (name, real, size_bytes // MIB))
    return name, img
