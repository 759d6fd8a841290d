#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of harness/studies/frag: a zram block device, fragmented by
# discards in steps, then compacted.
. /zmp/lib.sh
[ "$UNIT" = 16 ] && mthp_only 16 || mthp_only 0
echo 1 > /sys/block/zram0/reset
zram_blocks zram0 || { echo "ZMP_ERROR block_size"; exit 1; }
echo "$ALGO" > /sys/block/zram0/comp_algorithm || { echo "ZMP_ERROR algorithm"; exit 1; }
echo "$DISKSIZE" > /sys/block/zram0/disksize || { echo "ZMP_ERROR disksize"; exit 1; }
fragbench --dev zram0 --corpus /dev/vda --size "$SIZE" --steps "$STEPS" --unit "$UNIT"
echo "ZMP_EXIT $?"
echo 1 > /sys/block/zram0/reset
