// SPDX-License-Identifier: GPL-2.0
/*
 * zparams: how fast user-space zstd compresses and decompresses a corpus
 * in independent blocks, for zram's default parameters and for variants
 * tuned for 16 KiB blocks.  For each row: stored bytes (min(compressed,
 * block) summed), their ratio to the level-3 16 KiB row, and compression
 * and decompression MB/s (best of ROUNDS passes over the corpus, wall
 * clock on the host: indicative, unlike the sizes).
 *
 * usage: zparams CORPUS BYTES ROUNDS
 */
#define ZSTD_STATIC_LINKING_ONLY
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

struct variant {
	const char *name;
	size_t block;
	int min_match, strategy, hash_log, chain_log;	/* 0: the level's */
	int raw_literals;
};

static const struct variant variants[] = {
	{ "4 KiB, level 3 (6.12's pages)", 4096 },
	{ "16 KiB, level 3 (the series)", 16384 },
	{ "16 KiB, min match 5", 16384, 5 },
	{ "16 KiB, min match 6", 16384, 6 },
	{ "16 KiB, min match 7", 16384, 7 },
	{ "16 KiB, hash log 13, chain log 13", 16384, 0, 0, 13, 13 },
	{ "16 KiB, hash log 16, chain log 16 (fitted back to 15, 14)", 16384, 0, 0, 16, 16 },
	{ "16 KiB, fast strategy", 16384, 0, ZSTD_fast },
	{ "16 KiB, literals not compressed", 16384, 0, 0, 0, 0, 1 },
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void check(size_t r)
{
	if (ZSTD_isError(r)) {
		fprintf(stderr, "zparams: %s\n", ZSTD_getErrorName(r));
		exit(1);
	}
}

static void set(ZSTD_CCtx *c, ZSTD_cParameter p, int v)
{
	check(ZSTD_CCtx_setParameter(c, p, v));
}

/*
 * As the kernel's zstd_compress_cctx() does for zram: the parameters set
 * one by one with the source size pledged, then ZSTD_compress2(), which
 * fits them to that size (so a hash or chain log over the window's + 1
 * has no effect).
 */
static size_t compress(ZSTD_CCtx *c, const struct variant *v, void *dst,
		       const void *src)
{
	ZSTD_parameters p = ZSTD_getParams(3, v->block, 0);

	if (v->min_match)
		p.cParams.minMatch = v->min_match;
	if (v->strategy)
		p.cParams.strategy = v->strategy;
	if (v->hash_log)
		p.cParams.hashLog = v->hash_log;
	if (v->chain_log)
		p.cParams.chainLog = v->chain_log;
	/* every ZSTD_compress2() before ended its frame: reset the rest */
	check(ZSTD_CCtx_reset(c, ZSTD_reset_parameters));
	ZSTD_CCtx_setPledgedSrcSize(c, v->block);
	set(c, ZSTD_c_windowLog, p.cParams.windowLog);
	set(c, ZSTD_c_hashLog, p.cParams.hashLog);
	set(c, ZSTD_c_chainLog, p.cParams.chainLog);
	set(c, ZSTD_c_searchLog, p.cParams.searchLog);
	set(c, ZSTD_c_minMatch, p.cParams.minMatch);
	set(c, ZSTD_c_targetLength, p.cParams.targetLength);
	set(c, ZSTD_c_strategy, p.cParams.strategy);
	set(c, ZSTD_c_contentSizeFlag, p.fParams.contentSizeFlag);
	set(c, ZSTD_c_checksumFlag, p.fParams.checksumFlag);
	set(c, ZSTD_c_dictIDFlag, !p.fParams.noDictIDFlag);
	if (v->raw_literals)
		set(c, ZSTD_c_literalCompressionMode, ZSTD_ps_disable);
	return ZSTD_compress2(c, dst, v->block + 64, src, v->block);
}

int main(int argc, char **argv)
{
	unsigned char *buf, *out, *dec;
	unsigned long long ref = 0;
	size_t size, *len, *off, i, k;
	int rounds, r;
	ZSTD_CCtx *c;
	ZSTD_DCtx *d;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: zparams CORPUS BYTES ROUNDS\n");
		return 2;
	}
	size = strtoull(argv[2], NULL, 10) / 16384 * 16384;
	rounds = atoi(argv[3]);
	buf = malloc(size);
	out = malloc(size + size / 8 + (size / 4096 + 1) * 64);
	dec = malloc(16384);
	len = calloc(size / 4096, sizeof(*len));
	off = calloc(size / 4096, sizeof(*off));
	c = ZSTD_createCCtx();
	d = ZSTD_createDCtx();
	f = fopen(argv[1], "rb");
	if (!buf || !out || !dec || !len || !off || !c || !d || !f ||
	    fread(buf, 1, size, f) != size || rounds < 1) {
		fprintf(stderr, "zparams: cannot read %zu bytes of %s\n", size, argv[1]);
		return 2;
	}
	printf("| zstd, independent blocks | stored bytes | vs 16 KiB level 3 | compress MB/s | decompress MB/s |\n");
	printf("|---|---|---|---|---|\n");
	for (k = 0; k < sizeof(variants) / sizeof(variants[0]); k++) {
		const struct variant *v = &variants[k];
		size_t n = size / v->block, o;
		double bc = 1e30, bd = 1e30, t0, t1, t2;
		unsigned long long stored = 0;

		for (r = 0; r < rounds; r++) {
			t0 = now();
			for (i = 0, o = 0; i < n; i++) {
				len[i] = compress(c, v, out + o, buf + i * v->block);
				if (ZSTD_isError(len[i])) {
					fprintf(stderr, "zparams: %s\n", ZSTD_getErrorName(len[i]));
					return 1;
				}
				off[i] = o;
				o += len[i];
			}
			t1 = now();
			for (i = 0; i < n; i++) {
				if (len[i] >= v->block)
					continue;	/* zram stores it raw */
				if (ZSTD_decompressDCtx(d, dec, v->block, out + off[i], len[i]) != v->block ||
				    memcmp(dec, buf + i * v->block, v->block)) {
					fprintf(stderr, "zparams: block %zu does not round-trip\n", i);
					return 1;
				}
			}
			t2 = now();
			bc = t1 - t0 < bc ? t1 - t0 : bc;
			bd = t2 - t1 < bd ? t2 - t1 : bd;
		}
		for (i = 0; i < n; i++)
			stored += len[i] < v->block ? len[i] : v->block;
		if (k == 1)
			ref = stored;
		printf("| %s | %llu | ", v->name, stored);
		if (k >= 1)
			printf("%+.2f%% |", 100.0 * ((double)stored - ref) / ref);
		else
			printf("- |");
		printf(" %.0f | %.0f |\n", size / bc / 1e6, size / bd / 1e6);
	}
	return 0;
}
