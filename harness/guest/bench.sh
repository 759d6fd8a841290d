#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of the swap benchmark: one zram swap device, the mTHP knobs
# set as asked, then swapbench over the corpus on /dev/vda.
. /zmp/lib.sh
mthp_only "$MTHP_KB"
if ! zram_swap_on zram0 "$ALGO" "$DISKSIZE"; then
	echo "ZMP_ERROR zram setup failed (algorithm '$ALGO')"
	exit 1
fi
echo "ZMP_CONF {\"algo\": \"$(cat /sys/block/zram0/comp_algorithm)\", \"mthp_kb\": $MTHP_KB}"
swapbench --corpus /dev/vda --size "$SIZE" --rounds "$ROUNDS"
echo "ZMP_EXIT $?"
zram_swap_off zram0
