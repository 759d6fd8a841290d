# SPDX-License-Identifier: GPL-2.0
# Sourced by /init when run.conf says ROOTFS=host: the host's Debian root,
# exported read-only by qemu over 9p (mount tag "hostroot"), becomes the
# guest's root under an overlay whose upper layer is a tmpfs, so that the
# tests run Debian's own binaries (bash, stress-ng, mkfs tools, the base's
# selftests built on the host) and may write anywhere. The initramfs's
# /zmp and /kselftest are bound into it. Sets RUN_IN_ROOT: the command
# prefix that runs a program in that root.
hostroot_setup()
{
	local r=/newroot
	mkdir -p /host /ovl $r
	mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 \
		hostroot /host || return 1
	mount -t tmpfs -o mode=0755 tmpfs /ovl || return 1
	mkdir -p /ovl/upper /ovl/work
	mount -t overlay overlay \
		-o lowerdir=/host,upperdir=/ovl/upper,workdir=/ovl/work $r || return 1
	mount -t proc proc $r/proc &&
	mount -t sysfs sysfs $r/sys &&
	mount -t devtmpfs devtmpfs $r/dev &&
	mkdir -p $r/dev/pts $r/dev/shm &&
	mount -t devpts devpts $r/dev/pts &&
	mount -t tmpfs tmpfs $r/dev/shm &&
	mount -t tmpfs tmpfs $r/tmp &&
	mount -t tmpfs tmpfs $r/run &&
	mount -t debugfs debugfs $r/sys/kernel/debug &&
	mount -t cgroup2 cgroup2 $r/sys/fs/cgroup &&
	mkdir -p $r/zmp $r/kselftest &&
	mount --bind /zmp $r/zmp &&
	mount --bind /kselftest $r/kselftest || return 1
	# no host swap, mounts or fstab are the guest's
	: > $r/etc/fstab
	RUN_IN_ROOT="chroot $r /usr/bin/env HOME=/tmp TERM=dumb LC_ALL=C.UTF-8 \
PATH=/zmp/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
}
