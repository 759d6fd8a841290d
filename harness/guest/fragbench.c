// SPDX-License-Identifier: GPL-2.0
/*
 * fragbench: the shape of zsmalloc's merged-class and compaction
 * experiments on a zram block device.  Writes SIZE MiB of the corpus to the
 * device with O_DIRECT, then discards it in STEPS equal steps of randomly
 * chosen UNIT KiB pieces (4 or 16; a fixed seed), printing zram's mm_stat
 * after each step; then compacts and prints mm_stat again.  With a 16 KiB
 * unit the writes come from a 16 KiB-aligned buffer, so that with 16 KiB
 * mTHP enabled they reach zram as large folios (multi-page blocks).  One
 * JSON object a line, each starting "ZMP_FRAG ".  Every surviving unit is
 * verified at the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "zmp.h"

/* the page size, set first thing in main() */

static char sysdir[128];

/* objs_moved of the pool's debugfs classes file; 0 if it has none */
static unsigned long long objs_moved(const char *dev)
{
	unsigned long long pc, moved = 0;
	char path[160], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/zsmalloc/%s/classes", dev);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " pages_compacted %llu objs_moved %llu", &pc, &moved) == 2)
			break;
	fclose(f);
	return moved;
}

static void print_stat(const char *phase, int step, unsigned long live)
{
	unsigned long long mm[9] = { 0 };
	char path[160];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/mm_stat", sysdir);
	f = fopen(path, "r");
	if (!f)
		die(path);
	for (i = 0; i < 9; i++)
		if (fscanf(f, "%llu", &mm[i]) != 1)
			break;
	fclose(f);
	printf("ZMP_FRAG {\"phase\": \"%s\", \"step\": %d, \"live_units\": %lu, "
	       "\"orig_data_size\": %llu, \"compr_data_size\": %llu, "
	       "\"mem_used_total\": %llu, \"pages_compacted\": %llu, "
	       "\"huge_pages\": %llu, \"objs_moved\": %llu, \"overhead_pct\": %.2f}\n",
	       phase, step, live, mm[0], mm[1], mm[2], mm[6], mm[7],
	       objs_moved(strrchr(sysdir, '/') + 1),
	       mm[1] ? 100.0 * ((double)mm[2] - (double)mm[1]) / mm[1] : 0.0);
	fflush(stdout);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void usage(void)
{
	fprintf(stderr, "usage: fragbench --dev NAME --corpus PATH [--size MiB] [--steps N] [--unit 4|16]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "corpus", required_argument, NULL, 'c' },
		{ "size", required_argument, NULL, 's' },
		{ "steps", required_argument, NULL, 'n' },
		{ "unit", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dev = NULL, *corpus = NULL;
	unsigned long size_mib = 64, steps = 10, pages, i, done = 0, bad = 0;
	unsigned long unit = PG;
	unsigned char *buf, *ref;
	unsigned int *order;
	char path[160];
	int fd, cfd, c, step;
	FILE *f;

	zmp_init();
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dev = optarg;
			break;
		case 'c':
			corpus = optarg;
			break;
		case 's':
			size_mib = strtoul(optarg, NULL, 10);
			break;
		case 'n':
			steps = strtoul(optarg, NULL, 10);
			break;
		case 'u':
			unit = strtoul(optarg, NULL, 10) * 1024;
			if (unit != PG && unit != 4 * PG)
				usage();
			break;
		default:
			usage();
		}
	}
	if (!dev || !corpus || !size_mib || !steps || steps > 1000 || optind != argc)
		usage();
	snprintf(sysdir, sizeof(sysdir), "/sys/block/%s", dev);
	snprintf(path, sizeof(path), "/dev/%s", dev);
	fd = open(path, O_RDWR | O_DIRECT);
	if (fd < 0)
		die(path);
	cfd = open(corpus, O_RDONLY);
	if (cfd < 0)
		die(corpus);
	/* 2 MiB aligned: with 16 KiB mTHP on, every 16 KiB is one folio */
	if (posix_memalign((void **)&buf, 2 * MIB, MIB) || !(ref = malloc(4 * PG)))
		die("memory");
	pages = size_mib * MIB / unit;	/* "pages" are units from here on */
	for (i = 0; i < size_mib; i++) {
		if (pread(cfd, buf, MIB, i * MIB) != (ssize_t)MIB)
			die("reading the corpus");
		if (pwrite(fd, buf, MIB, i * MIB) != (ssize_t)MIB)
			die("writing the device");
	}
	print_stat("filled", 0, pages);

	order = malloc(pages * sizeof(*order));
	if (!order)
		die("memory");
	for (i = 0; i < pages; i++)
		order[i] = i;
	for (i = pages - 1; i > 0; i--) {
		unsigned long j = next_rand() % (i + 1);
		unsigned int t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	/* the last step leaves a tenth of a step's pages, as "nearly empty" */
	for (step = 1; step <= (int)steps; step++) {
		unsigned long until = pages * step / steps;

		if (step == (int)steps)
			until -= pages / steps / 10;
		for (; done < until; done++) {
			uint64_t range[2] = { (uint64_t)order[done] * unit, unit };

			if (ioctl(fd, BLKDISCARD, range))
				die("BLKDISCARD");
		}
		print_stat("discarded", step, pages - done);
	}

	snprintf(path, sizeof(path), "%s/compact", sysdir);
	f = fopen(path, "w");
	if (!f || fputs("1", f) < 0 || fclose(f))
		die(path);
	print_stat("compacted", (int)steps, pages - done);

	/* every page not discarded still reads back as written */
	for (i = done; i < pages; i++) {
		off_t off = (off_t)order[i] * unit;

		if (pread(fd, buf, unit, off) != (ssize_t)unit ||
		    pread(cfd, ref, unit, off) != (ssize_t)unit)
			die("reading back");
		if (memcmp(buf, ref, unit))
			bad++;
	}
	printf("ZMP_FRAG_DONE {\"pages_checked\": %lu, \"mismatches\": %lu}\n",
	       pages - done, bad);
	return bad ? 1 : 0;
}
