#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Test the multi_pages device attribute (CONFIG_ZRAM_MULTI_PAGES): valid
# and invalid input before initialisation, -EBUSY after, unchanged by
# failed writes, free to change again after reset.

TCID="zram03"
ERR_CODE=0

. ./zram_lib.sh

dev_num=1

# expect_write VALUE OK|FAIL: write VALUE to multi_pages, check the outcome
expect_write()
{
	local attr=/sys/block/zram$dev_start/multi_pages

	if echo -n "$1" > $attr 2>/dev/null; then
		[ "$2" = OK ] || zram_fail "writing '$1' to multi_pages succeeded"
	else
		[ "$2" = FAIL ] || zram_fail "writing '$1' to multi_pages failed"
	fi
}

expect_value()
{
	local v=$(cat /sys/block/zram$dev_start/multi_pages)

	[ "$v" = "$1" ] || zram_fail "multi_pages is '$v', expected '$1'"
}

check_prereqs
zram_load
if [ ! -e /sys/block/zram$dev_start/multi_pages ]; then
	echo "no multi_pages attribute (CONFIG_ZRAM_MULTI_PAGES=n)"
	zram_cleanup
	exit $ksft_skip
fi

for v in 1 y on yes TRUE; do
	expect_write "$v" OK
	expect_value 1
done
for v in 0 n off no False; do
	expect_write "$v" OK
	expect_value 0
done
for v in 2 -1 garbage 99999999999999999999 1x yes2 onion; do
	expect_write "$v" FAIL
	expect_value 0
done

echo 1 > /sys/block/zram$dev_start/multi_pages
echo 1M > /sys/block/zram$dev_start/disksize || zram_fail "disksize"
expect_write 0 FAIL
expect_write garbage FAIL
expect_value 1
echo 1 > /sys/block/zram$dev_start/reset
expect_write 0 OK
expect_value 0

zram_cleanup

if [ $ERR_CODE -ne 0 ]; then
	echo "$TCID : [FAIL]"
	exit 1
fi
echo "$TCID : [PASS]"
