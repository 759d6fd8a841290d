// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the zsmalloc allocator.
 *
 * The exported zsmalloc API is used, and helpers zsmalloc exports for this
 * suite only, such as zs_test_zspage_layout(), the pages and objects of a
 * class's zspage. The size class layout is discovered through
 * zs_lookup_class_index() and zs_huge_class_size(), and each class's
 * zspage is checked against zsmalloc's rule for its length; the only
 * zsmalloc internal mirrored here is the inline handle size, needed to
 * predict the page usage.
 *
 * The largest supported object size is only ever obtained from
 * zs_test_max_size(), so that objects larger than a page can be covered by
 * changing that single helper.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jhash.h>
#include <linux/kasan.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/math.h>
#include <linux/migrate.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/zsmalloc.h>

/* Non-huge objects carry their handle in front of the data (ZS_HANDLE_SIZE) */
#define ZS_TEST_HANDLE_SIZE	sizeof(unsigned long)
/* Class sizes are multiples of ZS_ALIGN */
#define ZS_TEST_ALIGN		8

#define ZS_TEST_GFP		(GFP_KERNEL | __GFP_HIGHMEM | __GFP_MOVABLE)

/* Salts keeping the patterns of the different writers apart */
#define ZS_TEST_SALT_WO		0x574f574fU
#define ZS_TEST_SALT_RW		0x52575257U
#define ZS_TEST_SALT_CHURN	0x43485552U

#define ZS_TEST_CHURN_SEED	0x7a736d616c6c6f63ULL
#define ZS_TEST_CHURN_SLOTS	4096
#define ZS_TEST_CHURN_OPS	200000
#define ZS_TEST_CHURN_COMPACT	32768

/* zspages filled per class by the compaction test */
#define ZS_TEST_COMPACT_ZSPAGES	16

struct zs_test_class {
	unsigned int index;	/* zs_lookup_class_index() of the class */
	size_t first;		/* smallest object size served by the class */
	size_t last;		/* largest object size served by the class */
	size_t size;		/* bytes one object occupies in a zspage */
	bool huge;		/* one object per zspage, no inline handle */
	unsigned int pages_per_zspage;
	unsigned int objs_per_zspage;
};

struct zs_test_ctx {
	struct zs_pool *pool;
	size_t max;		/* zs_test_max_size() */
	size_t huge;		/* zs_huge_class_size() */
	struct zs_test_class *classes;
	unsigned int nr_classes;
};

struct zs_test_obj {
	unsigned long handle;	/* 0 while the slot is unused */
	size_t size;
	u32 seed;
};

/* A kvmalloc()ed object array whose objects are freed at test exit */
struct zs_test_set {
	struct zs_pool *pool;
	struct zs_test_obj *objs;
	unsigned int nr;
};

#ifdef CONFIG_ZSMALLOC_MULTI_PAGES
#define ZS_TEST_MULTI_ORDER	CONFIG_ZSMALLOC_MULTI_PAGES_ORDER
#else
#define ZS_TEST_MULTI_ORDER	0
#endif

/* Most pages one object occupies: a multi-page block, and one on each side */
#define ZS_TEST_MAX_OBJ_PAGES	((1 << ZS_TEST_MULTI_ORDER) + 2)

/*
 * roundtrip_multi_sizes tries every size above a page up to order-2
 * blocks (16 KiB with 4 KiB pages). The bytes it writes grow with the
 * square of the largest object, so above order 2 it steps through the
 * sizes by an odd stride (3 at order 3, 15 at order 4) that keeps the
 * bytes near order 2's and still meets every class, and every size modulo
 * ZS_ALIGN; class boundaries are all tried (roundtrip_boundaries).
 */
#if ZS_TEST_MULTI_ORDER > 2
#define ZS_TEST_MULTI_STRIDE	((1 << (2 * (ZS_TEST_MULTI_ORDER - 2))) - 1)
#else
#define ZS_TEST_MULTI_STRIDE	1
#endif

/* Whether zs_map_object() may map any object spanning pages in place */
#define ZS_TEST_IN_PLACE	(IS_ENABLED(CONFIG_ZSMALLOC_MULTI_PAGES) && \
				 !IS_ENABLED(CONFIG_HIGHMEM) && \
				 !IS_ENABLED(CONFIG_KMSAN))

/* Largest object zs_malloc() accepts */
static size_t zs_test_max_size(struct zs_pool *pool)
{
	return zs_max_alloc_size(pool);
}

/* ZS_MULTI_PAGES_CHAIN_LIMIT: the longest multi-page zspage chain */
#define ZS_TEST_MULTI_CHAIN_LIMIT	32

/* Longest zspage chain for objects of @class_size */
static unsigned int zs_test_max_chain(size_t class_size)
{
	if (class_size > PAGE_SIZE)
		return min((CONFIG_ZSMALLOC_CHAIN_SIZE << ZS_TEST_MULTI_ORDER) / 2,
			   ZS_TEST_MULTI_CHAIN_LIMIT);
	return CONFIG_ZSMALLOC_CHAIN_SIZE;
}

static bool zs_test_handle_ok(unsigned long handle)
{
	/* 6.12 returns ERR_PTR() values on failure, older kernels 0 */
	return handle && !IS_ERR_VALUE(handle);
}

static u32 zs_test_seed(size_t size, unsigned int idx, u32 salt)
{
	return jhash_3words((u32)size, idx, salt, 0);
}

static inline u8 zs_test_pattern(u32 seed, size_t i)
{
	u32 x = seed + (u32)i * 0x9e3779b1U;

	return x ^ (x >> 11) ^ (x >> 24);
}

static void zs_test_fill(u8 *buf, size_t len, u32 seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = zs_test_pattern(seed, i);
}

/* Returns the offset of the first byte not matching the pattern, or @len */
static size_t zs_test_check(const u8 *buf, size_t len, u32 seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != zs_test_pattern(seed, i))
			break;

	return i;
}

/*
 * zs_free() hands a zspage over to a workqueue when it cannot lock its pages
 * (e.g. while they are being migrated). Give such deferred frees some time
 * to complete before reading the page count.
 */
static unsigned long zs_test_total_pages(struct zs_pool *pool,
					 unsigned long expected)
{
	unsigned long pages = zs_get_total_pages(pool);
	int tries = 50;

	while (pages > expected && tries--) {
		msleep(20);
		pages = zs_get_total_pages(pool);
	}

	return pages;
}

static long zs_test_pages_compacted(struct zs_pool *pool)
{
	struct zs_pool_stats stats;

	zs_pool_stats(pool, &stats);
	return atomic_long_read(&stats.pages_compacted);
}

static const struct zs_test_class *zs_test_class_of(struct zs_test_ctx *ctx,
						    size_t size)
{
	unsigned int lo = 0, hi = ctx->nr_classes - 1;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (ctx->classes[mid].last < size)
			lo = mid + 1;
		else
			hi = mid;
	}

	return &ctx->classes[lo];
}

/* Map write-only and store the pattern of @seed */
static void zs_test_obj_write(struct zs_pool *pool, struct zs_test_obj *obj,
			      u32 seed)
{
	u8 *buf = zs_map_object(pool, obj->handle, ZS_MM_WO);

	zs_test_fill(buf, obj->size, seed);
	zs_unmap_object(pool, obj->handle);
	obj->seed = seed;
}

static void zs_test_obj_alloc(struct kunit *test, struct zs_pool *pool,
			      struct zs_test_obj *obj, size_t size, u32 seed)
{
	unsigned long handle = zs_malloc(pool, size, ZS_TEST_GFP);

	KUNIT_ASSERT_TRUE_MSG(test, zs_test_handle_ok(handle),
			      "zs_malloc(%zu) failed: %ld", size, (long)handle);
	obj->handle = handle;
	obj->size = size;
	zs_test_obj_write(pool, obj, seed);
}

/* Map read-only and verify every byte */
static void zs_test_obj_verify(struct kunit *test, struct zs_pool *pool,
			       const struct zs_test_obj *obj)
{
	const u8 *buf = zs_map_object(pool, obj->handle, ZS_MM_RO);
	size_t bad = zs_test_check(buf, obj->size, obj->seed);

	/* no KUnit reporting while mapped: the mapping is atomic */
	zs_unmap_object(pool, obj->handle);
	KUNIT_ASSERT_EQ_MSG(test, bad, obj->size,
			    "%zu byte object corrupted at offset %zu",
			    obj->size, bad);
}

/* Map read-write, verify every byte and replace the pattern by @seed's */
static void zs_test_obj_rewrite(struct kunit *test, struct zs_pool *pool,
				struct zs_test_obj *obj, u32 seed)
{
	u8 *buf = zs_map_object(pool, obj->handle, ZS_MM_RW);
	size_t bad = zs_test_check(buf, obj->size, obj->seed);

	zs_test_fill(buf, obj->size, seed);
	zs_unmap_object(pool, obj->handle);
	obj->seed = seed;
	KUNIT_ASSERT_EQ_MSG(test, bad, obj->size,
			    "%zu byte object corrupted at offset %zu",
			    obj->size, bad);
}

static void zs_test_obj_free(struct zs_pool *pool, struct zs_test_obj *obj)
{
	zs_free(pool, obj->handle);
	obj->handle = 0;
}

static void zs_test_set_release(void *data)
{
	struct zs_test_set *set = data;
	unsigned int i;

	for (i = 0; i < set->nr; i++)
		if (set->objs[i].handle)
			zs_test_obj_free(set->pool, &set->objs[i]);
	kvfree(set->objs);
	kfree(set);
}

static struct zs_test_set *zs_test_set_create(struct kunit *test,
					      unsigned int nr)
{
	struct zs_test_ctx *ctx = test->priv;
	struct zs_test_obj *objs;
	struct zs_test_set *set;
	int ret;

	objs = kvcalloc(nr, sizeof(*objs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, objs);
	set = kzalloc(sizeof(*set), GFP_KERNEL);
	if (!set)
		kvfree(objs);
	KUNIT_ASSERT_NOT_NULL(test, set);
	set->pool = ctx->pool;
	set->objs = objs;
	set->nr = nr;

	ret = kunit_add_action_or_reset(test, zs_test_set_release, set);
	KUNIT_ASSERT_EQ(test, ret, 0);

	return set;
}

/* Free the objects and check that the pool releases all its pages */
static void zs_test_set_destroy(struct kunit *test, struct zs_test_set *set)
{
	struct zs_pool *pool = set->pool;

	kunit_release_action(test, zs_test_set_release, set);
	KUNIT_ASSERT_EQ(test, zs_test_total_pages(pool, 0), 0);
}

static void zs_test_verify_all(struct kunit *test, struct zs_test_set *set)
{
	unsigned int i;

	for (i = 0; i < set->nr; i++)
		if (set->objs[i].handle)
			zs_test_obj_verify(test, set->pool, &set->objs[i]);
}

static void zs_test_rewrite_all(struct kunit *test, struct zs_test_set *set,
				u32 salt)
{
	struct zs_test_obj *obj;
	unsigned int i;

	for (i = 0; i < set->nr; i++) {
		obj = &set->objs[i];
		if (obj->handle)
			zs_test_obj_rewrite(test, set->pool, obj,
					    zs_test_seed(obj->size, i, salt));
	}
}

/* Allocate objects [@from, @from + @nr) of @size with distinct patterns */
static void zs_test_alloc_range(struct kunit *test, struct zs_test_set *set,
				unsigned int from, unsigned int nr, size_t size)
{
	unsigned int i;

	KUNIT_ASSERT_LE(test, from + nr, set->nr);
	for (i = from; i < from + nr; i++)
		zs_test_obj_alloc(test, set->pool, &set->objs[i], size,
				  zs_test_seed(size, i, ZS_TEST_SALT_WO));
}

/*
 * Write, read-modify-write and read back all objects of @set, then free them
 * in two interleaved passes, checking the survivors of the first pass.
 */
static void zs_test_exercise_set(struct kunit *test, struct zs_test_set *set)
{
	unsigned int i;

	zs_test_rewrite_all(test, set, ZS_TEST_SALT_RW);
	zs_test_verify_all(test, set);

	for (i = 0; i < set->nr; i += 2)
		if (set->objs[i].handle)
			zs_test_obj_free(set->pool, &set->objs[i]);
	zs_test_verify_all(test, set);
	zs_test_set_destroy(test, set);
}

static int zs_test_init_classes(struct kunit *test, struct zs_test_ctx *ctx)
{
	unsigned int idx, prev = UINT_MAX, nr = 0;
	struct zs_test_class *c = NULL;
	size_t size;

	for (size = 1; size <= ctx->max; size++) {
		idx = zs_lookup_class_index(ctx->pool, size);
		if (idx != prev)
			nr++;
		prev = idx;
	}

	ctx->classes = kunit_kcalloc(test, nr, sizeof(*ctx->classes),
				     GFP_KERNEL);
	if (!ctx->classes)
		return -ENOMEM;
	ctx->nr_classes = nr;

	for (size = 1; size <= ctx->max; size++) {
		idx = zs_lookup_class_index(ctx->pool, size);
		if (!c || idx != c->index) {
			c = c ? c + 1 : ctx->classes;
			c->index = idx;
			c->first = size;
		}
		c->last = size;
	}

	for (c = ctx->classes; c < ctx->classes + nr; c++) {
		/* base huge classes: one page, no inline handle */
		c->huge = c->first >= ctx->huge && c->last <= PAGE_SIZE;
		c->size = c->huge ? c->last : c->last + ZS_TEST_HANDLE_SIZE;
		zs_test_zspage_layout(ctx->pool, c->last, &c->pages_per_zspage,
				      &c->objs_per_zspage);
	}

	return 0;
}

KUNIT_DEFINE_ACTION_WRAPPER(zs_test_destroy_pool, zs_destroy_pool,
			    struct zs_pool *);

static int zs_test_init(struct kunit *test)
{
	struct zs_test_ctx *ctx;
	int ret;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;

	ctx->pool = zs_create_pool("zs_kunit");
	if (!ctx->pool)
		return -ENOMEM;
	/* registered first, so it runs after all object sets are freed */
	ret = kunit_add_action_or_reset(test, zs_test_destroy_pool, ctx->pool);
	if (ret)
		return ret;

	ctx->max = zs_test_max_size(ctx->pool);
	ctx->huge = zs_huge_class_size(ctx->pool);
	ret = zs_test_init_classes(test, ctx);
	if (ret)
		return ret;

	/*
	 * A pool of blocks: after a multi-page object its base classes grow
	 * too (zspage_grows()), as the model of zs_test_zspage_pages() says;
	 * zs_test_page_pool() has a pool of pages.
	 */
	if (IS_ENABLED(CONFIG_ZSMALLOC_MULTI_PAGES)) {
		unsigned long handle = zs_malloc(ctx->pool, ctx->max,
						 ZS_TEST_GFP);

		if (!zs_test_handle_ok(handle))
			return -ENOMEM;
		zs_free(ctx->pool, handle);
		/* the cases count pages from an empty pool */
		if (zs_test_total_pages(ctx->pool, 0))
			return -EBUSY;
	}

	test->priv = ctx;
	return 0;
}

/*
 * For every block a caller may compress (two pages up to the largest), the
 * threshold zs_block_huge_size() gives is the first object size whose
 * class costs the block or more: the size just below it still saves space.
 */
static void zs_test_block_huge(struct kunit *test, struct zs_test_ctx *ctx)
{
	size_t too_big = PAGE_SIZE << (ZS_TEST_MULTI_ORDER + 1);
	unsigned int order;

	/* a page, more than the largest block, not whole pages: no block */
	KUNIT_EXPECT_EQ(test, zs_block_huge_size(ctx->pool, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, zs_block_huge_size(ctx->pool, too_big), 0);
	KUNIT_EXPECT_EQ(test, zs_block_huge_size(ctx->pool, 3 * PAGE_SIZE / 2), 0);
	for (order = 1; order <= ZS_TEST_MULTI_ORDER; order++) {
		size_t block = PAGE_SIZE << order;
		size_t h = zs_block_huge_size(ctx->pool, block);

		KUNIT_ASSERT_GT(test, h, PAGE_SIZE);
		KUNIT_ASSERT_LE(test, h, block);
		KUNIT_EXPECT_GE(test, zs_test_class_of(ctx, h)->size, block);
		KUNIT_EXPECT_LT(test, zs_test_class_of(ctx, h - 1)->size, block);
		kunit_info(test, "block %zu: stored as pages from %zu bytes\n",
			   block, h);
	}
	KUNIT_EXPECT_EQ(test, zs_block_huge_size(ctx->pool, PAGE_SIZE <<
						 ZS_TEST_MULTI_ORDER),
			zs_multi_pages_huge_class_size(ctx->pool));
}

/*
 * Multi-page classes follow the base huge class up to the block size less
 * the inline handle; the multi-page huge threshold is where the top class,
 * which costs a whole block per object, begins.
 */
static void zs_test_multi_layout(struct kunit *test, struct zs_test_ctx *ctx)
{
	size_t block = PAGE_SIZE << ZS_TEST_MULTI_ORDER;
	size_t multi_huge = zs_multi_pages_huge_class_size(ctx->pool);
	const struct zs_test_class *top, *below;

	if (!ZS_TEST_MULTI_ORDER) {
		KUNIT_EXPECT_EQ(test, ctx->max, PAGE_SIZE);
		KUNIT_EXPECT_EQ(test, multi_huge, 0);
		return;
	}
	KUNIT_EXPECT_EQ(test, ctx->max, block - ZS_TEST_HANDLE_SIZE);
	top = &ctx->classes[ctx->nr_classes - 1];
	KUNIT_EXPECT_EQ(test, top->size, block);
	KUNIT_EXPECT_EQ(test, top->pages_per_zspage, 1 << ZS_TEST_MULTI_ORDER);
	KUNIT_EXPECT_EQ(test, top->objs_per_zspage, 1);
	KUNIT_ASSERT_GT(test, multi_huge, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, top->first, multi_huge);
	below = top - 1;
	KUNIT_EXPECT_GT(test, below->first, PAGE_SIZE);
	KUNIT_EXPECT_GT(test, below->objs_per_zspage, 1);
	/* the first multi-page class starts right after the base huge class */
	KUNIT_EXPECT_EQ(test, zs_test_class_of(ctx, PAGE_SIZE + 1)->first,
			PAGE_SIZE + 1);
	zs_test_block_huge(test, ctx);
}

/*
 * zsmalloc's rule for the zspage of a class: of the chains of at most
 * zs_test_max_chain() pages that hold an object, the shortest of those
 * that leave the smallest unused tail, filled with as many objects as fit.
 * The pool's own layout is checked against the rule; the rule does not
 * stand in for it anywhere in this suite.
 */
static void zs_test_check_chain(struct kunit *test,
				const struct zs_test_class *c)
{
	unsigned int ppz = c->pages_per_zspage, i;
	size_t tail = ppz * PAGE_SIZE % c->size;

	KUNIT_EXPECT_GE(test, ppz * PAGE_SIZE, c->size);
	KUNIT_EXPECT_LE(test, ppz, zs_test_max_chain(c->size));
	KUNIT_EXPECT_EQ(test, c->objs_per_zspage, ppz * PAGE_SIZE / c->size);
	for (i = DIV_ROUND_UP(c->size, PAGE_SIZE);
	     i <= zs_test_max_chain(c->size); i++) {
		size_t t = i * PAGE_SIZE % c->size;

		KUNIT_EXPECT_TRUE_MSG(test, t > tail || (t == tail && i >= ppz),
				      "class %zu: %u pages leave %zu bytes, its %u pages %zu",
				      c->size, i, t, ppz, tail);
	}
}

/*
 * The class table discovered through the API must be contiguous, end with
 * the huge class at zs_huge_class_size() and follow the chain size rule:
 * adjacent classes differ in their zspage layout, as zsmalloc merges
 * classes with the same pages_per_zspage and objs_per_zspage.
 */
static void zs_test_class_layout(struct kunit *test)
{
	struct zs_test_ctx *ctx = test->priv;
	const struct zs_test_class *c, *prev = NULL;
	const struct zs_test_class *huge;

	KUNIT_ASSERT_GE(test, ctx->nr_classes, 2);
	KUNIT_EXPECT_EQ(test, ctx->classes[0].first, 1);
	KUNIT_EXPECT_EQ(test, ctx->classes[ctx->nr_classes - 1].last, ctx->max);

	KUNIT_ASSERT_GT(test, ctx->huge, 1);
	KUNIT_ASSERT_LE(test, ctx->huge, ctx->max);
	huge = zs_test_class_of(ctx, ctx->huge);
	KUNIT_EXPECT_EQ(test, huge->first, ctx->huge);
	KUNIT_EXPECT_EQ(test, huge->last, PAGE_SIZE);
	KUNIT_EXPECT_NE(test, zs_lookup_class_index(ctx->pool, ctx->huge - 1),
			zs_lookup_class_index(ctx->pool, ctx->huge));
	KUNIT_EXPECT_EQ(test, zs_lookup_class_index(ctx->pool, ctx->huge),
			zs_lookup_class_index(ctx->pool, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, huge->pages_per_zspage, 1);
	KUNIT_EXPECT_EQ(test, huge->objs_per_zspage, 1);

	for (c = ctx->classes; c < ctx->classes + ctx->nr_classes; c++) {
		KUNIT_EXPECT_LE(test, c->first, c->last);
		zs_test_check_chain(test, c);
		if (!c->huge)
			KUNIT_EXPECT_EQ(test, c->size % ZS_TEST_ALIGN, 0);
		/* multi-page classes may hold one object, as 8 KiB does */
		if (!c->huge && c->last <= PAGE_SIZE)
			KUNIT_EXPECT_GT(test, c->objs_per_zspage, 1);
		if (!prev) {
			prev = c;
			continue;
		}
		KUNIT_EXPECT_GT(test, c->index, prev->index);
		KUNIT_EXPECT_EQ(test, c->first, prev->last + 1);
		KUNIT_EXPECT_TRUE_MSG(test,
				      c->pages_per_zspage != prev->pages_per_zspage ||
				      c->objs_per_zspage != prev->objs_per_zspage,
				      "classes %zu and %zu should have been merged",
				      prev->size, c->size);
		prev = c;
	}

	/*
	 * zsmalloc makes huge every size above the largest class that packs
	 * several objects into a zspage of several pages.
	 */
	KUNIT_ASSERT_PTR_NE(test, huge, ctx->classes);
	c = huge - 1;
	KUNIT_EXPECT_GT(test, c->pages_per_zspage, 1);
	KUNIT_EXPECT_GT(test, c->objs_per_zspage, 1);

	zs_test_multi_layout(test, ctx);

	kunit_info(test, "%u size classes, huge class size %zu, max size %zu, multi-page huge class size %zu\n",
		   ctx->nr_classes, ctx->huge, ctx->max,
		   zs_multi_pages_huge_class_size(ctx->pool));
}

/*
 * Every object size from @first to @last, @step apart: fill one zspage
 * and spill into a second one, so that objects at every position of the
 * zspage (including the ones crossing a page boundary) are written,
 * rewritten and read back.
 */
static void zs_test_roundtrip_range(struct kunit *test, size_t first,
				    size_t last, size_t step)
{
	struct zs_test_ctx *ctx = test->priv;
	const struct zs_test_class *c;
	unsigned int nr = 0;
	struct zs_test_set *set;
	size_t size;

	for (c = ctx->classes; c < ctx->classes + ctx->nr_classes; c++)
		nr = max(nr, c->objs_per_zspage + 1);

	for (size = first; size <= last; size += step) {
		c = zs_test_class_of(ctx, size);
		set = zs_test_set_create(test, nr);
		zs_test_alloc_range(test, set, 0, c->objs_per_zspage + 1, size);
		zs_test_exercise_set(test, set);
		cond_resched();
	}
}

/* Every size up to a page */
static void zs_test_roundtrip_sizes(struct kunit *test)
{
	zs_test_roundtrip_range(test, 1, PAGE_SIZE, 1);
}

/*
 * Every ZS_TEST_MULTI_STRIDE-th size above a page, a case of its own: it
 * writes the most bytes of the suite, minutes on a kernel with KASAN.
 */
static void zs_test_roundtrip_multi_sizes(struct kunit *test)
{
	struct zs_test_ctx *ctx = test->priv;

	if (!IS_ENABLED(CONFIG_ZSMALLOC_MULTI_PAGES))
		kunit_skip(test, "no object is larger than a page");
	KUNIT_ASSERT_GT(test, ctx->max, PAGE_SIZE);
	zs_test_roundtrip_range(test, PAGE_SIZE + 1, ctx->max,
				ZS_TEST_MULTI_STRIDE);
}

/*
 * The class boundaries (first and last size of each class) and the huge
 * class boundary, all live at the same time.
 */
static void zs_test_roundtrip_boundaries(struct kunit *test)
{
	struct zs_test_ctx *ctx = test->priv;
	unsigned int i, n = 0, nr = 0, from = 0;
	const struct zs_test_class *c;
	struct zs_test_set *set;
	size_t *sizes;

	sizes = kunit_kcalloc(test, 2 * ctx->nr_classes + 4, sizeof(*sizes),
			      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sizes);
	for (c = ctx->classes; c < ctx->classes + ctx->nr_classes; c++) {
		sizes[n++] = c->first;
		sizes[n++] = c->last;
	}
	sizes[n++] = ctx->huge - 1;
	sizes[n++] = ctx->huge;
	sizes[n++] = ctx->huge + 1;
	sizes[n++] = ctx->max;

	for (i = 0; i < n; i++)
		nr += zs_test_class_of(ctx, sizes[i])->objs_per_zspage + 1;

	set = zs_test_set_create(test, nr);
	for (i = 0; i < n; i++) {
		c = zs_test_class_of(ctx, sizes[i]);
		zs_test_alloc_range(test, set, from, c->objs_per_zspage + 1,
				    sizes[i]);
		from += c->objs_per_zspage + 1;
	}
	zs_test_verify_all(test, set);
	zs_test_exercise_set(test, set);
}

/* Sizes above the maximum, and 0, must fail without allocating anything */
static void zs_test_roundtrip_invalid(struct kunit *test)
{
	struct zs_test_ctx *ctx = test->priv;
	const size_t sizes[] = {
		0, ctx->max + 1, 2 * ctx->max, (size_t)UINT_MAX + 1, SIZE_MAX,
	};
	unsigned long handle;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		handle = zs_malloc(ctx->pool, sizes[i], ZS_TEST_GFP);
		KUNIT_EXPECT_FALSE_MSG(test, zs_test_handle_ok(handle),
				       "zs_malloc(%zu) succeeded", sizes[i]);
		if (zs_test_handle_ok(handle))
			zs_free(ctx->pool, handle);
	}
	KUNIT_EXPECT_EQ(test, zs_get_total_pages(ctx->pool), 0);
}

static size_t zs_test_churn_size(struct zs_test_ctx *ctx,
				 struct rnd_state *rnd)
{
	const struct zs_test_class *c;
	u32 r = prandom_u32_state(rnd);

	switch (r % 4) {
	case 0:
		/* small objects */
		return 1 + prandom_u32_state(rnd) % min_t(size_t, ctx->max, 256);
	case 1:
		/* class boundaries */
		c = &ctx->classes[prandom_u32_state(rnd) % ctx->nr_classes];
		return (r & 4) ? c->first : c->last;
	default:
		return 1 + prandom_u32_state(rnd) % ctx->max;
	}
}

/*
 * Seeded random allocations and frees of objects of all sizes, with some
 * in-place rewrites and periodic compaction. Objects are verified when freed
 * and at the end.
 */
static void zs_test_churn(struct kunit *test)
{
	struct zs_test_ctx *ctx = test->priv;
	unsigned long freed, pages, compacted = 0;
	unsigned int op, allocs = 0;
	struct zs_test_obj *obj;
	struct zs_test_set *set;
	struct rnd_state rnd;
	size_t size;
	long stat;
	u32 r;

	prandom_seed_state(&rnd, ZS_TEST_CHURN_SEED);
	set = zs_test_set_create(test, ZS_TEST_CHURN_SLOTS);

	for (op = 0; op < ZS_TEST_CHURN_OPS; op++) {
		r = prandom_u32_state(&rnd);
		obj = &set->objs[r % ZS_TEST_CHURN_SLOTS];
		if (!obj->handle) {
			size = zs_test_churn_size(ctx, &rnd);
			zs_test_obj_alloc(test, ctx->pool, obj, size,
					  zs_test_seed(size, op,
						       ZS_TEST_SALT_CHURN));
			allocs++;
		} else if ((r >> 24) % 8 == 0) {
			zs_test_obj_rewrite(test, ctx->pool, obj,
					    zs_test_seed(obj->size, op,
							 ZS_TEST_SALT_RW));
		} else {
			zs_test_obj_verify(test, ctx->pool, obj);
			zs_test_obj_free(ctx->pool, obj);
		}

		if ((op + 1) % ZS_TEST_CHURN_COMPACT == 0) {
			pages = zs_get_total_pages(ctx->pool);
			stat = zs_test_pages_compacted(ctx->pool);
			freed = zs_compact(ctx->pool);
			compacted += freed;
			KUNIT_EXPECT_EQ(test, zs_test_pages_compacted(ctx->pool),
					stat + freed);
			KUNIT_EXPECT_EQ(test,
					zs_test_total_pages(ctx->pool,
							    pages - freed),
					pages - freed);
		}
		if (op % 256 == 0)
			cond_resched();
	}

	KUNIT_EXPECT_GE(test, allocs, ZS_TEST_CHURN_OPS / 3);
	kunit_info(test, "%u allocations, %lu pages compacted, %lu pages left\n",
		   allocs, compacted, zs_get_total_pages(ctx->pool));
	zs_test_verify_all(test, set);
	zs_test_set_destroy(test, set);
}

/* Number of zspages still holding one of the objects with i % 4 == 0 */
static unsigned int zs_test_used_zspages(unsigned int nr_objs,
					 unsigned int objs_per_zspage)
{
	unsigned int i, last = UINT_MAX, used = 0;

	for (i = 0; i < nr_objs; i += 4) {
		if (i / objs_per_zspage != last)
			used++;
		last = i / objs_per_zspage;
	}

	return used;
}

/*
 * Fill ZS_TEST_COMPACT_ZSPAGES zspages of each class of @sizes, free three
 * objects out of four and compact. Compaction must bring every class down to
 * the minimal number of zspages for its survivors and report the freed pages
 * consistently; a second compaction has nothing left to do.
 */
static void zs_test_compact_sizes(struct kunit *test, const size_t *sizes,
				  unsigned int n)
{
	struct zs_test_ctx *ctx = test->priv;
	unsigned long expect_before = 0, expect_after = 0, survivors = 0;
	unsigned long before, after, freed;
	unsigned int i, j, nr = 0, from = 0;
	const struct zs_test_class *c;
	struct zs_test_set *set;
	long stat, moved;

	for (i = 0; i < n; i++)
		nr += ZS_TEST_COMPACT_ZSPAGES *
		      zs_test_class_of(ctx, sizes[i])->objs_per_zspage;

	set = zs_test_set_create(test, nr);
	for (i = 0; i < n; i++) {
		c = zs_test_class_of(ctx, sizes[i]);
		nr = ZS_TEST_COMPACT_ZSPAGES * c->objs_per_zspage;
		zs_test_alloc_range(test, set, from, nr, sizes[i]);
		for (j = 0; j < nr; j++)
			if (j % 4)
				zs_test_obj_free(ctx->pool, &set->objs[from + j]);
		from += nr;

		expect_before += c->pages_per_zspage *
			zs_test_used_zspages(nr, c->objs_per_zspage);
		expect_after += c->pages_per_zspage *
			DIV_ROUND_UP(DIV_ROUND_UP(nr, 4), c->objs_per_zspage);
		survivors += DIV_ROUND_UP(nr, 4);
	}

	before = zs_test_total_pages(ctx->pool, expect_before);
	KUNIT_EXPECT_EQ(test, before, expect_before);

	stat = zs_test_pages_compacted(ctx->pool);
	moved = zs_test_objs_moved(ctx->pool);
	freed = zs_compact(ctx->pool);
	moved = zs_test_objs_moved(ctx->pool) - moved;
	KUNIT_EXPECT_GT(test, freed, 0);
	KUNIT_EXPECT_EQ(test, zs_test_pages_compacted(ctx->pool), stat + freed);
	/*
	 * Every survivor of a freed zspage moved, and none moved twice: the
	 * destination is not put back where it could become a source.
	 */
	KUNIT_EXPECT_GT(test, moved, 0);
	KUNIT_EXPECT_LE(test, moved, survivors);
	if (n == 1) {
		c = zs_test_class_of(ctx, sizes[0]);
		KUNIT_EXPECT_GE(test, moved, freed / c->pages_per_zspage *
				(c->objs_per_zspage / 4));
	}
	after = zs_test_total_pages(ctx->pool, before - freed);
	KUNIT_EXPECT_EQ(test, before - after, freed);
	KUNIT_EXPECT_EQ(test, after, expect_after);
	zs_test_verify_all(test, set);

	stat = zs_test_pages_compacted(ctx->pool);
	moved = zs_test_objs_moved(ctx->pool);
	KUNIT_EXPECT_EQ(test, zs_compact(ctx->pool), 0);
	KUNIT_EXPECT_EQ(test, zs_test_pages_compacted(ctx->pool), stat);
	KUNIT_EXPECT_EQ(test, zs_test_objs_moved(ctx->pool), moved);
	KUNIT_EXPECT_EQ(test, zs_get_total_pages(ctx->pool), after);
	zs_test_verify_all(test, set);

	zs_test_set_destroy(test, set);
}

static bool zs_test_class_taken(struct zs_test_ctx *ctx, const size_t *sizes,
				unsigned int n, const struct zs_test_class *c)
{
	while (n--)
		if (zs_test_class_of(ctx, sizes[n]) == c)
			return true;
	return false;
}

static void zs_test_compaction(struct kunit *test)
{
	struct zs_test_ctx *ctx = test->priv;
	size_t multi_huge = zs_multi_pages_huge_class_size(ctx->pool);
	const size_t points[] = {
		1, ctx->max / 16, ctx->huge - 1, ctx->max / 5, ctx->max / 3,
		ctx->max / 2, 2 * ctx->max / 3,
		/* the largest multi-page class with several objects a zspage */
		multi_huge ? multi_huge - 1 : 1,
	};
	size_t sizes[ARRAY_SIZE(points)];
	const struct zs_test_class *c;
	unsigned int i, n = 0;

	/* the largest non-huge class must be part of the set */
	KUNIT_ASSERT_FALSE(test, zs_test_class_of(ctx, ctx->huge - 1)->huge);

	/*
	 * One size per class; classes with one object a zspage (huge ones,
	 * the top multi-page class) have nothing to compact.
	 */
	for (i = 0; i < ARRAY_SIZE(points); i++) {
		c = zs_test_class_of(ctx, points[i]);
		if (c->objs_per_zspage == 1 || zs_test_class_taken(ctx, sizes, n, c))
			continue;
		sizes[n++] = points[i];
	}

	for (i = 0; i < n; i++)
		zs_test_compact_sizes(test, &sizes[i], 1);
	/* all of them at once */
	zs_test_compact_sizes(test, sizes, n);
}

/* mm/zsmalloc.c's ZS_MULTI_PAGES_GROWTH: fewest pages a multi-page zspage adds */
#define ZS_TEST_MULTI_GROWTH	4

/*
 * Pages a zspage of class @c has once it took @objs objects one by one, in
 * a pool that has been asked for a multi-page object (each case's pool, see
 * zs_test_init()): zs_malloc() gives it the pages its next object needs, at
 * least ZS_TEST_MULTI_GROWTH at a time in multi-page classes, whenever all
 * the objects of the pages it has are in use.
 */
static unsigned int zs_test_zspage_pages(const struct zs_test_class *c,
					 unsigned int objs)
{
	unsigned int pages = 0, capacity = 0, need;

	if (!IS_ENABLED(CONFIG_ZSMALLOC_MULTI_PAGES))
		return objs ? c->pages_per_zspage : 0;
	while (capacity < objs) {
		need = DIV_ROUND_UP((capacity + 1) * c->size, PAGE_SIZE) - pages;
		if (c->size > PAGE_SIZE)
			need = max(need, min_t(unsigned int, ZS_TEST_MULTI_GROWTH,
					       c->pages_per_zspage - pages));
		pages += need;
		capacity = min_t(unsigned int, c->objs_per_zspage,
				 pages * PAGE_SIZE / c->size);
	}
	return pages;
}

/*
 * Pages the first @objs of @nr objects of class @c hold, in a fresh pool that
 * took all @nr in order: zspages fill one after the other, each growing as
 * its objects need pages, and keep the pages they grew to until they are
 * freed.
 */
static unsigned long zs_test_pages_of(const struct zs_test_class *c,
				      unsigned int objs, unsigned int nr)
{
	unsigned int opz = c->objs_per_zspage, zspages = DIV_ROUND_UP(objs, opz);
	unsigned int last = nr ? (nr - 1) / opz : 0;
	unsigned long pages = (unsigned long)zspages * c->pages_per_zspage;

	if (zspages > last)
		pages -= c->pages_per_zspage -
			 zs_test_zspage_pages(c, nr - last * opz);
	return pages;
}

/*
 * Allocate @nr objects of @size into a fresh pool: objects fill zspages in
 * order, so the page count is known after every allocation and, freeing in
 * reverse order, after every free.
 */
static void zs_test_account_size(struct kunit *test, size_t size,
				 unsigned int nr)
{
	struct zs_test_ctx *ctx = test->priv;
	const struct zs_test_class *c = zs_test_class_of(ctx, size);
	unsigned int ppz = c->pages_per_zspage, opz = c->objs_per_zspage;
	struct zs_test_set *set;
	unsigned long expect;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, zs_get_total_pages(ctx->pool), 0);
	set = zs_test_set_create(test, nr);

	for (i = 0; i < nr; i++) {
		zs_test_alloc_range(test, set, i, 1, size);
		expect = zs_test_pages_of(c, i + 1, i + 1);
		KUNIT_ASSERT_EQ_MSG(test, zs_get_total_pages(ctx->pool), expect,
				    "size %zu (class %zu: %u pages, %u objs), %u objects",
				    size, c->size, ppz, opz, i + 1);
	}
	zs_test_verify_all(test, set);

	for (i = nr; i-- > 0;) {
		zs_test_obj_free(ctx->pool, &set->objs[i]);
		expect = zs_test_pages_of(c, i, nr);
		KUNIT_ASSERT_EQ_MSG(test, zs_test_total_pages(ctx->pool, expect),
				    expect,
				    "size %zu (class %zu: %u pages, %u objs), %u objects",
				    size, c->size, ppz, opz, i);
	}

	zs_test_set_destroy(test, set);
}

static void zs_test_accounting(struct kunit *test)
{
	struct zs_test_ctx *ctx = test->priv;
	const struct zs_test_class *c, *longest = ctx->classes;
	const size_t sizes[] = {
		1, ctx->max / 3, ctx->huge - 1, ctx->huge, PAGE_SIZE,
		min_t(size_t, PAGE_SIZE + 1, ctx->max), ctx->max,
	};
	unsigned int i;

	for (c = ctx->classes; c < ctx->classes + ctx->nr_classes; c++)
		if (c->pages_per_zspage > longest->pages_per_zspage)
			longest = c;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		c = zs_test_class_of(ctx, sizes[i]);
		zs_test_account_size(test, sizes[i], 3 * c->objs_per_zspage + 1);
	}
	zs_test_account_size(test, longest->last,
			     3 * longest->objs_per_zspage + 1);

	/* every class: one full zspage and one with a single object */
	for (c = ctx->classes; c < ctx->classes + ctx->nr_classes; c++)
		zs_test_account_size(test, c->last, c->objs_per_zspage + 1);
}

#ifdef CONFIG_COMPACTION
/*
 * Move @page to @newpage, a page of the caller's whose reference it takes,
 * or to a new page if @newpage is NULL, through its movable operations, the
 * way migrate_pages() moves a non-LRU movable page: isolate it under the
 * page lock, migrate it into the locked new page, and drop the old page.
 */
static int zs_test_migrate_page(struct page *page, struct page *newpage)
{
	const struct movable_operations *mops;
	int rc = -EBUSY;

	if (!newpage)
		newpage = alloc_page(GFP_KERNEL);
	if (!newpage)
		return -ENOMEM;
	get_page(page);
	lock_page(page);
	if (!__PageMovable(page) || PageIsolated(page))
		goto out;
	mops = page_movable_ops(page);
	if (!mops->isolate_page(page, ISOLATE_UNEVICTABLE))
		goto out;
	SetPageIsolated(page);

	lock_page(newpage);
	rc = mops->migrate_page(newpage, page, MIGRATE_SYNC);
	unlock_page(newpage);
	if (rc != MIGRATEPAGE_SUCCESS)
		mops->putback_page(page);
	ClearPageIsolated(page);
out:
	unlock_page(page);
	put_page(page);
	put_page(newpage);	/* zsmalloc holds its own reference */
	return rc;
}

/* The class whose zspages grow in the most steps */
static const struct zs_test_class *zs_test_longest(struct zs_test_ctx *ctx)
{
	const struct zs_test_class *c, *longest = ctx->classes;

	for (c = ctx->classes; c < ctx->classes + ctx->nr_classes; c++)
		if (c->pages_per_zspage > longest->pages_per_zspage)
			longest = c;
	return longest;
}

/*
 * A zspage that stopped short of its pages while another allocation was
 * getting pages to grow one (two CPUs that missed at once: the new zspage
 * is made meanwhile, zs_test_hold_growth()) grows too once it is full:
 * two zspages' worth of objects take two whole zspages, not a third one.
 */
static void zs_test_growth_held(struct kunit *test,
				const struct zs_test_class *c)
{
	struct zs_test_ctx *ctx = test->priv;
	unsigned int opz = c->objs_per_zspage, first, i;
	struct zs_test_set *set;
	unsigned long pages;

	set = zs_test_set_create(test, 2 * opz);
	/* fill the pages the first zspage starts with */
	first = zs_test_pages_of(c, 1, 1) * PAGE_SIZE / c->size;
	first = clamp(first, 1U, opz);
	zs_test_alloc_range(test, set, 0, first, c->last);

	zs_test_hold_growth(ctx->pool, c->last, true);
	zs_test_alloc_range(test, set, first, 1, c->last);
	zs_test_hold_growth(ctx->pool, c->last, false);
	pages = zs_get_total_pages(ctx->pool);
	KUNIT_EXPECT_EQ_MSG(test, pages, 2 * zs_test_pages_of(c, 1, 1),
			    "class %zu: a second zspage while growth is held",
			    c->size);

	for (i = first + 1; i < set->nr; i++)
		zs_test_alloc_range(test, set, i, 1, c->last);
	KUNIT_EXPECT_EQ_MSG(test, zs_get_total_pages(ctx->pool),
			    2UL * c->pages_per_zspage,
			    "class %zu (%u pages, %u objs): %u objects",
			    c->size, c->pages_per_zspage, opz, set->nr);
	zs_test_verify_all(test, set);
	zs_test_set_destroy(test, set);
}

/*
 * A zspage whose free was deferred (zs_free() found a page of it locked)
 * stays on its class's lists until the deferred free takes it, and an
 * allocation may use it again meanwhile: it must then grow like any other.
 * Whether the deferred free came first depends on the scheduler; the test
 * reports which, and checks the page count either way.
 */
static void zs_test_growth_deferred(struct kunit *test,
				    const struct zs_test_class *c)
{
	struct zs_test_ctx *ctx = test->priv;
	unsigned int opz = c->objs_per_zspage, first, i;
	unsigned long start = zs_test_pages_of(c, 1, 1), pages;
	struct zs_test_set *set;
	struct page *locked;
	bool reused;

	first = clamp_t(unsigned int, start * PAGE_SIZE / c->size, 1, opz);
	set = zs_test_set_create(test, opz);
	zs_test_alloc_range(test, set, 0, first, c->last);
	KUNIT_ASSERT_EQ(test, zs_test_object_pages(ctx->pool, set->objs[0].handle,
						   &locked, 1) >= 1, true);
	KUNIT_ASSERT_TRUE(test, trylock_page(locked));
	for (i = 0; i < first; i++)
		zs_test_obj_free(ctx->pool, &set->objs[i]);

	/* the freed zspage's pages are still counted: in use again, or not */
	KUNIT_EXPECT_EQ(test, zs_get_total_pages(ctx->pool), start);
	zs_test_alloc_range(test, set, 0, 1, c->last);
	reused = zs_get_total_pages(ctx->pool) == start;
	for (i = 1; i < set->nr; i++)
		zs_test_alloc_range(test, set, i, 1, c->last);
	pages = zs_get_total_pages(ctx->pool);
	unlock_page(locked);

	/* reused: it grew to a whole zspage; else the old one awaits its free */
	KUNIT_EXPECT_EQ_MSG(test, pages,
			    c->pages_per_zspage + (reused ? 0 : start),
			    "class %zu: %s zspage", c->size,
			    reused ? "a reused" : "a new");
	zs_test_verify_all(test, set);
	zs_test_set_destroy(test, set);
	kunit_info(test, "class %zu: the zspage whose free was deferred was %s\n",
		   c->size, reused ? "used again and grew" :
		   "freed first (a new zspage was made)");
}

/*
 * The pages @pool holds while it holds one object of @size, which is then
 * freed: the pool must be empty again.
 */
static unsigned long zs_test_pages_with(struct kunit *test,
					struct zs_pool *pool, size_t size)
{
	unsigned long handle = zs_malloc(pool, size, ZS_TEST_GFP);
	unsigned long pages;

	KUNIT_ASSERT_TRUE_MSG(test, zs_test_handle_ok(handle),
			      "zs_malloc(%zu) failed", size);
	pages = zs_get_total_pages(pool);
	zs_free(pool, handle);
	KUNIT_ASSERT_EQ(test, zs_test_total_pages(pool, 0), 0);
	return pages;
}

/*
 * A pool that has held objects of a page or less alone, as zswap's or that
 * of a zram device storing pages, gives a zspage of a base class its whole
 * chain at once, as without multi-page classes; once it has held a
 * multi-page object, its new base zspages grow.
 */
static void zs_test_page_pool(struct kunit *test)
{
	struct zs_test_ctx *ctx = test->priv;
	const struct zs_test_class *c, *longest = NULL;
	struct zs_pool *pool;
	unsigned long grown;

	for (c = ctx->classes; c < ctx->classes + ctx->nr_classes; c++)
		if (c->size <= PAGE_SIZE && !c->huge &&
		    (!longest ||
		     c->pages_per_zspage > longest->pages_per_zspage))
			longest = c;
	KUNIT_ASSERT_NOT_NULL(test, longest);
	pool = zs_create_pool("zs_kunit_pages");
	KUNIT_ASSERT_NOT_NULL(test, pool);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							zs_test_destroy_pool,
							pool), 0);

	/* a page and a huge object, as zram and zswap store, change nothing */
	zs_test_pages_with(test, pool, PAGE_SIZE);
	zs_test_pages_with(test, pool, ctx->huge);
	KUNIT_EXPECT_EQ_MSG(test, zs_test_pages_with(test, pool, longest->last),
			    (unsigned long)longest->pages_per_zspage,
			    "class %zu: a pool of pages", longest->size);
	if (!IS_ENABLED(CONFIG_ZSMALLOC_MULTI_PAGES))
		return;

	zs_test_pages_with(test, pool, ctx->max);
	grown = zs_test_pages_of(longest, 1, 1);
	KUNIT_EXPECT_LT(test, grown, (unsigned long)longest->pages_per_zspage);
	KUNIT_EXPECT_EQ_MSG(test, zs_test_pages_with(test, pool, longest->last),
			    grown, "class %zu: after a multi-page object",
			    longest->size);
}

static void zs_test_growth(struct kunit *test)
{
	struct zs_test_ctx *ctx = test->priv;
	const struct zs_test_class *c = zs_test_longest(ctx);

	if (zs_test_pages_of(c, 1, 1) >= c->pages_per_zspage)
		kunit_skip(test, "no class whose zspages grow");
	zs_test_growth_held(test, c);
	zs_test_growth_deferred(test, c);
}

/*
 * Migrate every page of a few zspages of several classes, base and
 * multi-page, one page at a time: each move must succeed, the object's
 * page must change, and every object, including those that span the page
 * moved, must keep its contents. The pool's page count does not change.
 */
static void zs_test_migration(struct kunit *test)
{
	struct zs_test_ctx *ctx = test->priv;
	const size_t sizes[] = {
		100, ctx->huge - 1, PAGE_SIZE,
		min_t(size_t, PAGE_SIZE + 1, ctx->max), ctx->max / 3,
		ctx->max / 2 + 8, ctx->max,
	};
	/* a multi-page block, and a page on each side */
	struct page *pages[(1 << ZS_TEST_MULTI_ORDER) + 2];
	struct page *moved[(1 << ZS_TEST_MULTI_ORDER) + 2];
	unsigned int i, j, from = 0, nr = 0;
	unsigned long total, migrated = 0;
	struct zs_test_set *set;
	int n, k;

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		nr += 2 * zs_test_class_of(ctx, sizes[i])->objs_per_zspage + 1;
	set = zs_test_set_create(test, nr);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		j = 2 * zs_test_class_of(ctx, sizes[i])->objs_per_zspage + 1;
		zs_test_alloc_range(test, set, from, j, sizes[i]);
		from += j;
	}
	total = zs_get_total_pages(ctx->pool);

	for (i = 0; i < set->nr; i++) {
		n = zs_test_object_pages(ctx->pool, set->objs[i].handle, pages,
					 ARRAY_SIZE(pages));
		KUNIT_ASSERT_GE(test, n, 1);
		KUNIT_ASSERT_LE(test, n, ARRAY_SIZE(pages));
		/* an object may start late in a page and end early in one */
		KUNIT_EXPECT_GE(test, n, DIV_ROUND_UP(set->objs[i].size, PAGE_SIZE));
		KUNIT_EXPECT_LE(test, n, DIV_ROUND_UP(set->objs[i].size, PAGE_SIZE) + 2);
		for (k = 0; k < n; k++) {
			KUNIT_ASSERT_EQ(test, zs_test_migrate_page(pages[k], NULL),
					MIGRATEPAGE_SUCCESS);
			migrated++;
		}
		k = zs_test_object_pages(ctx->pool, set->objs[i].handle, moved,
					 ARRAY_SIZE(moved));
		KUNIT_ASSERT_EQ(test, k, n);
		for (k = 0; k < n; k++)
			KUNIT_EXPECT_PTR_NE(test, moved[k], pages[k]);
		zs_test_obj_verify(test, ctx->pool, &set->objs[i]);
	}
	zs_test_verify_all(test, set);
	KUNIT_EXPECT_EQ(test, zs_get_total_pages(ctx->pool), total);
	kunit_info(test, "%lu page migrations over %u objects\n", migrated,
		   set->nr);
	zs_test_set_destroy(test, set);
}

/*
 * Move the pages of @obj (@n of them, in @pages) into consecutive pages of
 * one allocation, whose pages share their KASAN tag: one pointer then
 * covers them.
 */
static void zs_test_make_contig(struct kunit *test, struct zs_pool *pool,
				struct page **pages, int n)
{
	unsigned int order = order_base_2(n), i;
	struct page *block;

	block = alloc_pages(GFP_KERNEL, order);
	KUNIT_ASSERT_NOT_NULL(test, block);
	split_page(block, order);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, zs_test_migrate_page(pages[i], block + i),
				MIGRATEPAGE_SUCCESS);
	for (; i < 1U << order; i++)
		__free_page(block + i);
}
#else
static void zs_test_migration(struct kunit *test)
{
	kunit_skip(test, "zsmalloc pages are movable only with CONFIG_COMPACTION");
}
#endif

/*
 * Whether the @n pages of an object (zs_test_object_pages()) have
 * consecutive frame numbers and one KASAN tag (the tags of tag-based KASAN;
 * a constant otherwise), so that zs_map_object() maps it in place (never
 * with CONFIG_HIGHMEM or KMSAN).
 */
static bool zs_test_pages_contig(struct page **pages, int n)
{
	int i;

	if (!ZS_TEST_IN_PLACE)
		return false;
	for (i = 1; i < n; i++)
		if (page_to_pfn(pages[i]) != page_to_pfn(pages[0]) + i ||
		    page_kasan_tag(pages[i]) != page_kasan_tag(pages[0]))
			return false;
	return true;
}

/*
 * Map @obj read-only and check every byte; returns whether the mapping
 * points into one of the object's own pages (@pages, @n of them), that is,
 * whether it was mapped in place rather than copied into the per-CPU
 * buffer.
 */
static bool zs_test_mapped_in_place(struct kunit *test, struct zs_pool *pool,
				    const struct zs_test_obj *obj,
				    struct page **pages, int n)
{
	const u8 *buf = zs_map_object(pool, obj->handle, ZS_MM_RO);
	unsigned long addr = (unsigned long)kasan_reset_tag(buf), start;
	size_t bad = zs_test_check(buf, obj->size, obj->seed);
	bool in_place = false;
	int i;

	for (i = 0; i < n && !IS_ENABLED(CONFIG_HIGHMEM); i++) {
		start = (unsigned long)kasan_reset_tag(page_address(pages[i]));
		in_place |= addr - start < PAGE_SIZE;
	}
	/* no KUnit reporting while mapped: the mapping is atomic */
	zs_unmap_object(pool, obj->handle);
	KUNIT_EXPECT_EQ_MSG(test, bad, obj->size,
			    "%zu byte object corrupted at offset %zu",
			    obj->size, bad);
	return in_place;
}

/*
 * Objects of multi-page classes whose pages are physically contiguous (and
 * share their KASAN tag) are mapped in place, any other is copied through
 * the per-CPU buffer. Which objects' pages happen to be contiguous depends
 * on the page allocator (page_alloc.shuffle=1 makes it rare), so with
 * CONFIG_COMPACTION one object of every class has its pages moved into one
 * block first, and must then be mapped in place; moving the second page of
 * an object mapped in place breaks the run, and it must then be copied,
 * with the same contents.
 */
static void zs_test_in_place(struct kunit *test)
{
	struct zs_test_ctx *ctx = test->priv;
	unsigned long in_place = 0, copied = 0, made = 0, moved = 0;
	struct page *pages[ZS_TEST_MAX_OBJ_PAGES];
	const struct zs_test_class *c;
	struct zs_test_set *set;
	struct zs_test_obj *obj;
	unsigned int i;
	bool in;
	int n;

	if (!ZS_TEST_MULTI_ORDER)
		kunit_skip(test, "no multi-page classes");

	for (c = ctx->classes; c < ctx->classes + ctx->nr_classes; c++) {
		if (c->size <= PAGE_SIZE)
			continue;
		set = zs_test_set_create(test, c->objs_per_zspage);
		zs_test_alloc_range(test, set, 0, set->nr, c->last);
		for (i = 0; i < set->nr; i++) {
			obj = &set->objs[i];
			n = zs_test_object_pages(ctx->pool, obj->handle, pages,
						 ARRAY_SIZE(pages));
			KUNIT_ASSERT_LE(test, n, ARRAY_SIZE(pages));
			in = zs_test_mapped_in_place(test, ctx->pool, obj,
						     pages, n);
			KUNIT_EXPECT_EQ_MSG(test, in, zs_test_pages_contig(pages, n),
					    "class %zu: object %u over %d pages",
					    c->size, i, n);
			in_place += in;
			copied += !in;
		}

#ifdef CONFIG_COMPACTION
		/* the first object: its pages moved into one block */
		obj = &set->objs[0];
		n = zs_test_object_pages(ctx->pool, obj->handle, pages,
					 ARRAY_SIZE(pages));
		zs_test_make_contig(test, ctx->pool, pages, n);
		n = zs_test_object_pages(ctx->pool, obj->handle, pages,
					 ARRAY_SIZE(pages));
		in = zs_test_mapped_in_place(test, ctx->pool, obj, pages, n);
		KUNIT_EXPECT_EQ_MSG(test, in, (bool)ZS_TEST_IN_PLACE,
				    "class %zu: object over one block's pages",
				    c->size);
		made += in;

		/* a page moved out of a contiguous run: copied again */
		for (i = 0; i < set->nr; i++) {
			obj = &set->objs[i];
			n = zs_test_object_pages(ctx->pool, obj->handle, pages,
						 ARRAY_SIZE(pages));
			if (n < 2 || !zs_test_pages_contig(pages, n))
				continue;
			KUNIT_ASSERT_EQ(test, zs_test_migrate_page(pages[1], NULL),
					MIGRATEPAGE_SUCCESS);
			moved++;
			n = zs_test_object_pages(ctx->pool, obj->handle, pages,
						 ARRAY_SIZE(pages));
			KUNIT_EXPECT_FALSE_MSG(test,
					       zs_test_mapped_in_place(test, ctx->pool,
								       obj, pages, n),
					       "class %zu: object %u in place after a page moved",
					       c->size, i);
		}
#endif
		zs_test_verify_all(test, set);
		zs_test_set_destroy(test, set);
		cond_resched();
	}
	if (IS_ENABLED(CONFIG_COMPACTION) && ZS_TEST_IN_PLACE)
		KUNIT_EXPECT_GT(test, moved, 0);
	kunit_info(test, "multi-page objects mapped in place: %lu, copied: %lu; in place over a block's pages: %lu; copied after a page moved: %lu\n",
		   in_place, copied, made, moved);
}

static struct kunit_case zs_test_cases[] = {
	KUNIT_CASE(zs_test_class_layout),
	KUNIT_CASE(zs_test_roundtrip_sizes),
	KUNIT_CASE_SLOW(zs_test_roundtrip_multi_sizes),
	KUNIT_CASE(zs_test_roundtrip_boundaries),
	KUNIT_CASE(zs_test_roundtrip_invalid),
	KUNIT_CASE(zs_test_churn),
	KUNIT_CASE(zs_test_compaction),
	KUNIT_CASE(zs_test_accounting),
	KUNIT_CASE(zs_test_growth),
	KUNIT_CASE(zs_test_page_pool),
	KUNIT_CASE(zs_test_migration),
	KUNIT_CASE(zs_test_in_place),
	{}
};

static struct kunit_suite zs_test_suite = {
	.name = "zsmalloc",
	.init = zs_test_init,
	.test_cases = zs_test_cases,
};

kunit_test_suite(zs_test_suite);

MODULE_DESCRIPTION("KUnit tests for zsmalloc");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_LICENSE("GPL");
