#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of the swap benchmark: one zram swap device, the mTHP knobs
# set as asked, then swapbench over the corpus on /dev/vda. FAIL_SWAPIN=1:
# fail_page_alloc fails every allocation of order >= 2 of the tasks that
# ask for it (swapbench, during its swap-in phases). LATENCY=1, COMPACT=1:
# swapbench's --latency and --compact; WRITERS: its --writers. ZRAM_BLOCK_KB: the device's block_size
# (0: its default; ignored by a kernel without the attribute). ZRAM_LEVEL:
# the device's algorithm_params level (0: the algorithm's default).
. /zmp/lib.sh
for s in $MTHP_KB; do
	if [ "$s" != 0 ] && [ ! -e "$THP/hugepages-${s}kB" ]; then
		echo "ZMP_ERROR no $s KiB mTHP on this kernel"
		exit 1
	fi
done
# shellcheck disable=SC2086
mthp_only $MTHP_KB
block=
[ "${ZRAM_BLOCK_KB:-0}" != 0 ] && block=$((ZRAM_BLOCK_KB * 1024))
level=
[ "${ZRAM_LEVEL:-0}" != 0 ] && level=$ZRAM_LEVEL
if ! zram_swap_on zram0 "$ALGO" "$DISKSIZE" "$block" "$level"; then
	echo "ZMP_ERROR zram setup failed (algorithm '$ALGO', block size '$block')"
	exit 1
fi
bs=$(cat /sys/block/zram0/block_size 2>/dev/null || echo 0)
echo "ZMP_CONF {\"algo\": \"$(cat /sys/block/zram0/comp_algorithm)\", \"mthp_kb\": \"$MTHP_KB\", \"block_size\": $bs, \"level\": ${level:-0}, \"fail_swapin\": ${FAIL_SWAPIN:-0}}"
fail=
if [ "${FAIL_SWAPIN:-0}" = 1 ]; then
	fail_large_allocs || { echo "ZMP_ERROR fail_page_alloc setup failed"; exit 1; }
	fail=--fail-swapin
fi
extra=
[ "${LATENCY:-0}" = 1 ] && extra="$extra --latency"
[ "${COMPACT:-0}" = 1 ] && extra="$extra --compact"
[ "${WRITERS:-1}" != 1 ] && extra="$extra --writers $WRITERS"
swapbench --corpus /dev/vda --size "$SIZE" --rounds "$ROUNDS" $fail $extra
rc=$?
# compaction (kcompactd's proactive runs included) during the run
grep -E '^(compact_|kcompactd_)' /proc/vmstat | sed 's/^/ZMP_VMSTAT /'
echo "ZMP_EXIT $rc"
zram_swap_off zram0
