// SPDX-License-Identifier: GPL-2.0
/*
 * blockread: reads of stored multi-page blocks into every kind of buffer.
 *
 *   blockread DEVICE CORPUS MiB
 *	Write MiB of the corpus to DEVICE with O_DIRECT from a 2 MiB-aligned
 *	buffer of large folios (the caller enables the block-sized mTHP), so
 *	that zram stores blocks. Then read the device back, every byte
 *	compared with the corpus, in reads of 32 KiB, 64 KiB and 1 MiB:
 *	  direct-pages      O_DIRECT into a buffer of 4 KiB pages
 *	                    (MADV_NOHUGEPAGE): one bio spans several blocks,
 *	                    each block several bvecs
 *	  direct-mthp       O_DIRECT into block-aligned large folios
 *	  direct-misaligned O_DIRECT into large folios one page off, so that
 *	                    every block spans two folios
 *	  direct-offset     O_DIRECT into 4 KiB pages, at device offsets one
 *	                    page past the block boundaries
 *	  direct-sector     O_DIRECT into 4 KiB pages 512 bytes past a page
 *	                    boundary (what O_DIRECT allows): every page of the
 *	                    device lands in two pages of the buffer
 *	  buffered          through the block device's page cache (dropped
 *	                    first): readahead builds the bios
 * With BLOCKREAD_AFTER_WRITE in the environment, that command runs (sh -c)
 * between the write and the reads: writeback, recompression.
 *
 * Prints one line per read kind and size, "RESULT NAME PAGES-DIFFERING
 * PAGES", and exits 1 if any page differs.
 *
 *   blockread --nowait DEVICE CORPUS MiB
 *	The same write, then reads that may not wait, on one CPU: one page
 *	written with RWF_NOWAIT at offset 0 (its errno printed, "NOWAIT-WRITE
 *	E"; the device must not change), then every page read with O_DIRECT
 *	and RWF_NOWAIT, and a read that ends with EAGAIN read again without
 *	it. Prints "NOWAIT SERVED DECLINED DECLINED-FIRST PAGES" (the last
 *	but one: declined reads of a block's first page) and "RESULT nowait
 *	PAGES-DIFFERING PAGES"; exits 3 if the device refuses such reads
 *	(EOPNOTSUPP), 1 if a page differs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "zmp.h"


static unsigned long BLK;

/* Pages of @buf that differ from @ref */
static unsigned long pages_differ(const unsigned char *buf,
				  const unsigned char *ref, size_t size)
{
	unsigned long bad = 0;
	size_t off;

	for (off = 0; off < size; off += PG)
		bad += !!memcmp(buf + off, ref + off, PG);
	return bad;
}

/*
 * Read SIZE bytes of @fd from device offset @start on, in reads of @chunk,
 * into @buf (filled with a poison first, so that a page the read missed
 * shows), and report how many pages differ from @ref.
 */
static unsigned long read_back(int fd, unsigned char *buf,
			       const unsigned char *ref, size_t size,
			       size_t start, size_t chunk, const char *name)
{
	size_t off, len;
	unsigned long bad;

	memset(buf, 0x5a, size);
	for (off = 0; off < size; off += len) {
		len = size - off < chunk ? size - off : chunk;
		if (pread(fd, buf + off, len, start + off) != (ssize_t)len)
			die(name);
	}
	bad = pages_differ(buf, ref + start, size);
	printf("RESULT %s-%zuk %lu %zu\n", name, chunk / 1024, bad, size / PG);
	return bad;
}

/*
 * Read the @size bytes that @ref holds from @fd page by page, each with
 * RWF_NOWAIT first and again without it if declined (see the top).
 */
static unsigned long read_nowait(int fd, unsigned char *page,
				 const unsigned char *ref, size_t size)
{
	unsigned long served = 0, declined = 0, first = 0, bad = 0;
	struct iovec iov = { .iov_base = page, .iov_len = PG };
	size_t off;

	for (off = 0; off < size; off += PG) {
		memset(page, 0x5a, PG);
		if (preadv2(fd, &iov, 1, off, RWF_NOWAIT) == (ssize_t)PG) {
			served++;
		} else if (errno == EAGAIN) {
			declined++;
			first += !(off % BLK);
			if (pread(fd, page, PG, off) != (ssize_t)PG)
				die("read after a declined read");
		} else if (errno == EOPNOTSUPP) {
			printf("NOWAIT not supported\n");
			exit(3);
		} else {
			die("nowait read");
		}
		bad += !!memcmp(page, ref + off, PG);
	}
	printf("NOWAIT %lu %lu %lu %zu\n", served, declined, first, size / PG);
	printf("RESULT nowait %lu %zu\n", bad, size / PG);
	return bad;
}

/* One page of other data written with RWF_NOWAIT at offset 0 */
static void write_nowait(int fd, unsigned char *page)
{
	struct iovec iov = { .iov_base = page, .iov_len = PG };
	ssize_t ret;

	memset(page, 0xa5, PG);
	ret = pwritev2(fd, &iov, 1, 0, RWF_NOWAIT);
	printf("NOWAIT-WRITE %s\n", ret < 0 ? strerrorname_np(errno) : "written");
}

int main(int argc, char **argv)
{
	static const size_t chunks[] = { 32 * 1024, 64 * 1024, 1024 * 1024 };
	unsigned char *ref, *wbuf, *pages, *mthp, *misaligned, *sector;
	unsigned long mib, bad = 0;
	const char *cmd;
	int fd, dfd, bfd;
	size_t size, i;

	int nowait = argc == 5 && !strcmp(argv[1], "--nowait");

	argv += nowait;
	argc -= nowait;
	if (argc != 4 || !(mib = strtoul(argv[3], NULL, 10))) {
		fprintf(stderr, "usage: blockread [--nowait] DEVICE CORPUS MiB\n");
		return 2;
	}
	zmp_init();
	BLK = 4 * PG;
	size = mib * MIB;

	ref = malloc(size);
	fd = open(argv[2], O_RDONLY);
	if (!ref || fd < 0 || pread(fd, ref, size, 0) != (ssize_t)size)
		die(argv[2]);
	close(fd);

	dfd = open(argv[1], O_RDWR | O_DIRECT);
	bfd = open(argv[1], O_RDONLY);
	if (dfd < 0 || bfd < 0)
		die(argv[1]);

	wbuf = map_aligned_shift(size, 0, 0);
	memcpy(wbuf, ref, size);
	for (i = 0; i < size; i += MIB)
		if (pwrite(dfd, wbuf + i, MIB, i) != (ssize_t)MIB)
			die("direct write");
	munmap(wbuf, size);
	cmd = getenv("BLOCKREAD_AFTER_WRITE");
	if (cmd && system(cmd))
		die("BLOCKREAD_AFTER_WRITE");

	pages = map_aligned_shift(size, 0, 1);
	if (nowait) {
		cpu_set_t cpu;

		CPU_ZERO(&cpu);
		CPU_SET(0, &cpu);
		if (sched_setaffinity(0, sizeof(cpu), &cpu))
			die("sched_setaffinity");
		write_nowait(dfd, pages);
		return read_nowait(dfd, pages, ref, size) ? 1 : 0;
	}
	mthp = map_aligned_shift(size, 0, 0);
	misaligned = map_aligned_shift(size, PG, 0);
	sector = map_aligned_shift(size, 512, 1);
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		bad += read_back(dfd, pages, ref, size, 0, chunks[i],
				 "direct-pages");
		bad += read_back(dfd, mthp, ref, size, 0, chunks[i],
				 "direct-mthp");
		bad += read_back(dfd, misaligned, ref, size, 0, chunks[i],
				 "direct-misaligned");
		bad += read_back(dfd, pages, ref, size - BLK, PG, chunks[i],
				 "direct-offset");
		bad += read_back(dfd, sector, ref, size, 0, chunks[i],
				 "direct-sector");
		if (ioctl(bfd, BLKFLSBUF, 0) ||
		    posix_fadvise(bfd, 0, 0, POSIX_FADV_DONTNEED))
			die("dropping the page cache");
		bad += read_back(bfd, pages, ref, size, 0, chunks[i],
				 "buffered");
	}
	return bad ? 1 : 0;
}
