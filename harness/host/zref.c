// SPDX-License-Identifier: GPL-2.0
/*
 * zref: the user-space reference for the swap benchmark.  Compresses the
 * first SIZE bytes of a corpus in independent 4, 16, 32 and 64 KiB blocks
 * (the last two when they divide SIZE) with the algorithm and level zram
 * uses by default (zstd level 3, lz4 acceleration 1) and prints, per block
 * size, the stored bytes:
 *   stored       sum of min(compressed, block) over all blocks
 *   stored_zram  the same, but same-filled blocks cost 0 bytes as in zram
 * as one JSON object.  With a fourth argument "sizes", prints instead the
 * compressed size of every 16 KiB block, one a line (0: same-filled).  A
 * last argument "level=N" sets the level (zstd) or acceleration (lz4), as
 * zram's algorithm_params does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lz4.h>
#include <zstd.h>

static int same_filled(const unsigned char *p, size_t n)
{
	const unsigned long *w = (const unsigned long *)p;
	size_t i;

	for (i = 1; i < n / sizeof(*w); i++)
		if (w[i] != w[0])
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	static const size_t blocks[] = { 4096, 16384, 32768, 65536 };
	unsigned long long stored[4], stored_zram[4];
	size_t size, i, b, off;
	unsigned char *buf, *dst;
	const char *algo;
	ZSTD_CCtx *cctx;
	FILE *f;

	int level = 0, list;

	if (argc > 4 && !strncmp(argv[argc - 1], "level=", 6))
		level = atoi(argv[--argc] + 6);
	list = argc == 5 && !strcmp(argv[4], "sizes");
	if ((argc != 4 && !list) ||
	    (strcmp(argv[2], "zstd") && strcmp(argv[2], "lz4"))) {
		fprintf(stderr, "usage: zref CORPUS zstd|lz4 BYTES [sizes] [level=N]\n");
		return 2;
	}
	algo = argv[2];
	size = strtoull(argv[3], NULL, 10);
	if (!size || size % 16384) {
		fprintf(stderr, "zref: BYTES must be a positive multiple of 16384\n");
		return 2;
	}
	buf = malloc(size);
	dst = malloc(2 * 65536 + 1024);
	cctx = ZSTD_createCCtx();
	if (!buf || !dst || !cctx)
		return 2;
	f = fopen(argv[1], "rb");
	if (!f || fread(buf, 1, size, f) != size) {
		fprintf(stderr, "zref: cannot read %zu bytes of %s\n", size, argv[1]);
		return 2;
	}
	fclose(f);
	for (b = 0; b < 4; b++) {
		/* 32 and 64 KiB only for sizes they divide */
		if ((list && blocks[b] != 16384) || size % blocks[b])
			continue;
		size_t bs = blocks[b];

		stored[b] = stored_zram[b] = 0;
		for (off = 0; off < size; off += bs) {
			size_t c;

			if (!strcmp(algo, "zstd"))
				c = ZSTD_compressCCtx(cctx, dst, 2 * bs + 1024,
						      buf + off, bs, level ? level : 3);
			else
				c = LZ4_compress_fast((const char *)buf + off,
						      (char *)dst, bs, 2 * bs + 1024,
						      level ? level : 1);
			if ((!strcmp(algo, "zstd") && ZSTD_isError(c)) || !c) {
				fprintf(stderr, "zref: compression failed\n");
				return 2;
			}
			if (list && bs == 16384)
				printf("%zu\n", same_filled(buf + off, bs) ? 0 : c);
			if (c > bs)
				c = bs;
			stored[b] += c;
			if (!same_filled(buf + off, bs))
				stored_zram[b] += c;
		}
	}
	if (list)
		return 0;
	printf("{\"algo\": \"%s\", \"bytes\": %zu", algo, size);
	if (level)
		printf(", \"level\": %d", level);
	for (i = 0; i < 4; i++)
		if (size % blocks[i] == 0)
			printf(", \"stored_%zuk\": %llu, \"stored_zram_%zuk\": %llu",
		       blocks[i] / 1024, stored[i], blocks[i] / 1024, stored_zram[i]);
	printf("}\n");
	return 0;
}
