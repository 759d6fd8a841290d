#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make the erofs images of the guest test erofs-lz4.

usage: erofs_images.py CORPUS OUTDIR

Writes a tree of files to OUTDIR/tree, with a SHA256SUMS of them in it,
and builds OUTDIR/lz4.img (mkfs.erofs -zlz4, 64 KiB pclusters),
OUTDIR/lz4hc.img (-zlz4hc,12, 16 KiB pclusters) and OUTDIR/lz4-4k.img
(-zlz4, 4 KiB pclusters) from it. The files are made for the margin of
erofs's in-place decompression: a compressible head (a random pattern
of 16 to 64 bytes repeated: one long match) followed by an
incompressible tail, the block's last literal run, so that the unread
input lies as close to the output as the margin allows; among them slices
of the corpus and random files. The same seed makes the same tree; an
image is built again only when the tree's sums changed.
"""

import hashlib
import os
import random
import shutil
import subprocess
import sys

SEED = 20261126


def make_tree(corpus, tree):
    rnd = random.Random(SEED)
    with open(corpus, "rb") as f:
        data = f.read(32 << 20)
    if os.path.isdir(tree):
        shutil.rmtree(tree)
    os.makedirs(tree)
    files = []
    n = 0
    for period in (16, 17, 23, 31, 32, 33, 48, 64):
        for _ in range(12):
            head = rnd.choice((64, 1000, 4000, 16000, 60000)) + rnd.randrange(64)
            tail = rnd.choice((15, 16, 31, 32, 64, 270, 300, 1000, 4096,
                               20000)) + rnd.randrange(32)
            pat = rnd.randbytes(period)
            body = (pat * (head // period + 1))[:head] + rnd.randbytes(tail)
            files.append(("tail/%03d-p%d-h%d-t%d" % (n, period, head, tail), body))
            n += 1
    for i in range(24):
        size = rnd.choice((4096, 16384, 65536, 200000)) + rnd.randrange(4096)
        at = rnd.randrange(len(data) - size)
        files.append(("corpus/%03d" % i, data[at:at + size]))
    for i in range(4):
        files.append(("random/%03d" % i, rnd.randbytes(rnd.randrange(1, 100000))))
    sums = []
    for name, body in files:
        path = os.path.join(tree, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(body)
        sums.append("%s  %s\n" % (hashlib.sha256(body).hexdigest(), name))
    sums = "".join(sums)
    with open(os.path.join(tree, "SHA256SUMS"), "w") as f:
        f.write(sums)
    return hashlib.sha256(sums.encode()).hexdigest()


def main(corpus, out):
    os.makedirs(out, exist_ok=True)
    digest = make_tree(corpus, os.path.join(out, "tree"))
    stamp = os.path.join(out, "images.sha256")
    images = (("lz4.img", ["-zlz4", "-C65536"]),
              ("lz4hc.img", ["-zlz4hc,12", "-C16384"]),
              ("lz4-4k.img", ["-zlz4"]))
    if os.path.exists(stamp) and open(stamp).read() == digest and all(
            os.path.exists(os.path.join(out, i)) for i, _ in images):
        return 0
    for img, args in images:
        path = os.path.join(out, img)
        if os.path.exists(path):
            os.unlink(path)
        subprocess.run(["mkfs.erofs", "--quiet", "-T0", "--all-root"] + args +
                       [path, os.path.join(out, "tree")], check=True)
    with open(stamp, "w") as f:
        f.write(digest)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    sys.exit(main(sys.argv[1], sys.argv[2]))
