// SPDX-License-Identifier: GPL-2.0
/*
 * lz4fuzz: differential fuzzer of the kernel's LZ4 decoder.
 *
 * Two copies of lib/lz4/lz4_decompress.c are linked in, the base's (kold_)
 * and the series' (knew_), with Debian's liblz4 as a third decoder. Valid
 * blocks are made from a corpus (4 KiB to 64 KiB, liblz4's fast, default
 * and HC compressors, with and without a dictionary, and synthetic runs
 * and periods), then mutated (bit flips, byte stores, 0x00/0xff runs,
 * truncation, extension, spliced slices) and decoded through every
 * decoder entry point the tree uses, into exactly sized heap buffers of
 * many capacities, so that AddressSanitizer sees any read or write out of
 * bounds. Every call must give the same result from both kernel copies:
 * the same return value, valid input or not, and the same bytes up to it.
 * liblz4 must agree on success, the value on success and the bytes;
 * where it returns an error it is only counted as one (its error values
 * are its own). In-place decoding with erofs's margin is checked on the
 * valid blocks.
 *
 * usage: lz4fuzz CORPUS ITERATIONS SEED
 * Prints KTAP; exits 1 on the first difference.
 */
#include <lz4.h>
#include <lz4hc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KDECL(p)							\
int p##LZ4_decompress_safe(const char *, char *, int, int);		\
int p##LZ4_decompress_safe_partial(const char *, char *, int, int, int); \
int p##LZ4_decompress_fast(const char *, char *, int);			\
int p##LZ4_setStreamDecode(void *, const char *, int);			\
int p##LZ4_decompress_safe_continue(void *, const char *, char *, int, int); \
int p##LZ4_decompress_safe_usingDict(const char *, char *, int, int,	\
				     const char *, int);		\
int p##LZ4_decompress_fast_usingDict(const char *, char *, int,	\
				     const char *, int);
KDECL(kold_)
KDECL(knew_)

#define MAX_BLOCK	(64 << 10)
#define NSEEDS		600

struct seed {
	char *c;		/* compressed */
	int clen;
	char *plain;		/* what it decodes to */
	int plen;
	const char *dict;	/* the dictionary it was compressed with */
	int dlen;
};

static uint64_t rng_state;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}
static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }

static char *corpus;
static size_t corpus_len;
static struct seed seeds[NSEEDS];
static unsigned long calls, kernel_ok, lib_agree, lib_only_fails,
	kernel_only_fails, both_differ, undefined_tails;

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		perror("malloc");
		exit(2);
	}
	return p;
}

static void *dup_exact(const void *s, size_t n)
{
	void *p = xmalloc(n);

	memcpy(p, s, n);
	return p;
}

static int block_size(void)
{
	static const int sizes[] = { 4096, 8192, 16384, 32768, 65536 };

	if (below(4))
		return sizes[below(5)];
	return 1 + below(MAX_BLOCK);
}

/* The plain text of a seed: corpus bytes, or a synthetic pattern. */
static void fill_plain(char *p, int n)
{
	int i, period;

	switch (below(10)) {
	case 0:		/* runs of a byte */
		for (i = 0; i < n; ) {
			int run = 1 + below(300), c = below(4) ? 0 : rnd();

			for (; run-- && i < n; i++)
				p[i] = c;
		}
		break;
	case 1:		/* short periods: offsets 1 to 19 */
		period = 1 + below(19);
		for (i = 0; i < n; i++)
			p[i] = i < period ? (char)rnd() : p[i - period];
		for (i = 0; i < n / 64; i++)
			p[below(n)] = rnd();
		break;
	case 2:		/* incompressible */
		for (i = 0; i < n; i++)
			p[i] = rnd();
		break;
	default:
		memcpy(p, corpus + below(corpus_len - n), n);
	}
}

static void make_seed(struct seed *s)
{
	int n = block_size(), bound = LZ4_compressBound(n), kind = below(4);
	char *plain = xmalloc(n), *c = xmalloc(bound);
	int clen;

	free(s->c);
	free(s->plain);
	fill_plain(plain, n);
	s->dict = NULL;
	s->dlen = 0;
	if (kind == 0) {
		clen = LZ4_compress_HC(plain, c, n, bound, 3 + below(10));
	} else if (kind == 1 && corpus_len > 2 * MAX_BLOCK + n) {
		LZ4_stream_t *st = LZ4_createStream();
		size_t at = MAX_BLOCK + below(corpus_len - 2 * MAX_BLOCK - n);

		/* the plain text follows its dictionary in the corpus */
		s->dlen = 1 + below(MAX_BLOCK);
		s->dict = corpus + at - s->dlen;
		memcpy(plain, corpus + at, n);
		LZ4_loadDict(st, s->dict, s->dlen);
		clen = LZ4_compress_fast_continue(st, plain, c, n, bound, 1);
		LZ4_freeStream(st);
	} else {
		clen = LZ4_compress_fast(plain, c, n, bound,
					 below(3) ? 1 : 1 + below(30));
	}
	if (clen <= 0) {
		fprintf(stderr, "liblz4 could not compress a seed\n");
		exit(2);
	}
	s->c = c;
	s->clen = clen;
	s->plain = plain;
	s->plen = n;
}

/*
 * Mutates a copy of @s's block (or leaves it as it is, *@valid set);
 * returns its length.
 */
static int mutate(const struct seed *s, char *m, int *valid)
{
	int len = s->clen, ops = below(4) ? 1 + below(8) : 0, i, at, n;

	memcpy(m, s->c, len);
	*valid = !ops;
	while (ops--) {
		switch (below(8)) {
		case 0:
			if (len)
				m[below(len)] ^= 1 << below(8);
			break;
		case 1:
			if (len)
				m[below(len)] = rnd();
			break;
		case 2:		/* a length run, or zeros */
			if (!len)
				break;
			at = below(len);
			n = 1 + below(16);
			for (i = at; i < len && i < at + n; i++)
				m[i] = below(2) ? 0xff : 0;
			break;
		case 3:
			len = below(len + 1);
			break;
		case 4:
			n = below(64);
			for (i = 0; i < n && len < 2 * MAX_BLOCK; i++)
				m[len++] = rnd();
			break;
		case 5:		/* a token or an offset byte */
			if (len)
				m[below(len)] = below(2) ? 0xf0 | below(16) : below(16);
			break;
		case 6:		/* splice a slice of the block elsewhere */
			if (len < 2)
				break;
			at = below(len);
			n = 1 + below(len - at);
			i = below(len - n + 1);
			memmove(m + i, m + at, n);
			break;
		default:	/* cut the last bytes only */
			if (len)
				len -= 1 + below(len < 8 ? len : 8);
			break;
		}
	}
	return len;
}

static int capacity(const struct seed *s)
{
	switch (below(8)) {
	case 0: return s->plen;
	case 1: return s->plen ? s->plen - 1 : 0;
	case 2: return s->plen + 1 + below(64);
	case 3: return below(s->plen + 1);
	case 4: return below(20);
	case 5: return 2 * s->plen + 64;
	default: return s->plen;
	}
}

/*
 * Where the first match of offset 0 of @src writes (or -1): such a match
 * copies bytes the decoder has not written yet. Full decoding writes the
 * offset there first, so those bytes are defined; partial decoding
 * leaves what the buffer held, which differs between two decoders by the
 * bytes their wide copies wrote past the end of earlier sequences.
 */
static long first_offset0(const unsigned char *p, int len)
{
	const unsigned char *end = p + len;
	long out = 0;

	while (p < end) {
		unsigned int token = *p++, s;
		long lit = token >> 4, ml = token & 15;

		if (lit == 15)
			do {
				if (p >= end)
					return -1;
				s = *p++;
				lit += s;
			} while (s == 255);
		if (lit > end - p || end - p - lit < 2)
			return -1;
		p += lit;
		out += lit;
		if (!(p[0] | p[1]))
			return out;
		p += 2;
		if (ml == 15)
			do {
				if (p >= end)
					return -1;
				s = *p++;
				ml += s;
			} while (s == 255);
		out += ml + 4;
	}
	return -1;
}

static void fail(const char *what, int r_old, int r_new, int len, int cap)
{
	printf("not ok 1 %s: kernel decoders differ: base %d, series %d (input %d bytes, capacity %d, seed state %llu)\n",
	       what, r_old, r_new, len, cap, (unsigned long long)rng_state);
	exit(1);
}

/*
 * The kernel copies must agree exactly. liblz4 is compared and counted:
 * on valid blocks (@valid) it must agree too; on mutated ones its
 * results differ from the kernel's where the two decoders' rules do
 * (1.9's partial decoding, its stricter end checks), whichever copy of
 * the kernel decoder is used.
 */
/* liblz4's disagreements by entry point */
static struct {
	const char *what;
	unsigned long n;
} tallies[8];

static void tally(const char *what)
{
	int i;

	for (i = 0; i < 8 && tallies[i].what; i++)
		if (!strcmp(tallies[i].what, what))
			break;
	if (i == 8)
		return;
	tallies[i].what = what;
	tallies[i].n++;
}

static long defined_bytes = -1;	/* see first_offset0(); -1: all */

static void compare(const char *what, int r_old, int r_new, int r_lib,
		    const char *o, const char *n, const char *l, int len,
		    int cap, int have_lib, int valid)
{
	int cmp = r_old;

	calls++;
	if (defined_bytes >= 0 && defined_bytes < cmp) {
		cmp = defined_bytes;
		undefined_tails++;
	}
	if (r_old != r_new || (cmp > 0 && memcmp(o, n, cmp)))
		fail(what, r_old, r_new, len, cap);
	kernel_ok += r_old >= 0;
	if (!have_lib)
		return;
	if ((r_lib < 0 && r_old < 0) ||
	    (r_lib == r_old && (r_old <= 0 || !memcmp(o, l, r_old)))) {
		lib_agree++;
		return;
	}
	if (valid) {
		printf("not ok 1 %s: liblz4 and the kernel differ on a valid block: kernel %d, liblz4 %d (input %d, capacity %d)\n",
		       what, r_old, r_lib, len, cap);
		exit(1);
	}
	if (r_lib < 0)
		lib_only_fails++;
	else if (r_old < 0)
		kernel_only_fails++;
	else
		both_differ++;
	tally(what);
}

static void fuzz_one(const struct seed *s, char *m)
{
	int valid, len = mutate(s, m, &valid), cap = capacity(s), target, r[3];
	char *src = dup_exact(m, len);
	char *o = xmalloc(cap), *n = xmalloc(cap), *l = xmalloc(cap);
	char *po, *pn, *pl;
	int dl;

	r[0] = kold_LZ4_decompress_safe(src, o, len, cap);
	r[1] = knew_LZ4_decompress_safe(src, n, len, cap);
	r[2] = LZ4_decompress_safe(src, l, len, cap);
	compare("safe", r[0], r[1], r[2], o, n, l, len, cap, 1,
		valid && cap >= s->plen);

	target = below(cap + 1);
	defined_bytes = first_offset0((const unsigned char *)src, len);
	r[0] = kold_LZ4_decompress_safe_partial(src, o, len, target, cap);
	r[1] = knew_LZ4_decompress_safe_partial(src, n, len, target, cap);
	r[2] = LZ4_decompress_safe_partial(src, l, len, target, cap);
	compare("safe_partial", r[0], r[1], r[2], o, n, l, len, cap, 1,
		valid && cap >= s->plen && target >= s->plen);
	defined_bytes = -1;
	free(o);
	free(n);
	free(l);

	/* the dictionary before the output (prefix), or apart from it */
	dl = s->dict ? s->dlen : below(2) ? 0 : 1 + below(MAX_BLOCK);
	if (below(2)) {
		const char *d = s->dict ? s->dict : corpus;

		po = xmalloc(dl + cap);
		pn = xmalloc(dl + cap);
		pl = xmalloc(dl + cap);
		memcpy(po, d, dl);
		memcpy(pn, d, dl);
		memcpy(pl, d, dl);
		r[0] = kold_LZ4_decompress_safe_usingDict(src, po + dl, len, cap, po, dl);
		r[1] = knew_LZ4_decompress_safe_usingDict(src, pn + dl, len, cap, pn, dl);
		r[2] = LZ4_decompress_safe_usingDict(src, pl + dl, len, cap, pl, dl);
		compare("usingDict prefix", r[0], r[1], r[2], po + dl, pn + dl,
			pl + dl, len, cap, 1, valid && cap >= s->plen &&
			(!s->dict || (d == s->dict && dl == s->dlen)));
	} else {
		char *dict = dup_exact(s->dict ? s->dict : corpus, dl);

		po = xmalloc(cap);
		pn = xmalloc(cap);
		pl = xmalloc(cap);
		r[0] = kold_LZ4_decompress_safe_usingDict(src, po, len, cap, dict, dl);
		r[1] = knew_LZ4_decompress_safe_usingDict(src, pn, len, cap, dict, dl);
		r[2] = LZ4_decompress_safe_usingDict(src, pl, len, cap, dict, dl);
		compare("usingDict external", r[0], r[1], r[2], po, pn, pl, len,
			cap, 1, valid && cap >= s->plen && !!s->dict);
		free(dict);
	}
	free(po);
	free(pn);
	free(pl);
	free(src);
}

/* Streaming: a block, then this one after it or in a buffer of its own. */
static void stream_one(const struct seed *a, const struct seed *s, char *m)
{
	unsigned long long so[8], sn[8];
	int valid, len = mutate(s, m, &valid), cap = capacity(s), apart = below(2), r[2];
	char *src = dup_exact(m, len);
	char *o = xmalloc(a->plen + cap), *n = xmalloc(a->plen + cap);
	char *o2 = xmalloc(cap), *n2 = xmalloc(cap);

	kold_LZ4_setStreamDecode(so, NULL, 0);
	knew_LZ4_setStreamDecode(sn, NULL, 0);
	r[0] = kold_LZ4_decompress_safe_continue(so, a->c, o, a->clen, a->plen);
	r[1] = knew_LZ4_decompress_safe_continue(sn, a->c, n, a->clen, a->plen);
	compare("continue first", r[0], r[1], 0, o, n, NULL, a->clen, a->plen, 0, 0);
	if (r[0] == a->plen) {
		char *to = apart ? o2 : o + a->plen, *tn = apart ? n2 : n + a->plen;

		r[0] = kold_LZ4_decompress_safe_continue(so, src, to, len, cap);
		r[1] = knew_LZ4_decompress_safe_continue(sn, src, tn, len, cap);
		compare(apart ? "continue apart" : "continue after", r[0], r[1],
			0, to, tn, NULL, len, cap, 0, 0);
	}
	free(o);
	free(n);
	free(o2);
	free(n2);
	free(src);
}

/* Valid blocks: the fast decoder, and in place with erofs's margin. */
static void valid_one(const struct seed *s)
{
	int margin = (s->clen >> 8) + 32, r[2];
	char *bo = xmalloc(s->plen + margin), *bn = xmalloc(s->plen + margin);
	char *src = dup_exact(s->c, s->clen);

	memcpy(bo + s->plen + margin - s->clen, s->c, s->clen);
	memcpy(bn + s->plen + margin - s->clen, s->c, s->clen);
	r[0] = kold_LZ4_decompress_safe(bo + s->plen + margin - s->clen, bo,
					s->clen, s->plen);
	r[1] = knew_LZ4_decompress_safe(bn + s->plen + margin - s->clen, bn,
					s->clen, s->plen);
	compare("in place", r[0], r[1], 0, bo, bn, NULL, s->clen, s->plen, 0,
		0);
	if (!s->dict && (r[1] != s->plen || memcmp(bn, s->plain, s->plen))) {
		printf("not ok 1 in place: the series' decoder got %d bytes, not the %d of the block\n",
		       r[1], s->plen);
		exit(1);
	}
	if (!s->dict) {
		r[0] = kold_LZ4_decompress_fast(src, bo, s->plen);
		r[1] = knew_LZ4_decompress_fast(src, bn, s->plen);
		compare("fast", r[0], r[1], 0, bo, bn, NULL, s->clen, s->plen, 0,
			0);
	}
	free(bo);
	free(bn);
	free(src);
}

int main(int argc, char **argv)
{
	unsigned long i, iters;
	FILE *f;
	char *m;

	if (argc != 4) {
		fprintf(stderr, "usage: %s CORPUS ITERATIONS SEED\n", argv[0]);
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	fseek(f, 0, SEEK_END);
	corpus_len = ftell(f);
	rewind(f);
	if (corpus_len < 4 * MAX_BLOCK) {
		fprintf(stderr, "%s: fewer than %d bytes\n", argv[1], 4 * MAX_BLOCK);
		return 2;
	}
	corpus = xmalloc(corpus_len);
	if (fread(corpus, 1, corpus_len, f) != corpus_len) {
		perror(argv[1]);
		return 2;
	}
	fclose(f);
	iters = strtoul(argv[2], NULL, 0);
	rng_state = strtoull(argv[3], NULL, 0) * 2654435761u + 1;

	printf("KTAP version 1\n1..1\n");
	for (i = 0; i < NSEEDS; i++) {
		make_seed(&seeds[i]);
		valid_one(&seeds[i]);
	}
	m = xmalloc(2 * MAX_BLOCK + LZ4_compressBound(MAX_BLOCK));
	for (i = 0; i < iters; i++) {
		const struct seed *s = &seeds[below(NSEEDS)];

		if (i % 8 == 7)
			stream_one(&seeds[below(NSEEDS)], s, m);
		else
			fuzz_one(s, m);
		if (i % 1000 == 999) {	/* new seeds now and then */
			struct seed *fresh = &seeds[below(NSEEDS)];

			make_seed(fresh);
			valid_one(fresh);
		}
	}
	printf("# %lu inputs, %lu calls: the kernel decoders gave the same result on every call (%lu succeeded)\n",
	       iters, calls, kernel_ok);
	printf("# %lu partial decodings compared up to their first match of offset 0\n",
	       undefined_tails);
	printf("# liblz4 agreed on %lu, failed alone on %lu, succeeded alone on %lu, decoded otherwise on %lu\n",
	       lib_agree, lib_only_fails, kernel_only_fails, both_differ);
	for (i = 0; i < 8 && tallies[i].what; i++)
		printf("#   liblz4 otherwise on %s: %lu\n", tallies[i].what,
		       tallies[i].n);
	printf("ok 1 lz4 decoder differential fuzzing\n");
	return 0;
}
