// SPDX-License-Identifier: GPL-2.0
/*
 * swaptest: swap paths that take a multi-page block apart.
 *
 *   swaptest partial CORPUS MiB
 *	Fill MiB of 16 KiB mTHP from the corpus, page it out, MADV_DONTNEED
 *	the second 4 KiB page of every 16 KiB (freeing one swap slot of each
 *	block), touch everything back in (the rest of each block must come
 *	back intact, the dropped page as zeroes), refill the dropped pages,
 *	page out and in again: every byte must equal the corpus.
 *
 *   swaptest hold CORPUS MiB COMMAND
 *	Fill MiB of memory from the corpus, page it out, run COMMAND with
 *	sh -c (e.g. writeback, recompression or swapoff), touch everything
 *	back in: every byte must equal the corpus. With MIXED=1 in the
 *	environment, every other 64 KiB of the mapping is MADV_NOHUGEPAGE,
 *	so 4 KiB and large folios are swapped side by side.
 *
 *   swaptest blockdev DEVICE MiB
 *	Direct I/O on a zram device: 16 KiB writes from a 16 KiB-aligned
 *	buffer, 4 KiB overwrites and discards inside stored blocks, then
 *	16 KiB and 4 KiB reads: every byte must be what was last written
 *	(zeroes where discarded). Then, block by block, a reader on CPU 0
 *	reads one 4 KiB page (zram keeps the block decompressed in that
 *	CPU's stream buffer), a writer on CPU 1 rewrites the whole block, and
 *	the reader reads the other pages: they must be the new data, never
 *	the buffered old block.
 *
 *   swaptest rewrite DEVICE CORPUS MiB SECONDS
 *	Direct I/O on a zram device, to run beside something that changes
 *	its blocks (recompression, writeback): every block of MiB written
 *	whole from the corpus, then for SECONDS, in rounds of as many
 *	operations as there are blocks, in a fixed pseudo-random order,
 *	blocks rewritten whole with other blocks of the corpus (new
 *	objects), single pages overwritten (they leave their block) and
 *	discarded (slot frees), each round followed by 16 KiB reads of every
 *	block (so that a stale object stored behind a rewrite is seen before
 *	the next rewrite hides it), then 4 KiB reads: every byte must be what
 *	was last written (zeroes where discarded).
 *
 *   swaptest fallback CORPUS MiB read|write|fork|dontneed|random|sparse|race
 *	Fill MiB of memory from the corpus, page it out, then set
 *	/proc/self/make-it-fail (fail_page_alloc, set up by the caller, then
 *	fails this task's large swap-in allocations) and bring it back:
 *	read: read-fault every page; write: the first touch of every page is
 *	a write; fork: a child (failing as well) touches and checks a copy
 *	first, then the parent; dontneed: MADV_DONTNEED one page of every
 *	other 16 KiB first (those must read back as zeroes); random:
 *	read-fault the pages in a fixed pseudo-random order; sparse: run the
 *	command $SWAPTEST_OUT_CMD (if set) once the memory is paged out,
 *	read-fault the first page of every block only, run
 *	$SWAPTEST_TOUCH_CMD (large allocations no longer failing), then touch
 *	the rest (in the swap cache by then, or small folios). Every byte must equal the
 *	corpus (as changed by the writes); $SWAPTEST_END_CMD (if set) runs
 *	last, with everything still mapped. With SWAPTEST_PAUSE=PATH it
 *	waits for its caller after the page-out (and $SWAPTEST_OUT_CMD), the
 *	block heads (sparse) and the end: it creates PATH.STAGE.ready and
 *	waits for PATH.STAGE.go (STAGE out, heads, end). With SWAPTEST_ZERO_EVERY=N, every
 *	Nth page is zero, $SWAPTEST_OUT_CMD runs after the page-out in
 *	every mode, and a line "paged out: N of M pages, Z of its ZM zero
 *	pages" says how many pages the page-out took (mincore), and how
 *	many of those are zero, of the zero pages there are. race: run
 *	$SWAPTEST_OUT_CMD, then $SWAPTEST_RACE_CMD
 *	(e.g. swapoff) in a child while a second child (failing as well)
 *	read-faults its copy of every page from the last to the first and
 *	this task touches the first page of every block, then every page in
 *	a pseudo-random order: the two tasks fault the same swap entries.
 *	Both copies must equal the corpus, and the command must succeed.
 *	With SWAPTEST_SHMEM=1, a shared memory (memfd) copy of the corpus is
 *	paged out before $SWAPTEST_OUT_CMD too, and a third child (failing
 *	as well) read-faults it in a pseudo-random order during the race: it
 *	must equal the corpus too.
 *
 * Prints what it checks; exit status 0 when everything matched.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "zmp.h"


/* the page size, and the block: four pages, as zram stores large folios */
static unsigned long BLK;

static void read_corpus(int fd, unsigned char *dst, size_t len, off_t off)
{
	if (pread(fd, dst, len, off) != (ssize_t)len)
		die("reading the corpus");
}

/* SIZE bytes of the corpus, the reference the tests compare with */
static unsigned char *read_reference(const char *corpus, size_t size)
{
	unsigned char *ref = malloc(size);
	int fd = open(corpus, O_RDONLY);

	if (fd < 0 || !ref)
		die(corpus);
	read_corpus(fd, ref, size, 0);
	close(fd);
	return ref;
}

static void fill_and_page_out(unsigned char *mem, const unsigned char *ref,
			      size_t size)
{
	memcpy(mem, ref, size);
	if (madvise(mem, size, MADV_PAGEOUT))
		die("MADV_PAGEOUT");
}

static unsigned long touch_and_count(unsigned char *mem, size_t size)
{
	volatile unsigned char sink = 0;
	size_t off;

	for (off = 0; off < size; off += PG)
		sink += mem[off];
	return sink;
}

static unsigned long count_diff(const unsigned char *a, const unsigned char *b,
				size_t size)
{
	unsigned long bad = 0;
	size_t off;

	for (off = 0; off < size; off++)
		if (a[off] != b[off])
			bad++;
	return bad;
}

static int partial(const char *corpus, size_t size)
{
	unsigned char *mem = map_aligned(size);
	unsigned char *ref = read_reference(corpus, size);
	unsigned long bad = 0;
	size_t off, i;

	fill_and_page_out(mem, ref, size);
	for (off = PG; off < size; off += BLK)
		if (madvise(mem + off, PG, MADV_DONTNEED))
			die("MADV_DONTNEED");
	touch_and_count(mem, size);
	for (off = 0; off < size; off += PG) {
		int dropped = off % BLK == PG;

		for (i = 0; i < PG; i++)
			if (mem[off + i] != (dropped ? 0 : ref[off + i]))
				bad++;
	}
	printf("after dropping a page of each block: %lu bytes differ\n", bad);

	for (off = PG; off < size; off += BLK)
		memcpy(mem + off, ref + off, PG);
	if (madvise(mem, size, MADV_PAGEOUT))
		die("MADV_PAGEOUT");
	touch_and_count(mem, size);
	i = count_diff(mem, ref, size);
	printf("after refilling and swapping again: %zu bytes differ\n", i);
	return bad || i;
}

static int hold(const char *corpus, size_t size, const char *cmd)
{
	unsigned char *mem = map_aligned(size);
	unsigned char *ref = read_reference(corpus, size);
	const char *mixed = getenv("MIXED");
	unsigned long bad;
	size_t off;
	int rc;

	if (mixed && !strcmp(mixed, "1"))
		for (off = 0; off < size; off += 2 * 16 * PG)
			if (madvise(mem + off, 16 * PG, MADV_NOHUGEPAGE))
				die("MADV_NOHUGEPAGE");
	fill_and_page_out(mem, ref, size);
	fflush(stdout);
	rc = system(cmd);
	printf("'%s' exited with %d\n", cmd, rc);
	touch_and_count(mem, size);
	bad = count_diff(mem, ref, size);
	printf("after '%s': %lu bytes differ\n", cmd, bad);
	return bad || rc;
}

static void set_make_it_fail(const char *val)
{
	int fd = open("/proc/self/make-it-fail", O_WRONLY);

	if (fd < 0 || write(fd, val, 1) != 1)
		die("/proc/self/make-it-fail");
	close(fd);
}

static void make_it_fail(void)
{
	set_make_it_fail("1");
}


/* Read-fault every page of [mem, mem + size) in a fixed shuffled order */
static void touch_random(unsigned char *mem, size_t size)
{
	size_t n = size / PG, i, *order = malloc(n * sizeof(*order));
	volatile unsigned char sink;

	if (!order)
		die("malloc");
	page_order(order, n, 1, 0x2545f4914f6cdd1dULL);
	for (i = 0; i < n; i++)
		sink = mem[order[i] * PG];
	(void)sink;
	free(order);
}

/* Run the command in environment variable @var, if it is set */
static void run_env_cmd(const char *var)
{
	const char *cmd = getenv(var);
	int rc;

	if (!cmd)
		return;
	fflush(stdout);
	rc = system(cmd);
	printf("%s exited with %d\n", var, rc);
	if (rc)
		die(var);
}

/*
 * SWAPTEST_PAUSE=PATH: at @stage, create PATH.STAGE.ready, then wait
 * (forking nothing) until PATH.STAGE.go exists, so that the caller can read
 * and set the task's memory cgroup with nothing else of it running
 */
static void pause_for_caller(const char *stage)
{
	const char *path = getenv("SWAPTEST_PAUSE");
	char name[256];
	int fd;

	if (!path)
		return;
	snprintf(name, sizeof(name), "%s.%s.ready", path, stage);
	fd = open(name, O_CREAT | O_WRONLY, 0644);
	if (fd < 0)
		die(name);
	close(fd);
	snprintf(name, sizeof(name), "%s.%s.go", path, stage);
	while (access(name, F_OK))
		usleep(10000);
}

/* Read-fault the first page of every block of [mem, mem + size) */
static void touch_block_heads(unsigned char *mem, size_t size)
{
	volatile unsigned char sink;
	size_t off;

	for (off = 0; off < size; off += BLK)
		sink = mem[off];
	(void)sink;
}

/*
 * With SWAPTEST_ZERO_EVERY=N in the environment, every Nth page of the
 * reference is zero: swap keeps such pages in its zero map, not on the
 * device, so a block-aligned range of pages swapped out one by one mixes
 * the two.
 */
static void zero_every_nth_page(unsigned char *ref, size_t size)
{
	const char *every = getenv("SWAPTEST_ZERO_EVERY");
	unsigned long n = every ? strtoul(every, NULL, 10) : 0;
	size_t off;

	for (off = 0; n && off < size; off += n * PG)
		memset(ref + off, 0, PG);
}

static int page_is_zero(const unsigned char *p)
{
	size_t i;

	for (i = 0; i < PG && !p[i]; i++)
		;
	return i == PG;
}

/*
 * Print how many pages of [mem, mem + size) the page-out took (mincore: no
 * longer resident) and how many of those are zero in @ref (swap keeps them
 * in its zero map), out of how many zero pages @ref has.
 */
static void report_paged_out(unsigned char *mem, const unsigned char *ref,
			     size_t size)
{
	size_t n = size / PG, i, out = 0, zero = 0, zeros = 0;
	unsigned char *vec = malloc(n);

	if (!vec || mincore(mem, size, vec))
		die("mincore");
	for (i = 0; i < n; i++) {
		int z = page_is_zero(ref + i * PG);

		zeros += z;
		if (!(vec[i] & 1)) {
			out++;
			zero += z;
		}
	}
	free(vec);
	printf("paged out: %zu of %zu pages, %zu of its %zu zero pages\n",
	       out, n, zero, zeros);
}

/* Read-fault every page of [mem, mem + size), from the last to the first */
static void touch_backwards(unsigned char *mem, size_t size)
{
	volatile unsigned char sink;
	size_t off;

	for (off = size; off; off -= PG)
		sink = mem[off - PG];
	(void)sink;
}

/* Waits for @pid; prints and returns its status (a signal: 128 + it) */
static int wait_child(pid_t pid, const char *what)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (WIFSIGNALED(status)) {
		printf("%s: killed by signal %d\n", what, WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	printf("%s: exited with %d\n", what, WEXITSTATUS(status));
	return WEXITSTATUS(status);
}

/* SWAPTEST_SHMEM=1: a memfd copy of @ref, paged out (else NULL) */
static unsigned char *shmem_copy(const unsigned char *ref, size_t size)
{
	unsigned char *shm, *vec;
	size_t i, out = 0;
	int fd;

	if (!getenv("SWAPTEST_SHMEM"))
		return NULL;
	fd = memfd_create("swaptest", 0);
	if (fd < 0 || ftruncate(fd, size))
		die("memfd");
	shm = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (shm == MAP_FAILED)
		die("mmap of the memfd");
	close(fd);
	fill_and_page_out(shm, ref, size);
	vec = malloc(size / PG);
	if (!vec || mincore(shm, size, vec))
		die("mincore");
	for (i = 0; i < size / PG; i++)
		out += !(vec[i] & 1);
	free(vec);
	printf("shared memory: %zu of %zu pages paged out\n", out, size / PG);
	return shm;
}

/*
 * fallback race: $SWAPTEST_RACE_CMD in one child, a second child faulting
 * its copy backwards, this task faulting forwards, all at once; a third
 * child faulting the shared memory copy @shm, if any.
 */
static int race(unsigned char *mem, unsigned char *shm, unsigned char *ref,
		size_t size)
{
	const char *cmd = getenv("SWAPTEST_RACE_CMD");
	pid_t racer, toucher, shmem = 0;
	unsigned long bad;
	int rc = 0;

	fflush(stdout);
	if (shm) {
		shmem = fork();
		if (shmem < 0)
			die("fork");
		if (!shmem) {
			make_it_fail();
			touch_random(shm, size);
			bad = count_diff(shm, ref, size);
			printf("shared memory: %lu bytes differ\n", bad);
			exit(bad != 0);
		}
	}
	toucher = fork();
	if (toucher < 0)
		die("fork");
	if (!toucher) {
		make_it_fail();
		touch_backwards(mem, size);
		bad = count_diff(mem, ref, size);
		printf("backwards: %lu bytes differ\n", bad);
		exit(bad != 0);
	}
	racer = fork();
	if (racer < 0)
		die("fork");
	if (!racer)
		exit(cmd ? !!system(cmd) : 0);
	make_it_fail();
	touch_block_heads(mem, size);
	touch_random(mem, size);
	set_make_it_fail("0");
	bad = count_diff(mem, ref, size);
	printf("forwards: %lu bytes differ\n", bad);
	rc |= wait_child(toucher, "backwards toucher");
	rc |= wait_child(racer, cmd ? cmd : "no command");
	if (shm)
		rc |= wait_child(shmem, "shared memory toucher");
	return rc || bad;
}

static int fallback(const char *corpus, size_t size, const char *how)
{
	unsigned char *shm = NULL, *mem = map_aligned(size);
	unsigned char *ref = read_reference(corpus, size);
	unsigned long bad;
	size_t off;
	int status;
	pid_t pid;

	zero_every_nth_page(ref, size);
	fill_and_page_out(mem, ref, size);
	if (getenv("SWAPTEST_ZERO_EVERY"))
		report_paged_out(mem, ref, size);
	if (!strcmp(how, "race"))
		shm = shmem_copy(ref, size);
	if (!strcmp(how, "sparse") || !strcmp(how, "race") ||
	    getenv("SWAPTEST_ZERO_EVERY"))
		run_env_cmd("SWAPTEST_OUT_CMD");
	pause_for_caller("out");
	if (!strcmp(how, "race"))
		return race(mem, shm, ref, size);

	if (!strcmp(how, "fork")) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid) {
			make_it_fail();
			touch_and_count(mem, size);
			bad = count_diff(mem, ref, size);
			printf("child: %lu bytes differ\n", bad);
			exit(bad != 0);
		}
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
		printf("child exited with %d\n", status);
		if (status)
			return 1;
	}
	make_it_fail();
	if (!strcmp(how, "dontneed")) {
		for (off = PG; off < size; off += 2 * BLK) {
			if (madvise(mem + off, PG, MADV_DONTNEED))
				die("MADV_DONTNEED");
			memset(ref + off, 0, PG);
		}
	}
	if (!strcmp(how, "write")) {
		for (off = 0; off < size; off += PG) {
			ref[off + 7] ^= 0x5a;
			mem[off + 7] = ref[off + 7];
		}
	}
	if (!strcmp(how, "random"))
		touch_random(mem, size);
	if (!strcmp(how, "sparse")) {
		touch_block_heads(mem, size);
		/* fork() needs more than an order-0 page on some kernels */
		set_make_it_fail("0");
		pause_for_caller("heads");
		run_env_cmd("SWAPTEST_TOUCH_CMD");
	}
	touch_and_count(mem, size);
	bad = count_diff(mem, ref, size);
	printf("%s: %lu bytes differ\n", how, bad);
	run_env_cmd("SWAPTEST_END_CMD");
	pause_for_caller("end");
	return bad != 0;
}

static void pattern(unsigned char *p, size_t len, uint64_t seed)
{
	size_t i;

	/* compressible but not same-filled: a counter mixed with the seed */
	for (i = 0; i < len; i += 8)
		*(uint64_t *)(p + i) = (i / 64) * 0x9e3779b97f4a7c15ULL + seed;
}

static void run_on_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void pipe_step(int rfd, int wfd)
{
	char c = 0;

	if (wfd >= 0 && write(wfd, &c, 1) != 1)
		die("pipe write");
	if (rfd >= 0 && read(rfd, &c, 1) != 1)
		die("pipe read");
}

/*
 * Block i: the reader reads page 1 (the block lands in its CPU's stream
 * buffer), the writer, on the other CPU, rewrites the block with a 16 KiB
 * write from a fresh large folio (a new object, often at the same handle),
 * then the reader reads pages 2, 3, 0 and 1: the new data, or zram served a
 * stale buffer. Returns the pages that differ.
 */
static unsigned long rewrite_behind_reader(int fd, unsigned char *buf,
					   unsigned char *ref, size_t nblk)
{
	int go[2], done[2], cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long bad = 0;
	unsigned char *wbuf;
	size_t i, pg;
	int status;
	pid_t pid;

	if (pipe(go) || pipe(done))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		run_on_cpu(cpus > 1 ? 1 : 0);
		wbuf = map_aligned(BLK);
		for (i = 0; i < nblk; i++) {
			pipe_step(go[0], -1);
			pattern(wbuf, BLK, i ^ 0xa5a5a5a5ULL);
			if (pwrite(fd, wbuf, BLK, i * BLK) != (ssize_t)BLK)
				die("16 KiB rewrite");
			pipe_step(-1, done[1]);
		}
		exit(0);
	}
	run_on_cpu(0);
	for (i = 0; i < nblk; i++) {
		if (pread(fd, buf, PG, i * BLK + PG) != (ssize_t)PG)
			die("4 KiB read");
		bad += !!memcmp(buf, ref + i * BLK + PG, PG);
		pipe_step(done[0], go[1]);
		pattern(ref + i * BLK, BLK, i ^ 0xa5a5a5a5ULL);
		for (pg = 2; pg < 6; pg++) {
			if (pread(fd, buf, PG, i * BLK + (pg % 4) * PG) !=
			    (ssize_t)PG)
				die("4 KiB read");
			bad += !!memcmp(buf, ref + i * BLK + (pg % 4) * PG, PG);
		}
	}
	if (waitpid(pid, &status, 0) != pid || status)
		die("writer");
	printf("rewrites behind a reader on %d CPU(s): %lu pages differ\n",
	       cpus > 1 ? 2 : 1, bad);
	return bad;
}

static int blockdev(const char *dev, size_t size)
{
	unsigned char *buf = map_aligned(BLK), *ref = malloc(size);
	size_t off, i, nblk = size / BLK;
	unsigned long bad = 0;
	int fd = open(dev, O_RDWR | O_DIRECT);

	if (fd < 0 || !ref)
		die(dev);
	for (i = 0; i < nblk; i++) {
		pattern(ref + i * BLK, BLK, i);
		memcpy(buf, ref + i * BLK, BLK);
		if (pwrite(fd, buf, BLK, i * BLK) != (ssize_t)BLK)
			die("16 KiB write");
	}
	/* a 4 KiB overwrite in every third block, a discard in every fifth */
	for (i = 0; i < nblk; i++) {
		off = i * BLK + (i % 4) * PG;
		if (i % 3 == 0) {
			pattern(ref + off, PG, ~i);
			memcpy(buf, ref + off, PG);
			if (pwrite(fd, buf, PG, off) != (ssize_t)PG)
				die("4 KiB write");
		}
		if (i % 5 == 1) {
			uint64_t range[2] = { off, PG };

			if (ioctl(fd, BLKDISCARD, range))
				die("BLKDISCARD");
			memset(ref + off, 0, PG);
		}
	}
	for (i = 0; i < nblk; i++) {
		if (pread(fd, buf, BLK, i * BLK) != (ssize_t)BLK)
			die("16 KiB read");
		if (memcmp(buf, ref + i * BLK, BLK))
			bad++;
	}
	printf("16 KiB reads: %lu blocks differ\n", bad);
	for (off = 0; off < size; off += PG) {
		if (pread(fd, buf, PG, off) != (ssize_t)PG)
			die("4 KiB read");
		if (memcmp(buf, ref + off, PG))
			bad++;
	}
	printf("16 KiB and 4 KiB reads: %lu differ\n", bad);
	bad += rewrite_behind_reader(fd, buf, ref, nblk);
	return bad != 0;
}

/* xorshift64: the fixed pseudo-random sequence of rewrite */
static uint64_t next_random(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Write @len bytes of @src at @off of @fd, from the block-sized @buf */
static void write_at(int fd, unsigned char *buf, const unsigned char *src,
		     size_t len, off_t off)
{
	memcpy(buf, src, len);
	if (pwrite(fd, buf, len, off) != (ssize_t)len)
		die("rewrite: write");
}

/* 16 KiB reads of the @nblk blocks of @fd: the blocks that differ from @ref */
static unsigned long blocks_differ(int fd, unsigned char *buf,
				   const unsigned char *ref, size_t nblk)
{
	unsigned long bad = 0;
	size_t i;

	for (i = 0; i < nblk; i++) {
		if (pread(fd, buf, BLK, i * BLK) != (ssize_t)BLK)
			die("16 KiB read");
		bad += !!memcmp(buf, ref + i * BLK, BLK);
	}
	return bad;
}

static int rewrite(const char *dev, const char *corpus, size_t size,
		   unsigned int secs)
{
	size_t nblk = size / BLK, ncorp = 4 * nblk, i, n, c, off;
	unsigned char *buf = map_aligned(BLK), *ref = malloc(size);
	unsigned char *src = read_reference(corpus, ncorp * BLK);
	unsigned long blocks = 0, pages = 0, discards = 0, rounds = 0;
	unsigned long bad = 0;
	int fd = open(dev, O_RDWR | O_DIRECT);
	uint64_t x = 0x9e3779b97f4a7c15ULL, r;
	time_t end;

	if (fd < 0 || !ref)
		die(dev);
	for (i = 0; i < nblk; i++) {
		memcpy(ref + i * BLK, src + i * BLK, BLK);
		write_at(fd, buf, ref + i * BLK, BLK, i * BLK);
	}
	end = time(NULL) + secs;
	while (time(NULL) < end) {
		for (n = 0; n < nblk; n++) {
			r = next_random(&x);
			i = r % nblk;
			off = i * BLK + (r >> 32) % (BLK / PG) * PG;
			c = (r >> 40) % ncorp;
			switch ((r >> 56) % 8) {
			case 0: {
				uint64_t range[2] = { off, PG };

				if (ioctl(fd, BLKDISCARD, range))
					die("BLKDISCARD");
				memset(ref + off, 0, PG);
				discards++;
				break;
			}
			case 1:
				memcpy(ref + off, src + c * BLK, PG);
				write_at(fd, buf, ref + off, PG, off);
				pages++;
				break;
			default:
				memcpy(ref + i * BLK, src + c * BLK, BLK);
				write_at(fd, buf, ref + i * BLK, BLK, i * BLK);
				blocks++;
			}
		}
		bad += blocks_differ(fd, buf, ref, nblk);
		rounds++;
	}
	printf("%lu rounds: %lu block rewrites, %lu page overwrites, %lu discards in %u s; %lu blocks read back wrong after their round\n",
	       rounds, blocks, pages, discards, secs, bad);
	bad += blocks_differ(fd, buf, ref, nblk);
	for (off = 0; off < size; off += PG) {
		if (pread(fd, buf, PG, off) != (ssize_t)PG)
			die("4 KiB read");
		bad += !!memcmp(buf, ref + off, PG);
	}
	printf("then 16 KiB and 4 KiB reads: %lu differ in all\n", bad);
	return bad != 0;
}

int main(int argc, char **argv)
{
	unsigned long mib = argc == 4 ? strtoul(argv[3], NULL, 10) : 0;

	zmp_init();
	BLK = 4 * PG;
	if (argc == 4 && mib && !strcmp(argv[1], "partial"))
		return partial(argv[2], mib * MIB);
	if (argc == 4 && mib && !strcmp(argv[1], "blockdev"))
		return blockdev(argv[2], mib * MIB);
	if (argc == 6 && !strcmp(argv[1], "rewrite")) {
		mib = strtoul(argv[4], NULL, 10);
		if (mib && atoi(argv[5]) > 0)
			return rewrite(argv[2], argv[3], mib * MIB,
				       atoi(argv[5]));
	}
	if (argc == 5 && !strcmp(argv[1], "hold")) {
		mib = strtoul(argv[3], NULL, 10);
		if (mib)
			return hold(argv[2], mib * MIB, argv[4]);
	}
	if (argc == 5 && !strcmp(argv[1], "fallback") &&
	    (!strcmp(argv[4], "read") || !strcmp(argv[4], "write") ||
	     !strcmp(argv[4], "fork") || !strcmp(argv[4], "dontneed") ||
	     !strcmp(argv[4], "random") || !strcmp(argv[4], "sparse") ||
	     !strcmp(argv[4], "race"))) {
		mib = strtoul(argv[3], NULL, 10);
		if (mib)
			return fallback(argv[2], mib * MIB, argv[4]);
	}
	fprintf(stderr, "usage: swaptest partial CORPUS MiB | hold CORPUS MiB COMMAND | blockdev DEVICE MiB | rewrite DEVICE CORPUS MiB SECONDS | fallback CORPUS MiB read|write|fork|dontneed|random|sparse|race\n");
	return 2;
}
