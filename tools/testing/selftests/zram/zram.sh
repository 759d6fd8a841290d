#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
TCID="zram.sh"
DIR="$(dirname $(readlink -f "$0"))"

. "${DIR}"/../kselftest/ktap_helpers.sh
. ./zram_lib.sh

run_zram_test()
{
	local t=$1 rc=0

	./$t.sh > $t.log 2>&1 || rc=$?
	sed 's/^/# /' $t.log
	rm -f $t.log
	if [ $rc -eq 0 ]; then
		ktap_test_pass "$t"
	elif [ $rc -eq $ksft_skip ]; then
		ktap_test_skip "$t"
	else
		ktap_test_fail "$t"
	fi
}

check_prereqs

ktap_print_header
ktap_set_plan 3
run_zram_test zram01
run_zram_test zram02
run_zram_test zram03
ktap_finished
