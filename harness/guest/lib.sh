# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest tests: KTAP output and zram/swap setup.

. /kselftest/kselftest/ktap_helpers.sh

THP=/sys/kernel/mm/transparent_hugepage

# The block zram stores large folios in, in KiB: four pages (16 KiB with
# 4 KiB pages, 64 KiB with 16 KiB pages), the smallest anonymous mTHP size.
BLOCK_KB=$(ls -d $THP/hugepages-*kB/enabled 2>/dev/null |
	sed 's/.*hugepages-\([0-9]*\)kB.*/\1/' | sort -n | head -n 1)
BLOCK_KB=${BLOCK_KB:-16}
PAGE_KB=$((BLOCK_KB / 4))
# counts of blocks or pages in a fixed amount of memory, against 4 KiB pages
SCALE=$((BLOCK_KB / 16))

# mthp_only SIZE_KB...: enable those mTHP sizes (always), every other size
# never (0 or none: none).
mthp_only()
{
	local d s
	echo never > $THP/enabled
	for d in $THP/hugepages-*kB; do
		echo never 2>/dev/null > "$d/enabled"	# not every size is anon
	done
	for s in "$@"; do
		[ "$s" != 0 ] && echo always > "$THP/hugepages-${s}kB/enabled"
	done
	return 0
}

# require_thp_swap: skip the test where swap splits large folios before
# writing them out (no CONFIG_THP_SWAP: arm64 has it with 4 KiB pages
# only), so that zram never sees a block through swap. THP_SWAP=n in
# run.conf says so (harness/bin/test --arch arm64 --pages 16k).
require_thp_swap()
{
	if [ "${THP_SWAP:-y}" = n ]; then
		ktap_skip_all "swap splits large folios here (no CONFIG_THP_SWAP)"
		exit 4
	fi
}

# require_multi_pages: skip the test on a kernel without multi-page blocks.
require_multi_pages()
{
	if [ ! -e /sys/block/zram0/multi_pages ]; then
		ktap_skip_all "no CONFIG_ZRAM_MULTI_PAGES"
		exit 4
	fi
}

# require_mp_stat N WHY: skip the test, saying WHY, on a kernel whose
# multi_pages_stat has fewer than N counters.
require_mp_stat()
{
	if [ "$(wc -w < /sys/block/zram0/multi_pages_stat)" -lt "$1" ]; then
		ktap_skip_all "$2"
		exit 4
	fi
}

# block_swap_on ALGO DISKSIZE: zram0 as a fresh swap device storing blocks,
# with the block-sized mTHP the only one enabled.
block_swap_on()
{
	mthp_only $BLOCK_KB
	echo 1 > /sys/block/zram0/reset
	zram_blocks zram0 || return 1
	zram_swap_on zram0 "$1" "$2"
}

# zram_blocks DEV [BLOCK_BYTES]: DEV, not initialised, stores blocks of
# that size (four pages by default, the size multi_pages selects) where
# the kernel has block_size. A new device stores pages until told
# (CONFIG_ZRAM_DEF_BLOCK_ORDER=0), and a reset keeps the size it had.
zram_blocks()
{
	[ -e /sys/block/$1/block_size ] || return 0
	echo "${2:-$((BLOCK_KB * 1024))}" > /sys/block/$1/block_size
}

# zram_swap_on DEV ALGO DISKSIZE [BLOCK_BYTES [LEVEL]]: a fresh zram swap
# device (with that block_size where the kernel has the attribute, else
# the one it had, and that algorithm level through algorithm_params).
zram_swap_on()
{
	local dev=$1 algo=$2 size=$3 block=$4 level=$5
	[ -e /sys/block/$dev ] || cat /sys/class/zram-control/hot_add > /dev/null
	echo 1 > /sys/block/$dev/reset || return 1
	if [ -n "$block" ]; then
		zram_blocks $dev $block || return 1
	fi
	echo "$algo" > /sys/block/$dev/comp_algorithm || return 1
	if [ -n "$level" ]; then
		echo "algo=$algo level=$level" > /sys/block/$dev/algorithm_params ||
			return 1
	fi
	echo "$size" > /sys/block/$dev/disksize || return 1
	mkswap /dev/$dev > /dev/null || return 1
	swapon /dev/$dev || return 1
}

# fail_large_allocs: fail_page_alloc fails every allocation of order >= 2
# of the tasks that set /proc/PID/make-it-fail (and only theirs).
fail_large_allocs()
{
	local fa=/sys/kernel/debug/fail_page_alloc kv
	[ -d $fa ] || mount -t debugfs none /sys/kernel/debug
	[ -d $fa ] || return 1
	for kv in min-order=2 probability=100 interval=1 times=-1 task-filter=Y \
		  ignore-gfp-wait=N ignore-gfp-highmem=N verbose=0; do
		echo "${kv#*=}" > "$fa/${kv%%=*}" || return 1
	done
}

# swapoff_leaves_nothing STATE: swapoff zram0, which must succeed, then a
# KTAP result: the pool is back to STATE (pool_state after mkswap: the
# header page alone), no block left.
swapoff_leaves_nothing()
{
	local now
	if ! swapoff /dev/zram0; then
		ktap_test_fail "swapoff leaves no page and no block (swapoff failed)"
		return
	fi
	now=$(pool_state)
	[ "$now" = "$1" ] && [ "$(mp_stat zram0 $MP_STORED)" -eq 0 ] &&
		ktap_test_pass "swapoff leaves no page and no block" ||
		ktap_test_fail "swapoff leaves no page and no block (pool $now, was $1; blocks $(mp_stat zram0 $MP_STORED))"
}

# pool_state [DEV]: what a device (zram0) holds, to compare before and
# after: mm_stat's orig_data_size, compr_data_size and mem_used_total, then
# "class:obj_used" of each zsmalloc class holding objects (debugfs, with
# CONFIG_ZSMALLOC_STAT)
pool_state()
{
	local d=${1:-zram0} classes=/sys/kernel/debug/zsmalloc/${1:-zram0}/classes
	[ -d /sys/kernel/debug/zsmalloc ] || mount -t debugfs none /sys/kernel/debug
	set -- $(cat /sys/block/$d/mm_stat)
	printf "%s %s %s |" "$1" "$2" "$3"
	[ ! -r $classes ] || awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "obj_used") c = i; next }
		$1 ~ /^[0-9]+$/ && c && $c > 0 { printf " %s:%s", $1, $c }' $classes
	echo
}

# pool_back_to TAG STATE...: a KTAP result: swapoff (done) left zram0's
# pool as one of the STATEs (pool_state) says
pool_back_to()
{
	local tag=$1 now=$(pool_state) s
	shift
	for s in "$@"; do
		if [ "$now" = "$s" ] && [ "$(mp_stat zram0 $MP_STORED)" -eq 0 ]; then
			ktap_test_pass "$tag"
			return
		fi
	done
	ktap_test_fail "$tag (pool $now; expected: $*)"
}


zram_swap_off()
{
	swapoff /dev/$1 && echo 1 > /sys/block/$1/reset
}

# field FILE N: the Nth whitespace separated value of FILE.
field()
{
	awk -v n="$2" '{ print $n }' "$1"
}

# mp_stat DEV N: the Nth counter of multi_pages_stat (empty without it)
mp_stat()
{
	[ -r /sys/block/$1/multi_pages_stat ] && field /sys/block/$1/multi_pages_stat "$2"
}

# Counters of multi_pages_stat, by position
MP_STORED=1 MP_WRITTEN=2 MP_READS=3 MP_PARTIAL_READS=4 MP_PARTIAL_WRITES=5
MP_RECOMPRESSED=9 MP_WRITTEN_BACK=10

# block_debug DEV N: the Nth counter of debug_stat's block line, the third
# (empty without it): how block reads were served, for developers, not an
# ABI
block_debug()
{
	[ -r /sys/block/$1/debug_stat ] &&
		awk -v n="$2" 'NR == 3 { print $n }' /sys/block/$1/debug_stat
}

BD_BUFFERED_READS=1 BD_IN_PLACE_READS=2 BD_COPIED_READS=3 BD_DEFERRED_FREES=4

# counts_in_place: whether debug_stat counts in-place and copied block
# reads (the 6.12 backport's block line has neither: its zsmalloc map does
# not tell zram)
counts_in_place()
{
	case $(uname -r) in
	6.12.*) return 1 ;;
	esac
	return 0
}

# expect_reports REGEX: kernel log lines matching REGEX (an extended regular
# expression) are what the test provokes, not kernel bugs, until
# expect_reports_end (harness/lib/kernel-reports.txt; the markers go to the
# kernel log, in order with the kernel's own lines).
expect_reports()
{
	echo "<2>ZMP_EXPECT $1" > /dev/kmsg
}

expect_reports_end()
{
	echo "<2>ZMP_EXPECT_END" > /dev/kmsg
}

# mthp_stat KB NAME: the counter NAME of the KB mTHP size (its stats/NAME)
mthp_stat()
{
	cat $THP/hugepages-${1}kB/stats/$2
}

# mthp_lost KB: the KB large folios that could not be had or kept, so far:
# anonymous faults that fell back to small folios (no memory, or no memcg
# charge) and large folios split to be swapped out. A test that expects
# all of its memory in KB folios reads it before and after: each one
# counted in between cost at most one of its folios (or none: another
# task's), so it bounds how many blocks the test may be short of.
mthp_lost()
{
	local f=$(mthp_stat $1 anon_fault_fallback)
	local c=$(mthp_stat $1 anon_fault_fallback_charge)
	echo $((f + c + $(mthp_stat $1 swpout_fallback)))
}

# blocks_given DEV: the blocks zram was given whole so far, each from one
# large folio: every one counts in exactly one of blocks_written (stored as
# one object), nomem_blocks, same_blocks and huge_blocks (stored page by
# page), the 2nd and the 6th to 8th counters of multi_pages_stat
blocks_given()
{
	awk '{ print $2 + $6 + $7 + $8 }' /sys/block/$1/multi_pages_stat
}

# in_range N LO HI: LO <= N <= HI
in_range()
{
	[ "$1" -ge "$2" ] && [ "$1" -le "$3" ]
}

# run_program NAME COMMAND...: for the outside suites (harness/guest/ext),
# run a program that prints its own TAP, under a "# running NAME" title
# with its output behind "# " (as run_vmtests.sh prints its programs), a
# result line repeated whole by a forked child's stdio buffer kept once,
# a failed result run into the line before it split off, and a
# last "# NAME: exit status N" line (harness/libexec/suites.py judges a
# program killed or timed out by it); its status is the program's.
run_program()
{
	local name=$1 rc
	shift
	echo "# running $name"
	"$@" > "$SUITE_TMP/program.out" 2>&1
	rc=$?
	# a message without its newline can run into a failed result
	# (test_zswap: "... is enablednot ok 4 ..."): that result gets a
	# line of its own
	awk '{ if (match($0, /[^ ]not ok [0-9]+ /)) {
			print "# " substr($0, 1, RSTART)
			$0 = substr($0, RSTART + 1)
		}
		if (/^(not )?ok [0-9]+ / && seen[$0]++) next
		print "# " $0 }' "$SUITE_TMP/program.out"
	echo "# $name: exit status $rc"
	return $rc
}

# suite_start: what every outside suite does first: a directory of its
# own in /tmp (SUITE_TMP, the working directory), and suite_cleanup at
# exit, whatever the exit.
suite_start()
{
	SUITE_TMP=$(mktemp -d /tmp/suite.XXXXXX) || exit 1
	cd "$SUITE_TMP" || exit 1
	trap suite_cleanup EXIT
}

# suite_cleanup: leave nothing to the next suite: the cgroups it made, its
# processes there, mounts under /mnt, swap, loop devices, zram devices
# reset and those beyond zram0 removed, an open ZMP_EXPECT closed.
suite_cleanup()
{
	local cg m z
	cd /
	for cg in /sys/fs/cgroup/suite-*; do
		[ -d "$cg" ] || continue
		echo 1 > "$cg/cgroup.kill" 2>/dev/null
		sleep 1
		rmdir "$cg" 2>/dev/null
	done
	for m in $(awk '$2 ~ "^/mnt/" { print $2 }' /proc/mounts | sort -r); do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
	swapoff -a 2>/dev/null
	for z in /sys/block/zram*; do
		echo 1 > "$z/reset" 2>/dev/null
	done
	losetup -D 2>/dev/null
	for z in /sys/block/zram*; do
		z=${z##*/zram}
		[ "$z" != 0 ] && echo "$z" > /sys/class/zram-control/hot_remove 2>/dev/null
	done
	[ -n "${SUITE_TMP:-}" ] && rm -rf "$SUITE_TMP"
	expect_reports_end
}

# suite_cgroup NAME: a memory cgroup for a suite's processes
# (/sys/fs/cgroup/suite-NAME, printed; removed by suite_cleanup).
suite_cgroup()
{
	local cg=/sys/fs/cgroup/suite-$1
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control || return 1
	mkdir -p "$cg" && echo "$cg"
}

# hot_add_zram SIZE: a new zram device of that disksize (default
# algorithm, 16 KiB blocks where the kernel stores them); prints its name.
hot_add_zram()
{
	local d
	d=zram$(cat /sys/class/zram-control/hot_add) || return 1
	if [ -e /sys/block/$d/block_size ]; then
		echo 16384 > /sys/block/$d/block_size || return 1
	fi
	echo "$1" > /sys/block/$d/disksize && echo "$d"
}

# the console lines of an OOM kill in a memory cgroup, which the outside
# suites that test memcg limits expect (expect_reports): a kill's stack
# dump and its oom-kill line, not a global OOM ("Out of memory") nor a
# report of another kind
MEMCG_OOM_RE='Call Trace:|oom-kill:constraint=CONSTRAINT_MEMCG'

# suite_swap_on ALGO DISKSIZE: zram0 as swap for the outside suites: 16 KiB
# blocks where the kernel has block_size, the 16 KiB and 64 KiB anonymous
# mTHP sizes enabled beside the PMD size's own setting.
suite_swap_on()
{
	local s
	zram_swap_on zram0 "$1" "$2" 16384 || return 1
	for s in 16 64; do
		echo always > "$THP/hugepages-${s}kB/enabled" || return 1
	done
	echo "# swap: zram0 $1 $2, block_size $(cat /sys/block/zram0/block_size 2>/dev/null || echo none)"
}

# zram_selftest_results OUTPUT STATUS: the KTAP of a run of the zram
# kselftests (tools/testing/selftests/zram/zram.sh, its output in file
# OUTPUT, its exit status STATUS). Their scripts exit 0 whatever they find
# and print "FAIL ..." lines (behind "# " where the series' scripts print
# KTAP): each such line is a failed case, each script's "zram0N : [PASS]"
# or "[FAIL]" a case, and the status the last.
zram_selftest_results()
{
	local out=$1 rc=$2 kind line cases
	cases=$(mktemp)
	{
		grep -E '^(# )?FAIL ' "$out" | sed -E 's/^(# )?/F /'
		grep -E '^(# )?zram0[0-9] : \[(PASS|FAIL)\]' "$out" | sed -E 's/^(# )?/S /'
	} > "$cases"
	ktap_print_header
	ktap_set_plan $(($(wc -l < "$cases") + 1))
	while read -r kind line; do
		case $kind-$line in
		F-*) ktap_test_fail "$line" ;;
		*PASS*) ktap_test_pass "${line%% :*}" ;;
		*) ktap_test_fail "${line%% :*}" ;;
		esac
	done < "$cases"
	rm -f "$cases"
	case $rc in
	0) ktap_test_pass "zram.sh ended" ;;
	4) ktap_test_skip "zram.sh ended" ;;
	*) ktap_test_fail "zram.sh ended (status $rc)" ;;
	esac
}

# phone_swap_on: zram0 (Z) as swap the way the phone profile sets it up:
# lz4, zstd as its recompression algorithm, zram1 as its backing device
# (with compressed_writeback where PHONE=compressed); DISKSIZE each, zram0
# with block size $block (empty: the device's own)
phone_swap_on()
{
	[ -e /sys/block/zram1 ] || cat /sys/class/zram-control/hot_add > /dev/null
	echo 1 > /sys/block/zram1/reset || return 1
	# the backing device stands for flash: the same on both kernels, page
	# by page (a zram1 with blocks would decompress a block for each page
	# read back from it)
	if [ -e /sys/block/zram1/block_size ]; then
		echo 4096 > /sys/block/zram1/block_size || return 1
	elif [ -e /sys/block/zram1/multi_pages ]; then
		echo 0 > /sys/block/zram1/multi_pages || return 1
	fi
	echo "$DISKSIZE" > /sys/block/zram1/disksize && echo 1 > $Z/reset || return 1
	zram_blocks zram0 $block || return 1
	echo lz4 > $Z/comp_algorithm && echo "algo=zstd priority=1" > $Z/recomp_algorithm &&
		echo /dev/zram1 > $Z/backing_dev || return 1
	if [ "$PHONE" = compressed ]; then
		echo 1 > $Z/compressed_writeback || return 1
	fi
	echo "$DISKSIZE" > $Z/disksize && mkswap /dev/zram0 > /dev/null &&
		swapon /dev/zram0
}
