/*
 * Compressed RAM block device
 *
 * Copyright (C) 2008, 2009, 2010  Nitin Gupta
 *               2012, 2013 Minchan Kim
 *
 * This code is released using a dual license strategy: BSD/GPL
 * You can choose the licence that better fits your requirements.
 *
 * Released under the terms of 3-clause BSD License
 * Released under the terms of GNU General Public License Version 2.0
 *
 */

#ifndef _ZRAM_DRV_H_
#define _ZRAM_DRV_H_

#include <linux/rwsem.h>
#include <linux/zsmalloc.h>
#include <linux/crypto.h>

#include "zcomp.h"

#define SECTORS_PER_PAGE_SHIFT	(PAGE_SHIFT - SECTOR_SHIFT)
#define SECTORS_PER_PAGE	(1 << SECTORS_PER_PAGE_SHIFT)
#define ZRAM_LOGICAL_BLOCK_SHIFT 12
#define ZRAM_LOGICAL_BLOCK_SIZE	(1 << ZRAM_LOGICAL_BLOCK_SHIFT)
#define ZRAM_SECTOR_PER_LOGICAL_BLOCK	\
	(1 << (ZRAM_LOGICAL_BLOCK_SHIFT - SECTOR_SHIFT))

/*
 * With CONFIG_ZRAM_MULTI_PAGES, a device may store each aligned block of
 * pages that a large folio writes at once as one compressed object (see
 * "Multi-page blocks" in zram_drv.c). Each device has its block size, of
 * up to the largest object zsmalloc takes. New devices start with
 * CONFIG_ZRAM_DEF_BLOCK_ORDER (0: pages, as without the option); setting
 * multi_pages on a device that stores pages selects 16 KiB blocks (on 4 KiB
 * pages), the mTHP size phones swap, or the largest if that is smaller.
 */
#ifdef CONFIG_ZRAM_MULTI_PAGES
#define ZRAM_MAX_BLOCK_ORDER	CONFIG_ZSMALLOC_MULTI_PAGES_ORDER
#define ZRAM_MULTI_PAGES_ON_ORDER	MIN(ZRAM_MAX_BLOCK_ORDER, 2)
#else
#define ZRAM_MAX_BLOCK_ORDER	0
#endif
#define ZRAM_MAX_BLOCK_PAGES	BIT(ZRAM_MAX_BLOCK_ORDER)


/*
 * ZRAM is mainly used for memory efficiency so we want to keep memory
 * footprint small and thus squeeze size and zram pageflags into a flags
 * member. The lower ZRAM_FLAG_SHIFT bits is for object size (excluding
 * header), which cannot be larger than PAGE_SIZE (requiring PAGE_SHIFT
 * bits), the higher bits are for zram_pageflags.
 *
 * We use BUILD_BUG_ON() to make sure that zram pageflags don't overflow.
 */
#define ZRAM_FLAG_SHIFT (PAGE_SHIFT + 1)

/* Only 2 bits are allowed for comp priority index */
#define ZRAM_COMP_PRIORITY_MASK	0x3

/* Flags for zram pages (table[page_no].flags) */
enum zram_pageflags {
	ZRAM_SAME = ZRAM_FLAG_SHIFT,	/* Page consists the same element */
	ZRAM_WB,	/* page is stored on backing_device */
	ZRAM_UNDER_WB,	/* page is under writeback */
	ZRAM_HUGE,	/* Incompressible page */
	ZRAM_IDLE,	/* not accessed page since last idle marking */
	ZRAM_INCOMPRESSIBLE, /* none of the algorithms could compress it */
#ifdef CONFIG_ZRAM_MULTI_PAGES
	ZRAM_MULTI,	/* page is part of a multi-page block object */
#endif

	ZRAM_COMP_PRIORITY_BIT1, /* First bit of comp priority index */
	ZRAM_COMP_PRIORITY_BIT2, /* Second bit of comp priority index */

	__NR_ZRAM_PAGEFLAGS,
};

/*-- Data structures */

#ifdef CONFIG_ZRAM_MULTI_PAGES
/*
 * One per aligned block of slots (the device's block size); under its lock,
 * but for @pending, which is changed with atomics only
 */
struct zram_block {
	unsigned long handle;	/* zsmalloc object of the whole block */
	unsigned int size;	/* its compressed size */
	unsigned int live;	/* bit i: slot i still holds its page */
	unsigned long pending;	/* bit i: slot i was freed by swap, to do */
	u64 gen;		/* this object's number in zram->block_gen */
};

struct zram_block_stats {
	atomic64_t blocks_stored;	/* block objects held now */
	atomic64_t blocks_written;	/* blocks compressed as one object */
	atomic64_t block_reads;		/* whole blocks read, one decompression */
	atomic64_t partial_reads;	/* pages read out of a block object */
	atomic64_t buffered_reads;	/* of those, without a decompression */
	atomic64_t partial_writes;	/* pages overwritten in a block */
	atomic64_t nomem_blocks;	/* blocks stored as pages: no memory */
	atomic64_t same_blocks;		/* same-filled blocks, stored as pages */
	atomic64_t huge_blocks;		/* incompressible blocks, as pages */
	atomic64_t recompressed_blocks;	/* block objects recompress replaced */
	atomic64_t deferred_frees;	/* slot frees left to the lock holder */
};
#endif

/* Allocated for each disk page */
struct zram_table_entry {
	unsigned long handle;
	unsigned int flags;
	spinlock_t lock;
#ifdef CONFIG_ZRAM_TRACK_ENTRY_ACTIME
	ktime_t ac_time;
#endif
};

struct zram_stats {
	atomic64_t compr_data_size;	/* compressed size of pages stored */
	atomic64_t failed_reads;	/* can happen when memory is too low */
	atomic64_t failed_writes;	/* can happen when memory is too low */
	atomic64_t notify_free;	/* no. of swap slot free notifications */
	atomic64_t same_pages;		/* no. of same element filled pages */
	atomic64_t huge_pages;		/* no. of huge pages */
	atomic64_t huge_pages_since;	/* no. of huge pages since zram set up */
	atomic64_t pages_stored;	/* no. of pages currently stored */
	atomic_long_t max_used_pages;	/* no. of maximum pages stored */
	atomic64_t writestall;		/* no. of write slow paths */
	atomic64_t miss_free;		/* no. of missed free */
#ifdef	CONFIG_ZRAM_WRITEBACK
	atomic64_t bd_count;		/* no. of pages in backing device */
	atomic64_t bd_reads;		/* no. of reads from backing device */
	atomic64_t bd_writes;		/* no. of writes from backing device */
#endif
};

#ifdef CONFIG_ZRAM_MULTI_COMP
#define ZRAM_PRIMARY_COMP	0U
#define ZRAM_SECONDARY_COMP	1U
#define ZRAM_MAX_COMPS	4U
#else
#define ZRAM_PRIMARY_COMP	0U
#define ZRAM_SECONDARY_COMP	0U
#define ZRAM_MAX_COMPS	1U
#endif

struct zram {
	struct zram_table_entry *table;
	struct zs_pool *mem_pool;
	struct zcomp *comps[ZRAM_MAX_COMPS];
	struct zcomp_params params[ZRAM_MAX_COMPS];
	struct gendisk *disk;
	/* Prevent concurrent execution of device init */
	struct rw_semaphore init_lock;
	/*
	 * the number of pages zram can consume for storing compressed data
	 */
	unsigned long limit_pages;

	struct zram_stats stats;
	/*
	 * This is the limit on amount of *uncompressed* worth of data
	 * we can store in a disk.
	 */
	u64 disksize;	/* bytes */
	const char *comp_algs[ZRAM_MAX_COMPS];
	s8 num_active_comps;
	/*
	 * zram is claimed so open request will be failed
	 */
	bool claim; /* Protected by disk->open_mutex */
#ifdef CONFIG_ZRAM_WRITEBACK
	struct file *backing_dev;
	spinlock_t wb_limit_lock;
	bool wb_limit_enable;
	u64 bd_wb_limit;
	struct block_device *bdev;
	unsigned long *bitmap;
	unsigned long nr_pages;
#endif
#ifdef CONFIG_ZRAM_MEMORY_TRACKING
	struct dentry *debugfs_dir;
#endif
	atomic_t pp_in_progress;
#ifdef CONFIG_ZRAM_MULTI_PAGES
	/* blocks of 1 << block_order pages, 0: pages; set before disksize */
	unsigned int block_order;
	/* blocks compressing to this size or more are stored as pages */
	size_t block_huge_size;
	struct zram_block *blocks;
	/* numbers the block objects stored, so a stream buffer can tell them */
	atomic64_t block_gen;
	struct zram_block_stats block_stats;
	/* the read-ahead before io_opt raised it, and what it raised it to */
	unsigned long ra_pages, raised_ra_pages;
#endif
};
#endif
