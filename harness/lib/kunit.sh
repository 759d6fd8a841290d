#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kunit.sh SRC: the KUnit suites of mm/.kunitconfig under UML, built out of
# tree with ccache, twice: as configured (multi-page classes on) with KASAN,
# lockdep and DEBUG_VM, and with the multi-page option off.  Ends with
# "N passed, N failed" (test cases of both runs).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
src=$1
cd "$src" || exit 1

run() {	# run NAME KUNIT.PY-ARGS...
	local name=$1
	shift
	echo "== KUnit run: $name"
	./tools/testing/kunit/kunit.py run --kunitconfig=mm/.kunitconfig \
		--build_dir="$(dirname "$src")/uml-$name" \
		--jobs="${ZMP_JOBS:-$(nproc)}" --timeout=600 \
		--make_options CC="ccache gcc" --make_options HOSTCC="ccache gcc" \
		"$@" 2>&1
	# KASAN fails the running test case; other reports must fail too
	# (the patterns and filter of every kernel log: guest.py reports).
	/usr/bin/python3 "$HERE/guest.py" reports "$(dirname "$src")/uml-$name/test.log" |
		sed 's/^/kernel report: /'
	echo "== end of KUnit run: $name"
}



{
	run debug --kconfig_add CONFIG_DEBUG_KERNEL=y --kconfig_add CONFIG_KASAN=y \
		--kconfig_add CONFIG_DEBUG_VM=y --kconfig_add CONFIG_PROVE_LOCKING=y \
		--kconfig_add CONFIG_DEBUG_LIST=y
	run single-page --kconfig_add CONFIG_ZSMALLOC_MULTI_PAGES=n
} | tee /dev/stderr | awk '
	/^== KUnit run: / { runs++ }
	/^kernel report: / { f++ }
	/Testing complete\. Ran [0-9]+ tests?: / {
		done++
		if (match($0, /passed: [0-9]+/)) p += substr($0, RSTART + 8, RLENGTH - 8)
		if (match($0, /failed: [0-9]+/)) f += substr($0, RSTART + 8, RLENGTH - 8)
		if (match($0, /crashed: [0-9]+/)) f += substr($0, RSTART + 9, RLENGTH - 9)
	}
	END {
		f += runs - done	# a run that did not complete fails
		print p + 0 " passed, " f + 0 " failed"
		exit (f > 0)
	}' >&2
