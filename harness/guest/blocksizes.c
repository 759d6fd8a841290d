// SPDX-License-Identifier: GPL-2.0
/*
 * blocksizes: the size zram stores each block of a corpus in.
 *
 *   blocksizes DEVICE CORPUS MiB
 *	DEVICE is a fresh zram device storing blocks of four pages (the
 *	caller enables the block-sized mTHP). Each block of the first MiB of
 *	the corpus in turn is written with O_DIRECT, from one block-aligned
 *	large folio, to the device's first block, in place of the one before,
 *	and the growth of the device's compr_data_size (mm_stat) over what
 *	it held before the first write is that block's compressed size. One
 *	line per block: "BLOCK INDEX SIZE", SIZE "-" where the device did
 *	not store the block as one object (same-filled, incompressible, or
 *	the folio was not large).
 *
 * Exit status: 0, or 2 on bad usage or a setup error.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zmp.h"

/* the Nth (from 1) whitespace separated counter of a sysfs file */
static unsigned long long sysfs_field(const char *path, int n)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "r");
	int i;

	if (!f)
		die(path);
	for (i = 0; i < n; i++)
		if (fscanf(f, "%llu", &v) != 1)
			die(path);
	fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	char mm[256], mp[256], *name;
	unsigned long long base;
	unsigned long mib;
	unsigned char *buf;
	size_t blk, i;
	int fd, cfd;

	if (argc != 4 || !(mib = strtoul(argv[3], NULL, 10))) {
		fprintf(stderr, "usage: blocksizes DEVICE CORPUS MiB\n");
		return 2;
	}
	zmp_init();
	blk = 4 * PG;
	name = basename(strdup(argv[1]));
	snprintf(mm, sizeof(mm), "/sys/block/%s/mm_stat", name);
	snprintf(mp, sizeof(mp), "/sys/block/%s/multi_pages_stat", name);
	fd = open(argv[1], O_WRONLY | O_DIRECT);
	cfd = open(argv[2], O_RDONLY);
	if (fd < 0 || cfd < 0)
		die("open");
	buf = map_aligned(blk);
	base = sysfs_field(mm, 2);
	for (i = 0; i < mib * MIB / blk; i++) {
		if (pread(cfd, buf, blk, i * blk) != (ssize_t)blk)
			die("reading the corpus");
		if (pwrite(fd, buf, blk, 0) != (ssize_t)blk)
			die("block write");
		/* blocks_stored: one object holds the device's first block */
		if (sysfs_field(mp, 1) == 1)
			printf("BLOCK %zu %llu\n", i, sysfs_field(mm, 2) - base);
		else
			printf("BLOCK %zu -\n", i);
	}
	return 0;
}
