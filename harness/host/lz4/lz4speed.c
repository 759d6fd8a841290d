// SPDX-License-Identifier: GPL-2.0
/*
 * lz4speed: the kernel's LZ4 decoder against itself and liblz4, on the
 * host's wall clock.
 *
 * The corpus is cut into blocks of 4, 16 and 64 KiB and compressed by the
 * kernel's own compressor (lib/lz4/lz4_compress.c of the base, as zram's
 * lz4 backend stores them: LZ4_compress_fast(), acceleration 1). Each round
 * decodes every block with each decoder in turn (the base's copy of
 * LZ4_decompress_safe(), the series' copy, Debian's liblz4), the order
 * rotating from round to round, and checks every byte once. Printed per
 * block size: each decoder's median time for the whole corpus, its
 * spread ((max - min) / median) and MB/s, and the median of the rounds'
 * ratios series/base and series/liblz4. Then the compressors, the same
 * way: the kernel's LZ4_compress_fast() (the series does not change it)
 * and liblz4's LZ4_compress_fast_extState(), both at acceleration 1 with
 * their state reset for every block, as zram compresses a page or block.
 *
 * usage: lz4speed CORPUS MIB ROUNDS
 */
#include <lz4.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int kold_LZ4_decompress_safe(const char *, char *, int, int);
int knew_LZ4_decompress_safe(const char *, char *, int, int);
int kold_LZ4_compress_fast(const char *, char *, int, int, int, void *);

#define KERNEL_LZ4_MEM_COMPRESS	(32 << 10)	/* LZ4_MEM_COMPRESS and more */
#define NDEC			3

typedef int (*decoder_t)(const char *, char *, int, int);
static const decoder_t decoders[NDEC] = {
	kold_LZ4_decompress_safe, knew_LZ4_decompress_safe, LZ4_decompress_safe,
};
static const char *const names[NDEC] = { "base", "series", "liblz4" };

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void bench(const char *corpus, size_t bytes, int block, int rounds)
{
	int nblocks = bytes / block, i, r, d, bound = LZ4_compressBound(block);
	char **c = malloc(nblocks * sizeof(*c));
	int *clen = malloc(nblocks * sizeof(*clen));
	char *out = malloc(block), *state = malloc(KERNEL_LZ4_MEM_COMPRESS);
	double t[NDEC][64], ratio_old[64], ratio_lib[64], med[NDEC];
	size_t stored = 0;

	for (i = 0; i < nblocks; i++) {
		c[i] = malloc(bound);
		clen[i] = kold_LZ4_compress_fast(corpus + (size_t)i * block, c[i],
						 block, bound, 1, state);
		stored += clen[i];
		for (d = 0; d < NDEC; d++) {
			if (decoders[d](c[i], out, clen[i], block) != block ||
			    memcmp(out, corpus + (size_t)i * block, block)) {
				printf("not ok: %s decodes block %d wrongly\n",
				       names[d], i);
				exit(1);
			}
		}
	}
	for (r = 0; r < rounds; r++) {
		for (d = 0; d < NDEC; d++) {
			int k = (d + r) % NDEC;
			double t0 = now_ns();

			for (i = 0; i < nblocks; i++)
				decoders[k](c[i], out, clen[i], block);
			t[k][r] = now_ns() - t0;
		}
		ratio_old[r] = t[1][r] / t[0][r];
		ratio_lib[r] = t[1][r] / t[2][r];
	}
	for (d = 0; d < NDEC; d++) {
		double lo = t[d][0], hi = t[d][0];

		for (r = 1; r < rounds; r++) {
			lo = t[d][r] < lo ? t[d][r] : lo;
			hi = t[d][r] > hi ? t[d][r] : hi;
		}
		med[d] = median(t[d], rounds);
		printf("| %d KiB | %s | %.2f ms | %.1f%% | %.0f MB/s |\n",
		       block >> 10, names[d], med[d] / 1e6,
		       100 * (hi - lo) / med[d], nblocks * (double)block / med[d] * 1e3);
	}
	printf("| %d KiB | series/base | %.3f | | stored %.1f%% |\n", block >> 10,
	       median(ratio_old, rounds), 100.0 * stored / ((size_t)nblocks * block));
	printf("| %d KiB | series/liblz4 | %.3f | | |\n", block >> 10,
	       median(ratio_lib, rounds));
	for (i = 0; i < nblocks; i++)
		free(c[i]);
	free(c);
	free(clen);
	free(out);
	free(state);
}

static int lib_compress(const char *src, char *dst, int len, int cap,
			void *state)
{
	return LZ4_compress_fast_extState(state, src, dst, len, cap, 1);
}

static void bench_compress(const char *corpus, size_t bytes, int block,
			   int rounds)
{
	int nblocks = bytes / block, i, r, k, bound = LZ4_compressBound(block);
	char *dst = malloc(bound), *state = malloc(KERNEL_LZ4_MEM_COMPRESS);
	char *lstate = malloc(LZ4_sizeofState());
	double t[2][64], med;
	static const char *const who[2] = { "kernel", "liblz4" };

	for (r = 0; r < rounds; r++) {
		for (k = 0; k < 2; k++) {
			int c = (k + r) % 2;
			double t0 = now_ns();

			for (i = 0; i < nblocks; i++) {
				const char *src = corpus + (size_t)i * block;

				if (c == 0)
					kold_LZ4_compress_fast(src, dst, block, bound,
							       1, state);
				else
					lib_compress(src, dst, block, bound, lstate);
			}
			t[c][r] = now_ns() - t0;
		}
	}
	for (k = 0; k < 2; k++) {
		med = median(t[k], rounds);
		printf("| %d KiB | %s | %.2f ms | %.0f MB/s |\n", block >> 10,
		       who[k], med / 1e6, nblocks * (double)block / med * 1e3);
	}
	free(dst);
	free(state);
	free(lstate);
}

int main(int argc, char **argv)
{
	static const int blocks[] = { 4096, 16384, 65536 };
	size_t bytes;
	char *corpus;
	int rounds, b;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: %s CORPUS MIB ROUNDS\n", argv[0]);
		return 2;
	}
	bytes = strtoul(argv[2], NULL, 0) << 20;
	rounds = atoi(argv[3]);
	if (rounds < 3 || rounds > 64 || !bytes) {
		fprintf(stderr, "ROUNDS: 3 to 64; MIB: 1 or more\n");
		return 2;
	}
	corpus = malloc(bytes);
	f = fopen(argv[1], "rb");
	if (!f || fread(corpus, 1, bytes, f) != bytes) {
		fprintf(stderr, "%s: fewer than %s MiB\n", argv[1], argv[2]);
		return 2;
	}
	fclose(f);
	printf("| block | decoder | median | spread | speed |\n|---|---|---|---|---|\n");
	for (b = 0; b < 3; b++)
		bench(corpus, bytes, blocks[b], rounds);
	printf("\n| block | compressor | median | speed |\n|---|---|---|---|\n");
	for (b = 0; b < 3; b++)
		bench_compress(corpus, bytes, blocks[b], rounds);
	free(corpus);
	return 0;
}
