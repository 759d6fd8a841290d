/*
 * zsmalloc memory allocator
 *
 * Copyright (C) 2011  Nitin Gupta
 * Copyright (C) 2012, 2013 Minchan Kim
 *
 * This code is released using a dual license strategy: BSD/GPL
 * You can choose the license that better fits your requirements.
 *
 * Released under the terms of 3-clause BSD License
 * Released under the terms of GNU General Public License Version 2.0
 */

#ifndef _ZS_MALLOC_H_
#define _ZS_MALLOC_H_

#include <linux/types.h>
#include <asm/page.h>

struct zs_pool_stats {
	/* How many pages were migrated (freed) */
	atomic_long_t pages_compacted;
#ifdef CONFIG_ZSMALLOC_MULTI_PAGES
	/* How many objects compaction moved to free them */
	atomic_long_t objs_moved;
#endif
};

struct zs_pool;
struct scatterlist;

struct zs_pool *zs_create_pool(const char *name);
void zs_destroy_pool(struct zs_pool *pool);

unsigned long zs_malloc(struct zs_pool *pool, size_t size, gfp_t flags,
			const int nid);
void zs_free(struct zs_pool *pool, unsigned long obj);

size_t zs_huge_class_size(struct zs_pool *pool);
#ifdef CONFIG_ZSMALLOC_MULTI_PAGES
size_t zs_multi_pages_huge_class_size(struct zs_pool *pool);
size_t zs_block_huge_size(struct zs_pool *pool, size_t block);
size_t zs_max_alloc_size(struct zs_pool *pool);
#else
static inline size_t zs_multi_pages_huge_class_size(struct zs_pool *pool)
{
	return 0;
}

static inline size_t zs_block_huge_size(struct zs_pool *pool, size_t block)
{
	return 0;
}

static inline size_t zs_max_alloc_size(struct zs_pool *pool)
{
	return PAGE_SIZE;
}
#endif

unsigned long zs_get_total_pages(struct zs_pool *pool);
unsigned long zs_compact(struct zs_pool *pool);

unsigned int zs_lookup_class_index(struct zs_pool *pool, unsigned int size);

void zs_pool_stats(struct zs_pool *pool, struct zs_pool_stats *stats);

void *zs_obj_read_begin(struct zs_pool *pool, unsigned long handle,
			size_t mem_len, void *local_copy);
void zs_obj_read_end(struct zs_pool *pool, unsigned long handle,
		     size_t mem_len, void *handle_mem);
void zs_obj_read_sg_begin(struct zs_pool *pool, unsigned long handle,
			  struct scatterlist *sg, size_t mem_len);
void zs_obj_read_sg_end(struct zs_pool *pool, unsigned long handle);
void zs_obj_write(struct zs_pool *pool, unsigned long handle,
		  void *handle_mem, size_t mem_len);

extern const struct movable_operations zsmalloc_mops;

#if IS_ENABLED(CONFIG_ZSMALLOC_KUNIT_TEST)
struct page;
/* for mm/tests/zsmalloc_kunit.c only */
void zs_test_zspage_layout(struct zs_pool *pool, size_t size,
			   unsigned int *pages, unsigned int *objs);
int zs_test_object_pages(struct zs_pool *pool, unsigned long handle,
			 struct page **pages, int max);
int zs_test_migrate_page(struct page *page, struct page *newpage);
void zs_test_hold_growth(struct zs_pool *pool, size_t size, bool hold);
#endif

#endif
