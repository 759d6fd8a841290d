// SPDX-License-Identifier: GPL-2.0
/*
 * swapstress: one worker of the stress run (harness/guest/tests/stress).
 *
 *   swapstress CORPUS MiB OPS|SECONDSs SEED
 *
 * Maps MiB of anonymous memory (2 MiB aligned, so 16 KiB mTHP can back
 * it) and fills every page with a page of the corpus chosen by the page's
 * version. For OPS operations (or, given as e.g. "60s", until SECONDS
 * have passed: a soak run) it then picks at random: verify a
 * range against the corpus (faulting it in from swap), rewrite a range with
 * new versions, MADV_PAGEOUT a range, MADV_DONTNEED one 4 KiB page of a
 * block (it must read back as zeroes), or fork a child that checks random
 * pages and exits. Every page is verified once more at the end.
 * Prints "SWAPSTRESS {json}"; exit status 1 if any byte was wrong.
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
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "zmp.h"


/* the page size, set first thing in main() */
#define BLK_PAGES 4UL

static int corpus_fd;
static unsigned long corpus_pages, npages;
static uint16_t *version;	/* 0: dropped, reads as zeroes */
static unsigned char *mem;
static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* The expected contents of page @p */
static void expected(unsigned long p, unsigned char *buf)
{
	unsigned long q;

	if (!version[p]) {
		memset(buf, 0, PG);
		return;
	}
	q = (p * 2654435761UL + version[p] * 40503UL) % corpus_pages;
	if (pread(corpus_fd, buf, PG, q * PG) != (ssize_t)PG)
		die("reading the corpus");
	/* make every (page, version) distinct even where the corpus repeats */
	memcpy(buf, &p, sizeof(p));
	memcpy(buf + sizeof(p), &version[p], sizeof(version[p]));
}

static unsigned long verify(unsigned long p, unsigned long n)
{
	static unsigned char *buf;
	unsigned long bad = 0, i, b;

	if (!buf && !(buf = malloc(PG)))
		die("malloc");

	for (i = p; i < p + n; i++) {
		expected(i, buf);
		if (!memcmp(mem + i * PG, buf, PG))
			continue;
		for (b = 0; b < PG; b++)
			bad += mem[i * PG + b] != buf[b];
	}
	return bad;
}

static void rewrite(unsigned long p, unsigned long n)
{
	unsigned long i;

	for (i = p; i < p + n; i++) {
		if (++version[i] == 0)
			version[i] = 1;
		expected(i, mem + i * PG);
	}
}

/* A random block-aligned range of 1 to @max blocks */
static void pick(unsigned long max, unsigned long *p, unsigned long *n)
{
	unsigned long blocks = npages / BLK_PAGES;
	unsigned long len = 1 + next() % max;

	if (len > blocks)
		len = blocks;
	*p = (next() % (blocks - len + 1)) * BLK_PAGES;
	*n = len * BLK_PAGES;
}

int main(int argc, char **argv)
{
	unsigned long verified = 0, rewritten = 0, pageouts = 0, drops = 0;
	unsigned long forks = 0, bad = 0, ops = 0, max_ops = 0, p, n, i;
	struct stat st;
	time_t end = 0;
	char *unit;
	int status;

	zmp_init();
	if (argc != 5) {
		fprintf(stderr, "usage: swapstress CORPUS MiB OPS|SECONDSs SEED\n");
		return 2;
	}
	npages = strtoul(argv[2], NULL, 10) * MIB / PG;
	/* a number of operations (the tests: the same work on any machine) */
	max_ops = strtoul(argv[3], &unit, 10);
	if (unit != argv[3] && *unit == 's' && !unit[1]) {
		end = time(NULL) + max_ops;
		max_ops = 0;
	} else if (*unit || !max_ops || unit == argv[3]) {
		die("OPS: a number of operations, or of seconds with an s");
	}
	rng = strtoull(argv[4], NULL, 10) * 0x9E3779B97F4A7C15ULL + 1;
	corpus_fd = open(argv[1], O_RDONLY);
	if (corpus_fd < 0 || fstat(corpus_fd, &st))
		die(argv[1]);
	corpus_pages = st.st_size / PG;
	if (S_ISBLK(st.st_mode)) {
		unsigned long long bytes;

		if (ioctl(corpus_fd, BLKGETSIZE64, &bytes))
			die("BLKGETSIZE64");
		corpus_pages = bytes / PG;
	}
	if (!npages || npages % BLK_PAGES || corpus_pages < 1)
		die("bad size or empty corpus");
	version = calloc(npages, sizeof(*version));
	if (!version)
		die("memory");
	mem = map_aligned(npages * PG);
	rewrite(0, npages);

	while (max_ops ? ops < max_ops : time(NULL) < end) {
		unsigned int op = next() % 100;

		ops++;
		if (op < 45) {
			pick(64, &p, &n);
			bad += verify(p, n);
			verified += n;
		} else if (op < 65) {
			pick(16, &p, &n);
			rewrite(p, n);
			rewritten += n;
		} else if (op < 92) {
			pick(512, &p, &n);
			if (madvise(mem + p * PG, n * PG, MADV_PAGEOUT))
				die("MADV_PAGEOUT");
			pageouts += n;
		} else if (op < 98) {
			p = next() % npages;
			if (madvise(mem + p * PG, PG, MADV_DONTNEED))
				die("MADV_DONTNEED");
			version[p] = 0;
			drops++;
		} else {
			pid_t pid = fork();

			if (pid < 0)
				die("fork");
			if (!pid) {
				unsigned long cbad = 0;

				for (i = 0; i < 64; i++)
					cbad += verify(next() % npages, 1);
				_exit(cbad ? 1 : 0);
			}
			if (waitpid(pid, &status, 0) != pid)
				die("waitpid");
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				bad++;	/* the child saw a wrong byte or died */
			forks++;
		}
	}
	bad += verify(0, npages);
	verified += npages;
	printf("SWAPSTRESS {\"ops\": %lu, \"pages_verified\": %lu, "
	       "\"pages_rewritten\": %lu, \"pages_paged_out\": %lu, "
	       "\"pages_dropped\": %lu, \"forks\": %lu, \"bytes_wrong\": %lu}\n",
	       ops, verified, rewritten, pageouts, drops, forks, bad);
	return bad ? 1 : 0;
}
