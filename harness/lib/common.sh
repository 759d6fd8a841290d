# SPDX-License-Identifier: GPL-2.0
# Shared shell functions of the harness: the pinned base, the overlay of the
# sparse tree, and out-of-tree kernel builds.  Sourced by harness/bin/*.

set -euo pipefail
shopt -s inherit_errexit

ZMP_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ZMP_HARNESS=$ZMP_ROOT/harness
# Everything generated lives outside git, under $ZMP_WORK.
ZMP_WORK=${ZMP_WORK:-/var/tmp/zmp}
ZMP_JOBS=${ZMP_JOBS:-$(nproc)}

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# The project's commit, "-dirty" when a tracked file outside
# harness/results differs from it (a run's results do not taint the next)
project_commit() {
	local c

	c=$(git -C "$ZMP_ROOT" rev-parse --short=12 HEAD 2>/dev/null) || { echo unknown; return 0; }
	git -C "$ZMP_ROOT" diff --quiet HEAD -- . ':(exclude)harness/results' || c=$c-dirty
	echo "$c"
}
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The base (harness/base/bases.conf): ZMP_BASE, or the first line there.
BASES_CONF=$ZMP_HARNESS/base/bases.conf
base_names() { sed 's/#.*//' "$BASES_CONF" | awk 'NF { print $1 }' | xargs; }
ZMP_BASE=${ZMP_BASE:-$(base_names | cut -d' ' -f1)}
read -r BASE_NAME BASE_PKG BASE_VERSION BASE_SUITE BASE_SHA256 BASE_OVERLAY < <(
	sed 's/#.*//' "$BASES_CONF" | awk -v b="$ZMP_BASE" '$1 == b')
[ -n "${BASE_NAME:-}" ] ||
	die "ZMP_BASE=$ZMP_BASE: no such base in harness/base/bases.conf (bases: $(base_names))"
export ZMP_BASE
BASE_TARBALL=/usr/src/$BASE_PKG.tar.xz
BASE_DIR=$ZMP_WORK/base/$BASE_PKG
BASE_TAG=base-$BASE_NAME
PRISTINE_MANIFEST=$ZMP_HARNESS/base/pristine-$BASE_NAME.sha256
# the series of the base: messages, series.conf, split diffs, cover letter
SERIES_DIR=$ZMP_HARNESS/series/$BASE_NAME
# the logs of the base's runs
ZMP_LOGS=$ZMP_WORK/logs/$BASE_NAME
export ZMP_LOGS

# Top-level paths of the repository that are not kernel files, and the
# folders of the other bases' sparse trees.
NON_KERNEL_RE='^(harness/|README\.md$|\.ci/|\.gitignore$'
for _o in $(sed 's/#.*//' "$BASES_CONF" | awk 'NF { print $6 }'); do
	case $_o in .|-|"$BASE_OVERLAY") ;; *) NON_KERNEL_RE="$NON_KERNEL_RE|$_o/" ;; esac
done
NON_KERNEL_RE="$NON_KERNEL_RE)"
unset _o

# has_overlay: whether the base has a sparse tree (a patched kernel).
has_overlay() { [ "$BASE_OVERLAY" != - ]; }

# A step's or a run's last line, for sed: "N passed, N failed", maybe with
# ", N skipped" (\1 passed, \2 failed, \4 skipped)
SUMMARY_RE='^\([0-9]*\) passed, \([0-9]*\) failed\(, \([0-9]*\) skipped\)\?$'

# The KTAP every harness step prints (harness/lib/ktap.py reads it):
# ktap_start, a ktap_result OK|FAIL DESCRIPTION for each result, and
# ktap_end: the plan, "N passed, N failed", non-zero status on a failure.
ktap_start() {
	_ktap_n=0 _ktap_failed=0
	echo "TAP version 13"
}
ktap_result() {
	_ktap_n=$((_ktap_n + 1))
	if [ "$1" = OK ]; then
		echo "ok $_ktap_n $2"
	else
		echo "not ok $_ktap_n $2"
		_ktap_failed=$((_ktap_failed + 1))
	fi
}
ktap_end() {
	echo "1..$_ktap_n"
	echo "$((_ktap_n - _ktap_failed)) passed, $_ktap_failed failed"
	[ "$_ktap_failed" -eq 0 ]
}

# corpus_image [NAME]: the raw image of a shipped corpus (harness/corpus/
# NAME.anon.zst, default py), unpacked once under $ZMP_WORK/corpus; prints
# its path.
corpus_image() {
	local name=${1:-py} img=$ZMP_WORK/corpus/${1:-py}.anon.img
	if [ ! -s "$img" ]; then
		mkdir -p "$ZMP_WORK/corpus"
		zstd -dcq "$ZMP_HARNESS/corpus/$name.anon.zst" > "$img.tmp"
		mv "$img.tmp" "$img"
	fi
	echo "$img"
}

# The guest tests harness/bin/test runs by default (on every arch).
# default_guest_tests: the tests of guest/tests.list for this base (a line
# NAME, or NAME BASE... for a test of those bases only)
default_guest_tests() {
	sed 's/#.*//' "$ZMP_HARNESS/guest/tests.list" |
		awk -v b="$BASE_NAME" 'NF == 1 { print $1 }
			NF > 1 { for (i = 2; i <= NF; i++) if ($i == b) print $1 }' | xargs
}

# Guest tests that get a boot of their own: swapin-fill-memsw-v1 binds the
# memory controller to cgroup v1, where it stays for the rest of the boot
# (a v1 hierarchy lives on while a dying memcg holds charges), and it
# cannot have it after a cgroup2 test's memcgs for the same reason.
ALONE_GUEST_TESTS="swapin-fill-memsw-v1"

# Debian packages the harness needs on the host.
HOST_PKGS="$BASE_PKG=$BASE_VERSION build-essential flex bison bc cpio kmod
	libelf-dev libssl-dev ccache qemu-system-x86 busybox-static xz-utils
	zstd libzstd-dev liblz4-dev python3 python3-matplotlib rsync git sparse
	python3-ply python3-git erofs-utils"

# A base from another Debian suite than the machine's: add the suite with
# the archive address the machine uses, everything of it pinned away but
# the base's package at its version.
add_base_suite() {
	local own list=/etc/apt/sources.list.d/zmp-$BASE_SUITE.sources
	local pref=/etc/apt/preferences.d/zmp-$BASE_SUITE.pref
	own=$(. /etc/os-release && echo "$VERSION_CODENAME")
	[ "$BASE_SUITE" = "$own" ] && return 0
	[ -f "$list" ] && grep -qx "Package: $BASE_PKG" "$pref" 2>/dev/null && return 0
	[ "$(id -u)" -eq 0 ] || die "need root to add Debian's $BASE_SUITE suite"
	log "adding Debian's $BASE_SUITE suite for $BASE_PKG=$BASE_VERSION only"
	printf '%s\n' "# added by the zmp harness for $BASE_PKG (see $pref)" \
		"Types: deb" "URIs: http://deb.debian.org/debian" "Suites: $BASE_SUITE" \
		"Components: main" \
		"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" > "$list"
	printf '%s\n' "# added by the zmp harness: nothing from $BASE_SUITE but the base" \
		"Package: $BASE_PKG" "Pin: version $BASE_VERSION" "Pin-Priority: 990" "" \
		"Package: *" "Pin: release a=$BASE_SUITE" "Pin-Priority: -1" > "$pref"
	apt-get update -qq >/dev/null
}

install_host_deps() {
	local missing=() p name want
	for p in $HOST_PKGS; do
		name=${p%%=*}
		want=${p#*=}
		[ "$want" = "$p" ] && want=
		if [ -n "$want" ]; then
			[ "$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null)" = "$want" ] ||
				missing+=("$p")
		else
			dpkg-query -W -f='${Status}' "$name" 2>/dev/null |
				grep -q 'ok installed' || missing+=("$p")
		fi
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing host packages: ${missing[*]}"
	[ "$(id -u)" -eq 0 ] || die "need root to apt-get install ${missing[*]}"
	add_base_suite
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	apt-get install -y -qq --no-install-recommends --allow-downgrades \
		"${missing[@]}" >/dev/null || die "apt-get install failed: ${missing[*]}"
}

# Unpack the pinned base once, after checking the tarball.
prepare_base() {
	install_host_deps
	local have
	have=$(dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null || true)
	[ "$have" = "$BASE_VERSION" ] ||
		die "$BASE_PKG is at '$have', the project is pinned to $BASE_VERSION"
	[ -f "$BASE_DIR/.zmp-unpacked" ] && return 0
	log "checking $BASE_TARBALL"
	echo "$BASE_SHA256  $BASE_TARBALL" | sha256sum -c --quiet - ||
		die "$BASE_TARBALL does not match the pinned sha256 $BASE_SHA256"
	log "unpacking the base into $BASE_DIR"
	rm -rf "$BASE_DIR"
	mkdir -p "$ZMP_WORK/base"
	tar -xf "$BASE_TARBALL" -C "$ZMP_WORK/base"
	# Builds use O= only: one in-tree build would make every O= build refuse.
	touch "$BASE_DIR/.zmp-unpacked"
}

# The kernel files of the base's sparse tree, one path a line, relative to
# its folder, overlay_root.
overlay_root() {
	if [ "$BASE_OVERLAY" = . ]; then echo "$ZMP_ROOT"; else echo "$ZMP_ROOT/$BASE_OVERLAY"; fi
}
overlay_files() {
	has_overlay || return 0
	if [ "$BASE_OVERLAY" = . ]; then
		git -C "$ZMP_ROOT" ls-files --cached --others --exclude-standard |
			grep -Ev "$NON_KERNEL_RE" | sort
	else
		git -C "$ZMP_ROOT" ls-files --cached --others --exclude-standard \
			-- "$BASE_OVERLAY" | sed "s|^$BASE_OVERLAY/||" | sort
	fi
}

# Each overlaid file must be recorded with the sha256 of its pristine
# version ("new" for files the base does not have) and the base must still
# match, so that a different base can never silently lose upstream fixes.
check_overlay_against_base() {
	local f want got bad=0
	while read -r f; do
		want=$(awk -v f="$f" '$2 == f { print $1 }' "$PRISTINE_MANIFEST")
		if [ -z "$want" ]; then
			echo "error: $f is not recorded in ${PRISTINE_MANIFEST#"$ZMP_ROOT"/}" \
				"(run harness/bin/pin-base)" >&2
			bad=1
		elif [ "$want" = new ]; then
			if [ -e "$BASE_DIR/$f" ]; then
				echo "error: $f is recorded as new, but the base has it" >&2
				bad=1
			fi
		else
			got=$(sha256sum "$BASE_DIR/$f" 2>/dev/null | cut -d' ' -f1)
			if [ "$got" != "$want" ]; then
				echo "error: base file $f has sha256 ${got:-<missing>}," \
					"the overlay was made against $want" >&2
				bad=1
			fi
		fi
	done < <(overlay_files)
	[ $bad -eq 0 ] || die "the base does not match the sparse tree; refusing to prepare it"
}

# A tree is $ZMP_WORK/t/BASE/KIND/src with its builds beside it in
# $ZMP_WORK/t/BASE/KIND/{guest,debug,uml}: the same relative paths in every
# tree, so that ccache (CCACHE_BASEDIR) shares objects between baseline and
# patched.
tree_dir() { echo "$ZMP_WORK/t/$BASE_NAME/$1"; }

# The overlaid files of tree KIND.
tree_overlay() {
	case $1 in
	patched) overlay_files ;;
	esac
}

# prepare_tree baseline|patched: the base with the tree's overlay;
# prints the source directory.
prepare_tree() {
	local kind=$1 dst excl f from
	case $kind in baseline|patched) ;; *) die "unknown tree $kind" ;; esac
	prepare_base
	if [ "$kind" != baseline ]; then
		has_overlay || die "base $BASE_NAME has no sparse tree yet: only 'baseline'"
		check_overlay_against_base
	fi
	dst=$(tree_dir "$kind")/src
	mkdir -p "$dst"
	from=$(overlay_root)
	excl=$(mktemp)
	tree_overlay "$kind" | sed 's|^|/|' > "$excl"
	rsync -a --delete --exclude-from="$excl" "$BASE_DIR/" "$dst/"
	rm -f "$excl"
	while read -r f; do
		mkdir -p "$dst/$(dirname "$f")"
		cmp -s "$from/$f" "$dst/$f" || cp "$from/$f" "$dst/$f"
	done < <(tree_overlay "$kind")
	echo "$dst"
}

export CCACHE_BASEDIR=$ZMP_WORK CCACHE_NOHASHDIR=1

# make_kernel SRC BUILD_DIR TARGET...: an out-of-tree build with ccache.
make_kernel() {
	local src=$1 out=$2 a cross=
	shift 2
	for a in "$@"; do
		case $a in CROSS_COMPILE=*) cross=${a#CROSS_COMPILE=} ;; esac
	done
	mkdir -p "$out"
	make -s -C "$src" O="$out" CC="ccache ${cross}gcc" HOSTCC="ccache gcc" \
		-j"$ZMP_JOBS" "$@"
}

# The x86-only lines of guest.config, left out of arm64 guests.
X86_ONLY_RE='^CONFIG_(HYPERVISOR_GUEST|PARAVIRT|KVM_GUEST|ACPI|SERIAL_8250[A-Z_]*)='

# Cross-building for arm64 variants: make arguments, and the tools.
arch_args() {
	case $1 in
	arm64*) echo "ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-" ;;
	esac
}

# The arm64 tools (cross compiler and libc, qemu), installed if missing,
# and the arm64 guest's static busybox, from Debian's arm64 package.
arm64_busybox() {
	local d=$ZMP_WORK/arm64 deb
	command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-system-aarch64 >/dev/null &&
		[ -d /usr/aarch64-linux-gnu/include ] || {
		[ "$(id -u)" -eq 0 ] || die "need root to install the arm64 tools"
		export DEBIAN_FRONTEND=noninteractive
		apt-get install -y -qq --no-install-recommends gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
			qemu-system-arm >/dev/null || die "apt-get install of the arm64 tools failed"
	}
	[ -x "$d/busybox" ] && { echo "$d/busybox"; return; }
	mkdir -p "$d/deb"
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		dpkg --add-architecture arm64 && apt-get update -qq >/dev/null
	fi
	(cd "$d/deb" && apt-get download -q busybox-static:arm64 >/dev/null 2>&1) ||
		die "apt-get download busybox-static:arm64 failed"
	deb=$(ls "$d"/deb/busybox-static_*_arm64.deb | head -n 1)
	dpkg-deb -x "$deb" "$d/x"
	cp "$d/x/bin/busybox" "$d/busybox"
	echo "$d/busybox"
}

# The configurations of harness/configs/matrix.conf, by name.
matrix_configs() {
	sed 's/#.*//' "$ZMP_HARNESS/configs/matrix.conf" | awk 'NF { print $1 }' | xargs
}

# matrix_fragment NAME: the Kconfig fragment of configuration NAME (an
# option turned off takes the guest.config lines of its sub-options along).
matrix_fragment() {
	local opts o re
	opts=$(sed 's/#.*//' "$ZMP_HARNESS/configs/matrix.conf" |
		awk -v n="$1" '$1 == n { $1 = ""; print }')
	[ -n "$opts" ] || die "no configuration '$1' in harness/configs/matrix.conf"
	re="ZSWAP[A-Z0-9_]*"
	for o in $opts; do
		case $o in
		*=n) re="$re|${o%=n}(_[A-Z0-9_]*)?" ;;
		*) re="$re|${o%%=*}" ;;
		esac
	done
	grep -v -E "^(# )?CONFIG_($re)[= ]" "$ZMP_HARNESS/configs/guest.config"
	for o in $opts; do
		case $o in
		*=n) echo "# CONFIG_${o%=n} is not set" ;;
		*) echo "CONFIG_$o" ;;
		esac
	done
}

# lock_series_repo: hold the lock of the base's series repository
# ($ZMP_WORK/series/BASE) until the shell exits, or die if another run
# holds it: harness/bin/series rewrites the repository, series-build checks
# its patches out for hours. A run started under one that holds it
# (series-build runs series) inherits the lock.
lock_series_repo() {
	[ -n "${ZMP_SERIES_LOCKED:-}" ] && return 0
	mkdir -p "$ZMP_WORK/series/$BASE_NAME"
	exec 9> "$ZMP_WORK/series/$BASE_NAME/.lock"
	flock -n 9 || die "the series repository of $BASE_NAME is in use (harness/bin/series-build running?)"
	export ZMP_SERIES_LOCKED=1
}

# build_guest baseline|patched [guest|guest-order4|debug|arm64|arm64-16k|
# arm64-swtags|arm64-mte|ext|ext-order4|debug-ext]: builds the kernel
# image, prints its path.
# guest-order4, ext-order4: the guest or ext kernel with the largest
# multi-page order (64 KiB blocks; the patched tree only). arm64-swtags and arm64-mte: tag-based
# KASAN, software or on MTE, with the zsmalloc KUnit suite when patched.
# ext and debug-ext: the guest and debug kernels that boot the host's
# Debian root over 9p (ext.config), for the outside suites.
build_guest() {
	local kind=$1 variant=${2:-guest} src out frags args
	src=$(prepare_tree "$kind")
	out=$(tree_dir "$kind")/$variant
	case $variant in
	guest|guest-order4|debug|ext|ext-order4|debug-ext|arm64|arm64-16k|arm64-swtags|arm64-mte) ;;
	*) die "unknown variant $variant" ;;
	esac
	case $kind-$variant in
	baseline-*-order4) die "$variant: a patched kernel only" ;;
	esac
	mkdir -p "$out"
	frags="$ZMP_HARNESS/configs/guest.config"
	case $variant in
	arm64*)
		grep -Ev "$X86_ONLY_RE" "$ZMP_HARNESS/configs/guest.config" > "$out/guest-arm64.config"
		frags="$out/guest-arm64.config $ZMP_HARNESS/configs/arm64.config"
		case $variant in
		arm64-16k|arm64-swtags|arm64-mte)
			frags="$frags $ZMP_HARNESS/configs/$variant.config" ;;
		esac
		case $kind-$variant in
		patched-arm64-swtags|patched-arm64-mte)
			frags="$frags $ZMP_HARNESS/configs/patched-kunit.config" ;;
		esac
		arm64_busybox >/dev/null ;;
	esac
	case $variant in
	debug|debug-ext) frags="$frags $ZMP_HARNESS/configs/debug.config" ;;
	esac
	case $variant in
	ext|ext-order4|debug-ext)
		frags="$frags $ZMP_HARNESS/configs/ext.config"
		[ ! -f "$ZMP_HARNESS/configs/ext-$BASE_NAME.config" ] ||
			frags="$frags $ZMP_HARNESS/configs/ext-$BASE_NAME.config" ;;
	esac
	[ "$kind" = baseline ] || frags="$frags $ZMP_HARNESS/configs/patched.config"
	# (not debug-ext: its baseline and patched kernels differ by the series)
	[ "$kind-$variant" = patched-debug ] &&
		frags="$frags $ZMP_HARNESS/configs/patched-debug.config"
	case $variant in
	*-order4) frags="$frags $ZMP_HARNESS/configs/order4.config" ;;
	esac
	args=$(arch_args "$variant")
	# shellcheck disable=SC2086
	configure_kernel --args "$args" "$src" "$out" $frags
	log "building $kind-$variant kernel in $out"
	case $variant in
	arm64*)
		# shellcheck disable=SC2086
		make_kernel "$src" "$out" $args Image >&2 || die "kernel build failed: $kind-$variant"
		echo "$out/arch/arm64/boot/Image" ;;
	*)
		make_kernel "$src" "$out" bzImage >&2 || die "kernel build failed: $kind-$variant"
		echo "$out/arch/x86/boot/bzImage" ;;
	esac
}

# configure_kernel [--always] [--known] [--args "MAKE_ARGS"] [--start
# TARGET] SRC OUT FRAGMENT...: the one way the harness configures a
# kernel: tinyconfig (or TARGET, such as defconfig), the fragments merged
# over it (scripts/kconfig/merge_config.sh), then olddefconfig, in build
# directory OUT; skipped when the fragments are the ones OUT was
# configured with, unless --always (a tree that changed, such as the
# series patch by patch). Every =y/=m line of the fragments must stick, or
# with --known only those whose option the tree defines.
configure_kernel() {
	local always=0 known=0 args= start=tinyconfig src out
	while :; do
		case $1 in
		--always) always=1; shift ;;
		--start) start=$2; shift 2 ;;
		--known) known=1; shift ;;
		--args) args=$2; shift 2 ;;
		*) break ;;
		esac
	done
	src=$1 out=$2
	shift 2
	mkdir -p "$out"
	cat "$@" > "$out/.zmp-fragments.new"
	if [ $always = 0 ] && [ -f "$out/.config" ] &&
		cmp -s "$out/.zmp-fragments.new" "$out/.zmp-fragments"; then
		rm -f "$out/.zmp-fragments.new"
		return 0
	fi
	log "configuring $out"
	# shellcheck disable=SC2086
	make_kernel "$src" "$out" $args "$start" >/dev/null
	# shellcheck disable=SC2086
	(cd "$out" && env $args "$src/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config" "$@" >/dev/null)
	# shellcheck disable=SC2086
	make_kernel "$src" "$out" $args olddefconfig >/dev/null
	if [ $known = 1 ]; then
		check_config --known "$src" "$out/.config" "$@"
	else
		check_config "$out/.config" "$@"
	fi
	mv "$out/.zmp-fragments.new" "$out/.zmp-fragments"
}

# check_config [--known SRC] CONFIG FRAGMENT...: every =y/=m line of the
# fragments survived olddefconfig (with --known: those whose option SRC's
# Kconfig files define).
check_config() {
	local src= cfg line opt bad=0
	[ "$1" = --known ] && { src=$2; shift 2; }
	cfg=$1
	shift
	while read -r line; do
		grep -qx "$line" "$cfg" && continue
		opt=${line%%=*}
		if [ -n "$src" ] && ! grep -rqx --include='Kconfig*' \
			"config ${opt#CONFIG_}" "$src"; then
			continue	# an option this tree does not have yet
		fi
		echo "config: '$line' did not stick" >&2
		bad=1
	# a later fragment's line for an option replaces an earlier one's
	done < <(cat "$@" | grep -E '^CONFIG_[A-Z0-9_]+=' |
		awk -F= '{ last[$1] = $0 } END { for (o in last) print last[o] }')
	[ $bad -eq 0 ] || die "config fragments do not apply cleanly ($cfg)"
}

# run_host_py SCRIPT ARGS...: a host-side experiment (libexec/bench.py,
# libexec/frag.py) on the kernels it names: SCRIPT --validate prints them after
# checking ARGS; they are built, then SCRIPT runs on them.
run_host_py() {
	local script=$ZMP_HARNESS/libexec/$1 kinds k v img args=() src
	shift
	for k in "$@"; do
		case $k in -h|--help) exec /usr/bin/python3 "$script" --help ;; esac
	done
	install_host_deps
	# KIND or KIND:VARIANT words: the kernels the script runs, their builds
	kinds=$(/usr/bin/python3 "$script" --validate "$@") || exit $?
	for k in $kinds; do
		v=guest
		[[ $k == *:* ]] && v=${k#*:}
		img=$(build_guest "${k%%:*}" "$v")
		args+=("--${k%%:*}-kernel" "$img")
	done
	src=$(prepare_tree patched)
	exec /usr/bin/python3 "$script" "${args[@]}" --src "$src" "$@"
}
