#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Rewrite a series' file states and split diffs from a git branch.

usage: resplit.py REPO BASE_TAG BRANCH SERIES_DIR OVERLAY_ROOT

REPO's commits BASE_TAG..BRANCH must be the series of SERIES_DIR/series.conf,
one commit a patch, in order, each with the subject of its NN-SLUG.txt.
Every kernel file's state in each patch that changes it is then written
to series.conf ("final" in the last patch that changes it, "final-minus"
with the later patches' numbers, newest first, in the others), and
split/N.diff gets what patch N changes in files an earlier patch changed
too. The branch's last tree must equal the sparse tree at OVERLAY_ROOT.
Lines of series.conf other than the file lines are kept.
"""

import os
import re
import subprocess
import sys


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True,
                          capture_output=True, text=True).stdout


def main(repo, base, branch, series, overlay):
    conf = os.path.join(series, "series.conf")
    lines = open(conf).read().splitlines()
    patches = [(m.group(1), m.group(2)) for m in
               (re.match(r"patch (\d+) (\S+)$", l) for l in lines) if m]
    commits = git(repo, "rev-list", "--reverse", "%s..%s" % (base, branch)).split()
    if len(commits) != len(patches):
        sys.exit("%s has %d commits, series.conf %d patches" %
                 (branch, len(commits), len(patches)))
    files = {}      # path -> patch numbers that change it, in order
    changed = {}    # patch number -> paths it changes
    for (nn, slug), c in zip(patches, commits):
        subject = git(repo, "log", "-1", "--format=%s", c).strip()
        want = open(os.path.join(series, "%s-%s.txt" % (nn, slug))).readline().strip()
        if subject != want:
            sys.exit("patch %s: commit %s is '%s', not '%s'" % (nn, c[:12], subject, want))
        paths = git(repo, "diff", "--name-only", c + "^", c).split()
        changed[nn] = paths
        for p in paths:
            files.setdefault(p, []).append(nn)
    for p in files:
        have = git(repo, "show", "%s:%s" % (commits[-1], p))
        with open(os.path.join(overlay, p)) as f:
            if f.read() != have:
                sys.exit("%s differs between %s and the sparse tree" % (p, branch))

    split = os.path.join(series, "split")
    for f in os.listdir(split):
        if f.endswith(".diff"):
            os.unlink(os.path.join(split, f))
    for (nn, _), c in zip(patches, commits):
        later = [p for p in changed[nn] if files[p][0] != nn]
        if later:
            with open(os.path.join(split, nn + ".diff"), "w") as f:
                f.write(git(repo, "diff", "--abbrev=9", c + "^", c, "--", *later))

    # the files of each patch in the order series.conf gave them
    order, cur = {}, None
    for l in lines:
        m = re.match(r"patch (\d+) ", l)
        if m:
            cur = m.group(1)
        elif cur and re.match(r"[ \t]+\S", l):
            order.setdefault(cur, []).append(l.split()[0])

    out, cur = [], None
    for l in lines:
        m = re.match(r"patch (\d+) ", l)
        if m:
            cur = m.group(1)
            out.append(l)
            old = order.get(cur, [])
            for p in sorted(changed[cur], key=lambda p: (
                    old.index(p) if p in old else len(old), p)):
                after = [n for n in files[p] if int(n) > int(cur)]
                state = "final-minus " + " ".join(reversed(after)) if after else "final"
                tabs = max(1, (40 - 8 - len(p) + 7) // 8)
                out.append("\t%s%s%s" % (p, "\t" * tabs, state))
            continue
        if cur and re.match(r"[ \t]+\S", l):
            continue    # an old file line: written above
        out.append(l)
    with open(conf, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit(__doc__.splitlines()[2])
    main(*sys.argv[1:])
