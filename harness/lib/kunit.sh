#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kunit.sh SRC: the KUnit suites of mm/.kunitconfig under UML, built out of
# tree with ccache.  Ends with "N passed, N failed" (test cases).
set -uo pipefail
src=$1
out=$(dirname "$src")/uml
cd "$src" || exit 1
./tools/testing/kunit/kunit.py run --kunitconfig=mm/.kunitconfig \
	--build_dir="$out" --jobs="${ZMP_JOBS:-$(nproc)}" --timeout=600 \
	--make_options CC="ccache gcc" --make_options HOSTCC="ccache gcc" 2>&1 |
	tee /dev/stderr | awk '
	/Testing complete\. Ran [0-9]+ tests?: / {
		p = 0; f = 0
		if (match($0, /passed: [0-9]+/)) p = substr($0, RSTART + 8, RLENGTH - 8)
		if (match($0, /failed: [0-9]+/)) f = substr($0, RSTART + 8, RLENGTH - 8)
		if (match($0, /crashed: [0-9]+/)) f += substr($0, RSTART + 9, RLENGTH - 9)
		done = 1
	}
	END {
		if (!done) { print "0 passed, 1 failed"; exit 1 }
		print p " passed, " f " failed"
		exit (f > 0)
	}' >&2
