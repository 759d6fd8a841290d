/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest programs share: errors, the page size, and anonymous
 * memory aligned to a PMD (so that the mTHP sizes the caller enabled back
 * it with large folios).
 */
#ifndef ZMP_GUEST_H
#define ZMP_GUEST_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define MIB (1024UL * 1024UL)

/* the page size, set by zmp_init() */
static unsigned long PG;

/* Print what failed with errno's message and exit with status 2 */
static inline void __attribute__((noreturn)) die(const char *msg)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, msg,
		strerror(errno));
	exit(2);
}

static inline void zmp_init(void)
{
	PG = sysconf(_SC_PAGESIZE);
}

/*
 * SIZE bytes of private anonymous memory starting @shift bytes past a 2 MiB
 * boundary; with @small_folios, MADV_NOHUGEPAGE: 4 KiB folios only.
 */
static inline unsigned char *map_aligned_shift(size_t size, size_t shift,
					       int small_folios)
{
	size_t len = size + shift + 2 * MIB;
	unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	if (small_folios && madvise(p, len, MADV_NOHUGEPAGE))
		die("MADV_NOHUGEPAGE");
	p = (unsigned char *)(((uintptr_t)p + 2 * MIB - 1) & ~(2 * MIB - 1));
	return p + shift;
}

/* idx[] = 0..n-1, in a fixed order shuffled from @seed when @shuffle */
static inline void page_order(size_t *idx, size_t n, int shuffle,
			      uint64_t seed)
{
	size_t i, j, t;

	for (i = 0; i < n; i++)
		idx[i] = i;
	for (i = n - 1; shuffle && i > 0; i--) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		j = seed % (i + 1);
		t = idx[i];
		idx[i] = idx[j];
		idx[j] = t;
	}
}

static inline unsigned char *map_aligned(size_t size)
{
	return map_aligned_shift(size, 0, 0);
}

/* This task's page faults so far, minor and major */
static inline unsigned long long faults_so_far(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

/* CLOCK_MONOTONIC in nanoseconds */
static inline unsigned long long ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* qsort() order of unsigned long long */
static inline int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/* The value below which @q of the @n sorted @v (ns) lie, nearest rank, in us */
static inline double percentile_us(const unsigned long long *v, size_t n,
				   double q)
{
	size_t rank = (size_t)(q * n + 0.999999);

	if (!n)
		return 0;
	if (rank < 1)
		rank = 1;
	return v[(rank > n ? n : rank) - 1] / 1e3;
}

#endif
