#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of the swap benchmark: one zram swap device, the mTHP knobs
# set as asked, then swapbench over the corpus on /dev/vda. FAIL_SWAPIN=1:
# fail_page_alloc fails every allocation of order >= 2 of the tasks that
# ask for it (swapbench, during its swap-in phases). LATENCY=1, COMPACT=1:
# swapbench's --latency and --compact; WRITERS: its --writers. ZRAM_BLOCK_KB: the device's block_size
# (0: its default; ignored by a kernel without the attribute). ZRAM_LEVEL:
# the device's algorithm_params level (0: the algorithm's default).
# PROFILE_MARK=1: swapbench --mark (bench --profile-swapin).
# PHONE=plain|compressed: the phone profile: lz4, zstd recompression of
# idle memory (priority 1) and idle writeback to a backing device (zram1,
# with compressed_writeback for "compressed") between swap-out and swap-in;
# ZMP_PHONE lines give mm_stat and bd_stat after each step.
# BESIDE=1: zstd recompression of idle memory (priority 1) runs in a loop
# beside swapbench, from before its swap-out to after its swap-in; a
# ZMP_BESIDE line gives the passes it made.
. /zmp/lib.sh
Z=/sys/block/zram0
# phone_stat STAGE: a ZMP_PHONE line with mm_stat and bd_stat as they are
phone_stat()
{
	echo "ZMP_PHONE {\"stage\": \"$1\", \"mm_stat\": \"$(cat $Z/mm_stat)\", \"bd_stat\": \"$(cat $Z/bd_stat)\"}"
}
# beside_swap_on: zram0 as swap with zstd as its recompression algorithm
beside_swap_on()
{
	echo 1 > $Z/reset || return 1
	zram_blocks zram0 $block || return 1
	echo "$ALGO" > $Z/comp_algorithm &&
		echo "algo=zstd priority=1" > $Z/recomp_algorithm &&
		echo "$DISKSIZE" > $Z/disksize && mkswap /dev/zram0 > /dev/null &&
		swapon /dev/zram0
}
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
if [ -n "${PHONE:-}" ]; then
	phone_swap_on || { echo "ZMP_ERROR phone profile setup failed"; exit 1; }
	# what swapbench runs between swap-out and swap-in
	cat > /tmp/phone.sh << 'EOF'
Z=/sys/block/zram0
stat() {
	echo "ZMP_PHONE {\"stage\": \"$1\", \"mm_stat\": \"$(cat $Z/mm_stat)\", \"bd_stat\": \"$(cat $Z/bd_stat)\"}"
}
echo all > $Z/idle && echo "type=idle priority=1" > $Z/recompress || exit 1
stat recompressed
echo all > $Z/idle && echo idle > $Z/writeback || exit 1
stat written_back
EOF
elif [ "${BESIDE:-0}" = 1 ]; then
	beside_swap_on || { echo "ZMP_ERROR recompression setup failed"; exit 1; }
elif ! zram_swap_on zram0 "$ALGO" "$DISKSIZE" "$block" "$level"; then
	echo "ZMP_ERROR zram setup failed (algorithm '$ALGO', block size '$block')"
	exit 1
fi
# the block size: block_size, or where a kernel has no such attribute (a
# series without block sizes) the optimal I/O size zram gives swap
bs=$(cat /sys/block/zram0/block_size 2>/dev/null ||
	cat /sys/block/zram0/queue/optimal_io_size 2>/dev/null || echo 0)
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
[ "${PROFILE_MARK:-0}" = 1 ] && extra="$extra --mark"
if [ "${BESIDE:-0}" = 1 ]; then
	rm -f /tmp/beside.stop
	echo 0 > /tmp/beside.n
	(
		n=0
		while [ ! -e /tmp/beside.stop ]; do
			echo all > $Z/idle
			echo "type=idle priority=1" > $Z/recompress 2> /dev/null
			n=$((n + 1))
			echo $n > /tmp/beside.n
		done
	) &
	beside=$!
fi
if [ -n "${PHONE:-}" ]; then
	swapbench --corpus /dev/vda --size "$SIZE" --rounds "$ROUNDS" $fail $extra \
		--between "sh /tmp/phone.sh"
	rc=$?
	phone_stat swapped_in
else
	swapbench --corpus /dev/vda --size "$SIZE" --rounds "$ROUNDS" $fail $extra
	rc=$?
fi
if [ "${BESIDE:-0}" = 1 ]; then
	touch /tmp/beside.stop
	wait $beside
	echo "ZMP_BESIDE {\"passes\": $(cat /tmp/beside.n)}"
fi
# zram's missed and deferred slot frees (debug_stat: miss_free on its second
# line, the series' block line after it)
sed 's/^/ZMP_DEBUG_STAT /' /sys/block/zram0/debug_stat
# compaction (kcompactd's proactive runs included) during the run
grep -E '^(compact_|kcompactd_)' /proc/vmstat | sed 's/^/ZMP_VMSTAT /'
echo "ZMP_EXIT $rc"
zram_swap_off zram0
[ -n "${PHONE:-}" ] && echo 1 > /sys/block/zram1/reset
