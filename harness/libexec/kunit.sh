#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kunit.sh SRC [RUN...]: KUnit suites under UML, built out of tree with
# ccache, in runs: debug (mm/.kunitconfig, multi-page classes on, with
# KASAN, lockdep and DEBUG_VM), debug-order4 (the same with the largest
# multi-page order, 64 KiB objects on 4 KiB pages), single-page (the
# multi-page option off, with the decoder's suite of lib/lz4/.kunitconfig
# in the same kernel, under KASAN, lockdep and DEBUG_VM too: one build
# for both) and lz4 (the decoder's suite alone, as in single-page); debug
# and single-page when no RUN is named (the x86_64 debug guest runs the
# zsmalloc suite at order 4). Prints KTAP: a result for every test case of every run (from
# kunit.py's JSON), and a failed one for a run that did not complete or
# whose log has a kernel report, that reports no case, or whose kunit.py
# exits with an error (a failed case, a crash, KTAP it could not parse);
# then "N passed, N failed". kunit.py's own output goes to stderr.
set -uo pipefail
LIB=$(cd "$(dirname "$0")/../lib" && pwd)
src=$1
shift
runs=${*:-debug single-page}
cd "$src" || exit 1

run() {	# run NAME KUNITCONFIG KUNIT.PY-ARGS...: the KTAP lines of one run, unnumbered
	local name=$1 kunitconfig=$2 dir json rc cases
	shift 2
	dir=$(dirname "$src")/uml-$name
	json=$dir/results.json
	rm -f "$json"
	echo "== KUnit run: $name" >&2
	./tools/testing/kunit/kunit.py run --kunitconfig="$kunitconfig" \
		--build_dir="$dir" --json="$json" \
		--jobs="${ZMP_JOBS:-$(nproc)}" --timeout=600 \
		--make_options CC="ccache gcc" --make_options HOSTCC="ccache gcc" \
		"$@" >&2
	rc=$?
	if [ -s "$json" ]; then
		cases=$(/usr/bin/python3 "$LIB/ktap.py" kunit "$json" "$name")
		[ -n "$cases" ] && echo "$cases" ||
			echo "not ok 0 $name: the run reported no test case"
	else
		echo "not ok 0 $name: the run did not complete (no results)"
	fi
	# a failed case fails kunit.py too; a crash, a timeout or output it
	# could not parse fails the run even where the JSON looks whole
	[ $rc -eq 0 ] || echo "not ok 0 $name: kunit.py exited with status $rc"
	# KASAN fails the running test case; other reports must fail too
	# (the patterns and filter of every kernel log: guest.py reports)
	if [ -s "$dir/test.log" ]; then
		/usr/bin/python3 "$LIB/guest.py" reports "$dir/test.log" > "$dir/reports"
		if [ -s "$dir/reports" ]; then
			echo "not ok 0 $name: kernel reports in the UML log"
			sed 's/^/    /' "$dir/reports"
		fi
	fi
}

debug="--kconfig_add CONFIG_DEBUG_KERNEL=y --kconfig_add CONFIG_KASAN=y
	--kconfig_add CONFIG_DEBUG_VM=y --kconfig_add CONFIG_PROVE_LOCKING=y
	--kconfig_add CONFIG_DEBUG_LIST=y"
# shellcheck disable=SC2086
for r in $runs; do
	case $r in
	debug)	run debug mm/.kunitconfig $debug ;;
	debug-order4)
		run debug-order4 mm/.kunitconfig $debug \
			--kconfig_add CONFIG_ZSMALLOC_MULTI_PAGES_ORDER=4 ;;
	single-page)
		run single-page mm/.kunitconfig \
			--kunitconfig=lib/lz4/.kunitconfig $debug \
			--kconfig_add CONFIG_ZSMALLOC_MULTI_PAGES=n ;;
	lz4)	run lz4 lib/lz4/.kunitconfig $debug ;;
	*)	echo "not ok 0 no KUnit run named $r" ;;
	esac
done | awk '
	BEGIN { print "TAP version 13" }
	/^(not )?ok [0-9]+ / {
		n++
		ok = ($1 == "ok")
		sub(/^(not )?ok [0-9]+ /, "")
		print (ok ? "ok " : "not ok ") n " " $0
		if (ok) p++; else f++
		next
	}
	{ print }
	END { print "1.." n; print p + 0 " passed, " f + 0 " failed"; exit (f > 0 || n == 0) }'
