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

#endif
