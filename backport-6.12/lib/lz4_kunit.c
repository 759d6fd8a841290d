// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the LZ4 decoder (lib/lz4/lz4_decompress.c): blocks that
 * decode through its fast path and its generic loop, and blocks that are
 * malformed (truncated, with offsets outside the window, with output
 * buffers too small). Output buffers are allocated at their exact sizes,
 * so that KASAN sees any write past them.
 */
#include <kunit/test.h>
#include <linux/lz4.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#define LZ4_TEST_MAX	(64 << 10)

/* erofs's in-place margin, as fs/erofs/decompressor.c defines it here */
#ifndef LZ4_DECOMPRESS_INPLACE_MARGIN
#define LZ4_DECOMPRESS_INPLACE_MARGIN(srcsize)	(((srcsize) >> 8) + 32)
#endif

struct lz4_test_ctx {
	void *wrkmem;
	u8 *plain;		/* LZ4_TEST_MAX bytes */
	u8 *comp;		/* LZ4_COMPRESSBOUND(LZ4_TEST_MAX) bytes */
};

/* Kinds of plain text that reach the decoder's different copies */
enum lz4_test_pattern {
	LZ4_RUNS,		/* runs of a byte, offset 1 */
	LZ4_PERIODS,		/* short periods: offsets 2 to 19 */
	LZ4_TEXT,		/* words from a small vocabulary */
	LZ4_RANDOM,		/* incompressible: literals only */
	LZ4_NR_PATTERNS,
};

static void lz4_test_fill(u8 *p, size_t n, enum lz4_test_pattern kind,
			  u32 seed)
{
	static const char *const words[] = {
		"zram ", "zsmalloc ", "folio ", "swap ", "block ", "page ",
		"compress ", "the ", "of ", "\n",
	};
	struct rnd_state rnd;
	size_t i = 0, period = 2 + seed % 18;

	prandom_seed_state(&rnd, seed);
	switch (kind) {
	case LZ4_RUNS:
		while (i < n) {
			size_t run = 1 + prandom_u32_state(&rnd) % 300;
			u8 c = prandom_u32_state(&rnd) % 4 ? 0 : prandom_u32_state(&rnd);

			for (; run-- && i < n; i++)
				p[i] = c;
		}
		break;
	case LZ4_PERIODS:
		for (; i < n; i++)
			p[i] = i < period ? prandom_u32_state(&rnd) : p[i - period];
		for (i = 0; i < n / 128; i++)
			p[prandom_u32_state(&rnd) % n] = prandom_u32_state(&rnd);
		break;
	case LZ4_TEXT:
		while (i < n) {
			const char *w = words[prandom_u32_state(&rnd) % ARRAY_SIZE(words)];
			size_t len = min(strlen(w), n - i);

			memcpy(p + i, w, len);
			i += len;
		}
		break;
	default:
		prandom_bytes_state(&rnd, p, n);
	}
}

static int lz4_test_init(struct kunit *test)
{
	struct lz4_test_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->wrkmem = kunit_kzalloc(test, LZ4_MEM_COMPRESS, GFP_KERNEL);
	ctx->plain = kunit_kzalloc(test, LZ4_TEST_MAX, GFP_KERNEL);
	ctx->comp = kunit_kzalloc(test, LZ4_COMPRESSBOUND(LZ4_TEST_MAX),
				  GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->wrkmem);
	KUNIT_ASSERT_NOT_NULL(test, ctx->plain);
	KUNIT_ASSERT_NOT_NULL(test, ctx->comp);
	test->priv = ctx;
	return 0;
}

/* Compresses @n bytes of @kind into ctx->comp; returns the block's size. */
static int lz4_test_block(struct kunit *test, size_t n,
			  enum lz4_test_pattern kind, u32 seed)
{
	struct lz4_test_ctx *ctx = test->priv;
	int clen;

	lz4_test_fill(ctx->plain, n, kind, seed);
	clen = LZ4_compress_default(ctx->plain, ctx->comp, n,
				    LZ4_COMPRESSBOUND(LZ4_TEST_MAX), ctx->wrkmem);
	KUNIT_ASSERT_GT(test, clen, 0);
	return clen;
}

/* Decodes ctx->comp into a buffer of exactly @cap bytes. */
static int lz4_test_decode(struct kunit *test, int clen, size_t cap,
			   u8 **out)
{
	struct lz4_test_ctx *ctx = test->priv;

	*out = kunit_kmalloc(test, cap ?: 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *out);
	return LZ4_decompress_safe(ctx->comp, *out, clen, cap);
}

/* Every size up to 300 bytes, then the block sizes zram uses. */
static void lz4_test_round_trip(struct kunit *test)
{
	static const size_t blocks[] = { 4096, 8192, 16384, 32768, 65536 };
	struct lz4_test_ctx *ctx = test->priv;
	enum lz4_test_pattern kind;
	size_t n, i;

	for (kind = 0; kind < LZ4_NR_PATTERNS; kind++) {
		for (i = 0; i < 300 + ARRAY_SIZE(blocks); i++) {
			int clen, ret;
			u8 *out;

			n = i < 300 ? i + 1 : blocks[i - 300];
			clen = lz4_test_block(test, n, kind, i);
			ret = lz4_test_decode(test, clen, n, &out);
			KUNIT_ASSERT_EQ_MSG(test, ret, (int)n,
					    "pattern %d, %zu bytes", kind, n);
			KUNIT_ASSERT_EQ_MSG(test, memcmp(out, ctx->plain, n), 0,
					    "pattern %d, %zu bytes", kind, n);
			kunit_kfree(test, out);
		}
	}
}

/*
 * Partial decoding into a buffer of the target's size fills it, with every
 * byte right (a buffer of 0 bytes takes only the empty block).
 */
static void lz4_test_partial(struct kunit *test)
{
	struct lz4_test_ctx *ctx = test->priv;
	enum lz4_test_pattern kind;

	for (kind = 0; kind < LZ4_NR_PATTERNS; kind++) {
		int clen = lz4_test_block(test, 16384, kind, kind);
		size_t target;

		for (target = 1; target <= 16384; target += 1 + target / 3) {
			u8 *out = kunit_kmalloc(test, target, GFP_KERNEL);
			int ret;

			KUNIT_ASSERT_NOT_NULL(test, out);
			ret = LZ4_decompress_safe_partial(ctx->comp, out, clen,
							  target, target);
			KUNIT_ASSERT_EQ_MSG(test, ret, (int)target,
					    "pattern %d, target %zu", kind, target);
			KUNIT_ASSERT_EQ(test, memcmp(out, ctx->plain, target), 0);
			kunit_kfree(test, out);
		}
	}
}

/*
 * A truncated block never decodes to the whole block: it fails, or it
 * ends early where the cut leaves a sequence that is literals only.
 */
static void lz4_test_truncated(struct kunit *test)
{
	struct lz4_test_ctx *ctx = test->priv;
	enum lz4_test_pattern kind;

	for (kind = 0; kind < LZ4_NR_PATTERNS; kind++) {
		int clen = lz4_test_block(test, 4096, kind, 7), cut;
		u8 *out = kunit_kmalloc(test, 4096, GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, out);
		for (cut = 0; cut < clen; cut++) {
			int ret = LZ4_decompress_safe(ctx->comp, out, cut, 4096);

			KUNIT_EXPECT_LT_MSG(test, ret, 4096,
					    "pattern %d, cut at %d of %d", kind,
					    cut, clen);
			if (ret > 0)
				KUNIT_EXPECT_EQ(test, memcmp(out, ctx->plain, ret), 0);
		}
		kunit_kfree(test, out);
	}
}

/* An output buffer one byte short fails; the exact one succeeds. */
static void lz4_test_output_too_small(struct kunit *test)
{
	enum lz4_test_pattern kind;

	for (kind = 0; kind < LZ4_NR_PATTERNS; kind++) {
		size_t n = kind == LZ4_RANDOM ? 300 : 16384;
		int clen = lz4_test_block(test, n, kind, 3);
		u8 *out;

		KUNIT_EXPECT_LT(test, lz4_test_decode(test, clen, n - 1, &out), 0);
		KUNIT_EXPECT_LT(test, lz4_test_decode(test, clen, 17, &out), 0);
		KUNIT_EXPECT_LT(test, lz4_test_decode(test, clen, 0, &out), 0);
		KUNIT_EXPECT_EQ(test, lz4_test_decode(test, clen, n, &out), (int)n);
	}
}

/*
 * Hand-made blocks: a match that reaches before the start of the output
 * fails, far from the ends (the fast path) and near them; the same block
 * with an offset inside the window decodes.
 */
static void lz4_test_offsets(struct kunit *test)
{
	struct lz4_test_ctx *ctx = test->priv;
	u8 *b = ctx->comp, *out;
	size_t i, n = 0;
	int ret;

	/* 100 literals, a match of 4 + 60 bytes at @offset, 100 literals */
	b[n++] = 0xff;			/* 15 + more literals, match 15 + more */
	b[n++] = 100 - 15;
	for (i = 0; i < 100; i++)
		b[n++] = 'a' + i % 26;
	b[n++] = 0;			/* offset, set below */
	b[n++] = 0;
	b[n++] = 60 - 15;
	b[n++] = 0xf0;			/* the last literals */
	b[n++] = 100 - 15;
	for (i = 0; i < 100; i++)
		b[n++] = 'A' + i % 26;

	b[102] = 26;			/* inside: repeats the alphabet */
	ret = lz4_test_decode(test, n, 264, &out);
	KUNIT_ASSERT_EQ(test, ret, 264);
	for (i = 0; i < 164; i++)
		KUNIT_EXPECT_EQ(test, out[i], 'a' + i % 26);

	b[102] = 101;			/* one byte before the output */
	KUNIT_EXPECT_LT(test, lz4_test_decode(test, n, 264, &out), 0);
	b[102] = 255;
	b[103] = 255;
	KUNIT_EXPECT_LT(test, lz4_test_decode(test, n, 264, &out), 0);

	/* near the end of the output: 1 literal, 8 at offset 2, 12 literals */
	n = 0;
	b[n++] = 0x14;
	b[n++] = 'x';
	b[n++] = 2;
	b[n++] = 0;
	b[n++] = 0xc0;
	memcpy(b + n, "abcdefghijkl", 12);
	n += 12;
	KUNIT_EXPECT_LT(test, lz4_test_decode(test, n, 21, &out), 0);
	b[2] = 1;			/* a run of 'x' instead */
	KUNIT_ASSERT_EQ(test, lz4_test_decode(test, n, 21, &out), 21);
	KUNIT_EXPECT_EQ(test, memcmp(out, "xxxxxxxxxabcdefghijkl", 21), 0);
}

/* Length fields that run to the end of the input fail. */
static void lz4_test_lengths(struct kunit *test)
{
	struct lz4_test_ctx *ctx = test->priv;
	u8 *out;
	int n;

	for (n = 2; n < 300; n++) {
		memset(ctx->comp, 0xff, n);
		KUNIT_EXPECT_LT(test, lz4_test_decode(test, n, 4096, &out), 0);
		kunit_kfree(test, out);
	}
}

/* A block compressed against a dictionary, the dictionary apart or before. */
static void lz4_test_dictionary(struct kunit *test)
{
	struct lz4_test_ctx *ctx = test->priv;
	LZ4_stream_t *stream = kunit_kzalloc(test, sizeof(*stream), GFP_KERNEL);
	const size_t dsize = 8192, n = 8192;
	u8 *buf, *dict;
	int clen, ret;

	KUNIT_ASSERT_NOT_NULL(test, stream);
	lz4_test_fill(ctx->plain, dsize + n, LZ4_TEXT, 11);
	dict = kunit_kmalloc(test, dsize, GFP_KERNEL);
	buf = kunit_kmalloc(test, dsize + n, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dict);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(dict, ctx->plain, dsize);
	memcpy(buf, ctx->plain, dsize);

	LZ4_loadDict(stream, dict, dsize);
	clen = LZ4_compress_fast_continue(stream, ctx->plain + dsize, ctx->comp,
					  n, LZ4_COMPRESSBOUND(n), 1);
	KUNIT_ASSERT_GT(test, clen, 0);

	ret = LZ4_decompress_safe_usingDict(ctx->comp, buf + dsize, clen, n,
					    dict, dsize);
	KUNIT_ASSERT_EQ(test, ret, (int)n);
	KUNIT_EXPECT_EQ(test, memcmp(buf + dsize, ctx->plain + dsize, n), 0);

	memset(buf + dsize, 0, n);
	ret = LZ4_decompress_safe_usingDict(ctx->comp, buf + dsize, clen, n,
					    buf, dsize);
	KUNIT_ASSERT_EQ(test, ret, (int)n);
	KUNIT_EXPECT_EQ(test, memcmp(buf + dsize, ctx->plain + dsize, n), 0);

	/* without it, its matches reach before the output */
	KUNIT_EXPECT_LT(test, LZ4_decompress_safe(ctx->comp, buf + dsize, clen, n),
			0);
}

KUNIT_DEFINE_ACTION_WRAPPER(lz4_test_kvfree, kvfree, const void *);

/* kvmalloc() @size bytes, freed when the test ends, also after an assert */
static u8 *lz4_test_kvmalloc(struct kunit *test, size_t size)
{
	u8 *p = kvmalloc(size, GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, p);
	ret = kunit_add_action_or_reset(test, lz4_test_kvfree, p);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return p;
}

/*
 * Decodes the @clen bytes of @comp in place, as erofs does: at the end of
 * a buffer of @n bytes and its exact margin, LZ4_DECOMPRESS_INPLACE_MARGIN.
 */
static void lz4_test_in_place(struct kunit *test, const u8 *comp, int clen,
			      const u8 *plain, size_t n)
{
	size_t size = n + LZ4_DECOMPRESS_INPLACE_MARGIN(clen);
	u8 *buf = lz4_test_kvmalloc(test, size);
	int ret;

	KUNIT_ASSERT_GE(test, size, (size_t)clen);
	memcpy(buf + size - clen, comp, clen);
	ret = LZ4_decompress_safe(buf + size - clen, buf, clen, n);
	KUNIT_EXPECT_EQ_MSG(test, ret, (int)n, "%zu bytes from %d", n, clen);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(buf, plain, n), 0,
			    "%zu bytes from %d", n, clen);
}

/*
 * In place with erofs's margin, the blocks that leave the output closest
 * to the input: a compressible head (a pattern of 16 to 48 bytes: one long
 * match of that offset, of every length modulo 32), then an incompressible
 * tail, the block's last literal run, which costs more input than it
 * writes. A copy that wrote past the head's match by more than the
 * decoder allows would overwrite the tail's token before it is read.
 */
static void lz4_test_in_place_tail(struct kunit *test)
{
	static const size_t periods[] = { 16, 31, 33, 48 };
	static const size_t tails[] = { 16, 64, 300, 1000 };
	struct lz4_test_ctx *ctx = test->priv;
	struct rnd_state rnd;
	size_t i, j, h, k;

	prandom_seed_state(&rnd, 42);
	for (i = 0; i < ARRAY_SIZE(periods); i++) {
		for (j = 0; j < ARRAY_SIZE(tails); j++) {
			for (h = 2 * periods[i]; h < 2 * periods[i] + 64; h++) {
				size_t n = h + tails[j];
				int clen;

				for (k = 0; k < n; k++)
					ctx->plain[k] = k < periods[i] || k >= h ?
						prandom_u32_state(&rnd) :
						ctx->plain[k - periods[i]];
				clen = LZ4_compress_default(ctx->plain, ctx->comp, n,
							    LZ4_COMPRESSBOUND(n),
							    ctx->wrkmem);
				KUNIT_ASSERT_GT(test, clen, 0);
				lz4_test_in_place(test, ctx->comp, clen,
						  ctx->plain, n);
			}
		}
	}
}

/*
 * A hand-made block of nearly erofs's largest pcluster, 1 MiB of input: 16
 * literals, a match of 65 bytes at offset 16, then 255 * 4096 - 240
 * literals to the end (4096 length bytes). In place at the exact margin
 * the unread input then lies 30 bytes ahead of the output after the match,
 * the least any block leaves (see the decoder's comment): a match copied
 * 32 bytes at a time, 31 bytes past its end, would overwrite the last
 * token.
 */
static void lz4_test_in_place_limit(struct kunit *test)
{
	const size_t mlen = 65, last = 255 * 4096 - 240;
	size_t in = 0, out = 0, i;
	u8 *comp = lz4_test_kvmalloc(test, SZ_1M);
	u8 *plain = lz4_test_kvmalloc(test, SZ_1M + SZ_64K);

	/* 16 literals, a match of 19 + 46 bytes at offset 16 */
	comp[in++] = 0xff;
	comp[in++] = 16 - 15;
	for (i = 0; i < 16; i++)
		comp[in++] = 'a' + i;
	memcpy(plain, comp + 2, 16);
	out = 16;
	comp[in++] = 16;
	comp[in++] = 0;
	comp[in++] = mlen - 19;
	for (i = 0; i < mlen; i++, out++)
		plain[out] = plain[out - 16];
	/* the last literals */
	comp[in++] = 0xf0;
	for (i = last - 15; i >= 255; i -= 255)
		comp[in++] = 255;
	comp[in++] = i;
	KUNIT_ASSERT_LE(test, in + last, (size_t)SZ_1M);
	for (i = 0; i < last; i++)
		comp[in + i] = i * 7 + (i >> 8);
	memcpy(plain + out, comp + in, last);
	in += last;
	out += last;
	lz4_test_in_place(test, comp, in, plain, out);
}

static struct kunit_case lz4_test_cases[] = {
	KUNIT_CASE(lz4_test_round_trip),
	KUNIT_CASE(lz4_test_partial),
	KUNIT_CASE(lz4_test_truncated),
	KUNIT_CASE(lz4_test_output_too_small),
	KUNIT_CASE(lz4_test_offsets),
	KUNIT_CASE(lz4_test_lengths),
	KUNIT_CASE(lz4_test_dictionary),
	KUNIT_CASE(lz4_test_in_place_tail),
	KUNIT_CASE(lz4_test_in_place_limit),
	{}
};

static struct kunit_suite lz4_test_suite = {
	.name = "lz4",
	.init = lz4_test_init,
	.test_cases = lz4_test_cases,
};

kunit_test_suite(lz4_test_suite);

MODULE_DESCRIPTION("KUnit tests of the LZ4 decoder");
MODULE_LICENSE("GPL");
