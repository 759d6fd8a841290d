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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef LZ4FUZZ_KERNEL_COMPRESSOR
/*
 * The 32-bit build (-m32): Debian has no 32-bit liblz4 without a foreign
 * architecture, so the base's kernel compressor (kcomp_) makes the blocks
 * and liblz4's decoder is left out of the comparison.
 */
#define HAVE_LIB	0
int kcomp_LZ4_compress_fast(const char *, char *, int, int, int, void *);
int kcomp_LZ4_compress_HC(const char *, char *, int, int, int, void *);
int kcomp_LZ4_loadDict(void *, const char *, int);
int kcomp_LZ4_compress_fast_continue(void *, const char *, char *, int, int,
				     int);
static uint64_t kcomp_mem[(1 << 20) / 8];	/* LZ4HC_MEM_COMPRESS and more */

static int LZ4_compressBound(int n) { return n + n / 255 + 16; }
static int comp_fast(const char *s, char *d, int n, int cap, int accel)
{
	memset(kcomp_mem, 0, sizeof(kcomp_mem));
	return kcomp_LZ4_compress_fast(s, d, n, cap, accel, kcomp_mem);
}
static int comp_hc(const char *s, char *d, int n, int cap, int level)
{
	return kcomp_LZ4_compress_HC(s, d, n, cap, level, kcomp_mem);
}
static int comp_dict(const char *dict, int dlen, const char *s, char *d,
		     int n, int cap)
{
	memset(kcomp_mem, 0, sizeof(kcomp_mem));
	kcomp_LZ4_loadDict(kcomp_mem, dict, dlen);
	return kcomp_LZ4_compress_fast_continue(kcomp_mem, s, d, n, cap, 1);
}
static int lib_safe(const char *s, char *d, int n, int cap) { return -1; }
static int lib_partial(const char *s, char *d, int n, int t, int cap)
{
	return -1;
}
static int lib_dict(const char *s, char *d, int n, int cap, const char *dict,
		    int dlen)
{
	return -1;
}
#else
#include <lz4.h>
#include <lz4hc.h>

#define HAVE_LIB	1
static int comp_fast(const char *s, char *d, int n, int cap, int accel)
{
	return LZ4_compress_fast(s, d, n, cap, accel);
}
static int comp_hc(const char *s, char *d, int n, int cap, int level)
{
	return LZ4_compress_HC(s, d, n, cap, level);
}
static int comp_dict(const char *dict, int dlen, const char *s, char *d,
		     int n, int cap)
{
	LZ4_stream_t *st = LZ4_createStream();
	int clen;

	LZ4_loadDict(st, dict, dlen);
	clen = LZ4_compress_fast_continue(st, s, d, n, cap, 1);
	LZ4_freeStream(st);
	return clen;
}
#define lib_safe	LZ4_decompress_safe
#define lib_partial	LZ4_decompress_safe_partial
#define lib_dict	LZ4_decompress_safe_usingDict
#endif

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

/* Exactly @n bytes, none for 0: AddressSanitizer sees a write past them. */
static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p && n) {
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
		clen = comp_hc(plain, c, n, bound, 3 + below(10));
	} else if (kind == 1 && corpus_len > 2 * MAX_BLOCK + n) {
		size_t at = MAX_BLOCK + below(corpus_len - 2 * MAX_BLOCK - n);

		/* the plain text follows its dictionary in the corpus */
		s->dlen = 1 + below(MAX_BLOCK);
		s->dict = corpus + at - s->dlen;
		memcpy(plain, corpus + at, n);
		clen = comp_dict(s->dict, s->dlen, plain, c, n, bound);
	} else {
		clen = comp_fast(plain, c, n, bound,
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
	r[2] = lib_safe(src, l, len, cap);
	compare("safe", r[0], r[1], r[2], o, n, l, len, cap, HAVE_LIB,
		valid && cap >= s->plen);

	target = below(cap + 1);
	defined_bytes = first_offset0((const unsigned char *)src, len);
	r[0] = kold_LZ4_decompress_safe_partial(src, o, len, target, cap);
	r[1] = knew_LZ4_decompress_safe_partial(src, n, len, target, cap);
	r[2] = lib_partial(src, l, len, target, cap);
	compare("safe_partial", r[0], r[1], r[2], o, n, l, len, cap, HAVE_LIB,
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
		r[2] = lib_dict(src, pl + dl, len, cap, pl, dl);
		compare("usingDict prefix", r[0], r[1], r[2], po + dl, pn + dl,
			pl + dl, len, cap, HAVE_LIB, valid && cap >= s->plen &&
			(!s->dict || (d == s->dict && dl == s->dlen)));
	} else {
		char *dict = dup_exact(s->dict ? s->dict : corpus, dl);

		po = xmalloc(cap);
		pn = xmalloc(cap);
		pl = xmalloc(cap);
		r[0] = kold_LZ4_decompress_safe_usingDict(src, po, len, cap, dict, dl);
		r[1] = knew_LZ4_decompress_safe_usingDict(src, pn, len, cap, dict, dl);
		r[2] = lib_dict(src, pl, len, cap, dict, dl);
		compare("usingDict external", r[0], r[1], r[2], po, pn, pl, len,
			cap, HAVE_LIB, valid && cap >= s->plen && !!s->dict);
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
		/* (the value is the input read: compare all of the output) */
		compare("fast", r[0], r[1], 0, bo, bn, NULL, s->clen, s->plen, 0,
			0);
		if (r[1] != s->clen || memcmp(bn, s->plain, s->plen)) {
			printf("not ok 1 fast: the series' decoder read %d of %d bytes or wrote other bytes\n",
			       r[1], s->clen);
			exit(1);
		}
	}
	free(bo);
	free(bn);
	free(src);
}

/*
 * In place at erofs's exact margin, the blocks that leave the least room:
 * a compressible head (a random pattern of @period bytes repeated: one
 * long match of that offset, of every length modulo 32), then the block's
 * last literal run (an incompressible tail of every length near 15 +
 * 255k), which costs more input than it writes. The unread input then
 * lies closest to the output just after the head's match, where a copy
 * that writes past its end would overwrite the tail's token. Each block
 * is compressed by liblz4's fast and HC compressors; both kernel decoders
 * must decode it in place to its plain text. Returns the blocks tried.
 */
static unsigned long inplace_sweep(void)
{
	static const int periods[] = { 16, 17, 23, 31, 32, 33, 48, 64, 255, 4096 };
	static const int tails[] = { 0, 1, 5, 14, 15, 16, 30, 31, 32, 33, 64,
				     269, 270, 271, 280, 300, 524, 525, 526,
				     1000, 1034, 4096, 20000, 60000 };
	int bound = LZ4_compressBound(MAX_BLOCK), pi, ti, h, hc;
	char *plain = xmalloc(MAX_BLOCK), *c = xmalloc(bound);
	char *buf = xmalloc(MAX_BLOCK + bound + 32);
	unsigned long n = 0;

	for (pi = 0; pi < (int)(sizeof(periods) / sizeof(*periods)); pi++)
	for (ti = 0; ti < (int)(sizeof(tails) / sizeof(*tails)); ti++)
	for (h = 2 * periods[pi]; h < 2 * periods[pi] + 64; h++)
	for (hc = 0; hc < 2; hc++) {
		int p = periods[pi], t = tails[ti], len = h + t, i, clen;
		int margin, r[2];
		char *in;

		if (len > MAX_BLOCK)
			continue;
		for (i = 0; i < len; i++)
			plain[i] = i < p || i >= h ? (char)rnd() : plain[i - p];
		clen = hc ? comp_hc(plain, c, len, bound, 9) :
			    comp_fast(plain, c, len, bound, 1);
		if (clen <= 0) {
			fprintf(stderr, "liblz4 could not compress a block\n");
			exit(2);
		}
		margin = (clen >> 8) + 32;
		in = buf + len + margin - clen;
		memmove(in, c, clen);
		r[0] = kold_LZ4_decompress_safe(in, buf, clen, len);
		if (r[0] != len || memcmp(buf, plain, len)) {
			printf("not ok 1 in place: the base's decoder got %d of %d bytes (period %d, head %d, tail %d, %s)\n",
			       r[0], len, p, h, t, hc ? "HC" : "fast");
			exit(1);
		}
		in = buf + len + margin - clen;
		memcpy(in, c, clen);
		r[1] = knew_LZ4_decompress_safe(in, buf, clen, len);
		if (r[1] != len || memcmp(buf, plain, len)) {
			printf("not ok 1 in place: the series' decoder got %d of %d bytes, wrong bytes or none (period %d, head %d, tail %d, %s)\n",
			       r[1], len, p, h, t, hc ? "HC" : "fast");
			exit(1);
		}
		n++;
	}
	free(plain);
	free(c);
	free(buf);
	return n;
}

/* Appends an LZ4 length field's extension bytes for @len (>= 15). */
static int put_length(unsigned char *p, size_t len)
{
	int n = 0;

	for (len -= 15; len >= 255; len -= 255)
		p[n++] = 255;
	p[n++] = len;
	return n;
}

/*
 * Appends a sequence of @lit literals (from @plain + *@out) and a match of
 * @mlen bytes at @offset (no match: @mlen 0, the last sequence) to @c,
 * writing its output to @plain too.
 */
static void put_sequence(unsigned char *c, size_t *in, unsigned char *plain,
			 size_t *out, size_t lit, size_t mlen, size_t offset)
{
	unsigned char *token = c + (*in)++;
	size_t i;

	*token = (lit < 15 ? lit : 15) << 4;
	if (lit >= 15)
		*in += put_length(c + *in, lit);
	for (i = 0; i < lit; i++)
		plain[*out + i] = rnd();
	memcpy(c + *in, plain + *out, lit);
	*in += lit;
	*out += lit;
	if (!mlen)
		return;
	c[(*in)++] = offset;
	c[(*in)++] = offset >> 8;
	*token |= mlen - 4 < 15 ? mlen - 4 : 15;
	if (mlen - 4 >= 15)
		*in += put_length(c + *in, mlen - 4);
	for (i = 0; i < mlen; i++, (*out)++)
		plain[*out] = plain[*out - offset];
}

#define LIMIT_IN	(1 << 20)	/* erofs's largest pcluster */

/*
 * Hand-made blocks at the limit of in-place decoding: a match, then the
 * block's last literal run so long that the whole block is up to 1 MiB of
 * input, decoded in place at erofs's exact margin, which leaves the
 * unread input 30 bytes or more ahead of the output (lib/lz4's comment),
 * 30 or 31 here. The sequence before the last is a long match at offset
 * 16 or more, a match of 4 to 18 bytes after 0 to 14 literals, a near
 * match, or a match after 15 or more literals. Both decoders must decode
 * every block. Returns the blocks tried; *@base_fails: those the base's
 * decoder got wrong (none expected: it is counted, not failed, as the
 * base is not under test).
 */
static unsigned long inplace_limits(unsigned long count,
				    unsigned long *base_fails)
{
	size_t cap = LIMIT_IN + LIMIT_IN / 255 + 4096;
	unsigned char *c = xmalloc(cap), *plain = xmalloc(cap);
	char *buf = xmalloc(2 * cap);
	unsigned long i, n = 0;

	for (i = 0; i < count; i++) {
		size_t in = 0, out = 0, last, insize, margin, at;
		int kind = i % 4, r[2];

		last = 16 + below(48);
		put_sequence(c, &in, plain, &out, last, 4 + below(20),
			     1 + below(last));
		switch (kind) {
		case 0:		/* a long match at offset 16 or more */
			put_sequence(c, &in, plain, &out, 0, 19 + below(80),
				     16 + below(out - 15));
			break;
		case 1:		/* short literals and a short match */
			put_sequence(c, &in, plain, &out, below(15),
				     4 + below(15), 8 + below(out - 7));
			break;
		case 2:		/* a near match */
			put_sequence(c, &in, plain, &out, below(20),
				     4 + below(60), 1 + below(15));
			break;
		default:	/* literals of 15 or more, then a match */
			put_sequence(c, &in, plain, &out, 15 + below(600),
				     4 + below(60), 1 + below(out));
			break;
		}
		/* the last run: the block ends near a size of interest */
		insize = below(4) ? LIMIT_IN - below(4096) :
			 1024 + below(LIMIT_IN - 1024);
		for (last = (insize - in - 2) / 256 * 255;
		     in + 2 + last + (last - 15) / 255 < insize; last++)
			;
		put_sequence(c, &in, plain, &out, last, 0, 0);
		insize = in;
		if (insize > LIMIT_IN)
			continue;
		margin = (insize >> 8) + 32;
		if (out + margin < insize)
			continue;
		if (kold_LZ4_decompress_safe((char *)c, buf, insize, out) != (int)out ||
		    memcmp(buf, plain, out)) {
			printf("not ok 1 in place at the limit: the base cannot decode a hand-made block (kind %d)\n",
			       kind);
			exit(1);
		}
		at = out + margin - insize;
		memcpy(buf + at, c, insize);
		r[0] = kold_LZ4_decompress_safe(buf + at, buf, insize, out);
		r[0] = r[0] == (int)out && !memcmp(buf, plain, out);
		memcpy(buf + at, c, insize);
		r[1] = knew_LZ4_decompress_safe(buf + at, buf, insize, out);
		r[1] = r[1] == (int)out && !memcmp(buf, plain, out);
		*base_fails += !r[0];
		if (!r[1]) {
			printf("not ok 1 in place at the limit: the series' decoder failed (kind %d, input %zu, output %zu, base %s)\n",
			       kind, insize, out, r[0] ? "right" : "wrong");
			exit(1);
		}
		n++;
	}
	free(c);
	free(plain);
	free(buf);
	return n;
}

/*
 * A match length field of 2^32 - 2 (about 16 MiB of 0xff bytes), far from
 * the ends of both buffers: on a 32-bit build the length fits a size_t
 * but the length with MINMATCH added wraps to 2. The generic loop fails
 * such a block (its length would wrap the output pointer); the fast path
 * must too, rather than take a match of 2 bytes and go on. On 64-bit the
 * field is just too long. Both decoders must fail it.
 */
static void length_wrap(void)
{
	uint64_t field = UINT32_MAX - 1;	/* 15 + 255 * k + last */
	size_t k = (field - 15) / 255, n = 0, cap = 4096;
	char *c = xmalloc(k + 512), *o = xmalloc(cap), *nw = xmalloc(cap);
	int r[2];

	c[n++] = 0x4f;			/* 4 literals, a long match */
	memcpy(c + n, "abcd", 4);
	n += 4;
	c[n++] = 1;			/* offset 1 */
	c[n++] = 0;
	memset(c + n, 0xff, k);
	n += k;
	c[n++] = (field - 15) % 255;
	memset(c + n, 0, 256);		/* input left for the fast path */
	n += 256;
	r[0] = kold_LZ4_decompress_safe(c, o, n, cap);
	r[1] = knew_LZ4_decompress_safe(c, nw, n, cap);
	compare("length wrap", r[0], r[1], 0, o, nw, NULL, n, cap, 0, 0);
	if (r[1] >= 0) {
		printf("not ok 1 length wrap: the series' decoder took a match length field of %llu\n",
		       (unsigned long long)field);
		exit(1);
	}
	free(c);
	free(o);
	free(nw);
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
	length_wrap();
	printf("# %lu blocks decoded in place at erofs's margin, tail after a long match\n",
	       inplace_sweep());
	{
		unsigned long bf = 0, nb = inplace_limits(400, &bf);

		printf("# %lu blocks of up to 1 MiB decoded in place at erofs's margin (the base's decoder wrong on %lu)\n",
		       nb, bf);
	}
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
	if (!HAVE_LIB)
		printf("# liblz4 not compared (a 32-bit build)\n");
	else
		printf("# liblz4 agreed on %lu, failed alone on %lu, succeeded alone on %lu, decoded otherwise on %lu\n",
		       lib_agree, lib_only_fails, kernel_only_fails, both_differ);
	for (i = 0; i < 8 && tallies[i].what; i++)
		printf("#   liblz4 otherwise on %s: %lu\n", tallies[i].what,
		       tallies[i].n);
	printf("ok 1 lz4 decoder differential fuzzing\n");
	return 0;
}
