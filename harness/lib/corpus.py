# SPDX-License-Identifier: GPL-2.0
"""The benchmark corpora as raw images for the guest's /dev/vda."""

import os
import subprocess
import sys

import guest

MIB = 1 << 20


def fail(msg):
    print("%s: error: %s" % (os.path.basename(sys.argv[0]), msg), file=sys.stderr)
    sys.exit(1)


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
