#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Test the multi_pages and block_size device attributes
# (CONFIG_ZRAM_MULTI_PAGES): valid and invalid input before
# initialisation, -EBUSY after, unchanged by failed writes, free to change
# again after reset; multi_pages and block_size agree.

TCID="zram03"
ERR_CODE=0

. ./zram_lib.sh

dev_num=1

# attr_write ATTR VALUE OK|FAIL: write VALUE to ATTR, check the outcome
attr_write()
{
	local attr=/sys/block/zram$dev_start/$1

	if echo -n "$2" > $attr 2>/dev/null; then
		[ "$3" = OK ] || zram_fail "writing '$2' to $1 succeeded"
	else
		[ "$3" = FAIL ] || zram_fail "writing '$2' to $1 failed"
	fi
}

# attr_value ATTR VALUE: ATTR reads VALUE
attr_value()
{
	local v=$(cat /sys/block/zram$dev_start/$1)

	[ "$v" = "$2" ] || zram_fail "$1 is '$v', expected '$2'"
}

expect_write() { attr_write multi_pages "$@"; }
expect_value() { attr_value multi_pages "$@"; }

# block_size: powers of two from a page up to the largest block, which is
# at least two pages; the default is four pages, or the largest if smaller
test_block_size()
{
	local page max size def

	# zram sets its physical block size to the page size
	page=$(cat /sys/block/zram$dev_start/queue/physical_block_size)

	echo 1 > /sys/block/zram$dev_start/reset
	echo 1 > /sys/block/zram$dev_start/multi_pages
	def=$(cat /sys/block/zram$dev_start/block_size)
	max=$page
	while echo $((max * 2)) > /sys/block/zram$dev_start/block_size 2>/dev/null; do
		max=$((max * 2))
		attr_value block_size $max
		attr_value multi_pages 1
	done
	[ $max -ge $((2 * page)) ] || zram_fail "largest block_size $max"
	[ $def -eq $((4 * page)) ] || [ $def -eq $max ] ||
		zram_fail "default block_size $def (page $page, largest $max)"
	echo "block_size: default $def, largest $max"
	for size in $((max * 2)) $((max * 4)) $((page * 3)) $((page / 2)) \
		    $((page + 1)) 0 -$page garbage "${page}x" "$((max / 1024))KK" \
		    99999999999999999999; do
		attr_write block_size "$size" FAIL
		attr_value block_size $max
	done
	attr_write block_size "$((page / 1024))K" OK
	attr_value block_size $page
	attr_value multi_pages 0
	attr_write block_size "$((max / 1024))K" OK
	attr_value block_size $max
	# 1 keeps a block size already chosen
	expect_write 1 OK
	attr_value block_size $max
	expect_write 0 OK
	attr_value block_size $page
	expect_write 1 OK
	attr_value block_size $def

	attr_write block_size $max OK
	echo 1M > /sys/block/zram$dev_start/disksize || zram_fail "disksize"
	attr_write block_size $page FAIL
	attr_write block_size garbage FAIL
	attr_value block_size $max
	echo 1 > /sys/block/zram$dev_start/reset
	attr_write block_size $page OK
	attr_value block_size $page
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

test_block_size

zram_cleanup

if [ $ERR_CODE -ne 0 ]; then
	echo "$TCID : [FAIL]"
	exit 1
fi
echo "$TCID : [PASS]"
