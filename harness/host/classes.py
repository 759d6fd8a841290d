#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Model zsmalloc's size classes and measure what a layout wastes.

usage: classes.py [--layout NAME]... SIZES_FILE...

SIZES_FILE holds one compressed 16 KiB block size a line (0: same-filled),
as `zref CORPUS ALGO BYTES sizes` prints.  For each layout the model builds
the classes the way mm/zsmalloc.c does (one class per size step, the chain
length with the smallest tail, neighbours with equal pages-per-zspage and
objects-per-zspage merged into the larger one), stores every block as
zsmalloc would (compressed size plus the inline handle, or the whole block
at or above the huge threshold) and reports the bytes lost to class
rounding and to zspage tails as a share of the compressed bytes.
"""

import argparse
import sys

PAGE = 4096
HANDLE = 8


class Layout:
    def __init__(self, name, step, max_pages, page_unit, max_size=4 * PAGE):
        self.name, self.step = name, step
        self.max_pages, self.page_unit, self.max_size = max_pages, page_unit, max_size
        self.classes = self.build()

    @staticmethod
    def chain(size, max_pages, unit):
        """zsmalloc's calculate_zspage_chain_size(), in units of UNIT pages."""
        best, best_waste = None, None
        for pages in range(unit, max_pages + 1, unit):
            if pages * PAGE < size:
                continue
            waste = (pages * PAGE) % size
            if best is None or waste < best_waste:
                best, best_waste = pages, waste
        return best

    def build(self):
        # base classes, exactly as 6.12: 32..4096 by 16, chain up to 8
        sizes = [(32 + i * 16, 8, 1) for i in range(255)]
        sizes[-1] = (PAGE, 8, 1)
        s = PAGE + self.step
        while s < self.max_size + self.step:
            sizes.append((min(s, self.max_size), self.max_pages, self.page_unit))
            s += self.step
        classes, prev = [], None
        for size, mp, unit in reversed(sizes):
            pages = self.chain(size, mp, unit)
            objs = pages * PAGE // size
            if prev and prev[1] == pages and prev[2] == objs:
                classes.append((size, prev))
                continue
            prev = (size, pages, objs)
            classes.append((size, prev))
        classes.reverse()
        return classes   # (nominal size, (real class size, pages, objs))

    def lookup(self, size):
        for nominal, cls in self.classes:
            if nominal >= size:
                return cls
        return self.classes[-1][1]

    def huge_threshold(self):
        """Smallest object (without handle) stored as a whole block."""
        top, prev = self.classes[-1][1], None
        for nominal, cls in self.classes:
            if cls is top:
                # anything over the class below, once its handle is added
                return prev - (HANDLE - 1)
            prev = nominal
        return self.max_size

    def pages_used(self, blocks, copies=1):
        """Pages the pool holds after storing BLOCKS COPIES times in a fresh
        pool (no frees): per class, whole zspages for its objects; huge
        blocks go to the largest class like everything that rounds to it."""
        count = {}
        huge = self.huge_threshold()
        for c in blocks:
            if c == 0:
                continue
            cls = self.classes[-1][1] if c >= huge else self.lookup(c + HANDLE)
            count[id(cls)] = (cls, count.get(id(cls), (cls, 0))[1] + copies)
        return sum(-(-n // cls[2]) * cls[1] for cls, n in count.values())

    def store(self, blocks):
        compr = rounding = tails = 0
        huge = self.huge_threshold()
        for c in blocks:
            if c == 0:
                continue
            if c >= huge:
                size = self.max_size
                cls = self.classes[-1][1]
            else:
                size = c + HANDLE
                cls = self.lookup(size)
            compr += c
            rounding += cls[0] - c
            tails += (cls[1] * PAGE - cls[2] * cls[0]) / cls[2]
        return compr, rounding, tails


LAYOUTS = {
    "rfc": lambda: Layout("rfc: 64 B steps, up to 8 order-2 pages", 64, 32, 4),
}


def parse_layout(spec):
    """STEP:MAXPAGES, e.g. 64:16 (order-0 pages)."""
    if spec in LAYOUTS:
        return LAYOUTS[spec]()
    step, mp = (int(x) for x in spec.split(":"))
    return Layout("%d B steps, up to %d order-0 pages" % (step, mp), step, mp, 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layout", action="append",
                    help="rfc, or STEP:MAXPAGES for order-0 chains (repeatable)")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    layouts = [parse_layout(s) for s in (a.layout or ["rfc", "64:16", "64:32"])]
    print("| sizes | layout | classes (distinct) | huge threshold | "
          "compressed bytes | rounding | tails | lost / compressed | "
          "pool pages / compressed, 1x | 10x |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for f in a.files:
        blocks = [int(l) for l in open(f) if l.strip()]
        for lay in layouts:
            compr, rnd, tails = lay.store(blocks)
            distinct = len({id(c) for _, c in lay.classes if c[0] > PAGE})
            used = [lay.pages_used(blocks, n) * PAGE for n in (1, 10)]
            print("| %s | %s | %d | %d | %d | %d | %d | %.2f%% | %.2f%% | %.2f%% |"
                  % (f.split("/")[-1], lay.name, distinct,
                     lay.huge_threshold(), compr, rnd, tails,
                     100.0 * (rnd + tails) / compr,
                     100.0 * used[0] / compr, 100.0 * used[1] / (10 * compr)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
