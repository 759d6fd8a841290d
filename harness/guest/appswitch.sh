#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of the app-switch profile (harness/bin/appswitch): the phone's
# swap (phone_swap_on: lz4 on zram0, zstd recompression, zram1 as the
# flash that idle writeback writes to), only the mTHP sizes MTHP_KB on, a
# memory cgroup "apps" held at LIMIT_MIB, and appswitch with APPS apps of
# SIZE MiB (HOT of them used every pass) for PASSES passes over the corpus
# on /dev/vda. Between passes: recompression of the pages idle since the
# last pass, writeback of at most WB_MIB MiB of them (writeback_limit),
# then every page marked idle again; a ZMP_STAT line gives mm_stat and
# bd_stat after each pass.
. /zmp/lib.sh
Z=/sys/block/zram0
# shellcheck disable=SC2086
mthp_only $MTHP_KB
block=
[ "${ZRAM_BLOCK_KB:-0}" != 0 ] && block=$((ZRAM_BLOCK_KB * 1024))
PHONE=${PHONE:-plain}
if ! phone_swap_on || ! echo 1 > $Z/writeback_limit_enable; then
	echo "ZMP_ERROR phone profile setup failed"
	exit 1
fi
bs=$(cat $Z/block_size 2>/dev/null || cat $Z/queue/optimal_io_size)
echo "ZMP_CONF {\"algo\": \"$(cat $Z/comp_algorithm)\", \"mthp_kb\": \"$MTHP_KB\", \"block_size\": $bs}"
cg=/sys/fs/cgroup/apps
echo +memory > /sys/fs/cgroup/cgroup.subtree_control && mkdir -p $cg &&
	echo +memory > $cg/cgroup.subtree_control &&
	echo "${LIMIT_MIB}M" > $cg/memory.max || { echo "ZMP_ERROR no memory cgroup"; exit 1; }
# swap_counters: pswpin and pswpout
swap_counters() { awk '$1 == "pswpin" || $1 == "pswpout" { printf "%s ", $2 }' /proc/vmstat; }
{
	echo "Z=$Z"
	echo 'echo "type=idle priority=1" > $Z/recompress || exit 1'
	echo "echo $((WB_MIB * 256)) > \$Z/writeback_limit || exit 1"
	# fails with EIO once writeback_limit is used up, on both kernels:
	# the error goes to the report, not the run
	echo 'wb=ok; echo idle > $Z/writeback 2> /tmp/wb.err || wb=$(tr -d "\\n\"" < /tmp/wb.err)'
	echo 'echo all > $Z/idle || exit 1'
	echo 'echo "ZMP_STAT {\"mm_stat\": \"$(cat $Z/mm_stat)\", \"bd_stat\": \"$(cat $Z/bd_stat)\", \"writeback\": \"$wb\"}"'
} > /tmp/between.sh
v0=$(swap_counters)
appswitch --corpus /dev/vda --cgroup $cg --apps "$APPS" --hot "$HOT" \
	--size "$SIZE" --passes "$PASSES" --between "sh /tmp/between.sh"
rc=$?
echo "ZMP_STAT {\"mm_stat\": \"$(cat $Z/mm_stat)\", \"bd_stat\": \"$(cat $Z/bd_stat)\", \"swap_before\": \"$v0\", \"swap_after\": \"$(swap_counters)\"}"
echo "ZMP_EXIT $rc"
