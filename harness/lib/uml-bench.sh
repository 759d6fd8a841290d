# SPDX-License-Identifier: GPL-2.0
# UML kernels with harness/uml/zram_bench.c built in, for the native-speed
# benchmark (harness/bin/bench --native) and harness/studies/uml-bench.
# Sourced after common.sh.

# uml_bench_kernel baseline|patched [ORDER [DECODER [OPTIONS]]]: builds the
# UML kernel of that tree (patched: with CONFIG_ZSMALLOC_MULTI_PAGES_ORDER=
# ORDER, default 2; DECODER "base": with the base's lib/lz4 decoder instead
# of the series'; OPTIONS "off": with the series' options off) from a copy
# with the benchmark in zram's directory; prints the path of its `linux`
# binary.
uml_bench_kernel() {
	local kind=$1 order=${2:-2} decoder=${3:-series} options=${4:-on}
	local tree_src name tree src out work frag
	tree_src=$(prepare_tree "$kind")
	name=umlbench
	[ "$kind" = patched ] || name=$name-$kind
	[ "$kind" = patched ] && [ "$order" != 2 ] && name=$name-o$order
	[ "$decoder" = base ] && name=$name-basedec
	[ "$options" = off ] && name=$name-off
	tree=$(tree_dir "$name")
	src=$tree/src out=$tree/uml work=$ZMP_WORK/$name
	mkdir -p "$src" "$out" "$work"
	rsync -a --delete --exclude=/drivers/block/zram/zram_bench.c \
		--exclude=/drivers/block/zram/Makefile "$tree_src/" "$src/"
	if [ "$decoder" = base ]; then
		rsync -a "$(prepare_tree baseline)/lib/lz4/lz4_decompress.c" \
			"$src/lib/lz4/lz4_decompress.c"
	fi
	cmp -s "$ZMP_HARNESS/uml/zram_bench.c" "$src/drivers/block/zram/zram_bench.c" ||
		cp "$ZMP_HARNESS/uml/zram_bench.c" "$src/drivers/block/zram/zram_bench.c"
	{ cat "$tree_src/drivers/block/zram/Makefile"; echo 'obj-$(CONFIG_ZRAM) += zram_bench.o'; } \
		> "$work/Makefile.zram"
	cmp -s "$work/Makefile.zram" "$src/drivers/block/zram/Makefile" ||
		cp "$work/Makefile.zram" "$src/drivers/block/zram/Makefile"
	frag=$work/uml-bench.config
	# the base has no multi-page options; "off" builds the series without
	if [ "$kind" = baseline ] || [ "$options" = off ]; then
		grep -v MULTI_PAGES "$ZMP_HARNESS/configs/uml-bench.config" > "$frag"
	else
		sed "s/^CONFIG_ZSMALLOC_MULTI_PAGES_ORDER=.*/CONFIG_ZSMALLOC_MULTI_PAGES_ORDER=$order/" \
			"$ZMP_HARNESS/configs/uml-bench.config" > "$frag"
	fi
	[ "$options" = on ] ||
		printf '# CONFIG_%s is not set\n' ZSMALLOC_MULTI_PAGES ZRAM_MULTI_PAGES >> "$frag"
	configure_kernel --args ARCH=um --start defconfig "$src" "$out" "$frag" >&2
	if [ "$options" = off ] && grep -q '^CONFIG_[A-Z_]*MULTI_PAGES=y' "$out/.config"; then
		die "UML (options off): a multi-page option is on in $out/.config"
	fi
	log "building UML ($kind, order $order, options $options) in $out"
	make_kernel "$src" "$out" ARCH=um linux >&2 || die "UML build failed: $kind"
	echo "$out/linux"
}

# uml_bench_corpus CORPUS MiB: the corpus's first MiB as
# $ZMP_WORK/umlbench-corpus/corpus.img (the directory UML mounts); prints
# the directory.
uml_bench_corpus() {
	local corpus=$1 size=$2 dir=$ZMP_WORK/umlbench-corpus img
	mkdir -p "$dir"
	img=$dir/corpus.img
	case $corpus in
	*.zst) zstd -dcq "$corpus" 2>/dev/null | head -c $((size << 20)) > "$img" || true ;;
	*) head -c $((size << 20)) "$corpus" > "$img" || true ;;
	esac
	[ "$(stat -c %s "$img")" -eq $((size << 20)) ] ||
		die "corpus $corpus has fewer than $size MiB"
	echo "$dir"
}

# uml_bench_boot LINUX DIR MiB ROUNDS UNITS ALGOS LOG: one boot of the
# benchmark; its result lines (ZMP_UB ...) go to stdout.
uml_bench_boot() {
	local linux=$1 dir=$2 size=$3 rounds=$4 units=$5 algos=$6 logf=$7
	timeout 1800 "$linux" mem=$((4 * size + 512))M con0=null,fd:1 con=null \
		zram_bench.dir="$dir" zram_bench.mib="$size" \
		zram_bench.rounds="$rounds" zram_bench.units="$units" \
		zram_bench.algos="$algos" < /dev/null > "$logf" 2>&1 || true
	grep -oE 'ZMP_UB(_DONE)? .*' "$logf" || die "no results from UML (console: $logf)"
}
