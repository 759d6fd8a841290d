#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kunit.sh SRC: the KUnit suites of mm/.kunitconfig under UML, built out of
# tree with ccache, twice: as configured (multi-page classes on) with KASAN,
# lockdep and DEBUG_VM, and with the multi-page option off.  Ends with
# "N passed, N failed" (test cases of both runs).
set -uo pipefail
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
	# KASAN fails the running test case; other reports must fail too.
	# UML's virt-pci driver warns at every boot without a PCI host: not ours.
	grep -E "$REPORTS" "$(dirname "$src")/uml-$name/test.log" |
		grep -v "virt-pci.c" | sed 's/^/kernel report: /'
	echo "== end of KUnit run: $name"
}

REPORTS='(BUG: |WARNING: |KASAN: |UBSAN: |general protection|Oops: |Kernel panic|possible circular locking|possible recursive locking|inconsistent lock state|list_add corruption|list_del corruption|Bad page state)'


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
