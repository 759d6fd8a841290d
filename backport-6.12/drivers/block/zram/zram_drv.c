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

#define KMSG_COMPONENT "zram"
#define pr_fmt(fmt) KMSG_COMPONENT ": " fmt

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

#include "zram_drv.h"

static DEFINE_IDR(zram_index_idr);
/* idr index must be protected */
static DEFINE_MUTEX(zram_index_mutex);

static int zram_major;
static const char *default_compressor = CONFIG_ZRAM_DEF_COMP;

/* Module params (documentation at end) */
static unsigned int num_devices = 1;
/*
 * Pages that compress to sizes equals or greater than this are stored
 * uncompressed in memory.
 */
static size_t huge_class_size;

static const struct block_device_operations zram_devops;

static void zram_free_page(struct zram *zram, size_t index);
static int zram_read_from_zspool(struct zram *zram, struct page *page,
				 u32 index);

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
 * block on a device of 64 KiB blocks and four on one of 16 KiB blocks.
 * The object's handle and size live in zram->blocks[], one entry a block;
 * each slot of the block carries ZRAM_MULTI and its bit in the block's live
 * mask, and no handle of its own.
 *
 * One lock guards a block: on such a device, the slot lock of any slot is
 * the slot lock of its block's first slot (zram_lock_index()), so every
 * existing path that locks a slot also excludes the rest of its block.
 *
 * Freeing a slot (overwrite, discard, swap slot free, writeback) only
 * drops its live bit; the object goes with the last bit. A page read of a
 * block slot decompresses the block into the stream buffer, tagged with the
 * object's generation so that the next page of the same block read on that
 * CPU is copied from the buffer without decompressing again, and copies the
 * page out; a whole-block read decompresses once, straight into the folio.
 * Blocks that are same-filled, that do not compress below
 * zs_block_huge_size() (their object would cost as much as the pages
 * uncompressed), or that zsmalloc has no memory for, are stored page by
 * page instead.
 *
 * Swap frees slots from zram_slot_free_notify() under its device's swap
 * lock, where the block lock, held across a whole block's decompression
 * (recompression's too), can only be tried. When the try fails, the free is
 * recorded in the block's pending mask and done by whoever holds or next
 * takes the lock: zram_slot_lock() does the pending frees first,
 * zram_slot_unlock() before and after unlocking. A slot freed
 * by swap cannot be written again before swap allocates it again, which
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
		zram_free_page(zram, first + i);
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
 * A holder that only tried for the lock leaves the block's pending frees to
 * zram_slot_unlock(): it reads a slot or frees one, and stores no data that
 * a pending free done after it could take. A REQ_NOWAIT read may so find
 * the old data of a slot whose free is pending; swap reads only slots it
 * holds, which are not free, and a freed slot's data is undefined.
 */
static int zram_slot_trylock(struct zram *zram, u32 index)
{
	return spin_trylock(&zram->table[zram_lock_index(zram, index)].lock);
}

static void zram_slot_lock(struct zram *zram, u32 index)
{
	u32 first = zram_lock_index(zram, index);

	spin_lock(&zram->table[first].lock);
	if (slot_has_pending(zram, first))
		slot_free_pending(zram, first);
}

static void zram_slot_unlock(struct zram *zram, u32 index)
{
	u32 first = zram_lock_index(zram, index);
	spinlock_t *lock = &zram->table[first].lock;

	if (!zram_multi_pages(zram)) {
		spin_unlock(lock);
		return;
	}
	do {
		if (slot_has_pending(zram, first))
			slot_free_pending(zram, first);
		spin_unlock(lock);
		/*
		 * spin_unlock() only releases: order it before the load of
		 * the pending mask, as zram_slot_free_notify() orders its
		 * set_bit() before its trylock. So either its trylock succeeds
		 * and the unlock after it does the free it recorded, or the
		 * free is seen here and done under the lock taken back.
		 */
		smp_mb();
	} while (slot_has_pending(zram, first) && spin_trylock(lock));
}

static inline bool init_done(struct zram *zram)
{
	return zram->disksize;
}

static inline struct zram *dev_to_zram(struct device *dev)
{
	return (struct zram *)dev_to_disk(dev)->private_data;
}

static unsigned long zram_get_handle(struct zram *zram, u32 index)
{
	return zram->table[index].handle;
}

static void zram_set_handle(struct zram *zram, u32 index, unsigned long handle)
{
	zram->table[index].handle = handle;
}

/* flag operations require table entry bit_spin_lock() being held */
static bool zram_test_flag(struct zram *zram, u32 index,
			enum zram_pageflags flag)
{
	return zram->table[index].flags & BIT(flag);
}

static void zram_set_flag(struct zram *zram, u32 index,
			enum zram_pageflags flag)
{
	zram->table[index].flags |= BIT(flag);
}

static void zram_clear_flag(struct zram *zram, u32 index,
			enum zram_pageflags flag)
{
	zram->table[index].flags &= ~BIT(flag);
}

static size_t zram_get_obj_size(struct zram *zram, u32 index)
{
	return zram->table[index].flags & (BIT(ZRAM_FLAG_SHIFT) - 1);
}

static void zram_set_obj_size(struct zram *zram,
					u32 index, size_t size)
{
	unsigned long flags = zram->table[index].flags >> ZRAM_FLAG_SHIFT;

	zram->table[index].flags = (flags << ZRAM_FLAG_SHIFT) | size;
}

/* Slot @index holds its page in a multi-page block object */
static inline bool zram_in_block(struct zram *zram, u32 index)
{
#ifdef CONFIG_ZRAM_MULTI_PAGES
	return zram_test_flag(zram, index, ZRAM_MULTI);
#else
	return false;
#endif
}

static inline bool zram_allocated(struct zram *zram, u32 index)
{
	return zram_get_obj_size(zram, index) ||
			zram_test_flag(zram, index, ZRAM_SAME) ||
			zram_in_block(zram, index) ||
			zram_test_flag(zram, index, ZRAM_WB);
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

static inline void zram_set_priority(struct zram *zram, u32 index, u32 prio)
{
	prio &= ZRAM_COMP_PRIORITY_MASK;
	/*
	 * Clear previous priority value first, in case if we recompress
	 * further an already recompressed page
	 */
	zram->table[index].flags &= ~(ZRAM_COMP_PRIORITY_MASK <<
				      ZRAM_COMP_PRIORITY_BIT1);
	zram->table[index].flags |= (prio << ZRAM_COMP_PRIORITY_BIT1);
}

static inline u32 zram_get_priority(struct zram *zram, u32 index)
{
	u32 prio = zram->table[index].flags >> ZRAM_COMP_PRIORITY_BIT1;

	return prio & ZRAM_COMP_PRIORITY_MASK;
}

static void zram_accessed(struct zram *zram, u32 index)
{
	zram_clear_flag(zram, index, ZRAM_IDLE);
#ifdef CONFIG_ZRAM_TRACK_ENTRY_ACTIME
	zram->table[index].ac_time = ktime_get_boottime();
#endif
}

/*
 * A device that stores blocks for swap (zram_set_io_opt()) takes REQ_NOWAIT
 * reads (BLK_FEAT_NOWAIT), for swap's fill of a block: it serves them from
 * memory and ends them with BLK_STS_AGAIN where they would wait, for the
 * backing device, for memory (a page read in part) or for a slot lock that
 * another path holds; the submitter may read again without the flag. Such
 * a read may still wait for a CPU's compression stream. zram takes no
 * REQ_NOWAIT write, discard or write of zeroes: storing data may reclaim,
 * and freeing it waits for slot locks.
 */
static bool bio_is_nowait(struct bio *bio)
{
	return bio->bi_opf & REQ_NOWAIT;
}

/* Lock slot @index for a read; a REQ_NOWAIT one (@nowait) only tries */
static bool slot_lock_read(struct zram *zram, u32 index, bool nowait)
{
	if (nowait)
		return zram_slot_trylock(zram, index);
	zram_slot_lock(zram, index);
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

static inline void update_used_max(struct zram *zram,
					const unsigned long pages)
{
	unsigned long cur_max = atomic_long_read(&zram->stats.max_used_pages);

	do {
		if (cur_max >= pages)
			return;
	} while (!atomic_long_try_cmpxchg(&zram->stats.max_used_pages,
					  &cur_max, pages));
}

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

static ssize_t initstate_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	u32 val;
	struct zram *zram = dev_to_zram(dev);

	down_read(&zram->init_lock);
	val = init_done(zram);
	up_read(&zram->init_lock);

	return scnprintf(buf, PAGE_SIZE, "%u\n", val);
}

static ssize_t disksize_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	struct zram *zram = dev_to_zram(dev);

	return scnprintf(buf, PAGE_SIZE, "%llu\n", zram->disksize);
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
		struct device_attribute *attr, const char *buf, size_t len)
{
	u64 limit;
	struct zram *zram = dev_to_zram(dev);

	/* PAGE_ALIGN() must not wrap */
	if (zram_parse_size(buf, &limit) || limit > U64_MAX - PAGE_SIZE + 1)
		return -EINVAL;

	down_write(&zram->init_lock);
	zram->limit_pages = PAGE_ALIGN(limit) >> PAGE_SHIFT;
	up_write(&zram->init_lock);

	return len;
}

static ssize_t mem_used_max_store(struct device *dev,
		struct device_attribute *attr, const char *buf, size_t len)
{
	int err;
	unsigned long val;
	struct zram *zram = dev_to_zram(dev);

	err = kstrtoul(buf, 10, &val);
	if (err || val != 0)
		return -EINVAL;

	down_read(&zram->init_lock);
	if (init_done(zram)) {
		atomic_long_set(&zram->stats.max_used_pages,
				zs_get_total_pages(zram->mem_pool));
	}
	up_read(&zram->init_lock);

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
		 * Do not mark ZRAM_UNDER_WB slot as ZRAM_IDLE to close race.
		 * See the comment in writeback_store.
		 *
		 * Also do not mark ZRAM_SAME slots as ZRAM_IDLE, because no
		 * post-processing (recompress, writeback) happens to the
		 * ZRAM_SAME slot.
		 *
		 * And ZRAM_WB slots simply cannot be ZRAM_IDLE.
		 */
		zram_slot_lock(zram, index);
		if (!zram_allocated(zram, index) ||
		    zram_test_flag(zram, index, ZRAM_WB) ||
		    zram_test_flag(zram, index, ZRAM_UNDER_WB) ||
		    zram_test_flag(zram, index, ZRAM_SAME)) {
			zram_slot_unlock(zram, index);
			continue;
		}

#ifdef CONFIG_ZRAM_TRACK_ENTRY_ACTIME
		is_idle = !cutoff ||
			ktime_after(cutoff, zram->table[index].ac_time);
#endif
		if (is_idle)
			zram_set_flag(zram, index, ZRAM_IDLE);
		else
			zram_clear_flag(zram, index, ZRAM_IDLE);
		zram_slot_unlock(zram, index);
	}
}

static ssize_t idle_store(struct device *dev,
		struct device_attribute *attr, const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	ktime_t cutoff_time = 0;
	ssize_t rv = -EINVAL;

	if (!sysfs_streq(buf, "all")) {
		/*
		 * If it did not parse as 'all' try to treat it as an integer
		 * when we have memory tracking enabled.
		 */
		u64 age_sec;

		if (IS_ENABLED(CONFIG_ZRAM_TRACK_ENTRY_ACTIME) && !kstrtoull(buf, 0, &age_sec))
			cutoff_time = ktime_sub(ktime_get_boottime(),
					ns_to_ktime(age_sec * NSEC_PER_SEC));
		else
			goto out;
	}

	down_read(&zram->init_lock);
	if (!init_done(zram))
		goto out_unlock;

	/*
	 * A cutoff_time of 0 marks everything as idle, this is the
	 * "all" behavior.
	 */
	mark_idle(zram, cutoff_time);
	rv = len;

out_unlock:
	up_read(&zram->init_lock);
out:
	return rv;
}

/*
 * The reads from the backing device that one bio's pages need: a page
 * whose backing block follows the one read last joins that read, so the
 * pages of a block, written back together, come back in one request.
 * zram_bio_read() submits the last read.
 */
struct zram_bd_reads {
	struct bio *parent;		/* the bio that the pages are read for */
	struct bio *bio;		/* the read being built, not submitted */
	unsigned long next_blk_idx;	/* the backing block that extends it */
	unsigned int pages_left;	/* pages of @parent from this one on */
};

#ifdef CONFIG_ZRAM_WRITEBACK
static ssize_t writeback_limit_enable_store(struct device *dev,
		struct device_attribute *attr, const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	u64 val;
	ssize_t ret = -EINVAL;

	if (kstrtoull(buf, 10, &val))
		return ret;

	down_read(&zram->init_lock);
	spin_lock(&zram->wb_limit_lock);
	zram->wb_limit_enable = val;
	spin_unlock(&zram->wb_limit_lock);
	up_read(&zram->init_lock);
	ret = len;

	return ret;
}

static ssize_t writeback_limit_enable_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	bool val;
	struct zram *zram = dev_to_zram(dev);

	down_read(&zram->init_lock);
	spin_lock(&zram->wb_limit_lock);
	val = zram->wb_limit_enable;
	spin_unlock(&zram->wb_limit_lock);
	up_read(&zram->init_lock);

	return scnprintf(buf, PAGE_SIZE, "%d\n", val);
}

static ssize_t writeback_limit_store(struct device *dev,
		struct device_attribute *attr, const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	u64 val;
	ssize_t ret = -EINVAL;

	if (kstrtoull(buf, 10, &val))
		return ret;

	down_read(&zram->init_lock);
	spin_lock(&zram->wb_limit_lock);
	zram->bd_wb_limit = val;
	spin_unlock(&zram->wb_limit_lock);
	up_read(&zram->init_lock);
	ret = len;

	return ret;
}

static ssize_t writeback_limit_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	u64 val;
	struct zram *zram = dev_to_zram(dev);

	down_read(&zram->init_lock);
	spin_lock(&zram->wb_limit_lock);
	val = zram->bd_wb_limit;
	spin_unlock(&zram->wb_limit_lock);
	up_read(&zram->init_lock);

	return scnprintf(buf, PAGE_SIZE, "%llu\n", val);
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

	down_read(&zram->init_lock);
	file = zram->backing_dev;
	if (!file) {
		memcpy(buf, "none\n", 5);
		up_read(&zram->init_lock);
		return 5;
	}

	p = file_path(file, buf, PAGE_SIZE - 1);
	if (IS_ERR(p)) {
		ret = PTR_ERR(p);
		goto out;
	}

	ret = strlen(p);
	memmove(buf, p, ret);
	buf[ret++] = '\n';
out:
	up_read(&zram->init_lock);
	return ret;
}

static ssize_t backing_dev_store(struct device *dev,
		struct device_attribute *attr, const char *buf, size_t len)
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

	down_write(&zram->init_lock);
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
	up_write(&zram->init_lock);

	pr_info("setup backing device %s\n", file_name);
	kfree(file_name);

	return len;
out:
	kvfree(bitmap);

	if (backing_dev)
		filp_close(backing_dev, NULL);

	up_write(&zram->init_lock);

	kfree(file_name);

	return err;
}

static unsigned long alloc_block_bdev(struct zram *zram)
{
	unsigned long blk_idx = 1;
retry:
	/* skip 0 bit to confuse zram.handle = 0 */
	blk_idx = find_next_zero_bit(zram->bitmap, zram->nr_pages, blk_idx);
	if (blk_idx == zram->nr_pages)
		return 0;

	if (test_and_set_bit(blk_idx, zram->bitmap))
		goto retry;

	atomic64_inc(&zram->stats.bd_count);
	return blk_idx;
}

static void free_block_bdev(struct zram *zram, unsigned long blk_idx)
{
	int was_set;

	was_set = test_and_clear_bit(blk_idx, zram->bitmap);
	WARN_ON_ONCE(!was_set);
	atomic64_dec(&zram->stats.bd_count);
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
 * Read @page from backing block @entry for @bdr->parent: in the read being
 * built when the block follows its last one, else in a new read. Each
 * read is chained to the parent, which completes after them all.
 */
static void read_from_bdev_async(struct zram *zram, struct page *page,
			unsigned long entry, struct zram_bd_reads *bdr)
{
	unsigned short nr_vecs;
	struct bio *bio;

	if (bdr->bio && entry == bdr->next_blk_idx &&
	    bio_add_page(bdr->bio, page, PAGE_SIZE, 0) == PAGE_SIZE) {
		bdr->next_blk_idx++;
		return;
	}

	zram_bd_reads_submit(bdr);
	nr_vecs = min_t(unsigned int, bdr->pages_left, BIO_MAX_VECS);
	bio = bio_alloc(zram->bdev, nr_vecs, bdr->parent->bi_opf, GFP_NOIO);
	bio->bi_iter.bi_sector = entry * (PAGE_SIZE >> 9);
	__bio_add_page(bio, page, PAGE_SIZE, 0);
	bio_chain(bio, bdr->parent);
	bdr->bio = bio;
	bdr->next_blk_idx = entry + 1;
}

#define PAGE_WB_SIG "page_index="

#define PAGE_WRITEBACK			0
#define HUGE_WRITEBACK			(1<<0)
#define IDLE_WRITEBACK			(1<<1)
#define INCOMPRESSIBLE_WRITEBACK	(1<<2)

#ifdef CONFIG_ZRAM_MULTI_PAGES
/*
 * Whether slot @index, a slot of a block, is one for writeback in @mode:
 * only with every other page still in its block, so that writeback moves
 * blocks whole. Were one page of a block left (read since the idle
 * marking, say), the object would stay in memory for it while the pages
 * written back took backing space as well. Block should be locked.
 */
static bool block_wants_writeback(struct zram *zram, u32 index, int mode)
{
	u32 first = round_down(index, zram_block_pages(zram));
	unsigned long live = zram->blocks[first >> zram_block_order(zram)].live;
	unsigned int i;

	for_each_set_bit(i, &live, zram_block_pages(zram)) {
		if (mode & IDLE_WRITEBACK &&
		    !zram_test_flag(zram, first + i, ZRAM_IDLE))
			return false;
		if (mode & INCOMPRESSIBLE_WRITEBACK &&
		    !zram_test_flag(zram, first + i, ZRAM_INCOMPRESSIBLE))
			return false;
	}
	return true;
}
#else
static bool block_wants_writeback(struct zram *zram, u32 index, int mode)
{
	return true;
}
#endif

static ssize_t writeback_store(struct device *dev,
		struct device_attribute *attr, const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);
	unsigned long nr_pages;
	unsigned long index = 0;
	struct bio bio;
	struct bio_vec bio_vec;
	struct page *page;
	ssize_t ret = len;
	int mode, err;
	unsigned long blk_idx = 0;

	if (sysfs_streq(buf, "idle"))
		mode = IDLE_WRITEBACK;
	else if (sysfs_streq(buf, "huge"))
		mode = HUGE_WRITEBACK;
	else if (sysfs_streq(buf, "huge_idle"))
		mode = IDLE_WRITEBACK | HUGE_WRITEBACK;
	else if (sysfs_streq(buf, "incompressible"))
		mode = INCOMPRESSIBLE_WRITEBACK;
	else {
		if (strncmp(buf, PAGE_WB_SIG, sizeof(PAGE_WB_SIG) - 1))
			return -EINVAL;

		if (kstrtol(buf + sizeof(PAGE_WB_SIG) - 1, 10, &index))
			return -EINVAL;

		mode = PAGE_WRITEBACK;
	}

	down_read(&zram->init_lock);
	if (!init_done(zram)) {
		ret = -EINVAL;
		goto release_init_lock;
	}

	nr_pages = zram->disksize >> PAGE_SHIFT;
	if (mode == PAGE_WRITEBACK) {
		if (index >= nr_pages) {
			up_read(&zram->init_lock);
			return -EINVAL;
		}
		nr_pages = 1;
	}

	/* Do not permit concurrent post-processing actions. */
	if (atomic_xchg(&zram->pp_in_progress, 1)) {
		up_read(&zram->init_lock);
		return -EAGAIN;
	}

	if (!zram->backing_dev) {
		ret = -ENODEV;
		goto release_init_lock;
	}

	page = alloc_page(GFP_KERNEL);
	if (!page) {
		ret = -ENOMEM;
		goto release_init_lock;
	}

	for (; nr_pages != 0; index++, nr_pages--) {
		cond_resched();
		spin_lock(&zram->wb_limit_lock);
		if (zram->wb_limit_enable && !zram->bd_wb_limit) {
			spin_unlock(&zram->wb_limit_lock);
			ret = -EIO;
			break;
		}
		spin_unlock(&zram->wb_limit_lock);

		if (!blk_idx) {
			blk_idx = alloc_block_bdev(zram);
			if (!blk_idx) {
				ret = -ENOSPC;
				break;
			}
		}

		zram_slot_lock(zram, index);
		if (!zram_allocated(zram, index))
			goto next;

		if (zram_test_flag(zram, index, ZRAM_WB) ||
				zram_test_flag(zram, index, ZRAM_SAME) ||
				zram_test_flag(zram, index, ZRAM_UNDER_WB))
			goto next;

		if (mode & IDLE_WRITEBACK &&
		    !zram_test_flag(zram, index, ZRAM_IDLE))
			goto next;
		if (mode & HUGE_WRITEBACK &&
		    !zram_test_flag(zram, index, ZRAM_HUGE))
			goto next;
		if (mode & INCOMPRESSIBLE_WRITEBACK &&
		    !zram_test_flag(zram, index, ZRAM_INCOMPRESSIBLE))
			goto next;
		if (zram_in_block(zram, index) &&
		    !block_wants_writeback(zram, index, mode))
			goto next;

		/*
		 * Clearing ZRAM_UNDER_WB is duty of caller.
		 * IOW, zram_free_page never clear it.
		 */
		zram_set_flag(zram, index, ZRAM_UNDER_WB);
		/* Need for hugepage writeback racing */
		zram_set_flag(zram, index, ZRAM_IDLE);
		if (zram_read_from_zspool(zram, page, index)) {
			zram_clear_flag(zram, index, ZRAM_UNDER_WB);
			zram_clear_flag(zram, index, ZRAM_IDLE);
			goto next;
		}
		zram_slot_unlock(zram, index);

		bio_init(&bio, zram->bdev, &bio_vec, 1,
			 REQ_OP_WRITE | REQ_SYNC);
		bio.bi_iter.bi_sector = blk_idx * (PAGE_SIZE >> 9);
		__bio_add_page(&bio, page, PAGE_SIZE, 0);

		/*
		 * XXX: A single page IO would be inefficient for write
		 * but it would be not bad as starter.
		 */
		err = submit_bio_wait(&bio);
		if (err) {
			zram_slot_lock(zram, index);
			zram_clear_flag(zram, index, ZRAM_UNDER_WB);
			zram_clear_flag(zram, index, ZRAM_IDLE);
			zram_slot_unlock(zram, index);
			/*
			 * BIO errors are not fatal, we continue and simply
			 * attempt to writeback the remaining objects (pages).
			 * At the same time we need to signal user-space that
			 * some writes (at least one, but also could be all of
			 * them) were not successful and we do so by returning
			 * the most recent BIO error.
			 */
			ret = err;
			continue;
		}

		atomic64_inc(&zram->stats.bd_writes);
		/*
		 * We released zram_slot_lock so need to check if the slot was
		 * changed. If there is freeing for the slot, we can catch it
		 * easily by zram_allocated.
		 * A subtle case is the slot is freed/reallocated/marked as
		 * ZRAM_IDLE again. To close the race, idle_store doesn't
		 * mark ZRAM_IDLE once it found the slot was ZRAM_UNDER_WB.
		 * Thus, we could close the race by checking ZRAM_IDLE bit.
		 */
		zram_slot_lock(zram, index);
		if (!zram_allocated(zram, index) ||
			  !zram_test_flag(zram, index, ZRAM_IDLE)) {
			zram_clear_flag(zram, index, ZRAM_UNDER_WB);
			zram_clear_flag(zram, index, ZRAM_IDLE);
			goto next;
		}

		zram_free_page(zram, index);
		zram_clear_flag(zram, index, ZRAM_UNDER_WB);
		zram_set_flag(zram, index, ZRAM_WB);
		zram_set_handle(zram, index, blk_idx);
		blk_idx = 0;
		atomic64_inc(&zram->stats.pages_stored);
		spin_lock(&zram->wb_limit_lock);
		if (zram->wb_limit_enable && zram->bd_wb_limit > 0)
			zram->bd_wb_limit -=  1UL << (PAGE_SHIFT - 12);
		spin_unlock(&zram->wb_limit_lock);
next:
		zram_slot_unlock(zram, index);
	}

	if (blk_idx)
		free_block_bdev(zram, blk_idx);
	__free_page(page);
release_init_lock:
	atomic_set(&zram->pp_in_progress, 0);
	up_read(&zram->init_lock);

	return ret;
}

struct zram_work {
	struct work_struct work;
	struct zram *zram;
	unsigned long entry;
	struct page *page;
	int error;
};

static void zram_sync_read(struct work_struct *work)
{
	struct zram_work *zw = container_of(work, struct zram_work, work);
	struct bio_vec bv;
	struct bio bio;

	bio_init(&bio, zw->zram->bdev, &bv, 1, REQ_OP_READ);
	bio.bi_iter.bi_sector = zw->entry * (PAGE_SIZE >> 9);
	__bio_add_page(&bio, zw->page, PAGE_SIZE, 0);
	zw->error = submit_bio_wait(&bio);
}

/*
 * Block layer want one ->submit_bio to be active at a time, so if we use
 * chained IO with parent IO in same context, it's a deadlock. To avoid that,
 * use a worker thread context.
 */
static int read_from_bdev_sync(struct zram *zram, struct page *page,
				unsigned long entry)
{
	struct zram_work work;

	work.page = page;
	work.zram = zram;
	work.entry = entry;

	INIT_WORK_ONSTACK(&work.work, zram_sync_read);
	queue_work(system_unbound_wq, &work.work);
	flush_work(&work.work);
	destroy_work_on_stack(&work.work);

	return work.error;
}

static int read_from_bdev(struct zram *zram, struct page *page,
			unsigned long entry, struct zram_bd_reads *bdr)
{
	atomic64_inc(&zram->stats.bd_reads);
	if (!bdr)
		return read_from_bdev_sync(zram, page, entry);
	read_from_bdev_async(zram, page, entry, bdr);
	return 0;
}
#else
static inline void reset_bdev(struct zram *zram) {};
static int read_from_bdev(struct zram *zram, struct page *page,
			unsigned long entry, struct zram_bd_reads *bdr)
{
	return -EIO;
}

static void zram_bd_reads_submit(struct zram_bd_reads *bdr)
{
}

static void free_block_bdev(struct zram *zram, unsigned long blk_idx) {};
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

	down_read(&zram->init_lock);
	if (!init_done(zram)) {
		up_read(&zram->init_lock);
		kvfree(kbuf);
		return -EINVAL;
	}

	nr_pages = zram->disksize >> PAGE_SHIFT;

	for (index = *ppos; index < nr_pages; index++) {
		int copied;
		struct timespec64 ts;

		zram_slot_lock(zram, index);
		if (!zram_allocated(zram, index))
			goto next;

		ts = ktime_to_timespec64(zram->table[index].ac_time);
		copied = snprintf(kbuf + written, count,
			"%12zd %12lld.%06lu %c%c%c%c%c%c%s\n",
			index, (s64)ts.tv_sec,
			ts.tv_nsec / NSEC_PER_USEC,
			zram_test_flag(zram, index, ZRAM_SAME) ? 's' : '.',
			zram_test_flag(zram, index, ZRAM_WB) ? 'w' : '.',
			zram_test_flag(zram, index, ZRAM_HUGE) ? 'h' : '.',
			zram_test_flag(zram, index, ZRAM_IDLE) ? 'i' : '.',
			zram_get_priority(zram, index) ? 'r' : '.',
			zram_test_flag(zram, index,
				       ZRAM_INCOMPRESSIBLE) ? 'n' : '.',
			block_state_flag(zram, index));

		if (count <= copied) {
			zram_slot_unlock(zram, index);
			break;
		}
		written += copied;
		count -= copied;
next:
		zram_slot_unlock(zram, index);
		*ppos += 1;
	}

	up_read(&zram->init_lock);
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

/*
 * We switched to per-cpu streams and this attr is not needed anymore.
 * However, we will keep it around for some time, because:
 * a) we may revert per-cpu streams in the future
 * b) it's visible to user space and we need to follow our 2 years
 *    retirement rule; but we already have a number of 'soon to be
 *    altered' attrs, so max_comp_streams need to wait for the next
 *    layoff cycle.
 */
static ssize_t max_comp_streams_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	return scnprintf(buf, PAGE_SIZE, "%d\n", num_online_cpus());
}

static ssize_t max_comp_streams_store(struct device *dev,
		struct device_attribute *attr, const char *buf, size_t len)
{
	return len;
}

static void comp_algorithm_set(struct zram *zram, u32 prio, const char *alg)
{
	/* Do not free statically defined compression algorithms */
	if (zram->comp_algs[prio] != default_compressor)
		kfree(zram->comp_algs[prio]);

	zram->comp_algs[prio] = alg;
}

static ssize_t __comp_algorithm_show(struct zram *zram, u32 prio, char *buf)
{
	ssize_t sz;

	down_read(&zram->init_lock);
	sz = zcomp_available_show(zram->comp_algs[prio], buf);
	up_read(&zram->init_lock);

	return sz;
}

static int __comp_algorithm_store(struct zram *zram, u32 prio, const char *buf)
{
	char *compressor;
	size_t sz;

	sz = strlen(buf);
	if (sz >= CRYPTO_MAX_ALG_NAME)
		return -E2BIG;

	compressor = kstrdup(buf, GFP_KERNEL);
	if (!compressor)
		return -ENOMEM;

	/* ignore trailing newline */
	if (sz > 0 && compressor[sz - 1] == '\n')
		compressor[sz - 1] = 0x00;

	if (!zcomp_available_algorithm(compressor)) {
		kfree(compressor);
		return -EINVAL;
	}

	down_write(&zram->init_lock);
	if (init_done(zram)) {
		up_write(&zram->init_lock);
		kfree(compressor);
		pr_info("Can't change algorithm for initialized device\n");
		return -EBUSY;
	}

	comp_algorithm_set(zram, prio, compressor);
	up_write(&zram->init_lock);
	return 0;
}

static void comp_params_reset(struct zram *zram, u32 prio)
{
	struct zcomp_params *params = &zram->params[prio];

	vfree(params->dict);
	params->level = ZCOMP_PARAM_NO_LEVEL;
	params->dict_sz = 0;
	params->dict = NULL;
}

static int comp_params_store(struct zram *zram, u32 prio, s32 level,
			     const char *dict_path)
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
	return 0;
}

static ssize_t algorithm_params_store(struct device *dev,
				      struct device_attribute *attr,
				      const char *buf,
				      size_t len)
{
	s32 prio = ZRAM_PRIMARY_COMP, level = ZCOMP_PARAM_NO_LEVEL;
	char *args, *param, *val, *algo = NULL, *dict_path = NULL;
	struct zram *zram = dev_to_zram(dev);
	int ret;

	args = skip_spaces(buf);
	while (*args) {
		args = next_arg(args, &param, &val);

		if (!val || !*val)
			return -EINVAL;

		if (!strcmp(param, "priority")) {
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
	}

	/* Lookup priority by algorithm name */
	if (algo) {
		s32 p;

		prio = -EINVAL;
		for (p = ZRAM_PRIMARY_COMP; p < ZRAM_MAX_COMPS; p++) {
			if (!zram->comp_algs[p])
				continue;

			if (!strcmp(zram->comp_algs[p], algo)) {
				prio = p;
				break;
			}
		}
	}

	if (prio < ZRAM_PRIMARY_COMP || prio >= ZRAM_MAX_COMPS)
		return -EINVAL;

	ret = comp_params_store(zram, prio, level, dict_path);
	return ret ? ret : len;
}

static ssize_t comp_algorithm_show(struct device *dev,
				   struct device_attribute *attr,
				   char *buf)
{
	struct zram *zram = dev_to_zram(dev);

	return __comp_algorithm_show(zram, ZRAM_PRIMARY_COMP, buf);
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

	for (prio = ZRAM_SECONDARY_COMP; prio < ZRAM_MAX_COMPS; prio++) {
		if (!zram->comp_algs[prio])
			continue;

		sz += scnprintf(buf + sz, PAGE_SIZE - sz - 2, "#%d: ", prio);
		sz += __comp_algorithm_show(zram, prio, buf + sz);
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

static ssize_t compact_store(struct device *dev,
		struct device_attribute *attr, const char *buf, size_t len)
{
	struct zram *zram = dev_to_zram(dev);

	down_read(&zram->init_lock);
	if (!init_done(zram)) {
		up_read(&zram->init_lock);
		return -EINVAL;
	}

	zs_compact(zram->mem_pool);
	up_read(&zram->init_lock);

	return len;
}

static ssize_t io_stat_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	struct zram *zram = dev_to_zram(dev);
	ssize_t ret;

	down_read(&zram->init_lock);
	ret = scnprintf(buf, PAGE_SIZE,
			"%8llu %8llu 0 %8llu\n",
			(u64)atomic64_read(&zram->stats.failed_reads),
			(u64)atomic64_read(&zram->stats.failed_writes),
			(u64)atomic64_read(&zram->stats.notify_free));
	up_read(&zram->init_lock);

	return ret;
}

static ssize_t mm_stat_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	struct zram *zram = dev_to_zram(dev);
	struct zs_pool_stats pool_stats;
	u64 orig_size, mem_used = 0;
	long max_used;
	ssize_t ret;

	memset(&pool_stats, 0x00, sizeof(struct zs_pool_stats));

	down_read(&zram->init_lock);
	if (init_done(zram)) {
		mem_used = zs_get_total_pages(zram->mem_pool);
		zs_pool_stats(zram->mem_pool, &pool_stats);
	}

	orig_size = atomic64_read(&zram->stats.pages_stored);
	max_used = atomic_long_read(&zram->stats.max_used_pages);

	ret = scnprintf(buf, PAGE_SIZE,
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
	up_read(&zram->init_lock);

	return ret;
}

#ifdef CONFIG_ZRAM_WRITEBACK
#define FOUR_K(x) ((x) * (1 << (PAGE_SHIFT - 12)))
static ssize_t bd_stat_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	struct zram *zram = dev_to_zram(dev);
	ssize_t ret;

	down_read(&zram->init_lock);
	ret = scnprintf(buf, PAGE_SIZE,
		"%8llu %8llu %8llu\n",
			FOUR_K((u64)atomic64_read(&zram->stats.bd_count)),
			FOUR_K((u64)atomic64_read(&zram->stats.bd_reads)),
			FOUR_K((u64)atomic64_read(&zram->stats.bd_writes)));
	up_read(&zram->init_lock);

	return ret;
}
#endif

static ssize_t debug_stat_show(struct device *dev,
		struct device_attribute *attr, char *buf)
{
	int version = 1;
	struct zram *zram = dev_to_zram(dev);
	ssize_t ret;

	down_read(&zram->init_lock);
	ret = scnprintf(buf, PAGE_SIZE,
			"version: %d\n%8llu %8llu\n",
			version,
			(u64)atomic64_read(&zram->stats.writestall),
			(u64)atomic64_read(&zram->stats.miss_free));
#ifdef CONFIG_ZRAM_MULTI_PAGES
	/* How blocks are read: for developers, not an ABI (zram.rst) */
	ret += sysfs_emit_at(buf, ret, "%8llu %8llu\n",
			     (u64)atomic64_read(&zram->block_stats.buffered_reads),
			     (u64)atomic64_read(&zram->block_stats.deferred_frees));
#endif
	up_read(&zram->init_lock);

	return ret;
}

#ifdef CONFIG_ZRAM_MULTI_PAGES
static ssize_t multi_pages_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct zram *zram = dev_to_zram(dev);
	bool val;

	down_read(&zram->init_lock);
	val = zram_multi_pages(zram);
	up_read(&zram->init_lock);

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

	down_write(&zram->init_lock);
	if (init_done(zram)) {
		up_write(&zram->init_lock);
		pr_info("Cannot change multi_pages for initialized device\n");
		return -EBUSY;
	}
	/* 1 keeps a block size already chosen */
	if (!val)
		zram->block_order = 0;
	else if (!zram->block_order)
		zram->block_order = ZRAM_MULTI_PAGES_ON_ORDER;
	up_write(&zram->init_lock);

	return len;
}

static ssize_t block_size_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct zram *zram = dev_to_zram(dev);
	size_t size;

	down_read(&zram->init_lock);
	size = zram_block_size(zram);
	up_read(&zram->init_lock);

	return sysfs_emit(buf, "%zu\n", size);
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

	down_write(&zram->init_lock);
	if (init_done(zram)) {
		up_write(&zram->init_lock);
		pr_info("Cannot change block_size for initialized device\n");
		return -EBUSY;
	}
	zram->block_order = ilog2(size >> PAGE_SHIFT);
	up_write(&zram->init_lock);

	return len;
}

static ssize_t multi_pages_stat_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct zram *zram = dev_to_zram(dev);
	struct zram_block_stats *bs = &zram->block_stats;
	ssize_t ret;

	/*
	 * Mainline's columns, in its order, but its last: there is no
	 * compressed_writeback here to count in written_back_blocks.
	 */
	down_read(&zram->init_lock);
	ret = sysfs_emit(buf,
			 "%8llu %8llu %8llu %8llu %8llu %8llu %8llu %8llu %8llu\n",
			 (u64)atomic64_read(&bs->blocks_stored),
			 (u64)atomic64_read(&bs->blocks_written),
			 (u64)atomic64_read(&bs->block_reads),
			 (u64)atomic64_read(&bs->partial_reads),
			 (u64)atomic64_read(&bs->partial_writes),
			 (u64)atomic64_read(&bs->nomem_blocks),
			 (u64)atomic64_read(&bs->same_blocks),
			 (u64)atomic64_read(&bs->huge_blocks),
			 (u64)atomic64_read(&bs->recompressed_blocks));
	up_read(&zram->init_lock);

	return ret;
}

static DEVICE_ATTR_RW(multi_pages);
static DEVICE_ATTR_RW(block_size);
static DEVICE_ATTR_RO(multi_pages_stat);
#endif

static DEVICE_ATTR_RO(io_stat);
static DEVICE_ATTR_RO(mm_stat);
#ifdef CONFIG_ZRAM_WRITEBACK
static DEVICE_ATTR_RO(bd_stat);
#endif
static DEVICE_ATTR_RO(debug_stat);

static void zram_meta_free(struct zram *zram, u64 disksize)
{
	size_t num_pages = disksize >> PAGE_SHIFT;
	size_t index;

	if (!zram->table)
		return;

	/* Free all pages that are still in this zram device */
	for (index = 0; index < num_pages; index++)
		zram_free_page(zram, index);

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
	size_t num_pages, index;

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
		size_t block = zram_block_size(zram), nr_blocks;

		nr_blocks = DIV_ROUND_UP(num_pages, zram_block_pages(zram));
		zram->block_huge_size = zs_block_huge_size(zram->mem_pool,
							   block);

		zram->blocks = vzalloc(array_size(nr_blocks,
						  sizeof(*zram->blocks)));
		if (!zram->blocks) {
			zs_destroy_pool(zram->mem_pool);
			vfree(zram->table);
			zram->table = NULL;
			return false;
		}
	}
#endif

	for (index = 0; index < num_pages; index++)
		spin_lock_init(&zram->table[index].lock);
	return true;
}

/*
 * To protect concurrent access to the same index entry,
 * caller should hold this table index entry's bit_spinlock to
 * indicate this index entry is accessing.
 */
#ifdef CONFIG_ZRAM_MULTI_PAGES
/* Slot @index leaves its block; the last one out frees the object */
static void zram_block_put(struct zram *zram, u32 index)
{
	struct zram_block *blk = zram_block_of(zram, index);

	zram_clear_flag(zram, index, ZRAM_MULTI);
	blk->live &= ~BIT(index & (zram_block_pages(zram) - 1));
	if (blk->live)
		return;

	zs_free(zram->mem_pool, blk->handle);
	atomic64_sub(blk->size, &zram->stats.compr_data_size);
	atomic64_dec(&zram->block_stats.blocks_stored);
	blk->handle = 0;
	blk->size = 0;
}
#endif

static void zram_free_page(struct zram *zram, size_t index)
{
	unsigned long handle;

#ifdef CONFIG_ZRAM_TRACK_ENTRY_ACTIME
	zram->table[index].ac_time = 0;
#endif
	if (zram_test_flag(zram, index, ZRAM_IDLE))
		zram_clear_flag(zram, index, ZRAM_IDLE);

	if (zram_test_flag(zram, index, ZRAM_HUGE)) {
		zram_clear_flag(zram, index, ZRAM_HUGE);
		atomic64_dec(&zram->stats.huge_pages);
	}

	if (zram_test_flag(zram, index, ZRAM_INCOMPRESSIBLE))
		zram_clear_flag(zram, index, ZRAM_INCOMPRESSIBLE);

	zram_set_priority(zram, index, 0);

#ifdef CONFIG_ZRAM_MULTI_PAGES
	if (zram_in_block(zram, index)) {
		zram_block_put(zram, index);
		goto out;
	}
#endif

	if (zram_test_flag(zram, index, ZRAM_WB)) {
		zram_clear_flag(zram, index, ZRAM_WB);
		free_block_bdev(zram, zram_get_handle(zram, index));
		goto out;
	}

	/*
	 * No memory is allocated for same element filled pages.
	 * Simply clear same page flag.
	 */
	if (zram_test_flag(zram, index, ZRAM_SAME)) {
		zram_clear_flag(zram, index, ZRAM_SAME);
		atomic64_dec(&zram->stats.same_pages);
		goto out;
	}

	handle = zram_get_handle(zram, index);
	if (!handle)
		return;

	zs_free(zram->mem_pool, handle);

	atomic64_sub(zram_get_obj_size(zram, index),
			&zram->stats.compr_data_size);
out:
	atomic64_dec(&zram->stats.pages_stored);
	zram_set_handle(zram, index, 0);
	zram_set_obj_size(zram, index, 0);
	WARN_ON_ONCE(zram->table[index].flags &
		~(1UL << ZRAM_UNDER_WB));
}

#ifdef CONFIG_ZRAM_MULTI_PAGES
/*
 * The algorithm that compressed the block of slot @index, a slot still in
 * the block: every slot of a block carries the block's priority (the
 * primary's when stored, a secondary's once recompressed), and a slot that
 * leaves the block drops it. Slot (block) should be locked.
 */
static struct zcomp *zram_block_comp(struct zram *zram, u32 index)
{
	return zram->comps[zram_get_priority(zram, index)];
}

/*
 * Decompress block @blk, which @comp compressed, into the stream buffer of
 * @zstrm, a stream of @comp, and tag the buffer with the
 * block object's generation, unless the buffer holds it already (a page of
 * the same block read just before on this CPU: swap readahead, small
 * folios faulted in one after another, a page cache read). Generations are
 * never reused, and any other use of the buffer clears its tag, so a tag
 * that matches means the buffer holds exactly this object's data.
 * Returns 1 when it was there, 0 when decompressed, or an error.
 */
static int zram_block_to_buffer(struct zram *zram, struct zram_block *blk,
				struct zcomp *comp, struct zcomp_strm *zstrm)
{
	void *src;
	int ret;

	if (blk->gen && zstrm->buffer_tag == blk->gen)
		return 1;
	src = zs_map_object(zram->mem_pool, blk->handle, ZS_MM_RO);
	ret = zcomp_decompress(comp, zstrm, src, blk->size, zstrm->buffer,
			       zram_block_size(zram));
	zs_unmap_object(zram->mem_pool, blk->handle);
	if (!ret)
		zstrm->buffer_tag = blk->gen;
	return ret;
}

/*
 * A partial read of a stored block: decompress the block into the stream
 * buffer, if not there yet, and copy slot @index's page out into @page.
 * Slot (block) should be locked.
 */
static int zram_read_block_page(struct zram *zram, u32 index,
				struct page *page)
{
	struct zcomp *comp = zram_block_comp(zram, index);
	struct zram_block *blk = zram_block_of(zram, index);
	struct zcomp_strm *zstrm;
	void *mem;
	int ret;

	zstrm = zcomp_stream_get(comp);
	ret = zram_block_to_buffer(zram, blk, comp, zstrm);
	if (ret > 0) {
		atomic64_inc(&zram->block_stats.buffered_reads);
		ret = 0;
	}
	if (!ret) {
		mem = kmap_local_page(page);
		memcpy(mem, zstrm->buffer +
		       (index & (zram_block_pages(zram) - 1)) * PAGE_SIZE,
		       PAGE_SIZE);
		kunmap_local(mem);
	}
	zcomp_stream_put(comp);
	return ret;
}
#endif

/*
 * Reads (decompresses if needed) a page from zspool (zsmalloc).
 * Corresponding ZRAM slot should be locked.
 */
static int zram_read_from_zspool(struct zram *zram, struct page *page,
				 u32 index)
{
	struct zcomp_strm *zstrm;
	unsigned long handle;
	unsigned int size;
	void *src, *dst;
	u32 prio;
	int ret;

#ifdef CONFIG_ZRAM_MULTI_PAGES
	if (zram_in_block(zram, index)) {
		int ret = zram_read_block_page(zram, index, page);

		/* a failed read is no page read out of the block */
		if (!ret)
			atomic64_inc(&zram->block_stats.partial_reads);
		return ret;
	}
#endif

	handle = zram_get_handle(zram, index);
	if (!handle || zram_test_flag(zram, index, ZRAM_SAME)) {
		void *mem;

		mem = kmap_local_page(page);
		zram_fill_page(mem, PAGE_SIZE, handle);
		kunmap_local(mem);
		return 0;
	}

	size = zram_get_obj_size(zram, index);

	if (size != PAGE_SIZE) {
		prio = zram_get_priority(zram, index);
		zstrm = zcomp_stream_get(zram->comps[prio]);
	}

	src = zs_map_object(zram->mem_pool, handle, ZS_MM_RO);
	if (size == PAGE_SIZE) {
		dst = kmap_local_page(page);
		copy_page(dst, src);
		kunmap_local(dst);
		ret = 0;
	} else {
		dst = kmap_local_page(page);
		ret = zcomp_decompress(zram->comps[prio], zstrm,
				       src, size, dst, PAGE_SIZE);
		kunmap_local(dst);
		zcomp_stream_put(zram->comps[prio]);
	}
	zs_unmap_object(zram->mem_pool, handle);
	return ret;
}

/*
 * Read slot @index into @page: for a bio, with @bdr, which may leave a
 * read from the backing device to be submitted (zram_bio_read() does);
 * else (@bdr NULL) synchronously. @access: somebody asked for the page
 * (see bio_is_access()); the slot is then marked accessed under the lock
 * that the read holds already, once its data is read or its read from
 * the backing device is about to be submitted.
 */
static int zram_read_page(struct zram *zram, struct page *page, u32 index,
			  struct zram_bd_reads *bdr, bool access)
{
	bool nowait = bdr && bio_is_nowait(bdr->parent);
	int ret;

	if (!slot_lock_read(zram, index, nowait))
		return -EAGAIN;
	/*
	 * Swap's fill of a block wants the copies that the fault's own read
	 * left in the stream buffer: decline a page not held in a block (one
	 * written back, which the fault would wait for, or one stored alone,
	 * which may be another task's since the block was written); it is
	 * read at its own fault.
	 */
	if (!zram_in_block(zram, index) && bdr &&
	    bio_is_nowait_readahead(bdr->parent)) {
		zram_slot_unlock(zram, index);
		return -EAGAIN;
	}
	if (!zram_test_flag(zram, index, ZRAM_WB)) {
		/* Slot should be locked through out the function call */
		ret = zram_read_from_zspool(zram, page, index);
		if (!ret && access)
			zram_accessed(zram, index);
		zram_slot_unlock(zram, index);
	} else {
		unsigned long blk_idx = zram_get_handle(zram, index);

		if (nowait) {
			zram_slot_unlock(zram, index);
			return -EAGAIN;
		}
		if (access)
			zram_accessed(zram, index);
		/*
		 * The slot should be unlocked before reading from the backing
		 * device.
		 */
		zram_slot_unlock(zram, index);
		ret = read_from_bdev(zram, page, blk_idx, bdr);
	}

	/* Should NEVER happen. Return bio error if it does. */
	if (WARN_ON(ret < 0))
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

/* How zram_store_page() stores a page */
enum zram_store_how {
	ZRAM_STORE_ANY,		/* as it turns out: same, compressed, huge */
	ZRAM_STORE_SAME,	/* same-filled, as its whole block was */
	ZRAM_STORE_RAW,		/* as it is: its block did not compress */
};

/*
 * Store @page at slot @index, @how: a block stored page by page tells what
 * it found, so that its pages are not scanned or compressed again
 * (@element: the fill of a same-filled block).
 */
static int zram_store_page(struct zram *zram, struct page *page, u32 index,
			   enum zram_store_how how, unsigned long element)
{
	int ret = 0;
	unsigned long alloced_pages;
	unsigned long handle = -ENOMEM;
	unsigned int comp_len = 0;
	void *src, *dst, *mem;
	struct zcomp_strm *zstrm;
	enum zram_pageflags flags = 0;

	if (how == ZRAM_STORE_SAME) {
		flags = ZRAM_SAME;
		atomic64_inc(&zram->stats.same_pages);
		goto out;
	}
	mem = kmap_local_page(page);
	if (how == ZRAM_STORE_ANY && page_same_filled(mem, &element)) {
		kunmap_local(mem);
		/* Free memory associated with this sector now. */
		flags = ZRAM_SAME;
		atomic64_inc(&zram->stats.same_pages);
		goto out;
	}
	kunmap_local(mem);

compress_again:
	zstrm = zcomp_stream_get(zram->comps[ZRAM_PRIMARY_COMP]);
	if (how == ZRAM_STORE_RAW) {
		comp_len = PAGE_SIZE;
	} else {
		src = kmap_local_page(page);
		ret = zcomp_compress(zram->comps[ZRAM_PRIMARY_COMP], zstrm,
				     src, PAGE_SIZE, &comp_len);
		kunmap_local(src);
	}

	if (unlikely(ret)) {
		zcomp_stream_put(zram->comps[ZRAM_PRIMARY_COMP]);
		pr_err("Compression failed! err=%d\n", ret);
		zs_free(zram->mem_pool, handle);
		return ret;
	}

	if (comp_len >= huge_class_size)
		comp_len = PAGE_SIZE;
	/*
	 * handle allocation has 2 paths:
	 * a) fast path is executed with preemption disabled (for
	 *  per-cpu streams) and has __GFP_DIRECT_RECLAIM bit clear,
	 *  since we can't sleep;
	 * b) slow path enables preemption and attempts to allocate
	 *  the page with __GFP_DIRECT_RECLAIM bit set. we have to
	 *  put per-cpu compression stream and, thus, to re-do
	 *  the compression once handle is allocated.
	 *
	 * if we have a 'non-null' handle here then we are coming
	 * from the slow path and handle has already been allocated.
	 */
	if (IS_ERR_VALUE(handle))
		handle = zs_malloc(zram->mem_pool, comp_len,
				__GFP_KSWAPD_RECLAIM |
				__GFP_NOWARN |
				__GFP_HIGHMEM |
				__GFP_MOVABLE);
	if (IS_ERR_VALUE(handle)) {
		zcomp_stream_put(zram->comps[ZRAM_PRIMARY_COMP]);
		atomic64_inc(&zram->stats.writestall);
		handle = zs_malloc(zram->mem_pool, comp_len,
				GFP_NOIO | __GFP_HIGHMEM |
				__GFP_MOVABLE);
		if (IS_ERR_VALUE(handle))
			return PTR_ERR((void *)handle);

		if (comp_len != PAGE_SIZE)
			goto compress_again;
		/*
		 * If the page is not compressible, you need to acquire the
		 * lock and execute the code below. The zcomp_stream_get()
		 * call is needed to disable the cpu hotplug and grab the
		 * zstrm buffer back. It is necessary that the dereferencing
		 * of the zstrm variable below occurs correctly.
		 */
		zstrm = zcomp_stream_get(zram->comps[ZRAM_PRIMARY_COMP]);
	}

	alloced_pages = zs_get_total_pages(zram->mem_pool);
	update_used_max(zram, alloced_pages);

	if (zram->limit_pages && alloced_pages > zram->limit_pages) {
		zcomp_stream_put(zram->comps[ZRAM_PRIMARY_COMP]);
		zs_free(zram->mem_pool, handle);
		return -ENOMEM;
	}

	dst = zs_map_object(zram->mem_pool, handle, ZS_MM_WO);

	src = zstrm->buffer;
	if (comp_len == PAGE_SIZE)
		src = kmap_local_page(page);
	memcpy(dst, src, comp_len);
	if (comp_len == PAGE_SIZE)
		kunmap_local(src);

	zcomp_stream_put(zram->comps[ZRAM_PRIMARY_COMP]);
	zs_unmap_object(zram->mem_pool, handle);
	atomic64_add(comp_len, &zram->stats.compr_data_size);
out:
	/*
	 * Free memory associated with this sector
	 * before overwriting unused sectors.
	 */
	zram_slot_lock(zram, index);
#ifdef CONFIG_ZRAM_MULTI_PAGES
	if (zram_in_block(zram, index))
		atomic64_inc(&zram->block_stats.partial_writes);
#endif
	zram_free_page(zram, index);

	if (comp_len == PAGE_SIZE) {
		zram_set_flag(zram, index, ZRAM_HUGE);
		atomic64_inc(&zram->stats.huge_pages);
		atomic64_inc(&zram->stats.huge_pages_since);
	}

	if (flags) {
		zram_set_flag(zram, index, flags);
		zram_set_handle(zram, index, element);
	}  else {
		zram_set_handle(zram, index, handle);
		zram_set_obj_size(zram, index, comp_len);
	}
	zram_slot_unlock(zram, index);

	/* Update stats */
	atomic64_inc(&zram->stats.pages_stored);
	return ret;
}

static int zram_write_page(struct zram *zram, struct page *page, u32 index)
{
	return zram_store_page(zram, page, index, ZRAM_STORE_ANY, 0);
}

/*
 * This is a partial IO. Read the full page before writing the changes.
 */
static int zram_bvec_write_partial(struct zram *zram, struct bio_vec *bvec,
				   u32 index, int offset, struct bio *bio)
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
			   u32 index, int offset, struct bio *bio)
{
	if (is_partial_io(bvec))
		return zram_bvec_write_partial(zram, bvec, index, offset, bio);
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
	struct bio_vec bv;
	struct folio *folio;
	struct page *page;

	if (!zram_multi_pages(zram) ||
	    !IS_ALIGNED(iter.bi_sector, zram_block_size(zram) >> SECTOR_SHIFT))
		return NULL;
	bv = mp_bvec_iter_bvec(bio->bi_io_vec, iter);
	if (bv.bv_len < zram_block_size(zram) || offset_in_page(bv.bv_offset))
		return NULL;
	page = nth_page(bv.bv_page, bv.bv_offset >> PAGE_SHIFT);
	folio = page_folio(page);
	if (folio_page_idx(folio, page) + zram_block_pages(zram) >
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

/*
 * Store the block of pages from @page at slots @index.. page by page, @how
 * the block found they should be (@element: the fill of a same-filled
 * block).
 */
static int zram_write_block_as_pages(struct zram *zram, struct page *page,
				     u32 index, enum zram_store_how how,
				     unsigned long element)
{
	unsigned int i;
	int ret;

	for (i = 0; i < zram_block_pages(zram); i++) {
		ret = zram_store_page(zram, nth_page(page, i), index + i, how,
				      element);
		if (ret)
			return ret;
		zram_slot_lock(zram, index + i);
		zram_accessed(zram, index + i);
		zram_slot_unlock(zram, index + i);
	}
	return 0;
}

/*
 * Store the block of pages from @page (contiguous, not highmem:
 * see the Kconfig dependency) at slots @index.. as one compressed object,
 * or page by page where a block object does not pay or cannot be had.
 */
static int zram_write_block(struct zram *zram, struct page *page, u32 index)
{
	struct zcomp *comp = zram->comps[ZRAM_PRIMARY_COMP];
	unsigned long handle = -ENOMEM;
	struct zram_block_stats *bs = &zram->block_stats;
	unsigned long alloced_pages, element;
	void *src = page_address(page), *dst;
	enum zram_store_how how;
	struct zcomp_strm *zstrm;
	unsigned int comp_len, i;
	struct zram_block *blk;
	int ret;

	if (zram_block_same_filled(src, zram_block_pages(zram), &element)) {
		atomic64_inc(&bs->same_blocks);
		return zram_write_block_as_pages(zram, page, index,
						 ZRAM_STORE_SAME, element);
	}

compress_again:
	zstrm = zcomp_stream_get(comp);
	ret = zcomp_compress(comp, zstrm, src, zram_block_size(zram),
			     &comp_len);
	if (unlikely(ret)) {
		zcomp_stream_put(comp);
		pr_err("Compression failed! err=%d\n", ret);
		zs_free(zram->mem_pool, handle);
		return ret;
	}

	if (comp_len >= zram->block_huge_size) {
		zcomp_stream_put(comp);
		zs_free(zram->mem_pool, handle);
		atomic64_inc(&bs->huge_blocks);
		/*
		 * A page of the block that compressed on its own would have
		 * shrunk the block by about as much, as the compressors grow
		 * data they cannot compress by well under a page: when the
		 * block did not shrink at all, its pages would not go below
		 * huge_class_size either, and compressing each again would
		 * only double the work.
		 */
		how = comp_len >= zram_block_size(zram) ? ZRAM_STORE_RAW :
							  ZRAM_STORE_ANY;
		return zram_write_block_as_pages(zram, page, index, how, 0);
	}

	/* the same two allocation paths as zram_write_page() */
	if (IS_ERR_VALUE(handle))
		handle = zs_malloc(zram->mem_pool, comp_len,
				   __GFP_KSWAPD_RECLAIM | __GFP_NOWARN |
				   __GFP_HIGHMEM | __GFP_MOVABLE);
	if (IS_ERR_VALUE(handle)) {
		zcomp_stream_put(comp);
		atomic64_inc(&zram->stats.writestall);
		handle = zs_malloc(zram->mem_pool, comp_len,
				   GFP_NOIO | __GFP_NOWARN | __GFP_HIGHMEM |
				   __GFP_MOVABLE);
		if (IS_ERR_VALUE(handle)) {
			/* pages need smaller objects: they may still fit */
			atomic64_inc(&bs->nomem_blocks);
			return zram_write_block_as_pages(zram, page, index,
							 ZRAM_STORE_ANY, 0);
		}
		goto compress_again;
	}

	alloced_pages = zs_get_total_pages(zram->mem_pool);
	update_used_max(zram, alloced_pages);
	if (zram->limit_pages && alloced_pages > zram->limit_pages) {
		zcomp_stream_put(comp);
		zs_free(zram->mem_pool, handle);
		return -ENOMEM;
	}

	dst = zs_map_object(zram->mem_pool, handle, ZS_MM_WO);
	memcpy(dst, zstrm->buffer, comp_len);
	zcomp_stream_put(comp);
	zs_unmap_object(zram->mem_pool, handle);
	atomic64_add(comp_len, &zram->stats.compr_data_size);

	zram_slot_lock(zram, index);
	for (i = 0; i < zram_block_pages(zram); i++)
		zram_free_page(zram, index + i);
	blk = zram_block_of(zram, index);
	blk->handle = handle;
	blk->size = comp_len;
	blk->live = BIT(zram_block_pages(zram)) - 1;
	blk->gen = atomic64_inc_return(&zram->block_gen);
	for (i = 0; i < zram_block_pages(zram); i++) {
		zram_set_flag(zram, index + i, ZRAM_MULTI);
		zram_accessed(zram, index + i);
	}
	zram_slot_unlock(zram, index);

	atomic64_add(zram_block_pages(zram), &zram->stats.pages_stored);
	atomic64_inc(&bs->blocks_stored);
	atomic64_inc(&bs->blocks_written);
	return 0;
}

/*
 * Copy a block decompressed into the stream buffer out to the segments of
 * @bio from @iter on: the small folios of a swap-in that could not have a
 * large one, or of a page cache read.
 */
static void zram_copy_block_to_bio(struct zram *zram, const void *src,
				   struct bio *bio, struct bvec_iter iter)
{
	unsigned int done = 0;
	struct bio_vec bv;

	while (done < zram_block_size(zram)) {
		bv = bio_iter_iovec(bio, iter);
		bv.bv_len = min(bv.bv_len, zram_block_size(zram) - done);
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
 * block object any more (a page was rewritten or freed), read them page by
 * page.
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
	void *src;

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
	if (page) {
		src = zs_map_object(zram->mem_pool, blk->handle, ZS_MM_RO);
		ret = zcomp_decompress(comp, zstrm, src, blk->size,
				       page_address(page),
				       zram_block_size(zram));
		zs_unmap_object(zram->mem_pool, blk->handle);
		if (!ret)
			flush_dcache_folio(page_folio(page));
	} else {
		ret = zram_block_to_buffer(zram, blk, comp, zstrm);
		if (ret >= 0) {
			zram_copy_block_to_bio(zram, zstrm->buffer, bio, iter);
			ret = 0;
		}
	}
	zcomp_stream_put(comp);
	/* as for a page: should never happen */
	if (WARN_ON(ret < 0)) {
		pr_err("Decompression failed! err=%d, block at page=%u\n",
		       ret, index);
		goto out;
	}

	for (i = 0; bio_is_access(bio) && i < nr; i++)
		zram_accessed(zram, index + i);
out:
	zram_slot_unlock(zram, index);
	if (!ret)
		atomic64_inc(&zram->block_stats.block_reads);
	return ret;
}

/* A read of @bio from @iter on that may take a whole block at once */
static bool zram_bio_reads_block(struct zram *zram, struct bio *bio,
				 struct bvec_iter iter)
{
	size_t block = zram_block_size(zram);

	return zram_multi_pages(zram) && iter.bi_size >= block &&
	       IS_ALIGNED(iter.bi_sector, block >> SECTOR_SHIFT);
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
/*
 * This function will decompress (unless it's ZRAM_HUGE) the page and then
 * attempt to compress it using provided compression algorithm priority
 * (which is potentially more effective).
 *
 * Corresponding ZRAM slot should be locked.
 */
static int zram_recompress(struct zram *zram, u32 index, struct page *page,
			   u64 *num_recomp_pages, u32 threshold, u32 prio,
			   u32 prio_max)
{
	struct zcomp_strm *zstrm = NULL;
	unsigned long handle_old;
	unsigned long handle_new;
	unsigned int comp_len_old;
	unsigned int comp_len_new;
	unsigned int class_index_old;
	unsigned int class_index_new;
	u32 num_recomps = 0;
	void *src, *dst;
	int ret;

	handle_old = zram_get_handle(zram, index);
	if (!handle_old)
		return -EINVAL;

	comp_len_old = zram_get_obj_size(zram, index);
	/*
	 * Do not recompress objects that are already "small enough".
	 */
	if (comp_len_old < threshold)
		return 0;

	ret = zram_read_from_zspool(zram, page, index);
	if (ret)
		return ret;

	/*
	 * We touched this entry so mark it as non-IDLE. This makes sure that
	 * we don't preserve IDLE flag and don't incorrectly pick this entry
	 * for different post-processing type (e.g. writeback).
	 */
	zram_clear_flag(zram, index, ZRAM_IDLE);

	class_index_old = zs_lookup_class_index(zram->mem_pool, comp_len_old);
	/*
	 * Iterate the secondary comp algorithms list (in order of priority)
	 * and try to recompress the page.
	 */
	for (; prio < prio_max; prio++) {
		if (!zram->comps[prio])
			continue;

		/*
		 * Skip if the object is already re-compressed with a higher
		 * priority algorithm (or same algorithm).
		 */
		if (prio <= zram_get_priority(zram, index))
			continue;

		num_recomps++;
		zstrm = zcomp_stream_get(zram->comps[prio]);
		src = kmap_local_page(page);
		ret = zcomp_compress(zram->comps[prio], zstrm,
				     src, PAGE_SIZE, &comp_len_new);
		kunmap_local(src);

		if (ret) {
			zcomp_stream_put(zram->comps[prio]);
			return ret;
		}

		class_index_new = zs_lookup_class_index(zram->mem_pool,
							comp_len_new);

		/* Continue until we make progress */
		if (class_index_new >= class_index_old ||
		    (threshold && comp_len_new >= threshold)) {
			zcomp_stream_put(zram->comps[prio]);
			continue;
		}

		/* Recompression was successful so break out */
		break;
	}

	/*
	 * We did not try to recompress, e.g. when we have only one
	 * secondary algorithm and the page is already recompressed
	 * using that algorithm
	 */
	if (!zstrm)
		return 0;

	/*
	 * Decrement the limit (if set) on pages we can recompress, even
	 * when current recompression was unsuccessful or did not compress
	 * the page below the threshold, because we still spent resources
	 * on it.
	 */
	if (*num_recomp_pages)
		*num_recomp_pages -= 1;

	if (class_index_new >= class_index_old) {
		/*
		 * Secondary algorithms failed to re-compress the page
		 * in a way that would save memory, mark the object as
		 * incompressible so that we will not try to compress
		 * it again.
		 *
		 * We need to make sure that all secondary algorithms have
		 * failed, so we test if the number of recompressions matches
		 * the number of active secondary algorithms.
		 */
		if (num_recomps == zram->num_active_comps - 1)
			zram_set_flag(zram, index, ZRAM_INCOMPRESSIBLE);
		return 0;
	}

	/* Successful recompression but above threshold */
	if (threshold && comp_len_new >= threshold)
		return 0;

	/*
	 * No direct reclaim (slow path) for handle allocation and no
	 * re-compression attempt (unlike in zram_write_bvec()) since
	 * we already have stored that object in zsmalloc. If we cannot
	 * alloc memory for recompressed object then we bail out and
	 * simply keep the old (existing) object in zsmalloc.
	 */
	handle_new = zs_malloc(zram->mem_pool, comp_len_new,
			       __GFP_KSWAPD_RECLAIM |
			       __GFP_NOWARN |
			       __GFP_HIGHMEM |
			       __GFP_MOVABLE);
	if (IS_ERR_VALUE(handle_new)) {
		zcomp_stream_put(zram->comps[prio]);
		return PTR_ERR((void *)handle_new);
	}

	dst = zs_map_object(zram->mem_pool, handle_new, ZS_MM_WO);
	memcpy(dst, zstrm->buffer, comp_len_new);
	zcomp_stream_put(zram->comps[prio]);

	zs_unmap_object(zram->mem_pool, handle_new);

	zram_free_page(zram, index);
	zram_set_handle(zram, index, handle_new);
	zram_set_obj_size(zram, index, comp_len_new);
	zram_set_priority(zram, index, prio);

	atomic64_add(comp_len_new, &zram->stats.compr_data_size);
	atomic64_inc(&zram->stats.pages_stored);

	return 0;
}

#define RECOMPRESS_IDLE		(1 << 0)
#define RECOMPRESS_HUGE		(1 << 1)

#ifdef CONFIG_ZRAM_MULTI_PAGES
/*
 * Recompression of blocks
 *
 * A block object is recompressed as a whole: the block is decompressed with
 * the algorithm that wrote it and compressed again with a secondary one.
 * The block's lock (the slot lock of any of its slots) is a spinning lock
 * here, which faults on the block, writes and discards of its pages and
 * swap's slot frees would otherwise wait on for as long as a secondary
 * algorithm takes, so it is held only to decompress and to store the
 * result: the secondary algorithms compress the block with it dropped, and
 * the result is stored only if the block still has the object that was
 * decompressed (its generation) and is still one to recompress; otherwise
 * it is dropped. A write, discard or slot free of one of its pages thus
 * finds the old object or the new one. The new object is kept when it falls
 * into a smaller size class, as for a page, and its priority is written
 * into every slot still in the block, from where the reads take the
 * algorithm to decompress it with.
 *
 * A block goes by what its live pages are, and is taken at its lowest live
 * slot: it is idle when all of them are, incompressible when one of them
 * is (they are marked together), and it takes as many of max_pages as it
 * has live pages. The threshold applies to its object's size per page of
 * the block. A block object is never huge (blocks that do not compress are
 * stored as pages), so type=huge selects no block.
 */

/* Set priority @prio on every live slot of the block at @first */
static void block_set_priority(struct zram *zram, u32 first, u32 prio)
{
	unsigned long live = zram_block_of(zram, first)->live;
	unsigned int i;

	for_each_set_bit(i, &live, zram_block_pages(zram))
		zram_set_priority(zram, first + i, prio);
}

/* Set @flag on every live slot of the block at @first */
static void block_set_flag(struct zram *zram, u32 first,
			   enum zram_pageflags flag)
{
	unsigned long live = zram_block_of(zram, first)->live;
	unsigned int i;

	for_each_set_bit(i, &live, zram_block_pages(zram))
		zram_set_flag(zram, first + i, flag);
}

/* Clear @flag on every live slot of the block at @first */
static void block_clear_flag(struct zram *zram, u32 first,
			     enum zram_pageflags flag)
{
	unsigned long live = zram_block_of(zram, first)->live;
	unsigned int i;

	for_each_set_bit(i, &live, zram_block_pages(zram))
		zram_clear_flag(zram, first + i, flag);
}

/*
 * Whether slot @index, a slot of a block, stands for its block (its lowest
 * live slot) and the block is one to recompress in @mode. Slot (block)
 * should be locked.
 */
static bool block_wants_recompress(struct zram *zram, u32 index, u32 mode)
{
	u32 first = zram_lock_index(zram, index);
	unsigned long live = zram_block_of(zram, first)->live;
	unsigned int i;

	if (index != first + __ffs(live) || mode & RECOMPRESS_HUGE)
		return false;
	for_each_set_bit(i, &live, zram_block_pages(zram)) {
		if (zram_test_flag(zram, first + i, ZRAM_INCOMPRESSIBLE) ||
		    zram_test_flag(zram, first + i, ZRAM_UNDER_WB))
			return false;
		if (mode & RECOMPRESS_IDLE &&
		    !zram_test_flag(zram, first + i, ZRAM_IDLE))
			return false;
	}
	return true;
}

/*
 * Recompress the block of slot @index (block_wants_recompress() in @mode)
 * with the first secondary algorithm from @prio below @prio_max that makes
 * it smaller, by way of @buf (the block size): see "Recompression of
 * blocks". Slot (block) should be locked; the lock is dropped and taken
 * again while the block is compressed.
 */
static int zram_recompress_block(struct zram *zram, u32 index, void *buf,
				 u64 *num_recomp_pages, u32 threshold,
				 u32 prio, u32 prio_max, u32 mode)
{
	u32 first = zram_lock_index(zram, index);
	struct zram_block *blk = zram_block_of(zram, first);
	unsigned int live = hweight32(blk->live);
	u32 cur = zram_get_priority(zram, index), num_recomps = 0;
	u64 limit = threshold ? (u64)threshold * zram_block_pages(zram) :
				U64_MAX;
	unsigned int class_index_old, class_index_new = 0;
	unsigned int comp_len_new = 0;
	struct zcomp_strm *zstrm;
	u64 gen = blk->gen;
	bool progress = false;
	struct zcomp *comp;
	unsigned long handle;
	void *src, *dst;
	int ret;

	if (*num_recomp_pages < live)
		return 0;
	/* Do not recompress objects that are already "small enough" */
	if (threshold && blk->size < limit)
		return 0;

	comp = zram->comps[cur];
	zstrm = zcomp_stream_get(comp);
	src = zs_map_object(zram->mem_pool, blk->handle, ZS_MM_RO);
	ret = zcomp_decompress(comp, zstrm, src, blk->size, buf,
			       zram_block_size(zram));
	zs_unmap_object(zram->mem_pool, blk->handle);
	zcomp_stream_put(comp);
	if (ret)
		return ret;

	/* As for a page: the block is no longer idle, whatever comes */
	block_clear_flag(zram, first, ZRAM_IDLE);
	class_index_old = zs_lookup_class_index(zram->mem_pool, blk->size);

	zram_slot_unlock(zram, index);
	for (; prio < prio_max; prio++) {
		if (!zram->comps[prio] || prio <= cur)
			continue;

		num_recomps++;
		zstrm = zcomp_stream_get(zram->comps[prio]);
		ret = zcomp_compress(zram->comps[prio], zstrm, buf,
				     zram_block_size(zram), &comp_len_new);
		if (!ret) {
			class_index_new = zs_lookup_class_index(zram->mem_pool,
								comp_len_new);
			/* Stop at the first that makes progress */
			progress = class_index_new < class_index_old &&
				   comp_len_new < limit;
		}
		/* The stream is not held across the slot lock: keep it in buf */
		if (progress)
			memcpy(buf, zstrm->buffer, comp_len_new);
		zcomp_stream_put(zram->comps[prio]);
		if (ret || progress)
			break;
	}
	zram_slot_lock(zram, index);
	if (ret)
		return ret;

	/* No algorithm above the block's own to try */
	if (!num_recomps)
		return 0;

	/* spent on it, whether it pays or not: as for a page */
	*num_recomp_pages -= live;

	/* Its pages went or were written again (a new generation) */
	if (!zram_in_block(zram, index) || blk->gen != gen ||
	    !block_wants_recompress(zram, index, mode & ~RECOMPRESS_IDLE))
		return 0;

	if (!progress) {
		/* every secondary algorithm failed, as for a page */
		if (class_index_new >= class_index_old &&
		    num_recomps == zram->num_active_comps - 1)
			block_set_flag(zram, first, ZRAM_INCOMPRESSIBLE);
		return 0;
	}

	/* no direct reclaim under the block's lock, as for a page */
	handle = zs_malloc(zram->mem_pool, comp_len_new,
			   __GFP_KSWAPD_RECLAIM | __GFP_NOWARN |
			   __GFP_HIGHMEM | __GFP_MOVABLE);
	if (IS_ERR_VALUE(handle))
		return PTR_ERR((void *)handle);
	dst = zs_map_object(zram->mem_pool, handle, ZS_MM_WO);
	memcpy(dst, buf, comp_len_new);
	zs_unmap_object(zram->mem_pool, handle);

	zs_free(zram->mem_pool, blk->handle);
	atomic64_sub(blk->size, &zram->stats.compr_data_size);
	atomic64_add(comp_len_new, &zram->stats.compr_data_size);
	blk->handle = handle;
	blk->size = comp_len_new;
	/* a new object: no stream buffer holds it yet */
	blk->gen = atomic64_inc_return(&zram->block_gen);
	block_set_priority(zram, first, prio);
	atomic64_inc(&zram->block_stats.recompressed_blocks);
	return 0;
}
#else
static bool block_wants_recompress(struct zram *zram, u32 index, u32 mode)
{
	return false;
}

static int zram_recompress_block(struct zram *zram, u32 index, void *buf,
				 u64 *num_recomp_pages, u32 threshold,
				 u32 prio, u32 prio_max, u32 mode)
{
	return -EIO;
}
#endif

static ssize_t recompress_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t len)
{
	u32 prio = ZRAM_SECONDARY_COMP, prio_max = ZRAM_MAX_COMPS;
	struct zram *zram = dev_to_zram(dev);
	unsigned long nr_pages = zram->disksize >> PAGE_SHIFT;
	char *args, *param, *val, *algo = NULL;
	u64 num_recomp_pages = ULLONG_MAX;
	u32 mode = 0, threshold = 0;
	void *block_buf = NULL;
	unsigned long index;
	struct page *page;
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
			ret = kstrtouint(val, 10, &prio);
			if (ret)
				return ret;

			if (prio == ZRAM_PRIMARY_COMP)
				prio = ZRAM_SECONDARY_COMP;

			prio_max = min(prio + 1, ZRAM_MAX_COMPS);
			continue;
		}
	}

	if (threshold >= huge_class_size)
		return -EINVAL;

	down_read(&zram->init_lock);
	if (!init_done(zram)) {
		ret = -EINVAL;
		goto release_init_lock;
	}

	/* Do not permit concurrent post-processing actions. */
	if (atomic_xchg(&zram->pp_in_progress, 1)) {
		up_read(&zram->init_lock);
		return -EAGAIN;
	}

	if (algo) {
		bool found = false;

		for (; prio < ZRAM_MAX_COMPS; prio++) {
			if (!zram->comp_algs[prio])
				continue;

			if (!strcmp(zram->comp_algs[prio], algo)) {
				prio_max = min(prio + 1, ZRAM_MAX_COMPS);
				found = true;
				break;
			}
		}

		if (!found) {
			ret = -EINVAL;
			goto release_init_lock;
		}
	}

	page = alloc_page(GFP_KERNEL);
	if (!page) {
		ret = -ENOMEM;
		goto release_init_lock;
	}
	if (zram_multi_pages(zram)) {
		block_buf = kvmalloc(zram_block_size(zram), GFP_KERNEL);
		if (!block_buf) {
			__free_page(page);
			ret = -ENOMEM;
			goto release_init_lock;
		}
	}

	ret = len;
	for (index = 0; index < nr_pages; index++) {
		int err = 0;

		if (!num_recomp_pages)
			break;

		zram_slot_lock(zram, index);

		if (!zram_allocated(zram, index))
			goto next;

		if (mode & RECOMPRESS_IDLE &&
		    !zram_test_flag(zram, index, ZRAM_IDLE))
			goto next;

		if (mode & RECOMPRESS_HUGE &&
		    !zram_test_flag(zram, index, ZRAM_HUGE))
			goto next;

		if (zram_in_block(zram, index)) {
			if (block_wants_recompress(zram, index, mode))
				err = zram_recompress_block(zram, index,
							    block_buf,
							    &num_recomp_pages,
							    threshold, prio,
							    prio_max, mode);
			goto next;
		}

		if (zram_test_flag(zram, index, ZRAM_WB) ||
		    zram_test_flag(zram, index, ZRAM_UNDER_WB) ||
		    zram_test_flag(zram, index, ZRAM_SAME) ||
		    zram_test_flag(zram, index, ZRAM_INCOMPRESSIBLE))
			goto next;

		err = zram_recompress(zram, index, page, &num_recomp_pages,
				      threshold, prio, prio_max);
next:
		zram_slot_unlock(zram, index);
		if (err) {
			ret = err;
			break;
		}

		cond_resched();
	}

	kvfree(block_buf);
	__free_page(page);

release_init_lock:
	atomic_set(&zram->pp_in_progress, 0);
	up_read(&zram->init_lock);
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
		zram_slot_lock(zram, index);
		zram_free_page(zram, index);
		zram_slot_unlock(zram, index);
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
		struct bio_vec bv = bio_iter_iovec(bio, iter);
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
				bio_advance_iter(bio, &iter,
						 zram_block_size(zram));
				continue;
			}
		}

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
		struct bio_vec bv = bio_iter_iovec(bio, iter);
		struct page *block = zram_bio_block(zram, bio, iter);

		if (block) {
			if (zram_write_block(zram, block, index) < 0) {
				atomic64_inc(&zram->stats.failed_writes);
				bio->bi_status = BLK_STS_IOERR;
				break;
			}
			bio_advance_iter(bio, &iter, zram_block_size(zram));
			continue;
		}

		bv.bv_len = min_t(u32, bv.bv_len, PAGE_SIZE - offset);

		if (zram_bvec_write(zram, &bv, index, offset, bio) < 0) {
			atomic64_inc(&zram->stats.failed_writes);
			bio->bi_status = BLK_STS_IOERR;
			break;
		}

		zram_slot_lock(zram, index);
		zram_accessed(zram, index);
		zram_slot_unlock(zram, index);

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

static void zram_slot_free_notify(struct block_device *bdev,
				unsigned long index)
{
	struct zram *zram;

	zram = bdev->bd_disk->private_data;

	atomic64_inc(&zram->stats.notify_free);
	if (zram_slot_trylock(zram, index)) {
		zram_free_page(zram, index);
		zram_slot_unlock(zram, index);
		return;
	}

	if (!zram_multi_pages(zram)) {
		atomic64_inc(&zram->stats.miss_free);
		return;
	}

#ifdef CONFIG_ZRAM_MULTI_PAGES
	/*
	 * Called under the swap device's lock: the block lock, held by a
	 * reader or writer of any slot of the block (maybe across a block
	 * decompression), must not be waited for. A missed free would keep
	 * the page, and in a block the whole block object, until the slot is
	 * written again: record it in the block's pending mask instead,
	 * never in the slot's own flags, which the lock holder updates
	 * non-atomically. The holder does it when unlocking, or, if it
	 * already looked, the unlock after the trylock below or the lock's
	 * next holder does (see zram_slot_unlock() for the barrier pairing).
	 */
	set_bit(index & (zram_block_pages(zram) - 1),
		&zram_block_of(zram, index)->pending);
	/* Pairs with smp_mb() in zram_slot_unlock() */
	smp_mb__after_atomic();
	if (zram_slot_trylock(zram, index)) {
		zram_slot_unlock(zram, index);
		return;
	}
	/* left to the holder of the lock */
	atomic64_inc(&zram->block_stats.deferred_frees);
#endif
}

#ifdef CONFIG_ZRAM_MULTI_PAGES
/*
 * The device's optimal I/O size is its block size while it stores blocks,
 * so that a reader that cannot take a whole block (swap, when it cannot
 * have the large folio) knows which pages to read together, and the device
 * takes the REQ_NOWAIT reads of that fill (bio_is_nowait()). Without
 * THP_SWAP, swap writes no large folio and finds no block to read: the
 * device keeps a page. Set when the device is initialized and reset, with
 * no I/O in flight: the block size cannot change in between.
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
	ra_pages = READ_ONCE(bdi->ra_pages);
	if (queue_limits_commit_update(q, &lim)) {
		pr_warn("Cannot set the optimal I/O size to %u\n", io_opt);
		return;
	}

	/* after the commit, which raises the read-ahead to at least 128 KiB */
	if (io_opt > PAGE_SIZE) {
		zram->ra_pages = ra_pages;
		zram->raised_ra_pages = READ_ONCE(bdi->ra_pages);
	} else if (READ_ONCE(bdi->ra_pages) == zram->raised_ra_pages) {
		WRITE_ONCE(bdi->ra_pages, zram->ra_pages);
	}
}
#else
static inline void zram_set_io_opt(struct zram *zram, unsigned int io_opt)
{
}
#endif

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

	for (prio = 0; prio < ZRAM_MAX_COMPS; prio++) {
		struct zcomp *comp = zram->comps[prio];

		zram->comps[prio] = NULL;
		if (!comp)
			continue;
		zcomp_destroy(comp);
		zram->num_active_comps--;
	}

	for (prio = ZRAM_PRIMARY_COMP; prio < ZRAM_MAX_COMPS; prio++) {
		/* Do not free statically defined compression algorithms */
		if (zram->comp_algs[prio] != default_compressor)
			kfree(zram->comp_algs[prio]);
		zram->comp_algs[prio] = NULL;
	}

	zram_comp_params_reset(zram);
	comp_algorithm_set(zram, ZRAM_PRIMARY_COMP, default_compressor);
}

static void zram_reset_device(struct zram *zram)
{
	guard(rwsem_write)(&zram->init_lock);

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
	atomic_set(&zram->pp_in_progress, 0);
	reset_bdev(zram);
	zram_set_io_opt(zram, PAGE_SIZE);
}

static ssize_t disksize_store(struct device *dev,
		struct device_attribute *attr, const char *buf, size_t len)
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

	down_write(&zram->init_lock);
	if (init_done(zram)) {
		pr_info("Cannot change disksize for initialized device\n");
		err = -EBUSY;
		goto out_unlock;
	}

	disksize = PAGE_ALIGN(disksize);
	if (!zram_meta_alloc(zram, disksize)) {
		err = -ENOMEM;
		goto out_unlock;
	}

	for (prio = 0; prio < ZRAM_MAX_COMPS; prio++) {
		if (!zram->comp_algs[prio])
			continue;

#ifdef CONFIG_ZRAM_MULTI_PAGES
		/* recompression takes a block object as a whole */
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
		zram->num_active_comps++;
	}
	zram->disksize = disksize;
	if (zram_multi_pages(zram))
		zram_set_io_opt(zram, zram_block_size(zram));
	set_capacity_and_notify(zram->disk, zram->disksize >> SECTOR_SHIFT);
	up_write(&zram->init_lock);

	return len;

out_free_comps:
	zram_destroy_comps(zram);
	zram_meta_free(zram, disksize);
out_unlock:
	up_write(&zram->init_lock);
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

static DEVICE_ATTR_WO(compact);
static DEVICE_ATTR_RW(disksize);
static DEVICE_ATTR_RO(initstate);
static DEVICE_ATTR_WO(reset);
static DEVICE_ATTR_WO(mem_limit);
static DEVICE_ATTR_WO(mem_used_max);
static DEVICE_ATTR_WO(idle);
static DEVICE_ATTR_RW(max_comp_streams);
static DEVICE_ATTR_RW(comp_algorithm);
#ifdef CONFIG_ZRAM_WRITEBACK
static DEVICE_ATTR_RW(backing_dev);
static DEVICE_ATTR_WO(writeback);
static DEVICE_ATTR_RW(writeback_limit);
static DEVICE_ATTR_RW(writeback_limit_enable);
#endif
#ifdef CONFIG_ZRAM_MULTI_COMP
static DEVICE_ATTR_RW(recomp_algorithm);
static DEVICE_ATTR_WO(recompress);
#endif
static DEVICE_ATTR_WO(algorithm_params);

static struct attribute *zram_disk_attrs[] = {
	&dev_attr_disksize.attr,
	&dev_attr_initstate.attr,
	&dev_attr_reset.attr,
	&dev_attr_compact.attr,
	&dev_attr_mem_limit.attr,
	&dev_attr_mem_used_max.attr,
	&dev_attr_idle.attr,
	&dev_attr_max_comp_streams.attr,
	&dev_attr_comp_algorithm.attr,
#ifdef CONFIG_ZRAM_WRITEBACK
	&dev_attr_backing_dev.attr,
	&dev_attr_writeback.attr,
	&dev_attr_writeback_limit.attr,
	&dev_attr_writeback_limit_enable.attr,
#endif
	&dev_attr_io_stat.attr,
	&dev_attr_mm_stat.attr,
#ifdef CONFIG_ZRAM_WRITEBACK
	&dev_attr_bd_stat.attr,
#endif
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

	zram = kzalloc(sizeof(struct zram), GFP_KERNEL);
	if (!zram)
		return -ENOMEM;

	ret = idr_alloc(&zram_index_idr, zram, 0, 0, GFP_KERNEL);
	if (ret < 0)
		goto out_free_dev;
	device_id = ret;

	init_rwsem(&zram->init_lock);
#ifdef CONFIG_ZRAM_WRITEBACK
	spin_lock_init(&zram->wb_limit_lock);
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
	atomic_set(&zram->pp_in_progress, 0);
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
	return scnprintf(buf, PAGE_SIZE, "%d\n", ret);
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

	BUILD_BUG_ON(__NR_ZRAM_PAGEFLAGS > sizeof(zram_te.flags) * 8);
#ifdef CONFIG_ZRAM_MULTI_PAGES
	/* a block's live mask has a bit for each of its slots */
	BUILD_BUG_ON(ZRAM_MAX_BLOCK_PAGES >
		     BITS_PER_TYPE(((struct zram_block *)NULL)->live));
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
