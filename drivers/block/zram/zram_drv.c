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

#define pr_fmt(fmt) "zram: " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/bio.h>
#include <linux/bitops.h>
#include <linux/blkdev.h>
#include <linux/buffer_head.h>
#include <linux/device.h>
#include <linux/highmem.h>
#include <linux/slab.h>
#include <linux/backing-dev.h>
#include <linux/string.h>
#include <linux/ctype.h>
#include <linux/vmalloc.h>
#include <linux/err.h>
#include <linux/idr.h>
#include <linux/sysfs.h>
#include <linux/debugfs.h>
#include <linux/cpuhotplug.h>
#include <linux/part_stat.h>
#include <linux/kernel_read_file.h>
#include <linux/rcupdate.h>

#include "zram_drv.h"

static DEFINE_IDR(zram_index_idr);
/* idr index must be protected */
static DEFINE_MUTEX(zram_index_mutex);

static int zram_major;
static const char *default_compressor = CONFIG_ZRAM_DEF_COMP;

#define ZRAM_MAX_ALGO_NAME_SZ	128

/* Module params (documentation at end) */
static unsigned int num_devices = 1;
/*
 * Pages that compress to sizes equals or greater than this are stored
 * uncompressed in memory.
 */
static size_t huge_class_size;

static const struct block_device_operations zram_devops;

static void slot_free(struct zram *zram, u32 index);
static void zram_block_put(struct zram *zram, u32 index);

static void slot_lock_init(struct zram *zram)
{
	static struct lock_class_key __key;

	lockdep_init_map(&zram->table_lock_map, "zram->table[index].lock", &__key, 0);
}

/* A device's block: 1 << order slots, 0 for a device that stores pages */
static inline unsigned int zram_block_order(struct zram *zram)
{
#ifdef CONFIG_ZRAM_MULTI_PAGES
	return zram->block_order;
#else
	return 0;
#endif
}

static inline unsigned int zram_block_pages(struct zram *zram)
{
	return 1U << zram_block_order(zram);
}

static inline size_t zram_block_size(struct zram *zram)
{
	return PAGE_SIZE << zram_block_order(zram);
}

static inline bool zram_multi_pages(struct zram *zram)
{
	return zram_block_order(zram) > 0;
}

/*
 * Multi-page blocks
 *
 * A device stores blocks when its block_size is more than a page (the
 * multi_pages attribute turns that on and off): a bio segment that covers
 * a whole aligned block of slots with one large folio is then compressed
 * as one zsmalloc object. The block size is the device's (zram->block_order,
 * set before disksize, up to ZRAM_MAX_BLOCK_ORDER): a 64 KiB folio is one
 * block on a device of 64 KiB blocks and four on one of 16 KiB blocks. The
 * object's handle and size live in zram->blocks[], one entry a block; each
 * slot of the block carries ZRAM_MULTI and its bit in the block's live
 * mask, and no handle of its own.
 *
 * One lock guards a block: on such a device, the slot lock of any slot is
 * the slot lock of its block's first slot (zram_lock_index()), so every
 * path that locks a slot also excludes the rest of its block. The lock is
 * not recursive: never lock a slot while holding the lock of another.
 *
 * Freeing a slot (overwrite, discard, swap slot free, writeback of its page
 * alone) only drops its live bit; the object goes with the last bit. A page read of a
 * block slot decompresses the block into the stream buffer, tagged with the
 * object's generation so that the next page of the same block read with
 * that stream is copied from the buffer without decompressing again, and
 * copies the page out; a whole-block read decompresses once, straight into
 * the folio when one large folio holds the block. Blocks that are
 * same-filled, that do not compress below zs_block_huge_size() (their
 * object would cost as much as the pages uncompressed), or that zsmalloc
 * has no memory for, are stored page by page instead.
 *
 * Swap frees slots from zram_slot_free_notify() under a spinlock, where
 * the (sleeping) block lock can only be tried. When the try fails, the
 * free is recorded in the block's pending mask and done by whoever holds
 * or next takes the lock: slot_lock() and slot_trylock() do the pending
 * frees first, slot_unlock() before and after unlocking. A slot freed by
 * swap cannot be written again before swap allocates it again, which
 * comes after the notification; the writer then takes the lock, so its
 * pending free is done before the new data is stored, never after.
 */
static u32 zram_lock_index(struct zram *zram, u32 index)
{
	if (zram_multi_pages(zram))
		return round_down(index, zram_block_pages(zram));
	return index;
}

#ifdef CONFIG_ZRAM_MULTI_PAGES
static struct zram_block *zram_block_of(struct zram *zram, u32 index)
{
	return &zram->blocks[index >> zram_block_order(zram)];
}

/* Backing blocks that the compressed unit of @blk takes when written back */
static unsigned int block_bdev_blocks(struct zram_block *blk)
{
	return DIV_ROUND_UP(blk->size, PAGE_SIZE);
}

/* Inline: every lock and unlock of a slot looks, and rarely finds one */
static inline bool slot_has_pending(struct zram *zram, u32 first)
{
	return zram_multi_pages(zram) &&
	       unlikely(READ_ONCE(zram_block_of(zram, first)->pending));
}

/*
 * Do the frees zram_slot_free_notify() recorded for the block of slot
 * @first (its first slot). Block should be locked, and slot_has_pending().
 */
static void slot_free_pending(struct zram *zram, u32 first)
{
	unsigned long pending = xchg(&zram_block_of(zram, first)->pending, 0);
	unsigned int i;

	for_each_set_bit(i, &pending, zram_block_pages(zram))
		slot_free(zram, first + i);
}
#else
static inline bool slot_has_pending(struct zram *zram, u32 first)
{
	return false;
}

static inline void slot_free_pending(struct zram *zram, u32 first)
{
}
#endif

/*
 * entry locking rules:
 *
 * 1) Lock is exclusive
 *
 * 2) lock() function can sleep waiting for the lock
 *
 * 3) Lock owner can sleep
 *
 * 4) Use TRY lock variant when in atomic context
 *    - must check return value and handle locking failers
 */
static __always_inline __must_check bool slot_trylock(struct zram *zram,
						      u32 index)
{
	u32 first = zram_lock_index(zram, index);
	unsigned long *lock = &zram->table[first].__lock;

	if (!test_and_set_bit_lock(ZRAM_ENTRY_LOCK_BIT, lock)) {
		mutex_acquire(&zram->table_lock_map, 0, 1, _RET_IP_);
		lock_acquired(&zram->table_lock_map, _RET_IP_);
		if (slot_has_pending(zram, first))
			slot_free_pending(zram, first);
		return true;
	}

	return false;
}

static inline void slot_lock(struct zram *zram, u32 index)
{
	u32 first = zram_lock_index(zram, index);
	unsigned long *lock = &zram->table[first].__lock;

	mutex_acquire(&zram->table_lock_map, 0, 0, _RET_IP_);
	wait_on_bit_lock(lock, ZRAM_ENTRY_LOCK_BIT, TASK_UNINTERRUPTIBLE);
	lock_acquired(&zram->table_lock_map, _RET_IP_);
	if (slot_has_pending(zram, first))
		slot_free_pending(zram, first);
}

/*
 * A free that zram_slot_free_notify() recorded while slot_unlock() dropped
 * the lock of the block of slot @first: take the lock back to do it
 * (slot_trylock() does), unless someone else holds the lock now and does it
 * when unlocking.
 */
static void slot_unlock_pending(struct zram *zram, u32 first)
{
	unsigned long *lock = &zram->table[first].__lock;

	while (slot_has_pending(zram, first) && slot_trylock(zram, first)) {
		mutex_release(&zram->table_lock_map, _RET_IP_);
		clear_and_wake_up_bit(ZRAM_ENTRY_LOCK_BIT, lock);
	}
}

static inline void slot_unlock(struct zram *zram, u32 index)
{
	u32 first = zram_lock_index(zram, index);
	unsigned long *lock = &zram->table[first].__lock;

	if (slot_has_pending(zram, first))
		slot_free_pending(zram, first);
	mutex_release(&zram->table_lock_map, _RET_IP_);
	clear_and_wake_up_bit(ZRAM_ENTRY_LOCK_BIT, lock);
	/*
	 * clear_and_wake_up_bit() orders the unlock before this load
	 * (smp_mb__after_atomic()); zram_slot_free_notify() orders its
	 * set_bit() before its trylock the same way. So a free it recorded is
	 * seen either by its trylock, which then succeeds, or here.
	 */
	if (slot_has_pending(zram, first))
		slot_unlock_pending(zram, first);
}

static inline bool init_done(struct zram *zram)
{
	return zram->disksize;
}

static inline struct zram *dev_to_zram(struct device *dev)
{
	return (struct zram *)dev_to_disk(dev)->private_data;
}

static unsigned long get_slot_handle(struct zram *zram, u32 index)
{
	return zram->table[index].handle;
}

static void set_slot_handle(struct zram *zram, u32 index, unsigned long handle)
{
	zram->table[index].handle = handle;
}

static bool test_slot_flag(struct zram *zram, u32 index,
			   enum zram_pageflags flag)
{
	return zram->table[index].attr.flags & BIT(flag);
}

static void set_slot_flag(struct zram *zram, u32 index,
			  enum zram_pageflags flag)
{
	zram->table[index].attr.flags |= BIT(flag);
}

static void clear_slot_flag(struct zram *zram, u32 index,
			    enum zram_pageflags flag)
{
	zram->table[index].attr.flags &= ~BIT(flag);
}

static size_t get_slot_size(struct zram *zram, u32 index)
{
	return zram->table[index].attr.flags & (BIT(ZRAM_FLAG_SHIFT) - 1);
}

static void set_slot_size(struct zram *zram, u32 index, size_t size)
{
	unsigned long flags = zram->table[index].attr.flags >> ZRAM_FLAG_SHIFT;

	zram->table[index].attr.flags = (flags << ZRAM_FLAG_SHIFT) | size;
}

/* Slot @index holds its page in a multi-page block object */
static inline bool zram_in_block(struct zram *zram, u32 index)
{
#ifdef CONFIG_ZRAM_MULTI_PAGES
	return test_slot_flag(zram, index, ZRAM_MULTI);
#else
	return false;
#endif
}

/*
 * Slot @index, a slot of a block, holds its page in a block that writeback
 * put on the backing device as one compressed unit
 */
static inline bool block_written_back(struct zram *zram, u32 index)
{
	return IS_ENABLED(CONFIG_ZRAM_WRITEBACK) &&
	       test_slot_flag(zram, index, ZRAM_WB);
}

static inline bool slot_allocated(struct zram *zram, u32 index)
{
	return get_slot_size(zram, index) ||
		test_slot_flag(zram, index, ZRAM_SAME) ||
		zram_in_block(zram, index) ||
		test_slot_flag(zram, index, ZRAM_WB);
}

static inline void set_slot_comp_priority(struct zram *zram, u32 index,
					  u32 prio)
{
	prio &= ZRAM_COMP_PRIORITY_MASK;
	/*
	 * Clear previous priority value first, in case if we recompress
	 * further an already recompressed page
	 */
	zram->table[index].attr.flags &= ~(ZRAM_COMP_PRIORITY_MASK <<
					   ZRAM_COMP_PRIORITY_BIT1);
	zram->table[index].attr.flags |= (prio << ZRAM_COMP_PRIORITY_BIT1);
}

static inline u32 get_slot_comp_priority(struct zram *zram, u32 index)
{
	u32 prio = zram->table[index].attr.flags >> ZRAM_COMP_PRIORITY_BIT1;

	return prio & ZRAM_COMP_PRIORITY_MASK;
}

static void mark_slot_accessed(struct zram *zram, u32 index)
{
	clear_slot_flag(zram, index, ZRAM_IDLE);
	clear_slot_flag(zram, index, ZRAM_PP_SLOT);
#ifdef CONFIG_ZRAM_TRACK_ENTRY_ACTIME
	zram->table[index].attr.ac_time = (u32)ktime_get_boottime_seconds();
#endif
}

/*
 * A device that stores blocks for swap (zram_set_io_opt()) takes REQ_NOWAIT
 * reads (BLK_FEAT_NOWAIT), for swap's fill of a block: it serves them from
 * memory and ends them with BLK_STS_AGAIN where they would wait, for the
 * backing device, for memory (a page read in part) or for a slot lock that
 * another path holds (maybe across an allocation that reclaims: writeback,
 * recompression); the submitter may read again without the flag. Such a
 * read may still wait for a CPU's compression stream, which a write holds
 * across its allocation. zram takes no REQ_NOWAIT write, discard or write
 * of zeroes: storing data may reclaim, and freeing it waits for slot locks.
 */
static bool bio_is_nowait(struct bio *bio)
{
	return bio->bi_opf & REQ_NOWAIT;
}

/* Lock slot @index for a read; a REQ_NOWAIT one (@nowait) only tries */
static bool slot_lock_read(struct zram *zram, u32 index, bool nowait)
{
	if (nowait)
		return slot_trylock(zram, index);
	slot_lock(zram, index);
	return true;
}

/*
 * A readahead that zram may decline (REQ_RAHEAD and REQ_NOWAIT): swap's
 * read of the other pages of a block after a fault took one of them into
 * a small folio (swapin_sync_fill()), which asked for none of the data.
 * zram reads for it only the pages it holds in blocks (zram_read_page()).
 */
static bool bio_is_nowait_readahead(struct bio *bio)
{
	return bio_is_nowait(bio) && (bio->bi_opf & REQ_RAHEAD);
}

/*
 * Every read but a readahead that may be declined makes a slot less idle.
 * A file system's readahead (REQ_RAHEAD alone) does: mpage and iomap read
 * the folio their reader waits for in the same bio as the folios after it.
 */
static bool bio_is_access(struct bio *bio)
{
	return !bio_is_nowait_readahead(bio);
}

static inline void update_used_max(struct zram *zram, const unsigned long pages)
{
	unsigned long cur_max = atomic_long_read(&zram->stats.max_used_pages);

	do {
		if (cur_max >= pages)
			return;
	} while (!atomic_long_try_cmpxchg(&zram->stats.max_used_pages,
					  &cur_max, pages));
}

static bool zram_can_store_page(struct zram *zram)
{
	unsigned long alloced_pages;

	alloced_pages = zs_get_total_pages(zram->mem_pool);
	update_used_max(zram, alloced_pages);

	return !zram->limit_pages || alloced_pages <= zram->limit_pages;
}

/*
 * A segment of less than a page: a logical block with PAGE_SIZE > 4 KiB,
 * or, with any page size, a part of an O_DIRECT buffer that is aligned to
 * 512 bytes only (dma_alignment), which splits every page of the device
 * between two pages of the buffer. It goes through a bounce page.
 */
static inline bool is_partial_io(struct bio_vec *bvec)
{
	return bvec->bv_len != PAGE_SIZE;
}

#if defined CONFIG_ZRAM_WRITEBACK || defined CONFIG_ZRAM_MULTI_COMP
struct zram_pp_slot {
	unsigned long		index;
	struct list_head	entry;
	/* 1, or the pages of a block object (from its first slot, @index) */
	unsigned int		nr;
};

/*
 * A post-processing bucket is, essentially, a size class, this defines
 * the range (in bytes) of pp-slots sizes in particular bucket.
 */
#define PP_BUCKET_SIZE_RANGE	64
#define NUM_PP_BUCKETS		((PAGE_SIZE / PP_BUCKET_SIZE_RANGE) + 1)

struct zram_pp_ctl {
	struct list_head	pp_buckets[NUM_PP_BUCKETS];
};

static struct zram_pp_ctl *init_pp_ctl(void)
{
	struct zram_pp_ctl *ctl;
	u32 idx;

	ctl = kmalloc_obj(*ctl);
	if (!ctl)
		return NULL;

	for (idx = 0; idx < NUM_PP_BUCKETS; idx++)
		INIT_LIST_HEAD(&ctl->pp_buckets[idx]);
	return ctl;
}

static void release_pp_slot(struct zram *zram, struct zram_pp_slot *pps)
{
	unsigned int i;

	list_del_init(&pps->entry);

	slot_lock(zram, pps->index);
	if (pps->nr == 1) {
		clear_slot_flag(zram, pps->index, ZRAM_PP_SLOT);
	} else {
		/* a block's: its slots still in the block carry the mark */
		for (i = 0; i < pps->nr; i++) {
			if (zram_in_block(zram, pps->index + i))
				clear_slot_flag(zram, pps->index + i,
						ZRAM_PP_SLOT);
		}
	}
	slot_unlock(zram, pps->index);

	kfree(pps);
}

static void release_pp_ctl(struct zram *zram, struct zram_pp_ctl *ctl)
{
	u32 idx;

	if (!ctl)
		return;

	for (idx = 0; idx < NUM_PP_BUCKETS; idx++) {
		while (!list_empty(&ctl->pp_buckets[idx])) {
			struct zram_pp_slot *pps;

			pps = list_first_entry(&ctl->pp_buckets[idx],
					       struct zram_pp_slot,
					       entry);
			release_pp_slot(zram, pps);
		}
	}

	kfree(ctl);
}

/*
 * The size that sorts slot @index into a post-processing bucket: the slots
 * of a block take the block object's size per page of the block.
 */
static u32 pp_slot_size(struct zram *zram, u32 index)
{
#ifdef CONFIG_ZRAM_MULTI_PAGES
	if (zram_in_block(zram, index))
		return zram_block_of(zram, index)->size >>
		       zram_block_order(zram);
#endif
	return get_slot_size(zram, index);
}

/*
 * Queue the @nr slots from @index (one slot, or a block from its first) in
 * the bucket of slot @size; the caller marks them ZRAM_PP_SLOT. A bucket
 * keeps the order of the scan, by index: writeback gives the slots of a
 * bucket backing blocks in that order, each the first free one, so that
 * neighbouring slots (the pages of a block) usually get neighbouring
 * backing blocks, and a read of them takes one request
 * (read_from_bdev_batched()).
 */
static bool queue_pp_slots(struct zram_pp_ctl *ctl, u32 index,
			   unsigned int nr, u32 size)
{
	struct zram_pp_slot *pps;

	pps = kmalloc_obj(*pps, GFP_NOIO | __GFP_NOWARN);
	if (!pps)
		return false;

	INIT_LIST_HEAD(&pps->entry);
	pps->index = index;
	pps->nr = nr;
	list_add_tail(&pps->entry,
		      &ctl->pp_buckets[size / PP_BUCKET_SIZE_RANGE]);
	return true;
}

static bool place_pp_slot(struct zram *zram, struct zram_pp_ctl *ctl,
			  u32 index)
{
	if (!queue_pp_slots(ctl, index, 1, pp_slot_size(zram, index)))
		return false;

	set_slot_flag(zram, index, ZRAM_PP_SLOT);
	return true;
}

static struct zram_pp_slot *select_pp_slot(struct zram_pp_ctl *ctl)
{
	struct zram_pp_slot *pps = NULL;
	s32 idx = NUM_PP_BUCKETS - 1;

	/* The higher the bucket id the more optimal slot post-processing is */
	while (idx >= 0) {
		pps = list_first_entry_or_null(&ctl->pp_buckets[idx],
					       struct zram_pp_slot,
					       entry);
		if (pps)
			break;

		idx--;
	}
	return pps;
}

#ifdef CONFIG_ZRAM_MULTI_PAGES
/* The live slots of the block at @first, as a bitmap */
static unsigned long block_live(struct zram *zram, u32 first)
{
	return zram_block_of(zram, first)->live;
}

/* Set @flag on every live slot of block @first */
static void block_set_flag(struct zram *zram, u32 first,
			   enum zram_pageflags flag)
{
	unsigned long live = block_live(zram, first);
	unsigned int i;

	for_each_set_bit(i, &live, zram_block_pages(zram))
		set_slot_flag(zram, first + i, flag);
}

/* Clear @flag on every live slot of block @first */
static void block_clear_flag(struct zram *zram, u32 first,
			     enum zram_pageflags flag)
{
	unsigned long live = block_live(zram, first);
	unsigned int i;

	for_each_set_bit(i, &live, zram_block_pages(zram))
		clear_slot_flag(zram, first + i, flag);
}

/*
 * Put the block of slot @index in the bucket of its size per page, and
 * mark its live slots. Block should be locked.
 */
static bool place_pp_block(struct zram *zram, struct zram_pp_ctl *ctl,
			   u32 index)
{
	u32 first = zram_lock_index(zram, index);

	if (!queue_pp_slots(ctl, first, zram_block_pages(zram),
			    pp_slot_size(zram, index)))
		return false;

	block_set_flag(zram, first, ZRAM_PP_SLOT);
	return true;
}

/* Whether every live slot of the block at @first is still as scanned */
static bool block_still_placed(struct zram *zram, u32 first)
{
	unsigned long live = block_live(zram, first);
	unsigned int i;

	if (!live)
		return false;
	for_each_set_bit(i, &live, zram_block_pages(zram)) {
		if (!test_slot_flag(zram, first + i, ZRAM_PP_SLOT))
			return false;
	}
	return true;
}
#endif
#endif

static inline void zram_fill_page(void *ptr, unsigned long len,
					unsigned long value)
{
	WARN_ON_ONCE(!IS_ALIGNED(len, sizeof(unsigned long)));
	memset_l(ptr, value, len / sizeof(unsigned long));
}

static bool page_same_filled(void *ptr, unsigned long *element)
{
	unsigned long *page;
	unsigned long val;
	unsigned int pos, last_pos = PAGE_SIZE / sizeof(*page) - 1;

	page = (unsigned long *)ptr;
	val = page[0];

	if (val != page[last_pos])
		return false;

	for (pos = 1; pos < last_pos; pos++) {
		if (val != page[pos])
			return false;
	}

	*element = val;

	return true;
}

static ssize_t initstate_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	u32 val;
	struct zram *zram = dev_to_zram(dev);

	guard(rwsem_read)(&zram->dev_lock);
	val = init_done(zram);

	return sysfs_emit(buf, "%u\n", val);
}

static ssize_t disksize_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	struct zram *zram = dev_to_zram(dev);

	return sysfs_emit(buf, "%llu\n", zram->disksize);
}

/*
 * Parse a size written to disksize or mem_limit: a number as kstrtoull()
 * takes it (decimal, 0x hex or 0 octal), optionally followed by one of
 * memparse()'s K, M, G, T, P, E suffixes (also written 1KB or 1KiB), and
 * white space. Unlike memparse(), refuse anything else after the number,
 * and a number or product that does not fit in 64 bits instead of
 * wrapping it.
 */
static int zram_parse_size(const char *buf, u64 *size)
{
	static const char suffixes[] = "KMGTPE";
	unsigned int shift = 0, unit = 0;
	const char *suffix;
	char num[32], *p;
	size_t len;
	u64 val;
	int err;

	if (strscpy(num, buf, sizeof(num)) < 0)
		return -EINVAL;
	p = strim(num);
	len = strlen(p);
	err = kstrtoull(p, 0, &val);
	if (err == -EINVAL && len > 1) {
		/*
		 * Not a number alone: a number and a suffix ("0x1e" is hex),
		 * maybe with the unit written out ("512MB", "1GiB"), which
		 * memparse() users have always been able to write.
		 */
		if (len > 2 && toupper(p[len - 1]) == 'B')
			unit = len > 3 && toupper(p[len - 2]) == 'I' ? 2 : 1;
		suffix = strchr(suffixes, toupper(p[len - 1 - unit]));
		if (!suffix || !*suffix)
			return -EINVAL;
		shift = 10 * (suffix - suffixes + 1);
		p[len - 1 - unit] = '\0';
		err = kstrtoull(p, 0, &val);
	}
	if (err || val > U64_MAX >> shift)
		return -EINVAL;
	*size = val << shift;
	return 0;
}

static ssize_t mem_limit_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t len)
{
	u64 limit;
	struct zram *zram = dev_to_zram(dev);

	/* PAGE_ALIGN() must not wrap */
	if (zram_parse_size(buf, &limit) || limit > U64_MAX - PAGE_SIZE + 1)
		return -EINVAL;

	guard(rwsem_write)(&zram->dev_lock);
	zram->limit_pages = PAGE_ALIGN(limit) >> PAGE_SHIFT;

	return len;
}

static ssize_t mem_used_max_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t len)
{
	int err;
	unsigned long val;
	struct zram *zram = dev_to_zram(dev);

	err = kstrtoul(buf, 10, &val);
	if (err || val != 0)
		return -EINVAL;

	guard(rwsem_read)(&zram->dev_lock);
	if (init_done(zram)) {
		atomic_long_set(&zram->stats.max_used_pages,
				zs_get_total_pages(zram->mem_pool));
	}

	return len;
}

/*
 * Mark all pages which are older than or equal to cutoff as IDLE.
 * Callers should hold the zram init lock in read mode
 */
static void mark_idle(struct zram *zram, ktime_t cutoff)
{
	int is_idle = 1;
	unsigned long nr_pages = zram->disksize >> PAGE_SHIFT;
	int index;

	for (index = 0; index < nr_pages; index++) {
		/*
		 * Do not mark ZRAM_SAME slots as ZRAM_IDLE, because no
		 * post-processing (recompress, writeback) happens to the
		 * ZRAM_SAME slot.
		 *
		 * And ZRAM_WB slots simply cannot be ZRAM_IDLE.
		 */
		slot_lock(zram, index);
		if (!slot_allocated(zram, index) ||
		    test_slot_flag(zram, index, ZRAM_WB) ||
		    test_slot_flag(zram, index, ZRAM_SAME)) {
			slot_unlock(zram, index);
			continue;
		}

#ifdef CONFIG_ZRAM_TRACK_ENTRY_ACTIME
		is_idle = !cutoff ||
			ktime_after(cutoff, zram->table[index].attr.ac_time);
#endif
		if (is_idle)
			set_slot_flag(zram, index, ZRAM_IDLE);
		else
			clear_slot_flag(zram, index, ZRAM_IDLE);
		slot_unlock(zram, index);
	}
}

static ssize_t idle_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	ktime_t cutoff = 0;

	if (!sysfs_streq(buf, "all")) {
		/*
		 * If it did not parse as 'all' try to treat it as an integer
		 * when we have memory tracking enabled.
		 */
		u32 age_sec;

		if (IS_ENABLED(CONFIG_ZRAM_TRACK_ENTRY_ACTIME) &&
		    !kstrtouint(buf, 0, &age_sec))
			cutoff = ktime_sub((u32)ktime_get_boottime_seconds(),
					   age_sec);
		else
			return -EINVAL;
	}

	guard(rwsem_read)(&zram->dev_lock);
	if (!init_done(zram))
		return -EINVAL;

	/*
	 * A cutoff of 0 marks everything as idle, this is the
	 * "all" behavior.
	 */
	mark_idle(zram, cutoff);
	return len;
}

/*
 * The reads from the backing device that one bio's pages need. Without
 * compressed_writeback, a page whose backing block follows the one read
 * last joins that read: the pages of a block, written back together, come
 * back in one request. zram_bio_read() submits the last read.
 */
struct zram_bd_reads {
	struct bio *parent;		/* the bio that the pages are read for */
	struct bio *bio;		/* the read being built, not submitted */
	unsigned long next_blk_idx;	/* the backing block that extends it */
	unsigned int pages_left;	/* pages of @parent from this one on */
};

#ifdef CONFIG_ZRAM_WRITEBACK
#define INVALID_BDEV_BLOCK		(~0UL)

static int read_from_zspool_raw(struct zram *zram, struct page *page,
				u32 index);
static int read_from_zspool(struct zram *zram, struct page *page, u32 index);

struct zram_wb_ctl {
	/* idle list is accessed only by the writeback task, no concurency */
	struct list_head idle_reqs;
	/* done list is accessed concurrently, protect by done_lock */
	struct list_head done_reqs;
	wait_queue_head_t done_wait;
	spinlock_t done_lock;
	atomic_t num_inflight;
	struct rcu_head rcu;
};

struct zram_wb_req {
	unsigned long blk_idx;
	/* backing blocks written: 1, or those of a block's compressed unit */
	unsigned int nr_pages;
	struct page *pages[ZRAM_MAX_BLOCK_PAGES];
	struct zram_pp_slot *pps;
	struct bio_vec bio_vec[ZRAM_MAX_BLOCK_PAGES];
	struct bio bio;

	struct list_head entry;
};

struct zram_rb_req {
	struct work_struct work;
	struct zram *zram;
	/* what a sync read fills, from blk_idx on */
	struct page **pages;
	unsigned int nr_pages;
	/* The read bio for backing device */
	struct bio *bio;
	unsigned long blk_idx;
	union {
		/* The original bio to complete (async read) */
		struct bio *parent;
		/* error status (sync read) */
		int error;
	};
	u32 index;
};

#define FOUR_K(x) ((x) * (1 << (PAGE_SHIFT - 12)))
static ssize_t bd_stat_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct zram *zram = dev_to_zram(dev);
	ssize_t ret;

	guard(rwsem_read)(&zram->dev_lock);
	ret = sysfs_emit(buf,
			 "%8llu %8llu %8llu\n",
			 FOUR_K((u64)atomic64_read(&zram->stats.bd_count)),
			 FOUR_K((u64)atomic64_read(&zram->stats.bd_reads)),
			 FOUR_K((u64)atomic64_read(&zram->stats.bd_writes)));

	return ret;
}

static ssize_t compressed_writeback_store(struct device *dev,
					  struct device_attribute *attr,
					  const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	bool val;

	if (kstrtobool(buf, &val))
		return -EINVAL;

	guard(rwsem_write)(&zram->dev_lock);
	if (init_done(zram)) {
		return -EBUSY;
	}

	zram->compressed_wb = val;

	return len;
}

static ssize_t compressed_writeback_show(struct device *dev,
					 struct device_attribute *attr,
					 char *buf)
{
	bool val;
	struct zram *zram = dev_to_zram(dev);

	guard(rwsem_read)(&zram->dev_lock);
	val = zram->compressed_wb;

	return sysfs_emit(buf, "%d\n", val);
}

static ssize_t writeback_limit_enable_store(struct device *dev,
					    struct device_attribute *attr,
					    const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	u64 val;

	if (kstrtoull(buf, 10, &val))
		return -EINVAL;

	guard(rwsem_write)(&zram->dev_lock);
	zram->wb_limit_enable = val;

	return len;
}

static ssize_t writeback_limit_enable_show(struct device *dev,
					   struct device_attribute *attr,
					   char *buf)
{
	bool val;
	struct zram *zram = dev_to_zram(dev);

	guard(rwsem_read)(&zram->dev_lock);
	val = zram->wb_limit_enable;

	return sysfs_emit(buf, "%d\n", val);
}

static ssize_t writeback_limit_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	u64 val;

	if (kstrtoull(buf, 10, &val))
		return -EINVAL;

	/*
	 * When the page size is greater than 4KB, if bd_wb_limit is set to
	 * a value that is not page - size aligned, it will cause value
	 * wrapping. For example, when the page size is set to 16KB and
	 * bd_wb_limit is set to 3, a single write - back operation will
	 * cause bd_wb_limit to become -1. Even more terrifying is that
	 * bd_wb_limit is an unsigned number.
	 */
	val = rounddown(val, PAGE_SIZE / 4096);

	guard(rwsem_write)(&zram->dev_lock);
	zram->bd_wb_limit = val;

	return len;
}

static ssize_t writeback_limit_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	u64 val;
	struct zram *zram = dev_to_zram(dev);

	guard(rwsem_read)(&zram->dev_lock);
	val = zram->bd_wb_limit;

	return sysfs_emit(buf, "%llu\n", val);
}

static ssize_t writeback_batch_size_store(struct device *dev,
					  struct device_attribute *attr,
					  const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	u32 val;

	if (kstrtouint(buf, 10, &val))
		return -EINVAL;

	if (!val)
		return -EINVAL;

	guard(rwsem_write)(&zram->dev_lock);
	zram->wb_batch_size = val;

	return len;
}

static ssize_t writeback_batch_size_show(struct device *dev,
					 struct device_attribute *attr,
					 char *buf)
{
	u32 val;
	struct zram *zram = dev_to_zram(dev);

	guard(rwsem_read)(&zram->dev_lock);
	val = zram->wb_batch_size;

	return sysfs_emit(buf, "%u\n", val);
}

static void reset_bdev(struct zram *zram)
{
	if (!zram->backing_dev)
		return;

	/* hope filp_close flush all of IO */
	filp_close(zram->backing_dev, NULL);
	zram->backing_dev = NULL;
	zram->bdev = NULL;
	zram->disk->fops = &zram_devops;
	kvfree(zram->bitmap);
	zram->bitmap = NULL;
}

static ssize_t backing_dev_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct file *file;
	struct zram *zram = dev_to_zram(dev);
	char *p;
	ssize_t ret;

	guard(rwsem_read)(&zram->dev_lock);
	file = zram->backing_dev;
	if (!file) {
		memcpy(buf, "none\n", 5);
		return 5;
	}

	p = file_path(file, buf, PAGE_SIZE - 1);
	if (IS_ERR(p))
		return PTR_ERR(p);

	ret = strlen(p);
	memmove(buf, p, ret);
	buf[ret++] = '\n';
	return ret;
}

static ssize_t backing_dev_store(struct device *dev,
				 struct device_attribute *attr, const char *buf,
				 size_t len)
{
	char *file_name;
	size_t sz;
	struct file *backing_dev = NULL;
	struct inode *inode;
	unsigned int bitmap_sz;
	unsigned long nr_pages, *bitmap = NULL;
	int err;
	struct zram *zram = dev_to_zram(dev);

	file_name = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!file_name)
		return -ENOMEM;

	guard(rwsem_write)(&zram->dev_lock);
	if (init_done(zram)) {
		pr_info("Can't setup backing device for initialized device\n");
		err = -EBUSY;
		goto out;
	}

	strscpy(file_name, buf, PATH_MAX);
	/* ignore trailing newline */
	sz = strlen(file_name);
	if (sz > 0 && file_name[sz - 1] == '\n')
		file_name[sz - 1] = 0x00;

	backing_dev = filp_open(file_name, O_RDWR | O_LARGEFILE | O_EXCL, 0);
	if (IS_ERR(backing_dev)) {
		err = PTR_ERR(backing_dev);
		backing_dev = NULL;
		goto out;
	}

	inode = backing_dev->f_mapping->host;

	/* Support only block device in this moment */
	if (!S_ISBLK(inode->i_mode)) {
		err = -ENOTBLK;
		goto out;
	}

	nr_pages = i_size_read(inode) >> PAGE_SHIFT;
	/* Refuse to use zero sized device (also prevents self reference) */
	if (!nr_pages) {
		err = -EINVAL;
		goto out;
	}

	bitmap_sz = BITS_TO_LONGS(nr_pages) * sizeof(long);
	bitmap = kvzalloc(bitmap_sz, GFP_KERNEL);
	if (!bitmap) {
		err = -ENOMEM;
		goto out;
	}

	reset_bdev(zram);

	zram->bdev = I_BDEV(inode);
	zram->backing_dev = backing_dev;
	zram->bitmap = bitmap;
	zram->nr_pages = nr_pages;

	pr_info("setup backing device %s\n", file_name);
	kfree(file_name);

	return len;
out:
	kvfree(bitmap);

	if (backing_dev)
		filp_close(backing_dev, NULL);

	kfree(file_name);

	return err;
}

static unsigned long zram_reserve_bdev_block(struct zram *zram)
{
	unsigned long blk_idx;

	blk_idx = find_next_zero_bit(zram->bitmap, zram->nr_pages, 0);
	if (blk_idx == zram->nr_pages)
		return INVALID_BDEV_BLOCK;

	set_bit(blk_idx, zram->bitmap);
	atomic64_inc(&zram->stats.bd_count);
	return blk_idx;
}

static void zram_release_bdev_block(struct zram *zram, unsigned long blk_idx)
{
	int was_set;

	was_set = test_and_clear_bit(blk_idx, zram->bitmap);
	WARN_ON_ONCE(!was_set);
	atomic64_dec(&zram->stats.bd_count);
}

static void zram_release_bdev_blocks(struct zram *zram, unsigned long blk_idx,
				     unsigned int nr)
{
	while (nr--)
		zram_release_bdev_block(zram, blk_idx++);
}

static void release_wb_req(struct zram_wb_req *req)
{
	unsigned int i;

	for (i = 0; i < ZRAM_MAX_BLOCK_PAGES && req->pages[i]; i++)
		__free_page(req->pages[i]);
	kfree(req);
}

static void release_wb_ctl(struct zram_wb_ctl *wb_ctl)
{
	if (!wb_ctl)
		return;

	/* We should never have inflight requests at this point */
	WARN_ON(atomic_read(&wb_ctl->num_inflight));
	WARN_ON(!list_empty(&wb_ctl->done_reqs));

	while (!list_empty(&wb_ctl->idle_reqs)) {
		struct zram_wb_req *req;

		req = list_first_entry(&wb_ctl->idle_reqs,
				       struct zram_wb_req, entry);
		list_del(&req->entry);
		release_wb_req(req);
	}

	kfree_rcu(wb_ctl, rcu);
}

static struct zram_wb_ctl *init_wb_ctl(struct zram *zram)
{
	struct zram_wb_ctl *wb_ctl;
	int i;

	wb_ctl = kmalloc_obj(*wb_ctl);
	if (!wb_ctl)
		return NULL;

	INIT_LIST_HEAD(&wb_ctl->idle_reqs);
	INIT_LIST_HEAD(&wb_ctl->done_reqs);
	atomic_set(&wb_ctl->num_inflight, 0);
	init_waitqueue_head(&wb_ctl->done_wait);
	spin_lock_init(&wb_ctl->done_lock);

	for (i = 0; i < zram->wb_batch_size; i++) {
		struct zram_wb_req *req;

		/*
		 * This is fatal condition only if we couldn't allocate
		 * any requests at all.  Otherwise we just work with the
		 * requests that we have successfully allocated, so that
		 * writeback can still proceed, even if there is only one
		 * request on the idle list.
		 */
		req = kzalloc_obj(*req, GFP_KERNEL | __GFP_NOWARN);
		if (!req)
			break;

		req->pages[0] = alloc_page(GFP_KERNEL | __GFP_NOWARN);
		if (!req->pages[0]) {
			kfree(req);
			break;
		}

		list_add(&req->entry, &wb_ctl->idle_reqs);
	}

	/* We couldn't allocate any requests, so writeabck is not possible */
	if (list_empty(&wb_ctl->idle_reqs))
		goto release_wb_ctl;

	return wb_ctl;

release_wb_ctl:
	release_wb_ctl(wb_ctl);
	return NULL;
}

static void zram_account_writeback_rollback(struct zram *zram,
					    unsigned int nr_pages)
{
	lockdep_assert_held_write(&zram->dev_lock);

	if (zram->wb_limit_enable)
		zram->bd_wb_limit += FOUR_K((u64)nr_pages);
}

static void zram_account_writeback_submit(struct zram *zram,
					  unsigned int nr_pages)
{
	lockdep_assert_held_write(&zram->dev_lock);

	if (zram->wb_limit_enable)
		zram->bd_wb_limit -= min(zram->bd_wb_limit,
					 FOUR_K((u64)nr_pages));
}

/* Whether writeback_limit lets @nr_pages more backing blocks be written */
static bool zram_writeback_allowed(struct zram *zram, unsigned int nr_pages)
{
	return !zram->wb_limit_enable ||
	       zram->bd_wb_limit >= FOUR_K((u64)nr_pages);
}

static int zram_writeback_block_complete(struct zram *zram,
					 struct zram_wb_req *req);

static int zram_writeback_complete(struct zram *zram, struct zram_wb_req *req)
{
	u32 index = req->pps->index;
	int err;

	err = blk_status_to_errno(req->bio.bi_status);
	if (err) {
		/*
		 * Failed wb requests should not be accounted in wb_limit
		 * (if enabled).
		 */
		zram_account_writeback_rollback(zram, req->nr_pages);
		zram_release_bdev_blocks(zram, req->blk_idx, req->nr_pages);
		return err;
	}

	atomic64_add(req->nr_pages, &zram->stats.bd_writes);
	if (req->pps->nr > 1)
		return zram_writeback_block_complete(zram, req);

	slot_lock(zram, index);
	/*
	 * We release slot lock during writeback so slot can change under us:
	 * slot_free() or slot_free() and zram_write_page(). In both cases
	 * slot loses ZRAM_PP_SLOT flag. No concurrent post-processing can
	 * set ZRAM_PP_SLOT on such slots until current post-processing
	 * finishes.
	 */
	if (!test_slot_flag(zram, index, ZRAM_PP_SLOT)) {
		zram_release_bdev_block(zram, req->blk_idx);
		goto out;
	}

	clear_slot_flag(zram, index, ZRAM_IDLE);
	if (test_slot_flag(zram, index, ZRAM_HUGE))
		atomic64_dec(&zram->stats.huge_pages);
	if (zram_in_block(zram, index)) {
		/*
		 * A block slot (ZRAM_PP_SLOT kept means it still is one) was
		 * written decompressed, as writeback does without
		 * compressed_wb: it leaves its block, whose object goes with
		 * its last page.
		 */
		zram_block_put(zram, index);
		set_slot_comp_priority(zram, index, 0);
	} else {
		atomic64_sub(get_slot_size(zram, index),
			     &zram->stats.compr_data_size);
		zs_free(zram->mem_pool, get_slot_handle(zram, index));
	}
	set_slot_handle(zram, index, req->blk_idx);
	set_slot_flag(zram, index, ZRAM_WB);

out:
	slot_unlock(zram, index);
	return 0;
}

static void zram_writeback_endio(struct bio *bio)
{
	struct zram_wb_req *req = container_of(bio, struct zram_wb_req, bio);
	struct zram_wb_ctl *wb_ctl = bio->bi_private;
	unsigned long flags;

	rcu_read_lock();
	spin_lock_irqsave(&wb_ctl->done_lock, flags);
	list_add(&req->entry, &wb_ctl->done_reqs);
	spin_unlock_irqrestore(&wb_ctl->done_lock, flags);

	wake_up(&wb_ctl->done_wait);
	rcu_read_unlock();
}

/* Write the request's @req->nr_pages pages to its backing blocks */
static void zram_submit_wb_request(struct zram *zram,
				   struct zram_wb_ctl *wb_ctl,
				   struct zram_wb_req *req)
{
	unsigned int i;

	bio_init(&req->bio, zram->bdev, req->bio_vec, req->nr_pages,
		 REQ_OP_WRITE);
	req->bio.bi_iter.bi_sector = req->blk_idx * (PAGE_SIZE >> 9);
	req->bio.bi_end_io = zram_writeback_endio;
	for (i = 0; i < req->nr_pages; i++)
		__bio_add_page(&req->bio, req->pages[i], PAGE_SIZE, 0);
	/*
	 * wb_limit (if enabled) should be adjusted before submission,
	 * so that we don't over-submit.
	 */
	zram_account_writeback_submit(zram, req->nr_pages);
	atomic_inc(&wb_ctl->num_inflight);
	req->bio.bi_private = wb_ctl;
	submit_bio(&req->bio);
}

static int zram_complete_done_reqs(struct zram *zram,
				   struct zram_wb_ctl *wb_ctl)
{
	struct zram_wb_req *req;
	unsigned long flags;
	int ret = 0, err;

	while (atomic_read(&wb_ctl->num_inflight) > 0) {
		spin_lock_irqsave(&wb_ctl->done_lock, flags);
		req = list_first_entry_or_null(&wb_ctl->done_reqs,
					       struct zram_wb_req, entry);
		if (req)
			list_del(&req->entry);
		spin_unlock_irqrestore(&wb_ctl->done_lock, flags);

		/* ->num_inflight > 0 doesn't mean we have done requests */
		if (!req)
			break;

		err = zram_writeback_complete(zram, req);
		if (err)
			ret = err;

		atomic_dec(&wb_ctl->num_inflight);
		release_pp_slot(zram, req->pps);
		req->pps = NULL;

		list_add(&req->entry, &wb_ctl->idle_reqs);
	}

	return ret;
}

static struct zram_wb_req *zram_select_idle_req(struct zram_wb_ctl *wb_ctl)
{
	struct zram_wb_req *req;

	req = list_first_entry_or_null(&wb_ctl->idle_reqs,
				       struct zram_wb_req, entry);
	if (req)
		list_del(&req->entry);
	return req;
}

#ifdef CONFIG_ZRAM_MULTI_PAGES
/*
 * Writeback of blocks
 *
 * With compressed_writeback, writeback takes a block as it is held: its
 * compressed object goes to the backing device in one request, in as many
 * contiguous backing blocks as its size takes (two for a 16 KiB block that
 * compressed to 5 KiB, where its pages would take four). The block's live
 * slots then carry ZRAM_WB besides ZRAM_MULTI, and its zram_block keeps
 * the first backing block in ->handle, and ->size and ->gen as they were:
 * the data did not change, so a stream buffer that holds the block
 * decompressed may still serve it. A read of any of its pages reads the
 * whole unit back, synchronously (with the block unlocked meanwhile), and
 * decompresses it (decompress_bdev_block()); the last slot to leave the
 * block releases the backing blocks. bd_stat and writeback_limit count the
 * backing blocks, as they count the pages written back page by page; a
 * block that the limit left cannot take whole, or that finds no run of
 * free backing blocks as long as it needs, stays in memory, and writeback
 * goes on with the others.
 *
 * Without compressed_writeback, the pages of a block are written back one
 * by one, decompressed, as any page (see zram_writeback_complete()).
 */

/*
 * Reserve @nr contiguous backing blocks, for the compressed unit of a block.
 * Only writeback reserves, one at a time (under dev_lock), but slot frees
 * release blocks meanwhile: the bits are set one by one, atomically.
 */
static unsigned long zram_reserve_bdev_blocks(struct zram *zram,
					      unsigned int nr)
{
	unsigned long blk_idx;
	unsigned int i;

	blk_idx = bitmap_find_next_zero_area(zram->bitmap, zram->nr_pages, 0,
					     nr, 0);
	if (blk_idx + nr > zram->nr_pages)
		return INVALID_BDEV_BLOCK;

	for (i = 0; i < nr; i++)
		set_bit(blk_idx + i, zram->bitmap);
	atomic64_add(nr, &zram->stats.bd_count);
	return blk_idx;
}

/*
 * Copy the compressed object of block @blk into @pages, zero-filling the
 * last one. Block should be locked.
 */
static void read_block_object_raw(struct zram *zram, struct zram_block *blk,
				  struct page **pages)
{
	unsigned int i, off, len;
	struct zcomp_strm *zstrm;
	void *src;

	/* a stream only for its local_copy, as read_from_zspool_raw() */
	zstrm = zcomp_stream_get(zram->comps[ZRAM_PRIMARY_COMP]);
	src = zs_obj_read_begin(zram->mem_pool, blk->handle, blk->size,
				zstrm->local_copy);
	for (i = 0; i < block_bdev_blocks(blk); i++) {
		off = i * PAGE_SIZE;
		len = min_t(unsigned int, blk->size - off, PAGE_SIZE);
		memcpy_to_page(pages[i], 0, src + off, len);
		memzero_page(pages[i], len, PAGE_SIZE - len);
	}
	zs_obj_read_end(zram->mem_pool, blk->handle, blk->size, src);
	zcomp_stream_put(zstrm);
}

/*
 * Write the block that @pps holds (placed whole by the scan) back as one
 * compressed unit with @req. Returns 0 when submitted, else leaves the
 * block in memory: -EAGAIN when it was accessed or freed since the scan,
 * -EIO when writeback_limit cannot take all of it, -ENOSPC when no run of
 * free backing blocks is as long as it needs, -ENOMEM without pages for
 * the request.
 */
static int zram_writeback_block(struct zram *zram, struct zram_wb_ctl *wb_ctl,
				struct zram_wb_req *req,
				struct zram_pp_slot *pps)
{
	struct zram_block *blk = zram_block_of(zram, pps->index);
	u32 first = pps->index;
	unsigned int i, nr;
	int ret;

	slot_lock(zram, first);
	/* as for a page: accessed or freed since the scan, it stays */
	ret = -EAGAIN;
	if (!block_still_placed(zram, first))
		goto unlock;
	nr = block_bdev_blocks(blk);
	ret = -EIO;
	if (!zram_writeback_allowed(zram, nr))
		goto unlock;
	/*
	 * Pages for the unit, kept with the request for the next one; no I/O
	 * for them under the block lock
	 */
	ret = -ENOMEM;
	for (i = 1; i < nr; i++) {
		if (!req->pages[i])
			req->pages[i] = alloc_page(GFP_NOIO | __GFP_NOWARN);
		if (!req->pages[i])
			goto unlock;
	}
	ret = -ENOSPC;
	req->blk_idx = zram_reserve_bdev_blocks(zram, nr);
	if (req->blk_idx == INVALID_BDEV_BLOCK)
		goto unlock;
	read_block_object_raw(zram, blk, req->pages);
	slot_unlock(zram, first);

	/* From now on the block's pp-slot is owned by the req */
	list_del_init(&pps->entry);
	req->nr_pages = nr;
	req->pps = pps;
	zram_submit_wb_request(zram, wb_ctl, req);
	return 0;

unlock:
	slot_unlock(zram, first);
	return ret;
}

/* Completion of zram_writeback_block(): the block now lives on the bdev */
static int zram_writeback_block_complete(struct zram *zram,
					 struct zram_wb_req *req)
{
	u32 first = req->pps->index;
	struct zram_block *blk = zram_block_of(zram, first);

	slot_lock(zram, first);
	/*
	 * As for a page, a slot accessed, freed or written since the
	 * submission lost ZRAM_PP_SLOT: the block then stays in memory (or
	 * is gone, all its pages freed or written again) and the unit
	 * written is released.
	 */
	if (!block_still_placed(zram, first)) {
		zram_release_bdev_blocks(zram, req->blk_idx, req->nr_pages);
		goto out;
	}

	zs_free(zram->mem_pool, blk->handle);
	atomic64_sub(blk->size, &zram->stats.compr_data_size);
	atomic64_dec(&zram->block_stats.blocks_stored);
	blk->handle = req->blk_idx;
	block_clear_flag(zram, first, ZRAM_IDLE);
	block_set_flag(zram, first, ZRAM_WB);
	atomic64_inc(&zram->block_stats.written_back_blocks);
out:
	slot_unlock(zram, first);
	return 0;
}
#else
static int zram_writeback_block(struct zram *zram, struct zram_wb_ctl *wb_ctl,
				struct zram_wb_req *req,
				struct zram_pp_slot *pps)
{
	return -EINVAL;
}

static int zram_writeback_block_complete(struct zram *zram,
					 struct zram_wb_req *req)
{
	return 0;
}
#endif

static int zram_writeback_slots(struct zram *zram,
				struct zram_pp_ctl *ctl,
				struct zram_wb_ctl *wb_ctl)
{
	unsigned long blk_idx = INVALID_BDEV_BLOCK;
	struct zram_wb_req *req = NULL;
	struct zram_pp_slot *pps;
	int ret = 0, err = 0;
	u32 index = 0;

	while ((pps = select_pp_slot(ctl))) {
		if (!zram_writeback_allowed(zram, 1)) {
			ret = -EIO;
			break;
		}

		while (!req) {
			req = zram_select_idle_req(wb_ctl);
			if (req)
				break;

			wait_event(wb_ctl->done_wait,
				   !list_empty(&wb_ctl->done_reqs));

			err = zram_complete_done_reqs(zram, wb_ctl);
			/*
			 * BIO errors are not fatal, we continue and simply
			 * attempt to writeback the remaining objects (pages).
			 * At the same time we need to signal user-space that
			 * some writes (at least one, but also could be all of
			 * them) were not successful and we do so by returning
			 * the most recent BIO error.
			 */
			if (err)
				ret = err;
		}

		if (pps->nr > 1) {
			err = zram_writeback_block(zram, wb_ctl, req, pps);
			if (!err) {
				req = NULL;
				cond_resched();
				continue;
			}
			/*
			 * A block left in memory for want of room (backing
			 * blocks, writeback_limit) or pages: smaller blocks
			 * and pages may still go, the error is returned.
			 */
			if (err != -EAGAIN)
				ret = err;
			release_pp_slot(zram, pps);
			continue;
		}

		if (blk_idx == INVALID_BDEV_BLOCK) {
			blk_idx = zram_reserve_bdev_block(zram);
			if (blk_idx == INVALID_BDEV_BLOCK) {
				ret = -ENOSPC;
				break;
			}
		}

		index = pps->index;
		slot_lock(zram, index);
		/*
		 * scan_slots() sets ZRAM_PP_SLOT and releases slot lock, so
		 * slots can change in the meantime. If slots are accessed or
		 * freed they lose ZRAM_PP_SLOT flag and hence we don't
		 * post-process them.
		 */
		if (!test_slot_flag(zram, index, ZRAM_PP_SLOT))
			goto next;
		/*
		 * A block slot comes here only without compressed_wb (with
		 * it, blocks go whole: zram_writeback_block()), to be written
		 * decompressed.
		 */
		if (zram->compressed_wb)
			err = read_from_zspool_raw(zram, req->pages[0], index);
		else
			err = read_from_zspool(zram, req->pages[0], index);
		if (err)
			goto next;
		slot_unlock(zram, index);

		/*
		 * From now on pp-slot is owned by the req, remove it from
		 * its pp bucket.
		 */
		list_del_init(&pps->entry);

		req->blk_idx = blk_idx;
		req->nr_pages = 1;
		req->pps = pps;
		zram_submit_wb_request(zram, wb_ctl, req);
		blk_idx = INVALID_BDEV_BLOCK;
		req = NULL;
		cond_resched();
		continue;

next:
		slot_unlock(zram, index);
		release_pp_slot(zram, pps);
	}

	/*
	 * Selected idle req, but never submitted it due to some error or
	 * wb limit.
	 */
	if (req)
		release_wb_req(req);

	if (blk_idx != INVALID_BDEV_BLOCK)
		zram_release_bdev_block(zram, blk_idx);

	while (atomic_read(&wb_ctl->num_inflight) > 0) {
		wait_event(wb_ctl->done_wait, !list_empty(&wb_ctl->done_reqs));
		err = zram_complete_done_reqs(zram, wb_ctl);
		if (err)
			ret = err;
	}

	return ret;
}

#define PAGE_WRITEBACK			0
#define HUGE_WRITEBACK			(1 << 0)
#define IDLE_WRITEBACK			(1 << 1)
#define INCOMPRESSIBLE_WRITEBACK	(1 << 2)

static int parse_page_index(char *val, unsigned long nr_pages,
			    unsigned long *lo, unsigned long *hi)
{
	int ret;

	ret = kstrtoul(val, 10, lo);
	if (ret)
		return ret;
	if (*lo >= nr_pages)
		return -ERANGE;
	*hi = *lo + 1;
	return 0;
}

static int parse_page_indexes(char *val, unsigned long nr_pages,
			      unsigned long *lo, unsigned long *hi)
{
	char *delim;
	int ret;

	delim = strchr(val, '-');
	if (!delim)
		return -EINVAL;

	*delim = 0x00;
	ret = kstrtoul(val, 10, lo);
	if (ret)
		return ret;
	if (*lo >= nr_pages)
		return -ERANGE;

	ret = kstrtoul(delim + 1, 10, hi);
	if (ret)
		return ret;
	if (*hi >= nr_pages || *lo > *hi)
		return -ERANGE;
	*hi += 1;
	return 0;
}

static int parse_mode(char *val, u32 *mode)
{
	*mode = 0;

	if (!strcmp(val, "idle"))
		*mode = IDLE_WRITEBACK;
	if (!strcmp(val, "huge"))
		*mode = HUGE_WRITEBACK;
	if (!strcmp(val, "huge_idle"))
		*mode = IDLE_WRITEBACK | HUGE_WRITEBACK;
	if (!strcmp(val, "incompressible"))
		*mode = INCOMPRESSIBLE_WRITEBACK;

	if (*mode == 0)
		return -EINVAL;
	return 0;
}

#ifdef CONFIG_ZRAM_MULTI_PAGES
/*
 * Whether slot @index, a slot of a block, is one for writeback in @mode:
 * only with every other page still in its block, so that writeback moves
 * blocks whole. Were one page of a block left (read since the idle
 * marking, say), the object would stay in memory for it while the pages
 * written back took backing space as well. Block should be locked.
 */
static bool block_wants_writeback(struct zram *zram, u32 index, u32 mode)
{
	u32 first = zram_lock_index(zram, index);
	unsigned long live = zram_block_of(zram, first)->live;
	unsigned int i;

	for_each_set_bit(i, &live, zram_block_pages(zram)) {
		if (mode & IDLE_WRITEBACK &&
		    !test_slot_flag(zram, first + i, ZRAM_IDLE))
			return false;
		if (mode & INCOMPRESSIBLE_WRITEBACK &&
		    !test_slot_flag(zram, first + i, ZRAM_INCOMPRESSIBLE))
			return false;
	}
	return true;
}

/*
 * Scan slot @index, a slot of a block, for writeback in @mode. With
 * compressed_writeback the block is placed whole, once, from whichever of
 * its slots the scan meets first (page_index may name any); without, the
 * slot is placed as any page. Block should be locked. Returns false when
 * out of memory.
 */
static bool scan_block_for_writeback(struct zram *zram, u32 index, u32 mode,
				     struct zram_pp_ctl *ctl)
{
	if (!block_wants_writeback(zram, index, mode))
		return true;
	if (!zram->compressed_wb)
		return place_pp_slot(zram, ctl, index);
	if (test_slot_flag(zram, index, ZRAM_PP_SLOT))
		return true;
	return place_pp_block(zram, ctl, index);
}
#else
static bool scan_block_for_writeback(struct zram *zram, u32 index, u32 mode,
				     struct zram_pp_ctl *ctl)
{
	return true;
}
#endif

static void scan_slots_for_writeback(struct zram *zram, u32 mode,
				     unsigned long lo, unsigned long hi,
				     struct zram_pp_ctl *ctl)
{
	u32 index = lo;

	while (index < hi) {
		bool ok = true;

		slot_lock(zram, index);
		if (!slot_allocated(zram, index))
			goto next;

		if (test_slot_flag(zram, index, ZRAM_WB) ||
		    test_slot_flag(zram, index, ZRAM_SAME))
			goto next;

		if (mode & IDLE_WRITEBACK &&
		    !test_slot_flag(zram, index, ZRAM_IDLE))
			goto next;
		if (mode & HUGE_WRITEBACK &&
		    !test_slot_flag(zram, index, ZRAM_HUGE))
			goto next;
		if (mode & INCOMPRESSIBLE_WRITEBACK &&
		    !test_slot_flag(zram, index, ZRAM_INCOMPRESSIBLE))
			goto next;
		if (zram_in_block(zram, index)) {
			ok = scan_block_for_writeback(zram, index, mode, ctl);
			goto next;
		}

		ok = place_pp_slot(zram, ctl, index);
next:
		slot_unlock(zram, index);
		if (!ok)
			break;
		index++;
	}
}

static ssize_t writeback_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	u64 nr_pages;
	unsigned long lo = 0, hi;
	struct zram_pp_ctl *pp_ctl = NULL;
	struct zram_wb_ctl *wb_ctl = NULL;
	char *args, *param, *val;
	ssize_t ret = len;
	int err, mode = 0;

	guard(rwsem_write)(&zram->dev_lock);
	if (!init_done(zram))
		return -EINVAL;

	if (!zram->backing_dev)
		return -ENODEV;

	nr_pages = zram->disksize >> PAGE_SHIFT;
	hi = nr_pages;

	pp_ctl = init_pp_ctl();
	if (!pp_ctl)
		return -ENOMEM;

	wb_ctl = init_wb_ctl(zram);
	if (!wb_ctl) {
		ret = -ENOMEM;
		goto out;
	}

	args = skip_spaces(buf);
	while (*args) {
		args = next_arg(args, &param, &val);

		/*
		 * Workaround to support the old writeback interface.
		 *
		 * The old writeback interface has a minor inconsistency and
		 * requires key=value only for page_index parameter, while the
		 * writeback mode is a valueless parameter.
		 *
		 * This is not the case anymore and now all parameters are
		 * required to have values, however, we need to support the
		 * legacy writeback interface format so we check if we can
		 * recognize a valueless parameter as the (legacy) writeback
		 * mode.
		 */
		if (!val || !*val) {
			err = parse_mode(param, &mode);
			if (err) {
				ret = err;
				goto out;
			}

			scan_slots_for_writeback(zram, mode, lo, hi, pp_ctl);
			break;
		}

		if (!strcmp(param, "type")) {
			err = parse_mode(val, &mode);
			if (err) {
				ret = err;
				goto out;
			}

			scan_slots_for_writeback(zram, mode, lo, hi, pp_ctl);
			break;
		}

		if (!strcmp(param, "page_index")) {
			err = parse_page_index(val, nr_pages, &lo, &hi);
			if (err) {
				ret = err;
				goto out;
			}

			scan_slots_for_writeback(zram, mode, lo, hi, pp_ctl);
			continue;
		}

		if (!strcmp(param, "page_indexes")) {
			err = parse_page_indexes(val, nr_pages, &lo, &hi);
			if (err) {
				ret = err;
				goto out;
			}

			scan_slots_for_writeback(zram, mode, lo, hi, pp_ctl);
			continue;
		}
	}

	err = zram_writeback_slots(zram, pp_ctl, wb_ctl);
	if (err)
		ret = err;

out:
	release_pp_ctl(zram, pp_ctl);
	release_wb_ctl(wb_ctl);

	return ret;
}

static int decompress_bdev_page(struct zram *zram, struct page *page, u32 index)
{
	struct zcomp_strm *zstrm;
	unsigned int size;
	int ret, prio;
	void *src;

	slot_lock(zram, index);
	/*
	 * Since slot was unlocked we need to make sure it's still ZRAM_WB,
	 * and a page of its own (a block's is not read here)
	 */
	if (!test_slot_flag(zram, index, ZRAM_WB) ||
	    zram_in_block(zram, index)) {
		slot_unlock(zram, index);
		/* We read some stale data, zero it out */
		memset_page(page, 0, 0, PAGE_SIZE);
		return -EIO;
	}

	if (test_slot_flag(zram, index, ZRAM_HUGE)) {
		slot_unlock(zram, index);
		return 0;
	}

	size = get_slot_size(zram, index);
	prio = get_slot_comp_priority(zram, index);

	zstrm = zcomp_stream_get(zram->comps[prio]);
	src = kmap_local_page(page);
	ret = zcomp_decompress(zram->comps[prio], zstrm, src, size,
			       zstrm->local_copy, PAGE_SIZE);
	if (!ret)
		copy_page(src, zstrm->local_copy);
	kunmap_local(src);
	zcomp_stream_put(zstrm);
	slot_unlock(zram, index);

	return ret;
}

static void zram_deferred_decompress(struct work_struct *w)
{
	struct zram_rb_req *req = container_of(w, struct zram_rb_req, work);
	struct page *page = bio_first_page_all(req->bio);
	struct zram *zram = req->zram;
	u32 index = req->index;
	int ret;

	ret = decompress_bdev_page(zram, page, index);
	if (ret)
		req->parent->bi_status = BLK_STS_IOERR;

	/* Decrement parent's ->remaining */
	bio_endio(req->parent);
	bio_put(req->bio);
	kfree(req);
}

/* The read of a page that compressed_writeback stored: decompress it next */
static void zram_async_read_endio(struct bio *bio)
{
	struct zram_rb_req *req = bio->bi_private;

	if (bio->bi_status) {
		req->parent->bi_status = bio->bi_status;
		bio_endio(req->parent);
		bio_put(bio);
		kfree(req);
		return;
	}

	/*
	 * zram decompression is sleepable, so we need to deffer it to
	 * a preemptible context.
	 */
	INIT_WORK(&req->work, zram_deferred_decompress);
	queue_work(system_highpri_wq, &req->work);
}

/* Submit the read that @bdr is building, if any */
static void zram_bd_reads_submit(struct zram_bd_reads *bdr)
{
	if (bdr->bio) {
		submit_bio(bdr->bio);
		bdr->bio = NULL;
	}
}

/*
 * Read @page from backing block @blk_idx for @bdr->parent: in the read
 * being built when the block follows its last one, else in a new read.
 * Pages written back without compressed_writeback need no work once read:
 * each read is chained to the parent, which completes after them all.
 */
static int read_from_bdev_batched(struct zram *zram, struct page *page,
				  unsigned long blk_idx,
				  struct zram_bd_reads *bdr)
{
	unsigned short nr_vecs;

	if (bdr->bio && blk_idx == bdr->next_blk_idx &&
	    bio_add_page(bdr->bio, page, PAGE_SIZE, 0) == PAGE_SIZE) {
		bdr->next_blk_idx++;
		return 0;
	}

	zram_bd_reads_submit(bdr);
	nr_vecs = min_t(unsigned int, bdr->pages_left, BIO_MAX_VECS);
	bdr->bio = bio_alloc(zram->bdev, nr_vecs, bdr->parent->bi_opf,
			     GFP_NOIO);
	if (!bdr->bio)
		return -ENOMEM;
	bdr->bio->bi_iter.bi_sector = blk_idx * (PAGE_SIZE >> 9);
	__bio_add_page(bdr->bio, page, PAGE_SIZE, 0);
	bio_chain(bdr->bio, bdr->parent);
	bdr->next_blk_idx = blk_idx + 1;
	return 0;
}

static int read_from_bdev_async(struct zram *zram, struct page *page,
				u32 index, unsigned long blk_idx,
				struct zram_bd_reads *bdr)
{
	struct bio *parent = bdr->parent;
	struct zram_rb_req *req;
	struct bio *bio;

	if (!zram->compressed_wb)
		return read_from_bdev_batched(zram, page, blk_idx, bdr);

	req = kmalloc_obj(*req, GFP_NOIO);
	if (!req)
		return -ENOMEM;

	bio = bio_alloc(zram->bdev, 1, parent->bi_opf, GFP_NOIO);
	if (!bio) {
		kfree(req);
		return -ENOMEM;
	}

	req->zram = zram;
	req->index = index;
	req->blk_idx = blk_idx;
	req->bio = bio;
	req->parent = parent;

	bio->bi_iter.bi_sector = blk_idx * (PAGE_SIZE >> 9);
	bio->bi_private = req;
	bio->bi_end_io = zram_async_read_endio;

	__bio_add_page(bio, page, PAGE_SIZE, 0);
	bio_inc_remaining(parent);
	submit_bio(bio);

	return 0;
}

static void zram_sync_read(struct work_struct *w)
{
	struct zram_rb_req *req = container_of(w, struct zram_rb_req, work);
	struct bio_vec bv[ZRAM_MAX_BLOCK_PAGES];
	struct bio bio;
	unsigned int i;

	bio_init(&bio, req->zram->bdev, bv, req->nr_pages, REQ_OP_READ);
	bio.bi_iter.bi_sector = req->blk_idx * (PAGE_SIZE >> 9);
	for (i = 0; i < req->nr_pages; i++)
		__bio_add_page(&bio, req->pages[i], PAGE_SIZE, 0);
	req->error = submit_bio_wait(&bio);
}

/*
 * Block layer want one ->submit_bio to be active at a time, so if we use
 * chained IO with parent IO in same context, it's a deadlock. To avoid that,
 * use a worker thread context.
 */
static int zram_read_bdev_blocks(struct zram *zram, struct page **pages,
				 unsigned int nr_pages, unsigned long blk_idx)
{
	struct zram_rb_req req;

	req.pages = pages;
	req.nr_pages = nr_pages;
	req.zram = zram;
	req.blk_idx = blk_idx;

	INIT_WORK_ONSTACK(&req.work, zram_sync_read);
	queue_work(system_dfl_wq, &req.work);
	flush_work(&req.work);
	destroy_work_on_stack(&req.work);

	return req.error;
}

static int read_from_bdev_sync(struct zram *zram, struct page *page, u32 index,
			       unsigned long blk_idx)
{
	int ret = zram_read_bdev_blocks(zram, &page, 1, blk_idx);

	if (ret || !zram->compressed_wb)
		return ret;

	return decompress_bdev_page(zram, page, index);
}

static int read_from_bdev(struct zram *zram, struct page *page, u32 index,
			  unsigned long blk_idx, struct zram_bd_reads *bdr)
{
	atomic64_inc(&zram->stats.bd_reads);
	if (!bdr)
		return read_from_bdev_sync(zram, page, index, blk_idx);
	return read_from_bdev_async(zram, page, index, blk_idx, bdr);
}
#else
static inline void reset_bdev(struct zram *zram) {};
static int read_from_bdev(struct zram *zram, struct page *page, u32 index,
			  unsigned long blk_idx, struct zram_bd_reads *bdr)
{
	return -EIO;
}

static void zram_bd_reads_submit(struct zram_bd_reads *bdr)
{
}

static void zram_release_bdev_block(struct zram *zram, unsigned long blk_idx)
{
}

static inline void zram_release_bdev_blocks(struct zram *zram,
					    unsigned long blk_idx,
					    unsigned int nr)
{
}
#endif

#ifdef CONFIG_ZRAM_MEMORY_TRACKING

static struct dentry *zram_debugfs_root;

static void zram_debugfs_create(void)
{
	zram_debugfs_root = debugfs_create_dir("zram", NULL);
}

static void zram_debugfs_destroy(void)
{
	debugfs_remove_recursive(zram_debugfs_root);
}

/* The last column of block_state, which only devices that store blocks show */
static const char *block_state_flag(struct zram *zram, u32 index)
{
	if (!zram_multi_pages(zram))
		return "";
	return zram_in_block(zram, index) ? "b" : ".";
}

static ssize_t read_block_state(struct file *file, char __user *buf,
				size_t count, loff_t *ppos)
{
	char *kbuf;
	ssize_t index, written = 0;
	struct zram *zram = file->private_data;
	unsigned long nr_pages;

	kbuf = kvmalloc(count, GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;

	guard(rwsem_read)(&zram->dev_lock);
	if (!init_done(zram)) {
		kvfree(kbuf);
		return -EINVAL;
	}

	nr_pages = zram->disksize >> PAGE_SHIFT;

	for (index = *ppos; index < nr_pages; index++) {
		int copied;

		slot_lock(zram, index);
		if (!slot_allocated(zram, index))
			goto next;

		copied = snprintf(kbuf + written, count,
			"%12zd %12u.%06d %c%c%c%c%c%c%s\n",
			index, zram->table[index].attr.ac_time, 0,
			test_slot_flag(zram, index, ZRAM_SAME) ? 's' : '.',
			test_slot_flag(zram, index, ZRAM_WB) ? 'w' : '.',
			test_slot_flag(zram, index, ZRAM_HUGE) ? 'h' : '.',
			test_slot_flag(zram, index, ZRAM_IDLE) ? 'i' : '.',
			get_slot_comp_priority(zram, index) ? 'r' : '.',
			test_slot_flag(zram, index,
				       ZRAM_INCOMPRESSIBLE) ? 'n' : '.',
			block_state_flag(zram, index));

		if (count <= copied) {
			slot_unlock(zram, index);
			break;
		}
		written += copied;
		count -= copied;
next:
		slot_unlock(zram, index);
		*ppos += 1;
	}

	if (copy_to_user(buf, kbuf, written))
		written = -EFAULT;
	kvfree(kbuf);

	return written;
}

static const struct file_operations proc_zram_block_state_op = {
	.open = simple_open,
	.read = read_block_state,
	.llseek = default_llseek,
};

static void zram_debugfs_register(struct zram *zram)
{
	if (!zram_debugfs_root)
		return;

	zram->debugfs_dir = debugfs_create_dir(zram->disk->disk_name,
						zram_debugfs_root);
	debugfs_create_file("block_state", 0400, zram->debugfs_dir,
				zram, &proc_zram_block_state_op);
}

static void zram_debugfs_unregister(struct zram *zram)
{
	debugfs_remove_recursive(zram->debugfs_dir);
}
#else
static void zram_debugfs_create(void) {};
static void zram_debugfs_destroy(void) {};
static void zram_debugfs_register(struct zram *zram) {};
static void zram_debugfs_unregister(struct zram *zram) {};
#endif

/* Only algo parameter given, lookup by algo name */
static int lookup_algo_priority(struct zram *zram, const char *algo,
				u32 min_prio)
{
	s32 prio;

	for (prio = min_prio; prio < ZRAM_MAX_COMPS; prio++) {
		if (!zram->comp_algs[prio])
			continue;

		if (!strcmp(zram->comp_algs[prio], algo))
			return prio;
	}

	return -EINVAL;
}

/* Both algo and priority parameters given, validate them */
static int validate_algo_priority(struct zram *zram, const char *algo, u32 prio)
{
	if (prio >= ZRAM_MAX_COMPS)
		return -EINVAL;
	/* No algo at given priority */
	if (!zram->comp_algs[prio])
		return -EINVAL;
	/* A different algo at given priority */
	if (strcmp(zram->comp_algs[prio], algo))
		return -EINVAL;
	return 0;
}

static void comp_algorithm_set(struct zram *zram, u32 prio, const char *alg)
{
	zram->comp_algs[prio] = alg;
}

static int __comp_algorithm_store(struct zram *zram, u32 prio, const char *buf)
{
	const char *alg;
	size_t sz;

	sz = strlen(buf);
	if (sz >= ZRAM_MAX_ALGO_NAME_SZ)
		return -E2BIG;

	alg = zcomp_lookup_backend_name(buf);
	if (!alg)
		return -EINVAL;

	guard(rwsem_write)(&zram->dev_lock);
	if (init_done(zram)) {
		pr_info("Can't change algorithm for initialized device\n");
		return -EBUSY;
	}

	comp_algorithm_set(zram, prio, alg);
	return 0;
}

static void comp_params_reset(struct zram *zram, u32 prio)
{
	struct zcomp_params *params = &zram->params[prio];

	vfree(params->dict);
	params->level = ZCOMP_PARAM_NOT_SET;
	params->deflate.winbits = ZCOMP_PARAM_NOT_SET;
	params->dict_sz = 0;
	params->dict = NULL;
}

static int comp_params_store(struct zram *zram, u32 prio, s32 level,
			     const char *dict_path,
			     struct deflate_params *deflate_params)
{
	ssize_t sz = 0;

	comp_params_reset(zram, prio);

	if (dict_path) {
		sz = kernel_read_file_from_path(dict_path, 0,
						&zram->params[prio].dict,
						INT_MAX,
						NULL,
						READING_POLICY);
		if (sz < 0)
			return -EINVAL;
	}

	zram->params[prio].dict_sz = sz;
	zram->params[prio].level = level;
	zram->params[prio].deflate.winbits = deflate_params->winbits;
	return 0;
}

static ssize_t algorithm_params_store(struct device *dev,
				      struct device_attribute *attr,
				      const char *buf,
				      size_t len)
{
	s32 prio = ZRAM_PRIMARY_COMP, level = ZCOMP_PARAM_NOT_SET;
	char *args, *param, *val, *algo = NULL, *dict_path = NULL;
	struct deflate_params deflate_params;
	struct zram *zram = dev_to_zram(dev);
	bool prio_param = false;
	int ret;

	deflate_params.winbits = ZCOMP_PARAM_NOT_SET;

	args = skip_spaces(buf);
	while (*args) {
		args = next_arg(args, &param, &val);

		if (!val || !*val)
			return -EINVAL;

		if (!strcmp(param, "priority")) {
			prio_param = true;
			ret = kstrtoint(val, 10, &prio);
			if (ret)
				return ret;
			continue;
		}

		if (!strcmp(param, "level")) {
			ret = kstrtoint(val, 10, &level);
			if (ret)
				return ret;
			continue;
		}

		if (!strcmp(param, "algo")) {
			algo = val;
			continue;
		}

		if (!strcmp(param, "dict")) {
			dict_path = val;
			continue;
		}

		if (!strcmp(param, "deflate.winbits")) {
			ret = kstrtoint(val, 10, &deflate_params.winbits);
			if (ret)
				return ret;
			continue;
		}
	}

	guard(rwsem_write)(&zram->dev_lock);
	if (init_done(zram))
		return -EBUSY;

	if (prio_param) {
		if (prio < ZRAM_PRIMARY_COMP || prio >= ZRAM_MAX_COMPS)
			return -EINVAL;
	}

	if (algo && prio_param) {
		ret = validate_algo_priority(zram, algo, prio);
		if (ret)
			return ret;
	}

	if (algo && !prio_param) {
		prio = lookup_algo_priority(zram, algo, ZRAM_PRIMARY_COMP);
		if (prio < 0)
			return -EINVAL;
	}

	ret = comp_params_store(zram, prio, level, dict_path, &deflate_params);
	return ret ? ret : len;
}

static ssize_t comp_algorithm_show(struct device *dev,
				   struct device_attribute *attr,
				   char *buf)
{
	struct zram *zram = dev_to_zram(dev);
	ssize_t sz;

	guard(rwsem_read)(&zram->dev_lock);
	sz = zcomp_available_show(zram->comp_algs[ZRAM_PRIMARY_COMP], buf, 0);
	return sz;
}

static ssize_t comp_algorithm_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf,
				    size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	int ret;

	ret = __comp_algorithm_store(zram, ZRAM_PRIMARY_COMP, buf);
	return ret ? ret : len;
}

#ifdef CONFIG_ZRAM_MULTI_COMP
static ssize_t recomp_algorithm_show(struct device *dev,
				     struct device_attribute *attr,
				     char *buf)
{
	struct zram *zram = dev_to_zram(dev);
	ssize_t sz = 0;
	u32 prio;

	guard(rwsem_read)(&zram->dev_lock);
	for (prio = ZRAM_SECONDARY_COMP; prio < ZRAM_MAX_COMPS; prio++) {
		if (!zram->comp_algs[prio])
			continue;

		sz += sysfs_emit_at(buf, sz, "#%d: ", prio);
		sz += zcomp_available_show(zram->comp_algs[prio], buf, sz);
	}
	return sz;
}

static ssize_t recomp_algorithm_store(struct device *dev,
				      struct device_attribute *attr,
				      const char *buf,
				      size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	int prio = ZRAM_SECONDARY_COMP;
	char *args, *param, *val;
	char *alg = NULL;
	int ret;

	args = skip_spaces(buf);
	while (*args) {
		args = next_arg(args, &param, &val);

		if (!val || !*val)
			return -EINVAL;

		if (!strcmp(param, "algo")) {
			alg = val;
			continue;
		}

		if (!strcmp(param, "priority")) {
			ret = kstrtoint(val, 10, &prio);
			if (ret)
				return ret;
			continue;
		}
	}

	if (!alg)
		return -EINVAL;

	if (prio < ZRAM_SECONDARY_COMP || prio >= ZRAM_MAX_COMPS)
		return -EINVAL;

	ret = __comp_algorithm_store(zram, prio, alg);
	return ret ? ret : len;
}
#endif

static ssize_t compact_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);

	guard(rwsem_read)(&zram->dev_lock);
	if (!init_done(zram))
		return -EINVAL;

	zs_compact(zram->mem_pool);

	return len;
}

static ssize_t io_stat_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct zram *zram = dev_to_zram(dev);
	ssize_t ret;

	guard(rwsem_read)(&zram->dev_lock);
	ret = sysfs_emit(buf,
			"%8llu %8llu 0 %8llu\n",
			(u64)atomic64_read(&zram->stats.failed_reads),
			(u64)atomic64_read(&zram->stats.failed_writes),
			(u64)atomic64_read(&zram->stats.notify_free));

	return ret;
}

static ssize_t mm_stat_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct zram *zram = dev_to_zram(dev);
	struct zs_pool_stats pool_stats;
	u64 orig_size, mem_used = 0;
	long max_used;
	ssize_t ret;

	memset(&pool_stats, 0x00, sizeof(struct zs_pool_stats));

	guard(rwsem_read)(&zram->dev_lock);
	if (init_done(zram)) {
		mem_used = zs_get_total_pages(zram->mem_pool);
		zs_pool_stats(zram->mem_pool, &pool_stats);
	}

	orig_size = atomic64_read(&zram->stats.pages_stored);
	max_used = atomic_long_read(&zram->stats.max_used_pages);

	ret = sysfs_emit(buf,
			"%8llu %8llu %8llu %8lu %8ld %8llu %8lu %8llu %8llu\n",
			orig_size << PAGE_SHIFT,
			(u64)atomic64_read(&zram->stats.compr_data_size),
			mem_used << PAGE_SHIFT,
			zram->limit_pages << PAGE_SHIFT,
			max_used << PAGE_SHIFT,
			(u64)atomic64_read(&zram->stats.same_pages),
			atomic_long_read(&pool_stats.pages_compacted),
			(u64)atomic64_read(&zram->stats.huge_pages),
			(u64)atomic64_read(&zram->stats.huge_pages_since));

	return ret;
}

static ssize_t debug_stat_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	int version = 1;
	struct zram *zram = dev_to_zram(dev);
	ssize_t ret;

	guard(rwsem_read)(&zram->dev_lock);
	ret = sysfs_emit(buf,
			"version: %d\n0 %8llu\n",
			version,
			(u64)atomic64_read(&zram->stats.miss_free));
#ifdef CONFIG_ZRAM_MULTI_PAGES
	/* How blocks are read: for developers, not an ABI (zram.rst) */
	ret += sysfs_emit_at(buf, ret, "%8llu %8llu %8llu %8llu\n",
			     (u64)atomic64_read(&zram->block_stats.buffered_reads),
			     (u64)atomic64_read(&zram->block_stats.in_place_reads),
			     (u64)atomic64_read(&zram->block_stats.copied_reads),
			     (u64)atomic64_read(&zram->block_stats.deferred_frees));
#endif

	return ret;
}

#ifdef CONFIG_ZRAM_MULTI_PAGES
static ssize_t multi_pages_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct zram *zram = dev_to_zram(dev);
	bool val;

	guard(rwsem_read)(&zram->dev_lock);
	val = zram_multi_pages(zram);

	return sysfs_emit(buf, "%d\n", val);
}

/* kstrtobool() decides on the first characters: take whole words only */
static int zram_parse_bool(const char *buf, bool *val)
{
	static const char * const words[] = {
		"0", "1", "n", "y", "no", "yes", "off", "on", "false", "true",
	};
	char copy[8], *word;
	int i;

	if (strscpy(copy, skip_spaces(buf), sizeof(copy)) < 0)
		return -EINVAL;
	word = strim(copy);
	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcasecmp(word, words[i]))
			return kstrtobool(word, val);
	return -EINVAL;
}

static ssize_t multi_pages_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	bool val;

	if (zram_parse_bool(buf, &val))
		return -EINVAL;

	guard(rwsem_write)(&zram->dev_lock);
	if (init_done(zram)) {
		pr_info("Cannot change multi_pages for initialized device\n");
		return -EBUSY;
	}
	/* 1 keeps a block size already chosen */
	if (!val)
		zram->block_order = 0;
	else if (!zram->block_order)
		zram->block_order = ZRAM_MULTI_PAGES_ON_ORDER;

	return len;
}

static ssize_t block_size_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct zram *zram = dev_to_zram(dev);

	guard(rwsem_read)(&zram->dev_lock);
	return sysfs_emit(buf, "%zu\n", zram_block_size(zram));
}

/* A power of two from PAGE_SIZE (pages, no blocks) to the largest block */
static ssize_t block_size_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	u64 size;

	if (zram_parse_size(buf, &size) || size < PAGE_SIZE ||
	    size > PAGE_SIZE << ZRAM_MAX_BLOCK_ORDER || !is_power_of_2(size))
		return -EINVAL;

	guard(rwsem_write)(&zram->dev_lock);
	if (init_done(zram)) {
		pr_info("Cannot change block_size for initialized device\n");
		return -EBUSY;
	}
	zram->block_order = ilog2(size >> PAGE_SHIFT);

	return len;
}

static ssize_t multi_pages_stat_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct zram *zram = dev_to_zram(dev);
	struct zram_block_stats *bs = &zram->block_stats;

	guard(rwsem_read)(&zram->dev_lock);
	return sysfs_emit(buf,
			  "%8llu %8llu %8llu %8llu %8llu %8llu %8llu %8llu %8llu %8llu\n",
			  (u64)atomic64_read(&bs->blocks_stored),
			  (u64)atomic64_read(&bs->blocks_written),
			  (u64)atomic64_read(&bs->block_reads),
			  (u64)atomic64_read(&bs->partial_reads),
			  (u64)atomic64_read(&bs->partial_writes),
			  (u64)atomic64_read(&bs->nomem_blocks),
			  (u64)atomic64_read(&bs->same_blocks),
			  (u64)atomic64_read(&bs->huge_blocks),
			  (u64)atomic64_read(&bs->recompressed_blocks),
			  (u64)atomic64_read(&bs->written_back_blocks));
}
#endif

static void zram_meta_free(struct zram *zram, u64 disksize)
{
	size_t num_pages = disksize >> PAGE_SHIFT;
	size_t index;

	if (!zram->table)
		return;

	/* Free all pages that are still in this zram device */
	for (index = 0; index < num_pages; index++)
		slot_free(zram, index);

	zs_destroy_pool(zram->mem_pool);
	vfree(zram->table);
	zram->table = NULL;
#ifdef CONFIG_ZRAM_MULTI_PAGES
	vfree(zram->blocks);
	zram->blocks = NULL;
#endif
}

static bool zram_meta_alloc(struct zram *zram, u64 disksize)
{
	size_t num_pages;

	num_pages = disksize >> PAGE_SHIFT;
	/* The size comes from user space: fail quietly if it is too large */
	zram->table = __vmalloc(array_size(num_pages, sizeof(*zram->table)),
				GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
	if (!zram->table)
		return false;

	zram->mem_pool = zs_create_pool(zram->disk->disk_name);
	if (!zram->mem_pool) {
		vfree(zram->table);
		zram->table = NULL;
		return false;
	}

	if (!huge_class_size)
		huge_class_size = zs_huge_class_size(zram->mem_pool);

#ifdef CONFIG_ZRAM_MULTI_PAGES
	if (zram_multi_pages(zram)) {
		size_t nr_blocks = DIV_ROUND_UP(num_pages, zram_block_pages(zram));

		zram->block_huge_size = zs_block_huge_size(zram->mem_pool,
							   zram_block_size(zram));

		zram->blocks = __vmalloc(array_size(nr_blocks,
						    sizeof(*zram->blocks)),
					 GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
		if (!zram->blocks) {
			zs_destroy_pool(zram->mem_pool);
			vfree(zram->table);
			zram->table = NULL;
			return false;
		}
	}
#endif

	slot_lock_init(zram);

	return true;
}

#ifdef CONFIG_ZRAM_MULTI_PAGES
/* Slot @index leaves its block; the last one out frees the object */
static void zram_block_put(struct zram *zram, u32 index)
{
	struct zram_block *blk = zram_block_of(zram, index);
	bool written_back = block_written_back(zram, index);

	clear_slot_flag(zram, index, ZRAM_MULTI);
	clear_slot_flag(zram, index, ZRAM_WB);
	blk->live &= ~BIT(index & (zram_block_pages(zram) - 1));
	if (blk->live)
		return;

	if (written_back) {
		zram_release_bdev_blocks(zram, blk->handle,
					 block_bdev_blocks(blk));
	} else {
		zs_free(zram->mem_pool, blk->handle);
		atomic64_sub(blk->size, &zram->stats.compr_data_size);
		atomic64_dec(&zram->block_stats.blocks_stored);
	}
	blk->handle = 0;
	blk->size = 0;
	blk->gen = 0;
}
#else
static void zram_block_put(struct zram *zram, u32 index)
{
}
#endif

static void slot_free(struct zram *zram, u32 index)
{
	unsigned long handle;

#ifdef CONFIG_ZRAM_TRACK_ENTRY_ACTIME
	zram->table[index].attr.ac_time = 0;
#endif

	clear_slot_flag(zram, index, ZRAM_IDLE);
	clear_slot_flag(zram, index, ZRAM_INCOMPRESSIBLE);
	clear_slot_flag(zram, index, ZRAM_PP_SLOT);
	set_slot_comp_priority(zram, index, 0);

	/* A block slot has no handle of its own: look before the handle */
	if (zram_in_block(zram, index)) {
		zram_block_put(zram, index);
		goto out;
	}

	if (test_slot_flag(zram, index, ZRAM_HUGE)) {
		/*
		 * Writeback completion decrements ->huge_pages but keeps
		 * ZRAM_HUGE flag for deferred decompression path.
		 */
		if (!test_slot_flag(zram, index, ZRAM_WB))
			atomic64_dec(&zram->stats.huge_pages);
		clear_slot_flag(zram, index, ZRAM_HUGE);
	}

	if (test_slot_flag(zram, index, ZRAM_WB)) {
		clear_slot_flag(zram, index, ZRAM_WB);
		zram_release_bdev_block(zram, get_slot_handle(zram, index));
		goto out;
	}

	/*
	 * No memory is allocated for same element filled pages.
	 * Simply clear same page flag.
	 */
	if (test_slot_flag(zram, index, ZRAM_SAME)) {
		clear_slot_flag(zram, index, ZRAM_SAME);
		atomic64_dec(&zram->stats.same_pages);
		goto out;
	}

	handle = get_slot_handle(zram, index);
	if (!handle)
		return;

	zs_free(zram->mem_pool, handle);

	atomic64_sub(get_slot_size(zram, index),
		     &zram->stats.compr_data_size);
out:
	atomic64_dec(&zram->stats.pages_stored);
	set_slot_handle(zram, index, 0);
	set_slot_size(zram, index, 0);
}

static int read_same_filled_page(struct zram *zram, struct page *page,
				 u32 index)
{
	void *mem;

	mem = kmap_local_page(page);
	zram_fill_page(mem, PAGE_SIZE, get_slot_handle(zram, index));
	kunmap_local(mem);
	return 0;
}

static int read_incompressible_page(struct zram *zram, struct page *page,
				    u32 index)
{
	unsigned long handle;
	void *src, *dst;

	handle = get_slot_handle(zram, index);
	src = zs_obj_read_begin(zram->mem_pool, handle, PAGE_SIZE, NULL);
	dst = kmap_local_page(page);
	copy_page(dst, src);
	kunmap_local(dst);
	zs_obj_read_end(zram->mem_pool, handle, PAGE_SIZE, src);

	return 0;
}

static int read_compressed_page(struct zram *zram, struct page *page, u32 index)
{
	struct zcomp_strm *zstrm;
	unsigned long handle;
	unsigned int size;
	void *src, *dst;
	int ret, prio;

	handle = get_slot_handle(zram, index);
	size = get_slot_size(zram, index);
	prio = get_slot_comp_priority(zram, index);

	zstrm = zcomp_stream_get(zram->comps[prio]);
	src = zs_obj_read_begin(zram->mem_pool, handle, size,
				zstrm->local_copy);
	dst = kmap_local_page(page);
	ret = zcomp_decompress(zram->comps[prio], zstrm, src, size, dst,
			       PAGE_SIZE);
	kunmap_local(dst);
	zs_obj_read_end(zram->mem_pool, handle, size, src);
	zcomp_stream_put(zstrm);

	return ret;
}

#if defined CONFIG_ZRAM_WRITEBACK
static int read_from_zspool_raw(struct zram *zram, struct page *page, u32 index)
{
	struct zcomp_strm *zstrm;
	unsigned long handle;
	unsigned int size;
	void *src;

	handle = get_slot_handle(zram, index);
	size = get_slot_size(zram, index);

	/*
	 * We need to get stream just for ->local_copy buffer, in
	 * case if object spans two physical pages. No decompression
	 * takes place here, as we read raw compressed data.
	 */
	zstrm = zcomp_stream_get(zram->comps[ZRAM_PRIMARY_COMP]);
	src = zs_obj_read_begin(zram->mem_pool, handle, size,
				zstrm->local_copy);
	memcpy_to_page(page, 0, src, size);
	zs_obj_read_end(zram->mem_pool, handle, size, src);
	zcomp_stream_put(zstrm);

	memzero_page(page, size, PAGE_SIZE - size);

	return 0;
}
#endif

#ifdef CONFIG_ZRAM_MULTI_PAGES
/*
 * The algorithm that compressed the block of slot @index, a slot still in
 * the block: every slot of a block carries the block's comp priority (the
 * primary's when stored, the secondary's once recompressed), and a slot
 * that leaves the block drops it. Block should be locked.
 */
static struct zcomp *zram_block_comp(struct zram *zram, u32 index)
{
	return zram->comps[get_slot_comp_priority(zram, index)];
}

/*
 * Decompress block @blk, which @comp compressed, into @dst (the device's
 * block size) with @zstrm, a stream of @comp, counting whether zsmalloc let
 * the object be read in place or copied it into the stream's local_copy
 * first. Block should be locked.
 */
static int zram_decompress_block(struct zram *zram, struct zram_block *blk,
				 struct zcomp *comp, struct zcomp_strm *zstrm,
				 void *dst)
{
	void *src;
	int ret;

	src = zs_obj_read_begin(zram->mem_pool, blk->handle, blk->size,
				zstrm->local_copy);
	if (src == zstrm->local_copy)
		atomic64_inc(&zram->block_stats.copied_reads);
	else if (offset_in_page(src) + blk->size > PAGE_SIZE)
		/* not an object that lies within one page */
		atomic64_inc(&zram->block_stats.in_place_reads);
	ret = zcomp_decompress(comp, zstrm, src, blk->size, dst,
			       zram_block_size(zram));
	zs_obj_read_end(zram->mem_pool, blk->handle, blk->size, src);
	/* lzo's own codes overlap errno values: -EIO is a failed read only */
	return ret ? -EINVAL : 0;
}

#ifdef CONFIG_ZRAM_WRITEBACK
/*
 * Decompress the block of slot @index (a slot in the block), which
 * writeback put on the backing device as one compressed unit, into the
 * buffer of a stream of @comp: read the unit back, gather it in the
 * stream's local_copy and decompress it. The unit is read with neither the
 * block lock nor *@zstrm held (it is put here and *@zstrm is the stream
 * got again after): the reclaim that the read may wait for can swap out
 * into a freed slot of this very block, and no CPU's stream should wait
 * for I/O. Returns -ESTALE when the block changed meanwhile (read it
 * again): a generation is never reused, and the backing blocks are only
 * released with the block, so an unchanged generation means the unit read
 * is the block's. A failed read is -EIO, also one the backing device
 * ended with BLK_STS_AGAIN (not a block that changed), and data that does
 * not decompress -EINVAL. Block should be locked, and is locked again on
 * return.
 */
static int decompress_bdev_block(struct zram *zram, u32 index,
				 struct zcomp *comp, struct zcomp_strm **zstrm)
{
	struct zram_block *blk = zram_block_of(zram, index);
	unsigned int i, nr = block_bdev_blocks(blk), size = blk->size;
	unsigned long blk_idx = blk->handle;
	struct page *unit[ZRAM_MAX_BLOCK_PAGES];
	u64 gen = blk->gen;
	int ret = -ENOMEM;

	zcomp_stream_put(*zstrm);
	slot_unlock(zram, index);
	for (i = 0; i < nr; i++) {
		unit[i] = alloc_page(GFP_NOIO | __GFP_NOWARN);
		if (!unit[i])
			break;
	}
	if (i == nr) {
		atomic64_add(nr, &zram->stats.bd_reads);
		ret = zram_read_bdev_blocks(zram, unit, nr, blk_idx);
		if (ret == -EAGAIN)
			ret = -EIO;
	}
	slot_lock(zram, index);
	*zstrm = zcomp_stream_get(comp);
	if (!ret && (blk->gen != gen || !block_written_back(zram, index)))
		ret = -ESTALE;
	if (!ret) {
		for (i = 0; i < nr; i++)
			memcpy_from_page((*zstrm)->local_copy + i * PAGE_SIZE,
					 unit[i], 0, min_t(unsigned int, PAGE_SIZE,
							   size - i * PAGE_SIZE));
		ret = zcomp_decompress(comp, *zstrm, (*zstrm)->local_copy,
				       size, (*zstrm)->buffer,
				       zram_block_size(zram)) ? -EINVAL : 0;
	}
	while (i--)
		__free_page(unit[i]);
	return ret;
}
#else
static int decompress_bdev_block(struct zram *zram, u32 index,
				 struct zcomp *comp, struct zcomp_strm **zstrm)
{
	return -EIO;
}
#endif

/*
 * Decompress the block of slot @index (a slot in the block) into the buffer
 * of *@zstrm, a stream of @comp, and tag the buffer with the block object's
 * generation, unless the buffer holds it already (a page of the same block
 * read just before with this stream: swap readahead, small folios faulted
 * in one after another, a page cache read). Generations are never reused,
 * and any other use of the buffer clears its tag, so a tag that matches
 * means the buffer holds exactly this object's data. A block written back
 * is read back first, with the block unlocked and *@zstrm changed meanwhile
 * (see decompress_bdev_block()), unless @nowait (a REQ_NOWAIT read):
 * -EAGAIN then. Returns 1 when it was there, 0 when decompressed, or an
 * error (-ESTALE: the block changed while unlocked). Block should be
 * locked.
 */
static int zram_block_to_buffer(struct zram *zram, u32 index,
				struct zcomp *comp, struct zcomp_strm **zstrm,
				bool nowait)
{
	struct zram_block *blk = zram_block_of(zram, index);
	int ret;

	if (blk->gen && (*zstrm)->buffer_tag == blk->gen)
		return 1;
	if (block_written_back(zram, index)) {
		if (nowait)
			return -EAGAIN;
		ret = decompress_bdev_block(zram, index, comp, zstrm);
	} else {
		ret = zram_decompress_block(zram, blk, comp, *zstrm,
					    (*zstrm)->buffer);
	}
	if (!ret)
		(*zstrm)->buffer_tag = blk->gen;
	return ret;
}

/*
 * A partial read of a stored block: decompress the block into the stream
 * buffer, if not there yet (reading it back first if written back, which
 * may give -ESTALE, or -EAGAIN if @nowait), and copy slot @index's page
 * out into @page. Slot (block) should be locked.
 */
static int read_block_page(struct zram *zram, struct page *page, u32 index,
			   bool nowait)
{
	struct zcomp *comp = zram_block_comp(zram, index);
	struct zcomp_strm *zstrm;
	int ret;

	zstrm = zcomp_stream_get(comp);
	ret = zram_block_to_buffer(zram, index, comp, &zstrm, nowait);
	if (ret > 0) {
		atomic64_inc(&zram->block_stats.buffered_reads);
		ret = 0;
	}
	/* a declined or failed read is no page read out of the block */
	if (!ret) {
		atomic64_inc(&zram->block_stats.partial_reads);
		memcpy_to_page(page, 0, zstrm->buffer +
			       (index & (zram_block_pages(zram) - 1)) * PAGE_SIZE,
			       PAGE_SIZE);
	}
	zcomp_stream_put(zstrm);
	return ret;
}
#else
static int read_block_page(struct zram *zram, struct page *page, u32 index,
			   bool nowait)
{
	return -EIO;
}
#endif

/*
 * Reads (decompresses if needed) a page from zspool (zsmalloc).
 * Corresponding ZRAM slot should be locked.
 */
static int read_from_zspool(struct zram *zram, struct page *page, u32 index)
{
	if (zram_in_block(zram, index))
		return read_block_page(zram, page, index, false);

	if (test_slot_flag(zram, index, ZRAM_SAME) ||
	    !get_slot_handle(zram, index))
		return read_same_filled_page(zram, page, index);

	if (!test_slot_flag(zram, index, ZRAM_HUGE))
		return read_compressed_page(zram, page, index);
	else
		return read_incompressible_page(zram, page, index);
}

/*
 * The rest of zram_read_page(), out of line: a page held in a block, one
 * written back, or a REQ_NOWAIT read (@nowait). Slot @index must be
 * locked; returns with it unlocked, and @block set if the slot was last
 * seen in a block.
 */
static noinline int zram_read_page_slow(struct zram *zram, struct page *page,
					u32 index, struct zram_bd_reads *bdr,
					bool access, bool nowait, bool *block)
{
	unsigned long blk_idx;
	int ret;

again:
	*block = zram_in_block(zram, index);
	/*
	 * Swap's fill of a block wants the copies that the fault's own read
	 * left in the stream buffer: decline a page not held in a block (one
	 * written back page by page, which the fault would wait for, or one
	 * stored alone, which may be another task's since the block was
	 * written); it is read at its own fault.
	 */
	if (!*block && bdr && bio_is_nowait_readahead(bdr->parent)) {
		slot_unlock(zram, index);
		return -EAGAIN;
	}
	if (!test_slot_flag(zram, index, ZRAM_WB) || *block) {
		/*
		 * Slot should be locked through out the function call (but
		 * over the read back of a block written back: a block that
		 * changed meanwhile is read again)
		 */
		if (*block)
			ret = read_block_page(zram, page, index, nowait);
		else
			ret = read_from_zspool(zram, page, index);
		if (!ret && access)
			mark_slot_accessed(zram, index);
		slot_unlock(zram, index);
		if (ret == -ESTALE) {
			if (!slot_lock_read(zram, index, nowait))
				return -EAGAIN;
			goto again;
		}
		return ret;
	}

	blk_idx = get_slot_handle(zram, index);
	if (nowait) {
		slot_unlock(zram, index);
		return -EAGAIN;
	}
	if (access)
		mark_slot_accessed(zram, index);
	/*
	 * The slot should be unlocked before reading from the backing
	 * device.
	 */
	slot_unlock(zram, index);
	return read_from_bdev(zram, page, index, blk_idx, bdr);
}

/*
 * Read slot @index into @page: for a bio, with @bdr, which may leave a
 * read from the backing device to be submitted (zram_bio_read() does);
 * else (@bdr NULL) synchronously. @access: somebody asked for the page
 * (see bio_is_access()); the slot is then marked accessed under the lock
 * that the read holds already, once its data is read or its read from
 * the backing device is about to be submitted. A page stored alone in
 * memory, read by a bio that may wait, takes the short way; the rest is
 * zram_read_page_slow()'s.
 */
static int zram_read_page(struct zram *zram, struct page *page, u32 index,
			  struct zram_bd_reads *bdr, bool access)
{
	bool nowait = bdr && bio_is_nowait(bdr->parent);
	bool block = false;
	int ret;

	if (!slot_lock_read(zram, index, nowait))
		return -EAGAIN;
	if (likely(!nowait && !zram_in_block(zram, index) &&
		   !test_slot_flag(zram, index, ZRAM_WB))) {
		ret = read_from_zspool(zram, page, index);
		if (!ret && access)
			mark_slot_accessed(zram, index);
		slot_unlock(zram, index);
	} else {
		ret = zram_read_page_slow(zram, page, index, bdr, access,
					  nowait, &block);
	}

	/*
	 * Should NEVER happen (but for want of memory to read a block back
	 * into, a failed read of it, -EIO, or a REQ_NOWAIT read of one that
	 * would wait, -EAGAIN). Return bio error if it does.
	 */
	if (WARN_ON(ret < 0 && ret != -ENOMEM && ret != -EAGAIN &&
		    !(block && ret == -EIO)))
		pr_err("Decompression failed! err=%d, page=%u\n", ret, index);

	return ret;
}

/*
 * Use a temporary buffer to decompress the page, as the decompressor
 * always expects a full page for the output.
 */
static int zram_bvec_read_partial(struct zram *zram, struct bio_vec *bvec,
				  u32 index, int offset, bool access)
{
	struct page *page = alloc_page(GFP_NOIO);
	int ret;

	if (!page)
		return -ENOMEM;
	ret = zram_read_page(zram, page, index, NULL, access);
	if (likely(!ret))
		memcpy_to_bvec(bvec, page_address(page) + offset);
	__free_page(page);
	return ret;
}

static int zram_bvec_read(struct zram *zram, struct bio_vec *bvec,
			  u32 index, int offset, struct zram_bd_reads *bdr)
{
	if (is_partial_io(bvec)) {
		/* read through a page of its own, allocated here */
		if (bio_is_nowait(bdr->parent))
			return -EAGAIN;
		return zram_bvec_read_partial(zram, bvec, index, offset,
					      bio_is_access(bdr->parent));
	}
	return zram_read_page(zram, bvec->bv_page, index, bdr,
			      bio_is_access(bdr->parent));
}

/* Free slot @index for its new data. Slot should be locked. */
static void slot_free_for_write(struct zram *zram, u32 index)
{
#ifdef CONFIG_ZRAM_MULTI_PAGES
	if (zram_in_block(zram, index))
		atomic64_inc(&zram->block_stats.partial_writes);
#endif
	slot_free(zram, index);
}

static int write_same_filled_page(struct zram *zram, unsigned long fill,
				  u32 index)
{
	slot_lock(zram, index);
	slot_free_for_write(zram, index);
	set_slot_flag(zram, index, ZRAM_SAME);
	set_slot_handle(zram, index, fill);
	slot_unlock(zram, index);

	atomic64_inc(&zram->stats.same_pages);
	atomic64_inc(&zram->stats.pages_stored);

	return 0;
}

static int write_incompressible_page(struct zram *zram, struct page *page,
				     u32 index)
{
	unsigned long handle;
	void *src;

	/*
	 * This function is called from preemptible context so we don't need
	 * to do optimistic and fallback to pessimistic handle allocation,
	 * like we do for compressible pages.
	 */
	handle = zs_malloc(zram->mem_pool, PAGE_SIZE,
			   GFP_NOIO | __GFP_NOWARN |
			   __GFP_HIGHMEM | __GFP_MOVABLE, page_to_nid(page));
	if (IS_ERR_VALUE(handle))
		return PTR_ERR((void *)handle);

	if (!zram_can_store_page(zram)) {
		zs_free(zram->mem_pool, handle);
		return -ENOMEM;
	}

	src = kmap_local_page(page);
	zs_obj_write(zram->mem_pool, handle, src, PAGE_SIZE);
	kunmap_local(src);

	slot_lock(zram, index);
	slot_free_for_write(zram, index);
	set_slot_flag(zram, index, ZRAM_HUGE);
	set_slot_handle(zram, index, handle);
	set_slot_size(zram, index, PAGE_SIZE);
	slot_unlock(zram, index);

	atomic64_add(PAGE_SIZE, &zram->stats.compr_data_size);
	atomic64_inc(&zram->stats.huge_pages);
	atomic64_inc(&zram->stats.huge_pages_since);
	atomic64_inc(&zram->stats.pages_stored);

	return 0;
}

static int zram_write_page(struct zram *zram, struct page *page, u32 index)
{
	int ret = 0;
	unsigned long handle;
	unsigned int comp_len;
	void *mem;
	struct zcomp_strm *zstrm;
	unsigned long element;
	bool same_filled;

	mem = kmap_local_page(page);
	same_filled = page_same_filled(mem, &element);
	kunmap_local(mem);
	if (same_filled)
		return write_same_filled_page(zram, element, index);

	zstrm = zcomp_stream_get(zram->comps[ZRAM_PRIMARY_COMP]);
	mem = kmap_local_page(page);
	ret = zcomp_compress(zram->comps[ZRAM_PRIMARY_COMP], zstrm,
			     mem, PAGE_SIZE, &comp_len);
	kunmap_local(mem);

	if (unlikely(ret)) {
		zcomp_stream_put(zstrm);
		pr_err("Compression failed! err=%d\n", ret);
		return ret;
	}

	if (comp_len >= huge_class_size) {
		zcomp_stream_put(zstrm);
		return write_incompressible_page(zram, page, index);
	}

	handle = zs_malloc(zram->mem_pool, comp_len,
			   GFP_NOIO | __GFP_NOWARN |
			   __GFP_HIGHMEM | __GFP_MOVABLE, page_to_nid(page));
	if (IS_ERR_VALUE(handle)) {
		zcomp_stream_put(zstrm);
		return PTR_ERR((void *)handle);
	}

	if (!zram_can_store_page(zram)) {
		zcomp_stream_put(zstrm);
		zs_free(zram->mem_pool, handle);
		return -ENOMEM;
	}

	zs_obj_write(zram->mem_pool, handle, zstrm->buffer, comp_len);
	zcomp_stream_put(zstrm);

	slot_lock(zram, index);
	slot_free_for_write(zram, index);
	set_slot_handle(zram, index, handle);
	set_slot_size(zram, index, comp_len);
	slot_unlock(zram, index);

	/* Update stats */
	atomic64_inc(&zram->stats.pages_stored);
	atomic64_add(comp_len, &zram->stats.compr_data_size);

	return ret;
}

/*
 * This is a partial IO. Read the full page before writing the changes.
 */
static int zram_bvec_write_partial(struct zram *zram, struct bio_vec *bvec,
				   u32 index, int offset)
{
	struct page *page = alloc_page(GFP_NOIO);
	int ret;

	if (!page)
		return -ENOMEM;

	ret = zram_read_page(zram, page, index, NULL, false);
	if (!ret) {
		memcpy_from_bvec(page_address(page) + offset, bvec);
		ret = zram_write_page(zram, page, index);
	}
	__free_page(page);
	return ret;
}

static int zram_bvec_write(struct zram *zram, struct bio_vec *bvec,
			   u32 index, int offset)
{
	if (is_partial_io(bvec))
		return zram_bvec_write_partial(zram, bvec, index, offset);
	return zram_write_page(zram, bvec->bv_page, index);
}

#ifdef CONFIG_ZRAM_MULTI_PAGES
/*
 * The part of @bio at @iter that a block read or write can take as a
 * whole: a block-aligned slot range covered by one segment of one large
 * folio (small folios that happen to be contiguous keep the page path).
 * Returns its first page, or NULL.
 */
static struct page *zram_bio_block(struct zram *zram, struct bio *bio,
				   struct bvec_iter iter)
{
	size_t size = zram_block_size(zram);
	struct folio *folio;
	struct page *page;
	struct bio_vec bv;

	if (!zram_multi_pages(zram) ||
	    !IS_ALIGNED(iter.bi_sector, size >> SECTOR_SHIFT))
		return NULL;
	bv = mp_bvec_iter_bvec(bio->bi_io_vec, iter);
	if (bv.bv_len < size || offset_in_page(bv.bv_offset))
		return NULL;
	page = bv.bv_page + (bv.bv_offset >> PAGE_SHIFT);
	folio = page_folio(page);
	if (folio_page_idx(folio, page) + (size >> PAGE_SHIFT) >
	    folio_nr_pages(folio))
		return NULL;
	return page;
}

static bool zram_block_same_filled(void *mem, unsigned int pages,
				   unsigned long *element)
{
	unsigned int i;

	if (!page_same_filled(mem, element))
		return false;
	for (i = 1; i < pages; i++) {
		unsigned long other;

		if (!page_same_filled(mem + i * PAGE_SIZE, &other) ||
		    other != *element)
			return false;
	}
	return true;
}

/* How zram_write_block_as_pages() stores each page of a block */
enum zram_block_as_pages {
	ZRAM_PAGES_COMPRESSED,	/* each compressed on its own, as any page */
	ZRAM_PAGES_SAME,	/* same-filled, as the whole block was */
	ZRAM_PAGES_RAW,		/* as they are: the block did not compress */
};

/*
 * Store the block of pages from @page at slots @index.. page by page, @how
 * the block found they should be: what the block was found to be is not
 * looked for again in each page (@element: the fill of a same-filled
 * block).
 */
static int zram_write_block_as_pages(struct zram *zram, struct page *page,
				     u32 index, enum zram_block_as_pages how,
				     unsigned long element)
{
	unsigned int i;
	int ret;

	for (i = 0; i < zram_block_pages(zram); i++) {
		switch (how) {
		case ZRAM_PAGES_SAME:
			ret = write_same_filled_page(zram, element, index + i);
			break;
		case ZRAM_PAGES_RAW:
			ret = write_incompressible_page(zram, page + i,
							index + i);
			break;
		default:
			ret = zram_write_page(zram, page + i, index + i);
			break;
		}
		if (ret)
			return ret;
		slot_lock(zram, index + i);
		mark_slot_accessed(zram, index + i);
		slot_unlock(zram, index + i);
	}
	return 0;
}

/*
 * Store the block of pages from @page (of one folio, not highmem: see the
 * Kconfig dependency) at slots @index.. as one compressed object, or page
 * by page where a block object does not pay or cannot be had.
 */
static int zram_write_block(struct zram *zram, struct page *page, u32 index)
{
	struct zcomp *comp = zram->comps[ZRAM_PRIMARY_COMP];
	struct zram_block_stats *bs = &zram->block_stats;
	unsigned int nr = zram_block_pages(zram);
	void *src = page_address(page);
	struct zcomp_strm *zstrm;
	unsigned int comp_len, i;
	unsigned long element;
	struct zram_block *blk;
	unsigned long handle;
	int ret;

	if (zram_block_same_filled(src, nr, &element)) {
		atomic64_inc(&bs->same_blocks);
		return zram_write_block_as_pages(zram, page, index,
						 ZRAM_PAGES_SAME, element);
	}

	zstrm = zcomp_stream_get(comp);
	ret = zcomp_compress(comp, zstrm, src, nr * PAGE_SIZE, &comp_len);
	if (unlikely(ret)) {
		zcomp_stream_put(zstrm);
		pr_err("Compression failed! err=%d\n", ret);
		return ret;
	}

	if (comp_len >= zram->block_huge_size) {
		zcomp_stream_put(zstrm);
		atomic64_inc(&bs->huge_blocks);
		/*
		 * A page of the block that compressed on its own would have
		 * shrunk the block by about as much, as the compressors grow
		 * data they cannot compress by well under a page: when the
		 * block did not shrink at all, its pages would not go below
		 * huge_class_size either, and compressing each again would
		 * only double the work.
		 */
		return zram_write_block_as_pages(zram, page, index,
						 comp_len >= nr * PAGE_SIZE ?
						 ZRAM_PAGES_RAW :
						 ZRAM_PAGES_COMPRESSED, 0);
	}

	handle = zs_malloc(zram->mem_pool, comp_len,
			   GFP_NOIO | __GFP_NOWARN |
			   __GFP_HIGHMEM | __GFP_MOVABLE, page_to_nid(page));
	if (IS_ERR_VALUE(handle)) {
		zcomp_stream_put(zstrm);
		/* pages need smaller objects: they may still fit */
		atomic64_inc(&bs->nomem_blocks);
		return zram_write_block_as_pages(zram, page, index,
						 ZRAM_PAGES_COMPRESSED, 0);
	}

	if (!zram_can_store_page(zram)) {
		zcomp_stream_put(zstrm);
		zs_free(zram->mem_pool, handle);
		return -ENOMEM;
	}

	zs_obj_write(zram->mem_pool, handle, zstrm->buffer, comp_len);
	zcomp_stream_put(zstrm);

	slot_lock(zram, index);
	for (i = 0; i < nr; i++)
		slot_free(zram, index + i);
	blk = zram_block_of(zram, index);
	blk->handle = handle;
	blk->size = comp_len;
	blk->live = BIT(nr) - 1;
	blk->gen = atomic64_inc_return(&zram->block_gen);
	for (i = 0; i < nr; i++) {
		set_slot_flag(zram, index + i, ZRAM_MULTI);
		mark_slot_accessed(zram, index + i);
	}
	slot_unlock(zram, index);

	atomic64_add(nr, &zram->stats.pages_stored);
	atomic64_add(comp_len, &zram->stats.compr_data_size);
	atomic64_inc(&bs->blocks_stored);
	atomic64_inc(&bs->blocks_written);
	return 0;
}

/*
 * Copy a block decompressed into the stream buffer out to the segments of
 * @bio from @iter on, however many: the small folios of a swap-in or of a
 * page cache read, or large folios not aligned to the block.
 */
static void zram_copy_block_to_bio(const void *src, size_t size,
				   struct bio *bio, struct bvec_iter iter)
{
	unsigned int done = 0;
	struct bio_vec bv;

	while (done < size) {
		bv = bio_iter_iovec(bio, iter);
		bv.bv_len = min_t(u32, bv.bv_len, size - done);
		memcpy_to_bvec(&bv, src + done);
		flush_dcache_page(bv.bv_page);
		done += bv.bv_len;
		bio_advance_iter_single(bio, &iter, bv.bv_len);
	}
}

/*
 * Read the whole stored block that @bio covers from @iter on (a
 * block-aligned slot @index, at least a block left) with one decompression:
 * straight into the pages when one large folio holds the block, else into
 * the stream buffer and copied out. -EAGAIN: the slots do not hold one
 * block object (any more), or a REQ_NOWAIT read found the block locked:
 * read them page by page.
 */
static int zram_read_block(struct zram *zram, struct bio *bio,
			   struct bvec_iter iter, u32 index)
{
	unsigned int nr = zram_block_pages(zram);
	struct zcomp_strm *zstrm;
	struct zram_block *blk;
	struct page *page;
	struct zcomp *comp;
	int ret = -EAGAIN;
	unsigned int i;

	blk = zram_block_of(zram, index);
	/*
	 * A hint without the lock (checked again under it): data stored page
	 * by page goes on at once.
	 */
	if (data_race(blk->live) != BIT(nr) - 1)
		return -EAGAIN;
	if (!slot_lock_read(zram, index, bio_is_nowait(bio)))
		return -EAGAIN;
	if (blk->live != BIT(nr) - 1)
		goto out;

	page = zram_bio_block(zram, bio, iter);
	comp = zram_block_comp(zram, index);
	zstrm = zcomp_stream_get(comp);
	if (page && !block_written_back(zram, index)) {
		ret = zram_decompress_block(zram, blk, comp, zstrm,
					    page_address(page));
		if (!ret) {
			for (i = 0; i < nr; i++)
				flush_dcache_page(page + i);
		}
	} else {
		ret = zram_block_to_buffer(zram, index, comp, &zstrm,
					   bio_is_nowait(bio));
		/* unlocked over a read back, the block must still be whole */
		if (ret == -ESTALE || (ret >= 0 && blk->live != BIT(nr) - 1))
			ret = -EAGAIN;
		if (ret >= 0) {
			zram_copy_block_to_bio(zstrm->buffer, nr * PAGE_SIZE,
					       bio, iter);
			ret = 0;
		}
	}
	zcomp_stream_put(zstrm);
	if (ret == -EAGAIN || ret == -ENOMEM || ret == -EIO)
		goto out;
	/* as for a page: should never happen */
	if (WARN_ON(ret < 0)) {
		pr_err("Decompression failed! err=%d, block at page=%u\n",
		       ret, index);
		goto out;
	}

	for (i = 0; bio_is_access(bio) && i < nr; i++)
		mark_slot_accessed(zram, index + i);
out:
	slot_unlock(zram, index);
	if (!ret)
		atomic64_inc(&zram->block_stats.block_reads);
	return ret;
}

/* A read of @bio from @iter on that may take a whole block at once */
static bool zram_bio_reads_block(struct zram *zram, struct bio *bio,
				 struct bvec_iter iter)
{
	size_t size = zram_block_size(zram);

	return zram_multi_pages(zram) && iter.bi_size >= size &&
	       IS_ALIGNED(iter.bi_sector, size >> SECTOR_SHIFT);
}
#else
static struct page *zram_bio_block(struct zram *zram, struct bio *bio,
				   struct bvec_iter iter)
{
	return NULL;
}

static bool zram_bio_reads_block(struct zram *zram, struct bio *bio,
				 struct bvec_iter iter)
{
	return false;
}

static int zram_write_block(struct zram *zram, struct page *page, u32 index)
{
	return -EOPNOTSUPP;
}

static int zram_read_block(struct zram *zram, struct bio *bio,
			   struct bvec_iter iter, u32 index)
{
	return -EAGAIN;
}
#endif

#ifdef CONFIG_ZRAM_MULTI_COMP
#define RECOMPRESS_IDLE		(1 << 0)
#define RECOMPRESS_HUGE		(1 << 1)

static bool highest_priority_algorithm(struct zram *zram, u32 prio)
{
	u32 p;

	for (p = prio + 1; p < ZRAM_MAX_COMPS; p++) {
		if (zram->comp_algs[p])
			return false;
	}

	return true;
}

#ifdef CONFIG_ZRAM_MULTI_PAGES
/*
 * Recompression of blocks
 *
 * A block object is recompressed as a whole: the block is decompressed with
 * the algorithm that wrote it under the block lock, and compressed again
 * with the secondary one, and stored, with the lock dropped. Compressing a
 * block takes as long as compressing its pages one after another, and a
 * fault on the block must not wait for that. Once the lock is taken again,
 * the new object replaces the old only if the block still holds the
 * object that was decompressed (its generation) and each of its pages
 * still carries the scan's mark. A write, discard or free of one page in
 * between takes that page out of the block and leaves the others' data
 * as it was: the new object still serves them. A read of a page that
 * counts as an access takes the mark away, as it does from a page (the
 * page is no longer cold), and so does the block's rewrite or the free of
 * its last page: the new object is freed then, and the work is lost,
 * never a write. Writeback does not run meanwhile (it and recompression
 * hold the device lock for writing).
 * The new object is kept when it falls into a smaller size class, and its
 * priority is written into every slot still in the block, from where the
 * reads take the algorithm to decompress it with.
 *
 * A block goes by what its live pages are: it is idle when all of them
 * are, incompressible when one of them is (they are marked together), and
 * it takes as many of max_pages as it has live pages. Its size is judged
 * per page of the block: the threshold applies to the object's size
 * divided by the block's pages, and a block sits in the post-processing
 * bucket of that size. A block object is never huge (blocks that do not
 * compress are stored as pages), so type=huge selects no block.
 */

/* Set comp priority @prio on every live slot of block @first */
static void block_set_comp_priority(struct zram *zram, u32 first, u32 prio)
{
	unsigned long live = block_live(zram, first);
	unsigned int i;

	for_each_set_bit(i, &live, zram_block_pages(zram))
		set_slot_comp_priority(zram, first + i, prio);
}

/*
 * Whether the block of slot @index (its lowest live slot) is one for
 * recompression with @prio in @mode. Block should be locked.
 */
static bool block_wants_recompress(struct zram *zram, u32 index, u32 mode,
				   u32 prio)
{
	u32 first = zram_lock_index(zram, index);
	unsigned long live = block_live(zram, first);
	unsigned int i;

	if (mode & RECOMPRESS_HUGE || block_written_back(zram, index))
		return false;
	/* Already compressed with same or higher priority */
	if (get_slot_comp_priority(zram, index) >= prio)
		return false;
	for_each_set_bit(i, &live, zram_block_pages(zram)) {
		if (test_slot_flag(zram, first + i, ZRAM_INCOMPRESSIBLE))
			return false;
		if (mode & RECOMPRESS_IDLE &&
		    !test_slot_flag(zram, first + i, ZRAM_IDLE))
			return false;
	}
	return true;
}

/*
 * Scan slot @index, a slot of a block: places the block when @index is its
 * lowest live slot, the block is not placed yet (a pending free done when
 * the scan unlocked the slot before makes another slot the lowest) and it
 * is one for recompression. Block should be locked. Returns false when out
 * of memory.
 */
static bool scan_block_for_recompress(struct zram *zram, u32 index, u32 mode,
				      u32 prio, struct zram_pp_ctl *ctl)
{
	u32 first = zram_lock_index(zram, index);

	if (index != first + __ffs(block_live(zram, first)) ||
	    test_slot_flag(zram, index, ZRAM_PP_SLOT) ||
	    !block_wants_recompress(zram, index, mode, prio))
		return true;
	return place_pp_block(zram, ctl, index);
}

/*
 * Whether the block at @first still holds the object of generation @gen
 * that recompress_block() decompressed, with the slots it placed. Block
 * should be locked.
 */
static bool block_unchanged(struct zram *zram, u32 first, u64 gen)
{
	return zram_block_of(zram, first)->gen == gen &&
	       block_still_placed(zram, first);
}

/*
 * Recompress the block at @first (placed by scan_block_for_recompress())
 * with the algorithm of @prio, by way of @buf (the block size): see
 * "Recompression of blocks". Block should be locked; the lock is dropped
 * while the block is compressed and taken again.
 */
static int recompress_block(struct zram *zram, u32 first, void *buf,
			    u64 *num_recomp_pages, u32 threshold, u32 prio)
{
	struct zram_block *blk = zram_block_of(zram, first);
	unsigned int nr = zram_block_pages(zram);
	unsigned int comp_len, live, class_old;
	struct zcomp *comp;
	struct zcomp_strm *zstrm;
	unsigned long handle;
	u64 gen;
	int ret;

	/* every page of the block may have been freed since the scan */
	if (!block_still_placed(zram, first))
		return 0;
	live = hweight_long(block_live(zram, first));
	if (*num_recomp_pages < live)
		return 0;
	/* Do not recompress objects that are already "small enough" */
	if (blk->size < (u64)threshold * nr)
		return 0;

	comp = zram_block_comp(zram, first + __ffs(block_live(zram, first)));
	zstrm = zcomp_stream_get(comp);
	ret = zram_decompress_block(zram, blk, comp, zstrm, buf);
	zcomp_stream_put(zstrm);
	if (ret)
		return ret;

	/* As for a page: the block is no longer idle, whatever comes */
	block_clear_flag(zram, first, ZRAM_IDLE);
	class_old = zs_lookup_class_index(zram->mem_pool, blk->size);
	gen = blk->gen;
	/* spent on it, whether it pays or not: as for a page */
	*num_recomp_pages -= live;

	slot_unlock(zram, first);
	comp = zram->comps[prio];
	zstrm = zcomp_stream_get(comp);
	ret = zcomp_compress(comp, zstrm, buf, zram_block_size(zram),
			     &comp_len);
	if (ret) {
		zcomp_stream_put(zstrm);
		slot_lock(zram, first);
		return ret;
	}
	if (zs_lookup_class_index(zram->mem_pool, comp_len) >= class_old ||
	    (threshold && comp_len >= (u64)threshold * nr)) {
		zcomp_stream_put(zstrm);
		slot_lock(zram, first);
		if (highest_priority_algorithm(zram, prio) &&
		    block_unchanged(zram, first, gen))
			block_set_flag(zram, first, ZRAM_INCOMPRESSIBLE);
		return 0;
	}

	/* the stream's lock is held, not the block's: as for a page write */
	handle = zs_malloc(zram->mem_pool, comp_len,
			   GFP_NOIO | __GFP_NOWARN |
			   __GFP_HIGHMEM | __GFP_MOVABLE, numa_node_id());
	if (!IS_ERR_VALUE(handle))
		zs_obj_write(zram->mem_pool, handle, zstrm->buffer, comp_len);
	zcomp_stream_put(zstrm);
	slot_lock(zram, first);
	if (IS_ERR_VALUE(handle))
		return PTR_ERR((void *)handle);

	/* written again or freed meanwhile: the work is lost */
	if (!block_unchanged(zram, first, gen)) {
		zs_free(zram->mem_pool, handle);
		return 0;
	}

	zs_free(zram->mem_pool, blk->handle);
	atomic64_sub(blk->size, &zram->stats.compr_data_size);
	atomic64_add(comp_len, &zram->stats.compr_data_size);
	blk->handle = handle;
	blk->size = comp_len;
	/* a new object: no stream buffer holds it yet */
	blk->gen = atomic64_inc_return(&zram->block_gen);
	block_set_comp_priority(zram, first, prio);
	atomic64_inc(&zram->block_stats.recompressed_blocks);
	return 0;
}
#else
static bool scan_block_for_recompress(struct zram *zram, u32 index, u32 mode,
				      u32 prio, struct zram_pp_ctl *ctl)
{
	return true;
}

static int recompress_block(struct zram *zram, u32 first, void *buf,
			    u64 *num_recomp_pages, u32 threshold, u32 prio)
{
	return -EIO;
}
#endif

static void scan_slots_for_recompress(struct zram *zram, u32 mode, u32 prio,
				      struct zram_pp_ctl *ctl)
{
	unsigned long nr_pages = zram->disksize >> PAGE_SHIFT;
	unsigned long index;

	for (index = 0; index < nr_pages; index++) {
		bool ok = true;

		slot_lock(zram, index);
		if (!slot_allocated(zram, index))
			goto next;

		if (zram_in_block(zram, index)) {
			ok = scan_block_for_recompress(zram, index, mode, prio,
						       ctl);
			goto next;
		}

		if (mode & RECOMPRESS_IDLE &&
		    !test_slot_flag(zram, index, ZRAM_IDLE))
			goto next;

		if (mode & RECOMPRESS_HUGE &&
		    !test_slot_flag(zram, index, ZRAM_HUGE))
			goto next;

		if (test_slot_flag(zram, index, ZRAM_WB) ||
		    test_slot_flag(zram, index, ZRAM_SAME) ||
		    test_slot_flag(zram, index, ZRAM_INCOMPRESSIBLE))
			goto next;

		/* Already compressed with same or higher priority */
		if (get_slot_comp_priority(zram, index) >= prio)
			goto next;

		ok = place_pp_slot(zram, ctl, index);
next:
		slot_unlock(zram, index);
		if (!ok)
			break;
	}
}

/*
 * This function will decompress (unless it's ZRAM_HUGE) the page and then
 * attempt to compress it using provided compression algorithm priority
 * (which is potentially more effective).
 *
 * Corresponding ZRAM slot should be locked.
 */
static int recompress_slot(struct zram *zram, u32 index, struct page *page,
			   u64 *num_recomp_pages, u32 threshold, u32 prio)
{
	struct zcomp_strm *zstrm = NULL;
	unsigned long handle_old;
	unsigned long handle_new;
	unsigned int comp_len_old;
	unsigned int comp_len_new;
	unsigned int class_index_old;
	unsigned int class_index_new;
	void *src;
	int ret = 0;

	handle_old = get_slot_handle(zram, index);
	if (!handle_old)
		return -EINVAL;

	comp_len_old = get_slot_size(zram, index);
	/*
	 * Do not recompress objects that are already "small enough".
	 */
	if (comp_len_old < threshold)
		return 0;

	ret = read_from_zspool(zram, page, index);
	if (ret)
		return ret;

	/*
	 * We touched this entry so mark it as non-IDLE. This makes sure that
	 * we don't preserve IDLE flag and don't incorrectly pick this entry
	 * for different post-processing type (e.g. writeback).
	 */
	clear_slot_flag(zram, index, ZRAM_IDLE);

	zstrm = zcomp_stream_get(zram->comps[prio]);
	src = kmap_local_page(page);
	ret = zcomp_compress(zram->comps[prio], zstrm, src, PAGE_SIZE,
			     &comp_len_new);
	kunmap_local(src);

	/*
	 * Decrement the limit (if set) on pages we can recompress, even
	 * when current recompression was unsuccessful or did not compress
	 * the page below the threshold, because we still spent resources
	 * on it.
	 */
	if (*num_recomp_pages)
		*num_recomp_pages -= 1;

	if (ret) {
		zcomp_stream_put(zstrm);
		return ret;
	}

	class_index_old = zs_lookup_class_index(zram->mem_pool, comp_len_old);
	class_index_new = zs_lookup_class_index(zram->mem_pool, comp_len_new);

	if (class_index_new >= class_index_old ||
	    (threshold && comp_len_new >= threshold)) {
		zcomp_stream_put(zstrm);

		/*
		 * Secondary algorithms failed to re-compress the page
		 * in a way that would save memory.
		 *
		 * Mark the object incompressible if the max-priority (the
		 * last configured one) algorithm couldn't re-compress it.
		 */
		if (highest_priority_algorithm(zram, prio))
			set_slot_flag(zram, index, ZRAM_INCOMPRESSIBLE);
		return 0;
	}

	/*
	 * We are holding per-CPU stream mutex and entry lock so better
	 * avoid direct reclaim.  Allocation error is not fatal since
	 * we still have the old object in the mem_pool.
	 *
	 * XXX: technically, the node we really want here is the node that
	 * holds the original compressed data. But that would require us to
	 * modify zsmalloc API to return this information. For now, we will
	 * make do with the node of the page allocated for recompression.
	 */
	handle_new = zs_malloc(zram->mem_pool, comp_len_new,
			       GFP_NOIO | __GFP_NOWARN |
			       __GFP_HIGHMEM | __GFP_MOVABLE,
			       page_to_nid(page));
	if (IS_ERR_VALUE(handle_new)) {
		zcomp_stream_put(zstrm);
		return PTR_ERR((void *)handle_new);
	}

	zs_obj_write(zram->mem_pool, handle_new, zstrm->buffer, comp_len_new);
	zcomp_stream_put(zstrm);

	slot_free(zram, index);
	set_slot_handle(zram, index, handle_new);
	set_slot_size(zram, index, comp_len_new);
	set_slot_comp_priority(zram, index, prio);

	atomic64_add(comp_len_new, &zram->stats.compr_data_size);
	atomic64_inc(&zram->stats.pages_stored);

	return 0;
}

static ssize_t recompress_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	char *args, *param, *val, *algo = NULL;
	u64 num_recomp_pages = ULLONG_MAX;
	struct zram_pp_ctl *ctl = NULL;
	s32 prio = ZRAM_SECONDARY_COMP;
	u32 mode = 0, threshold = 0;
	struct zram_pp_slot *pps;
	struct page *page = NULL;
	bool prio_param = false;
	void *block_buf = NULL;
	ssize_t ret;

	args = skip_spaces(buf);
	while (*args) {
		args = next_arg(args, &param, &val);

		if (!val || !*val)
			return -EINVAL;

		if (!strcmp(param, "type")) {
			if (!strcmp(val, "idle"))
				mode = RECOMPRESS_IDLE;
			if (!strcmp(val, "huge"))
				mode = RECOMPRESS_HUGE;
			if (!strcmp(val, "huge_idle"))
				mode = RECOMPRESS_IDLE | RECOMPRESS_HUGE;
			if (!mode)
				return -EINVAL;
			continue;
		}

		if (!strcmp(param, "max_pages")) {
			/*
			 * Limit the number of entries (pages) we attempt to
			 * recompress.
			 */
			ret = kstrtoull(val, 10, &num_recomp_pages);
			if (ret)
				return ret;
			continue;
		}

		if (!strcmp(param, "threshold")) {
			/*
			 * We will re-compress only idle objects equal or
			 * greater in size than watermark.
			 */
			ret = kstrtouint(val, 10, &threshold);
			if (ret)
				return ret;
			continue;
		}

		if (!strcmp(param, "algo")) {
			algo = val;
			continue;
		}

		if (!strcmp(param, "priority")) {
			prio_param = true;
			ret = kstrtoint(val, 10, &prio);
			if (ret)
				return ret;
			continue;
		}
	}

	if (threshold >= huge_class_size)
		return -EINVAL;

	guard(rwsem_write)(&zram->dev_lock);
	if (!init_done(zram))
		return -EINVAL;

	if (prio_param) {
		if (prio < ZRAM_SECONDARY_COMP || prio >= ZRAM_MAX_COMPS)
			return -EINVAL;
	}

	if (algo && prio_param) {
		ret = validate_algo_priority(zram, algo, prio);
		if (ret)
			return ret;
	}

	if (algo && !prio_param) {
		prio = lookup_algo_priority(zram, algo, ZRAM_SECONDARY_COMP);
		if (prio < 0)
			return -EINVAL;
	}

	if (!zram->comps[prio])
		return -EINVAL;

	page = alloc_page(GFP_KERNEL);
	if (!page) {
		ret = -ENOMEM;
		goto out;
	}

	if (zram_multi_pages(zram)) {
		block_buf = vmalloc(zram_block_size(zram));
		if (!block_buf) {
			ret = -ENOMEM;
			goto out;
		}
	}

	ctl = init_pp_ctl();
	if (!ctl) {
		ret = -ENOMEM;
		goto out;
	}

	scan_slots_for_recompress(zram, mode, prio, ctl);

	ret = len;
	while ((pps = select_pp_slot(ctl))) {
		int err = 0;

		if (!num_recomp_pages)
			break;

		slot_lock(zram, pps->index);
		if (pps->nr > 1) {
			err = recompress_block(zram, pps->index, block_buf,
					       &num_recomp_pages, threshold,
					       prio);
			goto next;
		}
		if (!test_slot_flag(zram, pps->index, ZRAM_PP_SLOT))
			goto next;

		err = recompress_slot(zram, pps->index, page,
				      &num_recomp_pages, threshold, prio);
next:
		slot_unlock(zram, pps->index);
		release_pp_slot(zram, pps);

		if (err) {
			ret = err;
			break;
		}

		cond_resched();
	}

out:
	if (page)
		__free_page(page);
	vfree(block_buf);
	release_pp_ctl(zram, ctl);
	return ret;
}
#endif

static void zram_bio_discard(struct zram *zram, struct bio *bio)
{
	size_t n = bio->bi_iter.bi_size;
	u32 index = bio->bi_iter.bi_sector >> SECTORS_PER_PAGE_SHIFT;
	u32 offset = (bio->bi_iter.bi_sector & (SECTORS_PER_PAGE - 1)) <<
			SECTOR_SHIFT;

	/*
	 * zram manages data in physical block size units. Because logical block
	 * size isn't identical with physical block size on some arch, we
	 * could get a discard request pointing to a specific offset within a
	 * certain physical block.  Although we can handle this request by
	 * reading that physiclal block and decompressing and partially zeroing
	 * and re-compressing and then re-storing it, this isn't reasonable
	 * because our intent with a discard request is to save memory.  So
	 * skipping this logical block is appropriate here.
	 */
	if (offset) {
		if (n <= (PAGE_SIZE - offset))
			goto end_bio;

		n -= (PAGE_SIZE - offset);
		index++;
	}

	while (n >= PAGE_SIZE) {
		slot_lock(zram, index);
		slot_free(zram, index);
		slot_unlock(zram, index);
		atomic64_inc(&zram->stats.notify_free);
		index++;
		n -= PAGE_SIZE;
	}

end_bio:
	bio_endio(bio);
}

static void zram_bio_read(struct zram *zram, struct bio *bio)
{
	unsigned long start_time = bio_start_io_acct(bio);
	struct bvec_iter iter = bio->bi_iter;
	struct zram_bd_reads bdr = { .parent = bio };

	do {
		u32 index = iter.bi_sector >> SECTORS_PER_PAGE_SHIFT;
		u32 offset = (iter.bi_sector & (SECTORS_PER_PAGE - 1)) <<
				SECTOR_SHIFT;
		struct bio_vec bv;
		int ret;

		if (zram_bio_reads_block(zram, bio, iter)) {
			ret = zram_read_block(zram, bio, iter, index);
			if (ret != -EAGAIN) {
				if (ret < 0) {
					atomic64_inc(&zram->stats.failed_reads);
					bio->bi_status = BLK_STS_IOERR;
					break;
				}
				/* the block may span several segments */
				bio_advance_iter(bio, &iter, zram_block_size(zram));
				continue;
			}
		}

		bv = bio_iter_iovec(bio, iter);
		bv.bv_len = min_t(u32, bv.bv_len, PAGE_SIZE - offset);

		bdr.pages_left = DIV_ROUND_UP(iter.bi_size, PAGE_SIZE);
		ret = zram_bvec_read(zram, &bv, index, offset, &bdr);
		if (ret == -EAGAIN && bio_is_nowait(bio)) {
			/* a REQ_NOWAIT read, declined (see zram_read_page()) */
			bio->bi_status = BLK_STS_AGAIN;
			break;
		}
		if (ret < 0) {
			atomic64_inc(&zram->stats.failed_reads);
			bio->bi_status = BLK_STS_IOERR;
			break;
		}
		flush_dcache_page(bv.bv_page);
		bio_advance_iter_single(bio, &iter, bv.bv_len);
	} while (iter.bi_size);

	zram_bd_reads_submit(&bdr);
	bio_end_io_acct(bio, start_time);
	bio_endio(bio);
}

static void zram_bio_write(struct zram *zram, struct bio *bio)
{
	unsigned long start_time = bio_start_io_acct(bio);
	struct bvec_iter iter = bio->bi_iter;

	do {
		u32 index = iter.bi_sector >> SECTORS_PER_PAGE_SHIFT;
		u32 offset = (iter.bi_sector & (SECTORS_PER_PAGE - 1)) <<
				SECTOR_SHIFT;
		struct page *block = zram_bio_block(zram, bio, iter);
		struct bio_vec bv;

		if (block) {
			if (zram_write_block(zram, block, index) < 0) {
				atomic64_inc(&zram->stats.failed_writes);
				bio->bi_status = BLK_STS_IOERR;
				break;
			}
			bio_advance_iter(bio, &iter, zram_block_size(zram));
			continue;
		}

		bv = bio_iter_iovec(bio, iter);
		bv.bv_len = min_t(u32, bv.bv_len, PAGE_SIZE - offset);

		if (zram_bvec_write(zram, &bv, index, offset) < 0) {
			atomic64_inc(&zram->stats.failed_writes);
			bio->bi_status = BLK_STS_IOERR;
			break;
		}

		slot_lock(zram, index);
		mark_slot_accessed(zram, index);
		slot_unlock(zram, index);

		bio_advance_iter_single(bio, &iter, bv.bv_len);
	} while (iter.bi_size);

	bio_end_io_acct(bio, start_time);
	bio_endio(bio);
}

/*
 * Handler function for all zram I/O requests.
 */
static void zram_submit_bio(struct bio *bio)
{
	struct zram *zram = bio->bi_bdev->bd_disk->private_data;

	if (bio_op(bio) != REQ_OP_READ && bio_is_nowait(bio)) {
		bio_wouldblock_error(bio);
		return;
	}

	switch (bio_op(bio)) {
	case REQ_OP_READ:
		zram_bio_read(zram, bio);
		break;
	case REQ_OP_WRITE:
		zram_bio_write(zram, bio);
		break;
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		zram_bio_discard(zram, bio);
		break;
	default:
		WARN_ON_ONCE(1);
		bio_endio(bio);
	}
}

#ifdef CONFIG_ZRAM_MULTI_PAGES
/*
 * Called under the swap cluster spinlock: the block lock, held by a
 * reader or writer of any slot of the block (maybe across a block
 * decompression), cannot be waited for. A missed free would keep the
 * page, and in a block the whole block object, until the slot is
 * written again: record it in the block's pending mask instead, in
 * zram_block, never in the slot's own flags word, which the lock
 * holder updates non-atomically. The holder does it when unlocking,
 * or, if it already looked, the trylock below or the lock's next
 * holder does (see slot_unlock() for the barrier pairing).
 */
static noinline void zram_slot_free_defer(struct zram *zram, u32 index)
{
	set_bit(index & (zram_block_pages(zram) - 1),
		&zram_block_of(zram, index)->pending);
	/* Pairs with clear_and_wake_up_bit()'s barrier in slot_unlock() */
	smp_mb__after_atomic();
	if (slot_trylock(zram, index)) {
		slot_unlock(zram, index);
		return;
	}
	/* left to the holder of the lock */
	atomic64_inc(&zram->block_stats.deferred_frees);
}
#else
static void zram_slot_free_defer(struct zram *zram, u32 index)
{
}
#endif

static void zram_slot_free_notify(struct block_device *bdev,
				unsigned long index)
{
	struct zram *zram;

	zram = bdev->bd_disk->private_data;

	atomic64_inc(&zram->stats.notify_free);
	if (slot_trylock(zram, index)) {
		slot_free(zram, index);
		slot_unlock(zram, index);
		return;
	}

	if (!zram_multi_pages(zram)) {
		atomic64_inc(&zram->stats.miss_free);
		return;
	}
	zram_slot_free_defer(zram, index);
}

static void zram_comp_params_reset(struct zram *zram)
{
	u32 prio;

	for (prio = ZRAM_PRIMARY_COMP; prio < ZRAM_MAX_COMPS; prio++) {
		comp_params_reset(zram, prio);
	}
}

static void zram_destroy_comps(struct zram *zram)
{
	u32 prio;

	for (prio = ZRAM_PRIMARY_COMP; prio < ZRAM_MAX_COMPS; prio++) {
		struct zcomp *comp = zram->comps[prio];

		zram->comps[prio] = NULL;
		if (!comp)
			continue;
		zcomp_destroy(comp);
	}

	for (prio = ZRAM_PRIMARY_COMP; prio < ZRAM_MAX_COMPS; prio++)
		zram->comp_algs[prio] = NULL;

	zram_comp_params_reset(zram);
	comp_algorithm_set(zram, ZRAM_PRIMARY_COMP, default_compressor);
}

#ifdef CONFIG_ZRAM_MULTI_PAGES
/*
 * The device's optimal I/O size is its block size while it stores blocks,
 * so that a reader that cannot take a whole block (swap, when it cannot
 * have the large folio) knows which pages to read together, and the device
 * takes the REQ_NOWAIT reads of that fill (bio_is_nowait()). Without
 * THP_SWAP, swap writes no large folio and finds no block to read: the
 * device keeps a page and waits as it always did. The queue has no I/O in
 * flight when they change (the device is being initialized or reset).
 *
 * A larger io_opt raises the read-ahead to two of it, and nothing lowers it
 * again (blk_apply_bdi_limits()): a reset gives back the read-ahead of
 * before, unless it was changed in between (read_ahead_kb).
 */
static void zram_set_io_opt(struct zram *zram, unsigned int io_opt)
{
	struct backing_dev_info *bdi = zram->disk->bdi;
	struct request_queue *q = zram->disk->queue;
	struct queue_limits lim;
	unsigned long ra_pages;

	if (!IS_ENABLED(CONFIG_THP_SWAP))
		io_opt = PAGE_SIZE;
	if (queue_io_opt(q) == io_opt)
		return;
	lim = queue_limits_start_update(q);
	lim.io_opt = io_opt;
	if (io_opt > PAGE_SIZE)
		lim.features |= BLK_FEAT_NOWAIT;
	else
		lim.features &= ~BLK_FEAT_NOWAIT;
	ra_pages = bdi->ra_pages;
	if (queue_limits_commit_update_frozen(q, &lim)) {
		pr_warn("Cannot set the optimal I/O size to %u\n", io_opt);
		return;
	}

	/* only for q->limits_lock, which read_ahead_kb's store takes too */
	lim = queue_limits_start_update(q);
	if (io_opt > PAGE_SIZE) {
		zram->ra_pages = ra_pages;
		zram->raised_ra_pages = bdi->ra_pages;
	} else if (bdi->ra_pages == zram->raised_ra_pages) {
		WRITE_ONCE(bdi->ra_pages, zram->ra_pages);
	}
	queue_limits_cancel_update(q);
}
#else
static inline void zram_set_io_opt(struct zram *zram, unsigned int io_opt)
{
}
#endif

static void zram_reset_device(struct zram *zram)
{
	guard(rwsem_write)(&zram->dev_lock);

	zram->limit_pages = 0;

	set_capacity_and_notify(zram->disk, 0);
	part_stat_set_all(zram->disk->part0, 0);

	/* I/O operation under all of CPU are done so let's free */
	zram_meta_free(zram, zram->disksize);
	zram->disksize = 0;
	zram_destroy_comps(zram);
	memset(&zram->stats, 0, sizeof(zram->stats));
#ifdef CONFIG_ZRAM_MULTI_PAGES
	memset(&zram->block_stats, 0, sizeof(zram->block_stats));
#endif
	reset_bdev(zram);
	zram_set_io_opt(zram, PAGE_SIZE);
}

static ssize_t disksize_store(struct device *dev, struct device_attribute *attr,
			      const char *buf, size_t len)
{
	u64 disksize;
	struct zcomp *comp;
	struct zram *zram = dev_to_zram(dev);
	int err;
	u32 prio;

	/* Slots are indexed by u32, and PAGE_ALIGN() must not wrap */
	if (zram_parse_size(buf, &disksize) || !disksize ||
	    disksize > ((u64)U32_MAX << PAGE_SHIFT))
		return -EINVAL;

	guard(rwsem_write)(&zram->dev_lock);
	if (init_done(zram)) {
		pr_info("Cannot change disksize for initialized device\n");
		return -EBUSY;
	}

	disksize = PAGE_ALIGN(disksize);
	if (!zram_meta_alloc(zram, disksize))
		return -ENOMEM;

	for (prio = ZRAM_PRIMARY_COMP; prio < ZRAM_MAX_COMPS; prio++) {
		if (!zram->comp_algs[prio])
			continue;

#ifdef CONFIG_ZRAM_MULTI_PAGES
		/* recompression takes blocks as they are, too */
		zram->params[prio].block_size = zram_block_size(zram);
#endif
		comp = zcomp_create(zram->comp_algs[prio],
				    &zram->params[prio]);
		if (IS_ERR(comp)) {
			pr_err("Cannot initialise %s compressing backend\n",
			       zram->comp_algs[prio]);
			err = PTR_ERR(comp);
			goto out_free_comps;
		}

		zram->comps[prio] = comp;
	}
	zram->disksize = disksize;
	zram_set_io_opt(zram, zram_block_size(zram));
	set_capacity_and_notify(zram->disk, zram->disksize >> SECTOR_SHIFT);

	return len;

out_free_comps:
	zram_destroy_comps(zram);
	zram_meta_free(zram, disksize);
	return err;
}

static ssize_t reset_store(struct device *dev,
		struct device_attribute *attr, const char *buf, size_t len)
{
	int ret;
	unsigned short do_reset;
	struct zram *zram;
	struct gendisk *disk;

	ret = kstrtou16(buf, 10, &do_reset);
	if (ret)
		return ret;

	if (!do_reset)
		return -EINVAL;

	zram = dev_to_zram(dev);
	disk = zram->disk;

	mutex_lock(&disk->open_mutex);
	/* Do not reset an active device or claimed device */
	if (disk_openers(disk) || zram->claim) {
		mutex_unlock(&disk->open_mutex);
		return -EBUSY;
	}

	/* From now on, anyone can't open /dev/zram[0-9] */
	zram->claim = true;
	mutex_unlock(&disk->open_mutex);

	/* Make sure all the pending I/O are finished */
	sync_blockdev(disk->part0);
	zram_reset_device(zram);

	mutex_lock(&disk->open_mutex);
	zram->claim = false;
	mutex_unlock(&disk->open_mutex);

	return len;
}

static int zram_open(struct gendisk *disk, blk_mode_t mode)
{
	struct zram *zram = disk->private_data;

	WARN_ON(!mutex_is_locked(&disk->open_mutex));

	/* zram was claimed to reset so open request fails */
	if (zram->claim)
		return -EBUSY;
	return 0;
}

static const struct block_device_operations zram_devops = {
	.open = zram_open,
	.submit_bio = zram_submit_bio,
	.swap_slot_free_notify = zram_slot_free_notify,
	.owner = THIS_MODULE
};

static DEVICE_ATTR_RO(io_stat);
static DEVICE_ATTR_RO(mm_stat);
static DEVICE_ATTR_RO(debug_stat);
static DEVICE_ATTR_WO(compact);
static DEVICE_ATTR_RW(disksize);
static DEVICE_ATTR_RO(initstate);
static DEVICE_ATTR_WO(reset);
static DEVICE_ATTR_WO(mem_limit);
static DEVICE_ATTR_WO(mem_used_max);
static DEVICE_ATTR_WO(idle);
static DEVICE_ATTR_RW(comp_algorithm);
#ifdef CONFIG_ZRAM_WRITEBACK
static DEVICE_ATTR_RO(bd_stat);
static DEVICE_ATTR_RW(backing_dev);
static DEVICE_ATTR_WO(writeback);
static DEVICE_ATTR_RW(writeback_limit);
static DEVICE_ATTR_RW(writeback_limit_enable);
static DEVICE_ATTR_RW(writeback_batch_size);
static DEVICE_ATTR_RW(compressed_writeback);
#endif
#ifdef CONFIG_ZRAM_MULTI_COMP
static DEVICE_ATTR_RW(recomp_algorithm);
static DEVICE_ATTR_WO(recompress);
#endif
static DEVICE_ATTR_WO(algorithm_params);
#ifdef CONFIG_ZRAM_MULTI_PAGES
static DEVICE_ATTR_RW(multi_pages);
static DEVICE_ATTR_RW(block_size);
static DEVICE_ATTR_RO(multi_pages_stat);
#endif

static struct attribute *zram_disk_attrs[] = {
	&dev_attr_disksize.attr,
	&dev_attr_initstate.attr,
	&dev_attr_reset.attr,
	&dev_attr_compact.attr,
	&dev_attr_mem_limit.attr,
	&dev_attr_mem_used_max.attr,
	&dev_attr_idle.attr,
	&dev_attr_comp_algorithm.attr,
#ifdef CONFIG_ZRAM_WRITEBACK
	&dev_attr_bd_stat.attr,
	&dev_attr_backing_dev.attr,
	&dev_attr_writeback.attr,
	&dev_attr_writeback_limit.attr,
	&dev_attr_writeback_limit_enable.attr,
	&dev_attr_writeback_batch_size.attr,
	&dev_attr_compressed_writeback.attr,
#endif
	&dev_attr_io_stat.attr,
	&dev_attr_mm_stat.attr,
	&dev_attr_debug_stat.attr,
#ifdef CONFIG_ZRAM_MULTI_COMP
	&dev_attr_recomp_algorithm.attr,
	&dev_attr_recompress.attr,
#endif
	&dev_attr_algorithm_params.attr,
#ifdef CONFIG_ZRAM_MULTI_PAGES
	&dev_attr_multi_pages.attr,
	&dev_attr_block_size.attr,
	&dev_attr_multi_pages_stat.attr,
#endif
	NULL,
};

ATTRIBUTE_GROUPS(zram_disk);

/*
 * Allocate and initialize new zram device. the function returns
 * '>= 0' device_id upon success, and negative value otherwise.
 */
static int zram_add(void)
{
	struct queue_limits lim = {
		.logical_block_size		= ZRAM_LOGICAL_BLOCK_SIZE,
		/*
		 * To ensure that we always get PAGE_SIZE aligned and
		 * n*PAGE_SIZED sized I/O requests.
		 */
		.physical_block_size		= PAGE_SIZE,
		.io_min				= PAGE_SIZE,
		.io_opt				= PAGE_SIZE,
		.max_hw_discard_sectors		= UINT_MAX,
		/*
		 * zram_bio_discard() will clear all logical blocks if logical
		 * block size is identical with physical block size(PAGE_SIZE).
		 * But if it is different, we will skip discarding some parts of
		 * logical blocks in the part of the request range which isn't
		 * aligned to physical block size.  So we can't ensure that all
		 * discarded logical blocks are zeroed.
		 */
#if ZRAM_LOGICAL_BLOCK_SIZE == PAGE_SIZE
		.max_write_zeroes_sectors	= UINT_MAX,
#endif
		.features			= BLK_FEAT_STABLE_WRITES |
						  BLK_FEAT_SYNCHRONOUS,
	};
	struct zram *zram;
	int ret, device_id;

	zram = kzalloc_obj(struct zram);
	if (!zram)
		return -ENOMEM;

	ret = idr_alloc(&zram_index_idr, zram, 0, 0, GFP_KERNEL);
	if (ret < 0)
		goto out_free_dev;
	device_id = ret;

	init_rwsem(&zram->dev_lock);
#ifdef CONFIG_ZRAM_WRITEBACK
	zram->wb_batch_size = 32;
	zram->compressed_wb = false;
#endif

	/* gendisk structure */
	zram->disk = blk_alloc_disk(&lim, NUMA_NO_NODE);
	if (IS_ERR(zram->disk)) {
		pr_err("Error allocating disk structure for device %d\n",
			device_id);
		ret = PTR_ERR(zram->disk);
		goto out_free_idr;
	}

	zram->disk->major = zram_major;
	zram->disk->first_minor = device_id;
	zram->disk->minors = 1;
	zram->disk->flags |= GENHD_FL_NO_PART;
	zram->disk->fops = &zram_devops;
	zram->disk->private_data = zram;
	snprintf(zram->disk->disk_name, 16, "zram%d", device_id);
	zram_comp_params_reset(zram);
	comp_algorithm_set(zram, ZRAM_PRIMARY_COMP, default_compressor);
#ifdef CONFIG_ZRAM_MULTI_PAGES
	zram->block_order = CONFIG_ZRAM_DEF_BLOCK_ORDER;
#endif

	/* Actual capacity set using sysfs (/sys/block/zram<id>/disksize */
	set_capacity(zram->disk, 0);
	ret = device_add_disk(NULL, zram->disk, zram_disk_groups);
	if (ret)
		goto out_cleanup_disk;

	zram_debugfs_register(zram);
	pr_info("Added device: %s\n", zram->disk->disk_name);
	return device_id;

out_cleanup_disk:
	put_disk(zram->disk);
out_free_idr:
	idr_remove(&zram_index_idr, device_id);
out_free_dev:
	kfree(zram);
	return ret;
}

static int zram_remove(struct zram *zram)
{
	bool claimed;

	mutex_lock(&zram->disk->open_mutex);
	if (disk_openers(zram->disk)) {
		mutex_unlock(&zram->disk->open_mutex);
		return -EBUSY;
	}

	claimed = zram->claim;
	if (!claimed)
		zram->claim = true;
	mutex_unlock(&zram->disk->open_mutex);

	zram_debugfs_unregister(zram);

	if (claimed) {
		/*
		 * If we were claimed by reset_store(), del_gendisk() will
		 * wait until reset_store() is done, so nothing need to do.
		 */
		;
	} else {
		/* Make sure all the pending I/O are finished */
		sync_blockdev(zram->disk->part0);
		zram_reset_device(zram);
	}

	pr_info("Removed device: %s\n", zram->disk->disk_name);

	del_gendisk(zram->disk);

	/* del_gendisk drains pending reset_store */
	WARN_ON_ONCE(claimed && zram->claim);

	/*
	 * disksize_store() may be called in between zram_reset_device()
	 * and del_gendisk(), so run the last reset to avoid leaking
	 * anything allocated with disksize_store()
	 */
	zram_reset_device(zram);

	put_disk(zram->disk);
	kfree(zram);
	return 0;
}

/* zram-control sysfs attributes */

/*
 * NOTE: hot_add attribute is not the usual read-only sysfs attribute. In a
 * sense that reading from this file does alter the state of your system -- it
 * creates a new un-initialized zram device and returns back this device's
 * device_id (or an error code if it fails to create a new device).
 */
static ssize_t hot_add_show(const struct class *class,
			const struct class_attribute *attr,
			char *buf)
{
	int ret;

	mutex_lock(&zram_index_mutex);
	ret = zram_add();
	mutex_unlock(&zram_index_mutex);

	if (ret < 0)
		return ret;
	return sysfs_emit(buf, "%d\n", ret);
}
/* This attribute must be set to 0400, so CLASS_ATTR_RO() can not be used */
static struct class_attribute class_attr_hot_add =
	__ATTR(hot_add, 0400, hot_add_show, NULL);

static ssize_t hot_remove_store(const struct class *class,
			const struct class_attribute *attr,
			const char *buf,
			size_t count)
{
	struct zram *zram;
	int ret, dev_id;

	/* dev_id is gendisk->first_minor, which is `int' */
	ret = kstrtoint(buf, 10, &dev_id);
	if (ret)
		return ret;
	if (dev_id < 0)
		return -EINVAL;

	mutex_lock(&zram_index_mutex);

	zram = idr_find(&zram_index_idr, dev_id);
	if (zram) {
		ret = zram_remove(zram);
		if (!ret)
			idr_remove(&zram_index_idr, dev_id);
	} else {
		ret = -ENODEV;
	}

	mutex_unlock(&zram_index_mutex);
	return ret ? ret : count;
}
static CLASS_ATTR_WO(hot_remove);

static struct attribute *zram_control_class_attrs[] = {
	&class_attr_hot_add.attr,
	&class_attr_hot_remove.attr,
	NULL,
};
ATTRIBUTE_GROUPS(zram_control_class);

static struct class zram_control_class = {
	.name		= "zram-control",
	.class_groups	= zram_control_class_groups,
};

static int zram_remove_cb(int id, void *ptr, void *data)
{
	WARN_ON_ONCE(zram_remove(ptr));
	return 0;
}

static void destroy_devices(void)
{
	class_unregister(&zram_control_class);
	idr_for_each(&zram_index_idr, &zram_remove_cb, NULL);
	zram_debugfs_destroy();
	idr_destroy(&zram_index_idr);
	unregister_blkdev(zram_major, "zram");
	cpuhp_remove_multi_state(CPUHP_ZCOMP_PREPARE);
}

static int __init zram_init(void)
{
	struct zram_table_entry zram_te;
	int ret;

	BUILD_BUG_ON(__NR_ZRAM_PAGEFLAGS > sizeof(zram_te.attr.flags) * 8);
#ifdef CONFIG_ZRAM_MULTI_PAGES
	/*
	 * zram_block's live and pending masks hold a bit per slot, and
	 * BIT(ZRAM_MAX_BLOCK_PAGES) - 1 must fit in live
	 */
	BUILD_BUG_ON(ZRAM_MAX_BLOCK_PAGES >= 32);
#endif

	ret = cpuhp_setup_state_multi(CPUHP_ZCOMP_PREPARE, "block/zram:prepare",
				      zcomp_cpu_up_prepare, zcomp_cpu_dead);
	if (ret < 0)
		return ret;

	ret = class_register(&zram_control_class);
	if (ret) {
		pr_err("Unable to register zram-control class\n");
		cpuhp_remove_multi_state(CPUHP_ZCOMP_PREPARE);
		return ret;
	}

	zram_debugfs_create();
	zram_major = register_blkdev(0, "zram");
	if (zram_major <= 0) {
		pr_err("Unable to get major number\n");
		class_unregister(&zram_control_class);
		cpuhp_remove_multi_state(CPUHP_ZCOMP_PREPARE);
		return -EBUSY;
	}

	while (num_devices != 0) {
		mutex_lock(&zram_index_mutex);
		ret = zram_add();
		mutex_unlock(&zram_index_mutex);
		if (ret < 0)
			goto out_error;
		num_devices--;
	}

	return 0;

out_error:
	destroy_devices();
	return ret;
}

static void __exit zram_exit(void)
{
	destroy_devices();
}

module_init(zram_init);
module_exit(zram_exit);

module_param(num_devices, uint, 0);
MODULE_PARM_DESC(num_devices, "Number of pre-created zram devices");

MODULE_LICENSE("Dual BSD/GPL");
MODULE_AUTHOR("Nitin Gupta <ngupta@vflare.org>");
MODULE_DESCRIPTION("Compressed RAM Block Device");
