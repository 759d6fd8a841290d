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

/*
 * How pages, classes and objects fit together:
 *
 * A pool has size classes. Objects of one class all occupy class->size
 * bytes (the caller's size plus an inline handle, rounded up to the class),
 * packed back to back in zspages: chains of class->pages_per_zspage order-0
 * pages that hold class->objs_per_zspage objects. An object may start in
 * one page and end in a following one; zs_map_object() then maps it where
 * it lies if one pointer covers its pages, and copies it through a per-CPU
 * buffer otherwise. Classes whose zspages would look the same (equal pages
 * per zspage and objects per zspage) are merged into the larger one.
 *
 * Base classes cover objects up to PAGE_SIZE in steps of PAGE_SIZE >>
 * CLASS_BITS, with chains of up to CONFIG_ZSMALLOC_CHAIN_SIZE pages. The
 * biggest objects go to "huge" classes: one object in one page, its handle
 * kept in page->index rather than inline.
 *
 * With CONFIG_ZSMALLOC_MULTI_PAGES, multi-page classes follow, for objects
 * up to ZS_MULTI_PAGES_SIZE (PAGE_SIZE << CONFIG_ZSMALLOC_MULTI_PAGES_ORDER)
 * in steps of ZS_MULTI_PAGES_SIZE >> CLASS_BITS. Their zspages are built
 * the same way, of order-0 pages (so they stay movable and page migration
 * and compaction treat them like any other zspage), with chains of up to
 * half CONFIG_ZSMALLOC_CHAIN_SIZE blocks.
 * Their objects span several pages, so a page may hold no object start at
 * all: its first object offset is then PAGE_SIZE or more. A multi-page
 * object always carries its handle inline, so it is at most
 * ZS_MULTI_PAGES_SIZE - ZS_HANDLE_SIZE bytes; none of these classes is huge.
 *
 * A zspage of a multi-page class does not get all its pages at once: it
 * starts with the pages its first object needs (at least
 * ZS_MULTI_PAGES_GROWTH, or the rest of the chain), and zs_malloc() adds
 * pages as objects need them, while none of the class's zspages has a free
 * object (zspage->nr_pages counts the pages it has; a full zspage that can
 * still grow waits on class->growable rather than on its fullness list). A
 * class that holds a few objects then costs the pages they fill, not a
 * whole chain. Once a pool has been asked for a multi-page object, the
 * zspages it makes in base classes grow too, a page at a time: it holds
 * blocks, and the few that compress below a page spread thinly over the
 * base classes. A pool of objects of a page or less alone (zswap's, or a
 * zram device's that stores pages) gets whole chains, as without the
 * option. Fullness groups, compaction and the pool's page count go by the
 * pages a zspage has.
 *
 * An object that spans pages is mapped in place through the direct map when
 * the pages it lies in happen to be physically contiguous (consecutive
 * order-0 allocations often are) and one pointer may cross them (tag-based
 * KASAN and KMSAN say when it may not), and through the per-CPU buffer
 * otherwise; see obj_contig_addr(). zsmalloc never asks for contiguous
 * pages: a zspage holds no higher-order block that mTHP or other users
 * could want.
 *
 * Following is how we use various fields and flags of underlying
 * struct page(s) to form a zspage.
 *
 * Usage of struct page fields:
 *	page->private: points to zspage
 *	page->index: links together all component pages of a zspage
 *		For the huge page, this is always 0, so we use this field
 *		to store handle.
 *	page->page_type: PGTY_zsmalloc, lower 24 bits locate the first object
 *		offset in a subpage of a zspage (PAGE_SIZE or more when no
 *		object starts in that subpage)
 *
 * Usage of struct page flags:
 *	PG_private: identifies the first component page
 *	PG_owner_priv_1: identifies the huge component page
 *
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

/*
 * lock ordering (the same for base and multi-page classes):
 *	page_lock
 *	pool->migrate_lock
 *	class->lock
 *	zspage->lock
 *
 * zs_map_object() returns with zspage->lock read-held and the per-CPU
 * mapping area's local lock held, until zs_unmap_object().
 *
 * A zspage grows under class->lock alone, and its pages are allocated with
 * no lock held. Growth only links pages after the last one, so the others
 * who walk a chain need no more: mappers never look past the pages of their
 * own object, migration and compaction hold class->lock, and lock_zspage()
 * walks only zspages that async_free_zspage() took off the class's lists,
 * where zs_malloc() cannot find them to grow them.
 */

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/highmem.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/pgtable.h>
#include <asm/tlbflush.h>
#include <linux/cpumask.h>
#include <linux/cpu.h>
#include <linux/vmalloc.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>
#include <linux/sprintf.h>
#include <linux/shrinker.h>
#include <linux/types.h>
#include <linux/debugfs.h>
#include <linux/zsmalloc.h>
#include <linux/zpool.h>
#include <linux/migrate.h>
#include <linux/wait.h>
#include <linux/pagemap.h>
#include <linux/fs.h>
#include <linux/local_lock.h>
#include <kunit/visibility.h>

#define ZSPAGE_MAGIC	0x58

/*
 * This must be power of 2 and greater than or equal to sizeof(link_free).
 * These two conditions ensure that any 'struct link_free' itself doesn't
 * span more than 1 page which avoids complex case of mapping 2 pages simply
 * to restore link_free pointer values.
 */
#define ZS_ALIGN		8

#define ZS_HANDLE_SIZE (sizeof(unsigned long))

/*
 * Object location (<PFN>, <obj_idx>) is encoded as
 * a single (unsigned long) handle value.
 *
 * Note that object index <obj_idx> starts from 0.
 *
 * This is made more complicated by various memory models and PAE.
 */

#ifndef MAX_POSSIBLE_PHYSMEM_BITS
#ifdef MAX_PHYSMEM_BITS
#define MAX_POSSIBLE_PHYSMEM_BITS MAX_PHYSMEM_BITS
#else
/*
 * If this definition of MAX_PHYSMEM_BITS is used, OBJ_INDEX_BITS will just
 * be PAGE_SHIFT
 */
#define MAX_POSSIBLE_PHYSMEM_BITS BITS_PER_LONG
#endif
#endif

#define _PFN_BITS		(MAX_POSSIBLE_PHYSMEM_BITS - PAGE_SHIFT)

/*
 * Head in allocated object should have OBJ_ALLOCATED_TAG
 * to identify the object was allocated or not.
 * It's okay to add the status bit in the least bit because
 * header keeps handle which is 4byte-aligned address so we
 * have room for two bit at least.
 */
#define OBJ_ALLOCATED_TAG 1

#define OBJ_TAG_BITS	1
#define OBJ_TAG_MASK	OBJ_ALLOCATED_TAG

#define OBJ_INDEX_BITS	(BITS_PER_LONG - _PFN_BITS)
#define OBJ_INDEX_MASK	((_AC(1, UL) << OBJ_INDEX_BITS) - 1)

#define HUGE_BITS	1
#define FULLNESS_BITS	4
#define CLASS_BITS	8
#define MAGIC_VAL_BITS	8
/* zspage->nr_pages: up to ZS_MAX_ZSPAGE_PAGES, 32 at most */
#define ZS_PAGES_BITS	8

#define ZS_MAX_PAGES_PER_ZSPAGE	(_AC(CONFIG_ZSMALLOC_CHAIN_SIZE, UL))

/* ZS_MIN_ALLOC_SIZE must be multiple of ZS_ALIGN */
#define ZS_MIN_ALLOC_SIZE \
	MAX(32, (ZS_MAX_PAGES_PER_ZSPAGE << PAGE_SHIFT >> OBJ_INDEX_BITS))
/* each chunk includes extra space to keep handle */
#define ZS_MAX_ALLOC_SIZE	PAGE_SIZE

#ifdef CONFIG_ZSMALLOC_MULTI_PAGES
#define ZS_MULTI_PAGES_ORDER	CONFIG_ZSMALLOC_MULTI_PAGES_ORDER
#else
#define ZS_MULTI_PAGES_ORDER	0
#endif
/* Largest multi-page class; objects in it keep their handle inline */
#define ZS_MULTI_PAGES_SIZE	(PAGE_SIZE << ZS_MULTI_PAGES_ORDER)
/*
 * Multi-page zspages of up to half ZSMALLOC_CHAIN_SIZE blocks (64 KiB for
 * 16 KiB blocks): longer chains would round objects a little less, but a
 * pool keeps a partly used zspage per class, and those cost more (see the
 * class-waste figures in the series' cover letter). The chain is also
 * capped at ZS_MULTI_PAGES_CHAIN_LIMIT pages, which bounds the page arrays
 * alloc_zspage() and replace_sub_page() keep on the stack; up to
 * ZSMALLOC_MULTI_PAGES_ORDER 2 the cap is never reached.
 */
#define ZS_MULTI_PAGES_CHAIN_LIMIT	32
#define ZS_MULTI_PAGES_MAX_CHAIN	MIN(ZS_MULTI_PAGES_CHAIN_LIMIT, \
					    (ZS_MAX_PAGES_PER_ZSPAGE << \
					     ZS_MULTI_PAGES_ORDER) / 2)
/* Most pages any zspage has: sizes the on-stack page arrays */
#define ZS_MAX_ZSPAGE_PAGES	MAX(ZS_MAX_PAGES_PER_ZSPAGE, \
				    ZS_MULTI_PAGES_MAX_CHAIN)

/*
 * On systems with 4K page size, this gives 255 size classes! There is a
 * trader-off here:
 *  - Large number of size classes is potentially wasteful as free page are
 *    spread across these classes
 *  - Small number of size classes causes large internal fragmentation
 *  - Probably its better to use specific size classes (empirically
 *    determined). NOTE: all those class sizes must be set as multiple of
 *    ZS_ALIGN to make sure link_free itself never has to span 2 pages.
 *
 *  ZS_MIN_ALLOC_SIZE and ZS_SIZE_CLASS_DELTA must be multiple of ZS_ALIGN
 *  (reason above)
 */
#define ZS_SIZE_CLASS_DELTA	(PAGE_SIZE >> CLASS_BITS)
#define ZS_BASE_SIZE_CLASSES	(DIV_ROUND_UP(ZS_MAX_ALLOC_SIZE - ZS_MIN_ALLOC_SIZE, \
				      ZS_SIZE_CLASS_DELTA) + 1)
/*
 * Multi-page classes split (PAGE_SIZE, ZS_MULTI_PAGES_SIZE] the way base
 * classes split a page: in 1 << CLASS_BITS steps of the whole range, so
 * 192 classes of 64 bytes for 16 KiB on 4 KiB pages.
 */
#define ZS_MULTI_SIZE_CLASS_DELTA	(ZS_MULTI_PAGES_SIZE >> CLASS_BITS)
#define ZS_MULTI_SIZE_CLASSES	((ZS_MULTI_PAGES_SIZE - PAGE_SIZE) / \
				 ZS_MULTI_SIZE_CLASS_DELTA)
#define ZS_SIZE_CLASSES	(ZS_BASE_SIZE_CLASSES + ZS_MULTI_SIZE_CLASSES)
/* Largest size zs_malloc() accepts */
#define ZS_MAX_OBJ_SIZE	MAX(ZS_MAX_ALLOC_SIZE, ZS_MULTI_PAGES_SIZE - ZS_HANDLE_SIZE)

/*
 * Pages are distinguished by the ratio of used memory (that is the ratio
 * of ->inuse objects to all objects that page can store). For example,
 * INUSE_RATIO_10 means that the ratio of used objects is > 0% and <= 10%.
 *
 * The number of fullness groups is not random. It allows us to keep
 * difference between the least busy page in the group (minimum permitted
 * number of ->inuse objects) and the most busy page (maximum permitted
 * number of ->inuse objects) at a reasonable value.
 */
enum fullness_group {
	ZS_INUSE_RATIO_0,
	ZS_INUSE_RATIO_10,
	/* NOTE: 8 more fullness groups here */
	ZS_INUSE_RATIO_99       = 10,
	ZS_INUSE_RATIO_100,
	NR_FULLNESS_GROUPS,
};

enum class_stat_type {
	/* NOTE: stats for 12 fullness groups here: from inuse 0 to 100 */
	ZS_OBJS_ALLOCATED       = NR_FULLNESS_GROUPS,
	ZS_OBJS_INUSE,
	ZS_PAGES_USED,
	NR_CLASS_STAT_TYPES,
};

struct zs_size_stat {
	unsigned long objs[NR_CLASS_STAT_TYPES];
};

#ifdef CONFIG_ZSMALLOC_STAT
static struct dentry *zs_stat_root;
#endif

static size_t huge_class_size;
/* Objects this big or bigger cost a whole multi-page block; 0: no such class */
static size_t multi_pages_huge_class_size;

struct size_class {
	spinlock_t lock;
	struct list_head fullness_list[NR_FULLNESS_GROUPS];
	/*
	 * Size of objects stored in this class. Must be multiple
	 * of ZS_ALIGN.
	 */
	int size;
	int objs_per_zspage;
	/* Number of PAGE_SIZE sized pages to combine to form a 'zspage' */
	int pages_per_zspage;
	/*
	 * Zspages that have yet to get all their pages and have no free object
	 * in those they have: zs_malloc() grows them before it makes new ones
	 */
	struct list_head growable;
	/* an allocation is getting pages to grow one of them */
	bool growth_pending;

	unsigned int index;
	struct zs_size_stat stats;
};

/*
 * Placed within free objects to form a singly linked list.
 * For every zspage, zspage->freeobj gives head of this list.
 *
 * This must be power of 2 and less than or equal to ZS_ALIGN
 */
struct link_free {
	union {
		/*
		 * Free object index;
		 * It's valid for non-allocated object
		 */
		unsigned long next;
		/*
		 * Handle of allocated object.
		 */
		unsigned long handle;
	};
};

struct zs_pool {
	const char *name;

	struct size_class *size_class[ZS_SIZE_CLASSES];
	struct kmem_cache *handle_cachep;
	struct kmem_cache *zspage_cachep;

	atomic_long_t pages_allocated;

	struct zs_pool_stats stats;
	/*
	 * Objects compaction moved to free zspages (debugfs). Not in struct
	 * zs_pool_stats, whose layout exported zs_pool_stats() fixes.
	 */
	atomic_long_t objs_moved;

	/* Compact classes */
	struct shrinker *shrinker;

#ifdef CONFIG_ZSMALLOC_STAT
	struct dentry *stat_dentry;
#endif
#ifdef CONFIG_COMPACTION
	struct work_struct free_work;
#endif
	/* protect page/zspage migration */
	rwlock_t migrate_lock;
	atomic_t compaction_in_progress;
	/* a multi-page object was asked for: see zspage_grows() */
	bool holds_multi_pages;
};

struct zspage {
	struct {
		unsigned int huge:HUGE_BITS;
		unsigned int fullness:FULLNESS_BITS;
		unsigned int class:CLASS_BITS + 1;
		unsigned int magic:MAGIC_VAL_BITS;
		/* pages it has so far: see zspage_capacity() */
		unsigned int nr_pages:ZS_PAGES_BITS;
	};
	unsigned int inuse;
	unsigned int freeobj;
	struct page *first_page;
	struct list_head list; /* fullness list */
	struct zs_pool *pool;
	rwlock_t lock;
};

struct mapping_area {
	local_lock_t lock;
	char *vm_buf; /* copy buffer for objects that span pages */
	char *vm_addr; /* address of kmap_atomic()'ed pages */
	enum zs_mapmode vm_mm; /* mapping mode */
	bool in_place; /* a spanning object mapped where it lies */
};

/* huge object: pages_per_zspage == 1 && maxobj_per_zspage == 1 */
static void SetZsHugePage(struct zspage *zspage)
{
	zspage->huge = 1;
}

static bool ZsHugePage(struct zspage *zspage)
{
	return zspage->huge;
}

static void migrate_lock_init(struct zspage *zspage);
static void migrate_read_lock(struct zspage *zspage);
static void migrate_read_unlock(struct zspage *zspage);
static void migrate_write_lock(struct zspage *zspage);
static void migrate_write_unlock(struct zspage *zspage);

#ifdef CONFIG_COMPACTION
static void kick_deferred_free(struct zs_pool *pool);
static void init_deferred_free(struct zs_pool *pool);
static void SetZsPageMovable(struct zs_pool *pool, struct zspage *zspage);
static void set_page_movable(struct page *page);
#else
static void kick_deferred_free(struct zs_pool *pool) {}
static void init_deferred_free(struct zs_pool *pool) {}
static void SetZsPageMovable(struct zs_pool *pool, struct zspage *zspage) {}
static void set_page_movable(struct page *page) {}
#endif

static int create_cache(struct zs_pool *pool)
{
	char *name;

	name = kasprintf(GFP_KERNEL, "zs_handle-%s", pool->name);
	if (!name)
		return -ENOMEM;
	pool->handle_cachep = kmem_cache_create(name, ZS_HANDLE_SIZE,
						0, 0, NULL);
	kfree(name);
	if (!pool->handle_cachep)
		return -EINVAL;

	name = kasprintf(GFP_KERNEL, "zspage-%s", pool->name);
	if (!name)
		return -ENOMEM;
	pool->zspage_cachep = kmem_cache_create(name, sizeof(struct zspage),
						0, 0, NULL);
	kfree(name);
	if (!pool->zspage_cachep) {
		kmem_cache_destroy(pool->handle_cachep);
		pool->handle_cachep = NULL;
		return -EINVAL;
	}

	return 0;
}

static void destroy_cache(struct zs_pool *pool)
{
	kmem_cache_destroy(pool->handle_cachep);
	kmem_cache_destroy(pool->zspage_cachep);
}

static unsigned long cache_alloc_handle(struct zs_pool *pool, gfp_t gfp)
{
	return (unsigned long)kmem_cache_alloc(pool->handle_cachep,
			gfp & ~(__GFP_HIGHMEM|__GFP_MOVABLE));
}

static void cache_free_handle(struct zs_pool *pool, unsigned long handle)
{
	kmem_cache_free(pool->handle_cachep, (void *)handle);
}

static struct zspage *cache_alloc_zspage(struct zs_pool *pool, gfp_t flags)
{
	return kmem_cache_zalloc(pool->zspage_cachep,
			flags & ~(__GFP_HIGHMEM|__GFP_MOVABLE));
}

static void cache_free_zspage(struct zs_pool *pool, struct zspage *zspage)
{
	kmem_cache_free(pool->zspage_cachep, zspage);
}

/* class->lock(which owns the handle) synchronizes races */
static void record_obj(unsigned long handle, unsigned long obj)
{
	*(unsigned long *)handle = obj;
}

/* zpool driver */

#ifdef CONFIG_ZPOOL

static void *zs_zpool_create(const char *name, gfp_t gfp)
{
	/*
	 * Ignore global gfp flags: zs_malloc() may be invoked from
	 * different contexts and its caller must provide a valid
	 * gfp mask.
	 */
	return zs_create_pool(name);
}

static void zs_zpool_destroy(void *pool)
{
	zs_destroy_pool(pool);
}

static int zs_zpool_malloc(void *pool, size_t size, gfp_t gfp,
			unsigned long *handle)
{
	/*
	 * zswap, zpool's user, compresses into a buffer of two pages and
	 * stores a page that compressed to more than a page only if the
	 * allocation succeeds: refuse it, as before multi-page classes.
	 */
	if (size > PAGE_SIZE)
		return -ENOSPC;
	*handle = zs_malloc(pool, size, gfp);

	if (IS_ERR_VALUE(*handle))
		return PTR_ERR((void *)*handle);
	return 0;
}
static void zs_zpool_free(void *pool, unsigned long handle)
{
	zs_free(pool, handle);
}

static void *zs_zpool_map(void *pool, unsigned long handle,
			enum zpool_mapmode mm)
{
	enum zs_mapmode zs_mm;

	switch (mm) {
	case ZPOOL_MM_RO:
		zs_mm = ZS_MM_RO;
		break;
	case ZPOOL_MM_WO:
		zs_mm = ZS_MM_WO;
		break;
	case ZPOOL_MM_RW:
	default:
		zs_mm = ZS_MM_RW;
		break;
	}

	return zs_map_object(pool, handle, zs_mm);
}
static void zs_zpool_unmap(void *pool, unsigned long handle)
{
	zs_unmap_object(pool, handle);
}

static u64 zs_zpool_total_pages(void *pool)
{
	return zs_get_total_pages(pool);
}

static struct zpool_driver zs_zpool_driver = {
	.type =			  "zsmalloc",
	.owner =		  THIS_MODULE,
	.create =		  zs_zpool_create,
	.destroy =		  zs_zpool_destroy,
	.malloc_support_movable = true,
	.malloc =		  zs_zpool_malloc,
	.free =			  zs_zpool_free,
	.map =			  zs_zpool_map,
	.unmap =		  zs_zpool_unmap,
	.total_pages =		  zs_zpool_total_pages,
};

MODULE_ALIAS("zpool-zsmalloc");
#endif /* CONFIG_ZPOOL */

/* per-cpu VM mapping areas for zspage accesses that cross page boundaries */
static DEFINE_PER_CPU(struct mapping_area, zs_map_area) = {
	.lock	= INIT_LOCAL_LOCK(lock),
};

static __maybe_unused int is_first_page(struct page *page)
{
	return PagePrivate(page);
}

/* Protected by class->lock */
static inline int get_zspage_inuse(struct zspage *zspage)
{
	return zspage->inuse;
}


static inline void mod_zspage_inuse(struct zspage *zspage, int val)
{
	zspage->inuse += val;
}

static inline struct page *get_first_page(struct zspage *zspage)
{
	struct page *first_page = zspage->first_page;

	VM_BUG_ON_PAGE(!is_first_page(first_page), first_page);
	return first_page;
}

#define FIRST_OBJ_PAGE_TYPE_MASK	0xffffff

static inline unsigned int get_first_obj_offset(struct page *page)
{
	VM_WARN_ON_ONCE(!PageZsmalloc(page));
	return page->page_type & FIRST_OBJ_PAGE_TYPE_MASK;
}

static inline void set_first_obj_offset(struct page *page, unsigned int offset)
{
	/* With 24 bits available, we can support offsets into 16 MiB pages. */
	BUILD_BUG_ON(PAGE_SIZE > SZ_16M);
	VM_WARN_ON_ONCE(!PageZsmalloc(page));
	VM_WARN_ON_ONCE(offset & ~FIRST_OBJ_PAGE_TYPE_MASK);
	page->page_type &= ~FIRST_OBJ_PAGE_TYPE_MASK;
	page->page_type |= offset & FIRST_OBJ_PAGE_TYPE_MASK;
}

static inline unsigned int get_freeobj(struct zspage *zspage)
{
	return zspage->freeobj;
}

static inline void set_freeobj(struct zspage *zspage, unsigned int obj)
{
	zspage->freeobj = obj;
}

/*
 * Multi-page zspages grow by at least this many pages at a time: an object
 * that straddles two growths rarely lies in contiguous pages, and is then
 * copied when mapped (see obj_contig_addr()).
 */
#define ZS_MULTI_PAGES_GROWTH	4

/* Pages that hold the first @objs objects of a zspage of @class */
static unsigned int zspage_pages_for(struct size_class *class,
				     unsigned int objs)
{
	return DIV_ROUND_UP((unsigned long)objs * class->size, PAGE_SIZE);
}

/*
 * Whether the zspages @pool makes for @class grow: with multi-page classes,
 * in those classes, and in base classes too once the pool has been asked
 * for a multi-page object. Such a pool holds blocks, and the few of them
 * that compress below a page spread thinly over the base classes. A pool
 * of objects of a page or less alone, as zswap's or a zram device's that
 * stores pages, gets whole chains, as without the option: there growth
 * would cost many writes an allocation step for little memory.
 */
static bool zspage_grows(struct zs_pool *pool, struct size_class *class)
{
	return IS_ENABLED(CONFIG_ZSMALLOC_MULTI_PAGES) &&
	       (class->size > PAGE_SIZE ||
		READ_ONCE(pool->holds_multi_pages));
}

/* Pages a zspage of @class that has @nr_pages adds to hold @objs objects */
static unsigned int zspage_growth(struct zs_pool *pool,
				  struct size_class *class,
				  unsigned int nr_pages, unsigned int objs)
{
	unsigned int pages;

	if (!zspage_grows(pool, class))
		return class->pages_per_zspage - nr_pages;

	pages = zspage_pages_for(class, objs) - nr_pages;
	if (class->size > PAGE_SIZE)
		pages = max(pages, min_t(unsigned int, ZS_MULTI_PAGES_GROWTH,
					 class->pages_per_zspage - nr_pages));
	return pages;
}

/*
 * Objects that lie wholly in the pages @zspage has so far. Fullness checks
 * on every zs_malloc() and zs_free() ask; most zspages are fully grown.
 */
static unsigned int zspage_capacity(struct size_class *class,
				    struct zspage *zspage)
{
	unsigned long bytes = (unsigned long)zspage->nr_pages << PAGE_SHIFT;

	if (zspage->nr_pages == class->pages_per_zspage)
		return class->objs_per_zspage;
	return min_t(unsigned long, class->objs_per_zspage,
		     bytes / class->size);
}

/* Whether @zspage has yet to get the pages of some of its objects */
static bool zspage_can_grow(struct size_class *class, struct zspage *zspage)
{
	return zspage_capacity(class, zspage) < class->objs_per_zspage;
}

/* Offset in page @nr of a zspage of @class of its first object start */
static unsigned int first_obj_offset_of(struct size_class *class,
					unsigned int nr)
{
	unsigned long start = (unsigned long)nr << PAGE_SHIFT;

	return roundup(start, class->size) - start;
}

static struct size_class *zspage_class(struct zs_pool *pool,
				       struct zspage *zspage)
{
	return pool->size_class[zspage->class];
}

/*
 * zsmalloc divides the pool into various size classes where each
 * class maintains a list of zspages where each zspage is divided
 * into equal sized chunks. Each allocation falls into one of these
 * classes depending on its size. This function returns index of the
 * size class which has chunk size big enough to hold the given size.
 */
static int get_size_class_index(int size)
{
	int idx = 0;

	if (likely(size > ZS_MIN_ALLOC_SIZE))
		idx = DIV_ROUND_UP(size - ZS_MIN_ALLOC_SIZE,
				ZS_SIZE_CLASS_DELTA);

	return min_t(int, ZS_BASE_SIZE_CLASSES - 1, idx);
}

/* Same for the multi-page classes; @size is over PAGE_SIZE */
static int get_multi_size_class_index(int size)
{
	return ZS_BASE_SIZE_CLASSES - 1 +
		DIV_ROUND_UP(size - ZS_MAX_ALLOC_SIZE, ZS_MULTI_SIZE_CLASS_DELTA);
}

/*
 * Objects up to PAGE_SIZE stay in base classes even when their handle
 * pushes them over a page: they go to the huge class, as without
 * multi-page classes.
 */
static struct size_class *lookup_size_class(struct zs_pool *pool, size_t size)
{
	if (ZS_MULTI_SIZE_CLASSES && size > ZS_MAX_ALLOC_SIZE)
		return pool->size_class[get_multi_size_class_index(size + ZS_HANDLE_SIZE)];
	return pool->size_class[get_size_class_index(size + ZS_HANDLE_SIZE)];
}

static inline void class_stat_add(struct size_class *class, int type,
				  unsigned long cnt)
{
	class->stats.objs[type] += cnt;
}

static inline void class_stat_sub(struct size_class *class, int type,
				  unsigned long cnt)
{
	class->stats.objs[type] -= cnt;
}

static inline unsigned long class_stat_read(struct size_class *class, int type)
{
	return class->stats.objs[type];
}

#ifdef CONFIG_ZSMALLOC_STAT

static void __init zs_stat_init(void)
{
	if (!debugfs_initialized()) {
		pr_warn("debugfs not available, stat dir not created\n");
		return;
	}

	zs_stat_root = debugfs_create_dir("zsmalloc", NULL);
}

static void __exit zs_stat_exit(void)
{
	debugfs_remove_recursive(zs_stat_root);
}

static unsigned long zs_can_compact(struct size_class *class);

static int zs_stats_size_show(struct seq_file *s, void *v)
{
	int i, fg;
	struct zs_pool *pool = s->private;
	struct size_class *class;
	unsigned long obj_allocated, obj_used, pages_used, freeable;
	unsigned long total_objs = 0, total_used_objs = 0, total_pages = 0;
	unsigned long total_freeable = 0;
	unsigned long inuse_totals[NR_FULLNESS_GROUPS] = {0, };

	seq_printf(s, " %5s %5s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %13s %10s %10s %16s %8s",
		   "class", "size", "10%", "20%", "30%", "40%",
		   "50%", "60%", "70%", "80%", "90%", "99%", "100%",
		   "obj_allocated", "obj_used", "pages_used",
		   "pages_per_zspage", "freeable");
	/* multi-page classes hold few objects a zspage: show how many */
	if (IS_ENABLED(CONFIG_ZSMALLOC_MULTI_PAGES))
		seq_printf(s, " %15s", "objs_per_zspage");
	seq_putc(s, '\n');

	for (i = 0; i < ZS_SIZE_CLASSES; i++) {

		class = pool->size_class[i];

		if (class->index != i)
			continue;

		spin_lock(&class->lock);

		seq_printf(s, " %5u %5u ", i, class->size);
		for (fg = ZS_INUSE_RATIO_10; fg < NR_FULLNESS_GROUPS; fg++) {
			inuse_totals[fg] += class_stat_read(class, fg);
			seq_printf(s, "%9lu ", class_stat_read(class, fg));
		}

		obj_allocated = class_stat_read(class, ZS_OBJS_ALLOCATED);
		obj_used = class_stat_read(class, ZS_OBJS_INUSE);
		pages_used = class_stat_read(class, ZS_PAGES_USED);
		freeable = zs_can_compact(class);
		spin_unlock(&class->lock);

		seq_printf(s, "%13lu %10lu %10lu %16d %8lu",
			   obj_allocated, obj_used, pages_used,
			   class->pages_per_zspage, freeable);
		if (IS_ENABLED(CONFIG_ZSMALLOC_MULTI_PAGES))
			seq_printf(s, " %15d", class->objs_per_zspage);
		seq_putc(s, '\n');

		total_objs += obj_allocated;
		total_used_objs += obj_used;
		total_pages += pages_used;
		total_freeable += freeable;
	}

	seq_puts(s, "\n");
	seq_printf(s, " %5s %5s ", "Total", "");

	for (fg = ZS_INUSE_RATIO_10; fg < NR_FULLNESS_GROUPS; fg++)
		seq_printf(s, "%9lu ", inuse_totals[fg]);

	seq_printf(s, "%13lu %10lu %10lu %16s %8lu\n",
		   total_objs, total_used_objs, total_pages, "",
		   total_freeable);
#ifdef CONFIG_ZSMALLOC_MULTI_PAGES
	seq_printf(s, "\n pages_compacted %lu objs_moved %lu\n",
		   atomic_long_read(&pool->stats.pages_compacted),
		   atomic_long_read(&pool->objs_moved));
#endif

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(zs_stats_size);

static void zs_pool_stat_create(struct zs_pool *pool, const char *name)
{
	if (!zs_stat_root) {
		pr_warn("no root stat dir, not creating <%s> stat dir\n", name);
		return;
	}

	pool->stat_dentry = debugfs_create_dir(name, zs_stat_root);

	debugfs_create_file("classes", S_IFREG | 0444, pool->stat_dentry, pool,
			    &zs_stats_size_fops);
}

static void zs_pool_stat_destroy(struct zs_pool *pool)
{
	debugfs_remove_recursive(pool->stat_dentry);
}

#else /* CONFIG_ZSMALLOC_STAT */
static void __init zs_stat_init(void)
{
}

static void __exit zs_stat_exit(void)
{
}

static inline void zs_pool_stat_create(struct zs_pool *pool, const char *name)
{
}

static inline void zs_pool_stat_destroy(struct zs_pool *pool)
{
}
#endif


/*
 * For each size class, zspages are divided into different groups
 * depending on their usage ratio. This function returns fullness
 * status of the given page.
 */
static int get_fullness_group(struct size_class *class, struct zspage *zspage)
{
	int inuse, capacity, ratio;

	/* A zspage that has yet to grow is as full as the pages it has */
	inuse = get_zspage_inuse(zspage);
	capacity = zspage_capacity(class, zspage);

	if (inuse == 0)
		return ZS_INUSE_RATIO_0;
	if (inuse == capacity)
		return ZS_INUSE_RATIO_100;

	ratio = 100 * inuse / capacity;
	/*
	 * Take integer division into consideration: a page with one inuse
	 * object out of 127 possible, will end up having 0 usage ratio,
	 * which is wrong as it belongs in ZS_INUSE_RATIO_10 fullness group.
	 */
	return ratio / 10 + 1;
}

/*
 * Each size class maintains various freelists and zspages are assigned
 * to one of these freelists based on the number of live objects they
 * have. This functions inserts the given zspage into the freelist
 * identified by <class, fullness_group>.
 */
static void insert_zspage(struct size_class *class,
				struct zspage *zspage,
				int fullness)
{
	struct list_head *head = &class->fullness_list[fullness];

	/* a full zspage that can take more pages waits to grow */
	if (fullness == ZS_INUSE_RATIO_100 && zspage_can_grow(class, zspage))
		head = &class->growable;
	class_stat_add(class, fullness, 1);
	list_add(&zspage->list, head);
	zspage->fullness = fullness;
}

/*
 * This function removes the given zspage from the freelist identified
 * by <class, fullness_group>.
 */
static void remove_zspage(struct size_class *class, struct zspage *zspage)
{
	int fullness = zspage->fullness;

	VM_WARN_ON_ONCE(list_empty(&zspage->list));

	list_del_init(&zspage->list);
	class_stat_sub(class, fullness, 1);
}

/*
 * Each size class maintains zspages in different fullness groups depending
 * on the number of live objects they contain. When allocating or freeing
 * objects, the fullness status of the page can change, for instance, from
 * INUSE_RATIO_80 to INUSE_RATIO_70 when freeing an object. This function
 * checks if such a status change has occurred for the given page and
 * accordingly moves the page from the list of the old fullness group to that
 * of the new fullness group.
 */
static int fix_fullness_group(struct size_class *class, struct zspage *zspage)
{
	int newfg;

	newfg = get_fullness_group(class, zspage);
	if (newfg == zspage->fullness)
		goto out;

	remove_zspage(class, zspage);
	insert_zspage(class, zspage, newfg);
out:
	return newfg;
}

static struct zspage *get_zspage(struct page *page)
{
	struct zspage *zspage = (struct zspage *)page_private(page);

	BUG_ON(zspage->magic != ZSPAGE_MAGIC);
	return zspage;
}

static struct page *get_next_page(struct page *page)
{
	struct zspage *zspage = get_zspage(page);

	if (unlikely(ZsHugePage(zspage)))
		return NULL;

	return (struct page *)page->index;
}

/**
 * obj_to_location - get (<page>, <obj_idx>) from encoded object value
 * @obj: the encoded object value
 * @page: page object resides in zspage
 * @obj_idx: object index
 */
static void obj_to_location(unsigned long obj, struct page **page,
				unsigned int *obj_idx)
{
	*page = pfn_to_page(obj >> OBJ_INDEX_BITS);
	*obj_idx = (obj & OBJ_INDEX_MASK);
}

static void obj_to_page(unsigned long obj, struct page **page)
{
	*page = pfn_to_page(obj >> OBJ_INDEX_BITS);
}

/**
 * location_to_obj - get obj value encoded from (<page>, <obj_idx>)
 * @page: page object resides in zspage
 * @obj_idx: object index
 */
static unsigned long location_to_obj(struct page *page, unsigned int obj_idx)
{
	unsigned long obj;

	obj = page_to_pfn(page) << OBJ_INDEX_BITS;
	obj |= obj_idx & OBJ_INDEX_MASK;

	return obj;
}

static unsigned long handle_to_obj(unsigned long handle)
{
	return *(unsigned long *)handle;
}

static inline bool obj_allocated(struct page *page, void *obj,
				 unsigned long *phandle)
{
	unsigned long handle;
	struct zspage *zspage = get_zspage(page);

	if (unlikely(ZsHugePage(zspage))) {
		VM_BUG_ON_PAGE(!is_first_page(page), page);
		handle = page->index;
	} else
		handle = *(unsigned long *)obj;

	if (!(handle & OBJ_ALLOCATED_TAG))
		return false;

	/* Clear all tags before returning the handle */
	*phandle = handle & ~OBJ_TAG_MASK;
	return true;
}

static void reset_page(struct page *page)
{
	__ClearPageMovable(page);
	ClearPagePrivate(page);
	set_page_private(page, 0);
	page->index = 0;
	__ClearPageZsmalloc(page);
}

static int trylock_zspage(struct zspage *zspage)
{
	struct page *cursor, *fail;

	for (cursor = get_first_page(zspage); cursor != NULL; cursor =
					get_next_page(cursor)) {
		if (!trylock_page(cursor)) {
			fail = cursor;
			goto unlock;
		}
	}

	return 1;
unlock:
	for (cursor = get_first_page(zspage); cursor != fail; cursor =
					get_next_page(cursor))
		unlock_page(cursor);

	return 0;
}

static void __free_zspage(struct zs_pool *pool, struct size_class *class,
				struct zspage *zspage)
{
	struct page *page, *next;

	assert_spin_locked(&class->lock);

	VM_BUG_ON(get_zspage_inuse(zspage));
	VM_BUG_ON(zspage->fullness != ZS_INUSE_RATIO_0);

	next = page = get_first_page(zspage);
	do {
		VM_BUG_ON_PAGE(!PageLocked(page), page);
		next = get_next_page(page);
		reset_page(page);
		unlock_page(page);
		dec_zone_page_state(page, NR_ZSPAGES);
		put_page(page);
		page = next;
	} while (page != NULL);

	class_stat_sub(class, ZS_OBJS_ALLOCATED, zspage_capacity(class, zspage));
	class_stat_sub(class, ZS_PAGES_USED, zspage->nr_pages);
	atomic_long_sub(zspage->nr_pages, &pool->pages_allocated);

	cache_free_zspage(pool, zspage);
}

static void free_zspage(struct zs_pool *pool, struct size_class *class,
				struct zspage *zspage)
{
	VM_BUG_ON(get_zspage_inuse(zspage));
	VM_BUG_ON(list_empty(&zspage->list));

	/*
	 * Since zs_free couldn't be sleepable, this function cannot call
	 * lock_page. The page locks trylock_zspage got will be released
	 * by __free_zspage.
	 */
	if (!trylock_zspage(zspage)) {
		kick_deferred_free(pool);
		return;
	}

	remove_zspage(class, zspage);
	__free_zspage(pool, class, zspage);
}

/*
 * Put objects [@first, @last) of @zspage on its free list, which must be
 * empty, in order. The slot after them, when it starts in a page the zspage
 * has (an object the zspage has yet to grow for, or the tail of a full one),
 * gets a header that reads as free: its page came straight from the buddy
 * allocator, and compaction and migration test every object start in a page.
 */
static void link_free_objects(struct size_class *class, struct zspage *zspage,
			      unsigned int first, unsigned int last)
{
	unsigned long end = (unsigned long)zspage->nr_pages << PAGE_SHIFT;
	struct page *page = get_first_page(zspage);
	unsigned int obj, nr = 0;
	void *vaddr = NULL;

	for (obj = first; obj <= last; obj++) {
		unsigned long off = (unsigned long)obj * class->size;
		struct link_free *link;

		if (obj == last && off >= end)
			break;
		if (!vaddr || off >> PAGE_SHIFT != nr) {
			if (vaddr)
				kunmap_local(vaddr);
			for (; nr < off >> PAGE_SHIFT; nr++)
				page = get_next_page(page);
			vaddr = kmap_local_page(page);
		}
		link = vaddr + offset_in_page(off);
		/* the last link, and the header after it, have no tag bit */
		if (obj + 1 < last)
			link->next = (obj + 1) << OBJ_TAG_BITS;
		else
			link->next = -1UL << OBJ_TAG_BITS;
	}
	if (vaddr)
		kunmap_local(vaddr);

	set_freeobj(zspage, first);
}

/* Initialize a newly allocated zspage */
static void init_zspage(struct size_class *class, struct zspage *zspage)
{
	struct page *page = get_first_page(zspage);
	unsigned int nr = 0;

	for (; page; page = get_next_page(page))
		set_first_obj_offset(page, first_obj_offset_of(class, nr++));

	link_free_objects(class, zspage, 0, zspage_capacity(class, zspage));
}

static void create_page_chain(struct size_class *class, struct zspage *zspage,
			      struct page *pages[], unsigned int nr_pages)
{
	int i;
	struct page *page;
	struct page *prev_page = NULL;

	/*
	 * Allocate individual pages and link them together as:
	 * 1. all pages are linked together using page->index
	 * 2. each sub-page point to zspage using page->private
	 *
	 * we set PG_private to identify the first page (i.e. no other sub-page
	 * has this flag set).
	 */
	for (i = 0; i < nr_pages; i++) {
		page = pages[i];
		set_page_private(page, (unsigned long)zspage);
		page->index = 0;
		if (i == 0) {
			zspage->first_page = page;
			SetPagePrivate(page);
			if (unlikely(class->objs_per_zspage == 1 &&
					class->pages_per_zspage == 1))
				SetZsHugePage(zspage);
		} else {
			prev_page->index = (unsigned long)page;
		}
		prev_page = page;
	}
	zspage->nr_pages = nr_pages;
}

/*
 * Give back @nr pages alloc_zspage_pages() got and no zspage took: they are
 * counted in NR_ZSPAGES and typed as zsmalloc's, as a zspage's pages are.
 */
static void free_unused_pages(struct page *pages[], unsigned int nr)
{
	while (nr--) {
		dec_zone_page_state(pages[nr], NR_ZSPAGES);
		__ClearPageZsmalloc(pages[nr]);
		__free_page(pages[nr]);
	}
}

/* Allocate @nr pages for zspages into @pages; all or none */
static bool alloc_zspage_pages(struct page *pages[], unsigned int nr,
			       gfp_t gfp)
{
	unsigned int i;

	if (!IS_ENABLED(CONFIG_COMPACTION))
		gfp &= ~__GFP_MOVABLE;

	for (i = 0; i < nr; i++) {
		struct page *page = alloc_page(gfp);

		if (!page) {
			free_unused_pages(pages, i);
			return false;
		}
		__SetPageZsmalloc(page);
		inc_zone_page_state(page, NR_ZSPAGES);
		pages[i] = page;
	}
	return true;
}

/*
 * Allocate a zspage for the given size class, with the pages its first
 * object needs: it grows as objects need more (grow_zspage()).
 */
static struct zspage *alloc_zspage(struct zs_pool *pool,
					struct size_class *class,
					gfp_t gfp)
{
	struct page *pages[ZS_MAX_ZSPAGE_PAGES];
	unsigned int nr = zspage_growth(pool, class, 0, 1);
	struct zspage *zspage = cache_alloc_zspage(pool, gfp);

	if (!zspage)
		return NULL;

	zspage->magic = ZSPAGE_MAGIC;
	migrate_lock_init(zspage);

	if (!alloc_zspage_pages(pages, nr, gfp)) {
		cache_free_zspage(pool, zspage);
		return NULL;
	}

	create_page_chain(class, zspage, pages, nr);
	init_zspage(class, zspage);
	zspage->pool = pool;
	zspage->class = class->index;

	return zspage;
}

static struct zspage *find_get_zspage(struct size_class *class)
{
	int i;
	struct zspage *zspage;

	for (i = ZS_INUSE_RATIO_99; i >= ZS_INUSE_RATIO_0; i--) {
		zspage = list_first_entry_or_null(&class->fullness_list[i],
						  struct zspage, list);
		if (zspage)
			break;
	}

	return zspage;
}

static inline int __zs_cpu_up(struct mapping_area *area)
{
	/*
	 * Make sure we don't leak memory if a cpu UP notification
	 * and zs_init() race and both call zs_cpu_up() on the same cpu
	 */
	if (area->vm_buf)
		return 0;
	/* kvmalloc(): a multi-page buffer must not need a high-order page */
	area->vm_buf = kvmalloc(ZS_MULTI_PAGES_SIZE, GFP_KERNEL);
	if (!area->vm_buf)
		return -ENOMEM;
	return 0;
}

static inline void __zs_cpu_down(struct mapping_area *area)
{
	kvfree(area->vm_buf);
	area->vm_buf = NULL;
}

/*
 * Copy @size bytes between @buf and the object that starts @off bytes into
 * @page and runs on through the following pages of its zspage.
 */
static void zs_copy_object(struct page *page, int off, char *buf, int size,
			   bool to_object)
{
	while (size) {
		int chunk = min_t(int, size, PAGE_SIZE - off);
		void *addr = kmap_local_page(page);

		if (to_object)
			memcpy(addr + off, buf, chunk);
		else
			memcpy(buf, addr + off, chunk);
		kunmap_local(addr);
		buf += chunk;
		size -= chunk;
		off = 0;
		/* the class geometry guarantees a next page while size is left */
		if (size)
			page = get_next_page(page);
	}
}

/*
 * The object that starts @off bytes into @page and runs @size bytes on, as
 * one range of the direct map, or NULL if no single pointer may be used for
 * the whole range.
 *
 * The pages of a zspage are allocated one by one, so the range is only one
 * piece of the direct map when their frame numbers happen to be
 * consecutive, and even then a pointer is more than an address:
 *  - with tag-based KASAN (software tags, or hardware tags on arm64 MTE)
 *    every allocation of pages gets its own tag, set in the memory and in
 *    the pointer page_address() returns; a pointer carries one tag, so it
 *    may only cross into a page that bears the same tag;
 *  - with KMSAN every page has its metadata apart from its neighbours', and
 *    an access may not cross pages at all;
 *  - with CONFIG_HIGHMEM the pages need not be mapped.
 *
 * Only pools with multi-page classes map in place: without them, objects
 * that span two pages go through the per-CPU area as they always did.
 */
static void *obj_contig_addr(struct page *page, int off, int size)
{
	struct page *first = page;
	unsigned long pfn;
	unsigned int i, nr;
	u8 tag;

	if (!IS_ENABLED(CONFIG_ZSMALLOC_MULTI_PAGES) ||
	    IS_ENABLED(CONFIG_HIGHMEM) || IS_ENABLED(CONFIG_KMSAN))
		return NULL;

	pfn = page_to_pfn(page);
	/* a constant that lets the test go when no KASAN mode tags pages */
	tag = page_kasan_tag(page);
	nr = DIV_ROUND_UP(off + size, PAGE_SIZE);
	for (i = 1; i < nr; i++) {
		page = get_next_page(page);
		if (page_to_pfn(page) != pfn + i || page_kasan_tag(page) != tag)
			return NULL;
	}
	return page_address(first) + off;
}

/*
 * Map an object that spans pages: where it lies if one pointer covers it
 * (obj_contig_addr()), else through the per-CPU buffer, into which it is
 * copied unless it is mapped write-only.
 */
static void *__zs_map_object(struct mapping_area *area, struct page *page,
			     int off, int size)
{
	void *addr;

	/* disable page faults to match kmap_atomic() return conditions */
	pagefault_disable();

	addr = obj_contig_addr(page, off, size);
	area->in_place = !!addr;
	if (addr)
		return addr;

	if (area->vm_mm != ZS_MM_WO)
		zs_copy_object(page, off, area->vm_buf, size, false);

	return area->vm_buf;
}

static void __zs_unmap_object(struct mapping_area *area, struct page *page,
			      int off, int size)
{
	/* the handle in front of the object stays as is */
	if (!area->in_place && area->vm_mm != ZS_MM_RO) {
		off += ZS_HANDLE_SIZE;
		if (off >= PAGE_SIZE) {
			off -= PAGE_SIZE;
			page = get_next_page(page);
		}
		zs_copy_object(page, off, area->vm_buf + ZS_HANDLE_SIZE,
			       size - ZS_HANDLE_SIZE, true);
	}

	/* enable page faults to match kunmap_atomic() return conditions */
	pagefault_enable();
}

static int zs_cpu_prepare(unsigned int cpu)
{
	struct mapping_area *area;

	area = &per_cpu(zs_map_area, cpu);
	return __zs_cpu_up(area);
}

static int zs_cpu_dead(unsigned int cpu)
{
	struct mapping_area *area;

	area = &per_cpu(zs_map_area, cpu);
	__zs_cpu_down(area);
	return 0;
}

static bool can_merge(struct size_class *prev, int pages_per_zspage,
					int objs_per_zspage)
{
	if (prev->pages_per_zspage == pages_per_zspage &&
		prev->objs_per_zspage == objs_per_zspage)
		return true;

	return false;
}

/* No free object in the pages it has (it may still grow) */
static bool zspage_full(struct size_class *class, struct zspage *zspage)
{
	return get_zspage_inuse(zspage) == zspage_capacity(class, zspage);
}

static bool zspage_empty(struct zspage *zspage)
{
	return get_zspage_inuse(zspage) == 0;
}

/**
 * zs_lookup_class_index() - Returns index of the zsmalloc &size_class
 * that hold objects of the provided size.
 * @pool: zsmalloc pool to use
 * @size: object size
 *
 * Context: Any context.
 *
 * Return: the index of the zsmalloc &size_class that hold objects of the
 * provided size.
 */
unsigned int zs_lookup_class_index(struct zs_pool *pool, unsigned int size)
{
	struct size_class *class;

	class = lookup_size_class(pool, size);

	return class->index;
}
EXPORT_SYMBOL_GPL(zs_lookup_class_index);

unsigned long zs_get_total_pages(struct zs_pool *pool)
{
	return atomic_long_read(&pool->pages_allocated);
}
EXPORT_SYMBOL_GPL(zs_get_total_pages);

/**
 * zs_map_object - get address of allocated object from handle.
 * @pool: pool from which the object was allocated
 * @handle: handle returned from zs_malloc
 * @mm: mapping mode to use
 *
 * Before using an object allocated from zs_malloc, it must be mapped using
 * this function. When done with the object, it must be unmapped using
 * zs_unmap_object.
 *
 * Only one object can be mapped per cpu at a time. There is no protection
 * against nested mappings.
 *
 * This function returns with preemption and page faults disabled.
 */
void *zs_map_object(struct zs_pool *pool, unsigned long handle,
			enum zs_mapmode mm)
{
	struct zspage *zspage;
	struct page *page;
	unsigned long obj, off;
	unsigned int obj_idx;

	struct size_class *class;
	struct mapping_area *area;
	void *ret;

	/*
	 * Because we use per-cpu mapping areas shared among the
	 * pools/users, we can't allow mapping in interrupt context
	 * because it can corrupt another users mappings.
	 */
	BUG_ON(in_interrupt());

	/* It guarantees it can get zspage from handle safely */
	read_lock(&pool->migrate_lock);
	obj = handle_to_obj(handle);
	obj_to_location(obj, &page, &obj_idx);
	zspage = get_zspage(page);

	/*
	 * migration cannot move any zpages in this zspage. Here, class->lock
	 * is too heavy since callers would take some time until they calls
	 * zs_unmap_object API so delegate the locking from class to zspage
	 * which is smaller granularity.
	 */
	migrate_read_lock(zspage);
	read_unlock(&pool->migrate_lock);

	class = zspage_class(pool, zspage);
	off = offset_in_page(class->size * obj_idx);

	local_lock(&zs_map_area.lock);
	area = this_cpu_ptr(&zs_map_area);
	area->vm_mm = mm;
	if (off + class->size <= PAGE_SIZE) {
		/* this object is contained entirely within a page */
		area->vm_addr = kmap_atomic(page);
		ret = area->vm_addr + off;
		goto out;
	}

	/* this object spans two or more pages */
	ret = __zs_map_object(area, page, off, class->size);
out:
	if (likely(!ZsHugePage(zspage)))
		ret += ZS_HANDLE_SIZE;

	return ret;
}
EXPORT_SYMBOL_GPL(zs_map_object);

void zs_unmap_object(struct zs_pool *pool, unsigned long handle)
{
	struct zspage *zspage;
	struct page *page;
	unsigned long obj, off;
	unsigned int obj_idx;

	struct size_class *class;
	struct mapping_area *area;

	obj = handle_to_obj(handle);
	obj_to_location(obj, &page, &obj_idx);
	zspage = get_zspage(page);
	class = zspage_class(pool, zspage);
	off = offset_in_page(class->size * obj_idx);

	area = this_cpu_ptr(&zs_map_area);
	if (off + class->size <= PAGE_SIZE)
		kunmap_atomic(area->vm_addr);
	else
		__zs_unmap_object(area, page, off, class->size);
	local_unlock(&zs_map_area.lock);

	migrate_read_unlock(zspage);
}
EXPORT_SYMBOL_GPL(zs_unmap_object);

/**
 * zs_huge_class_size() - Returns the size (in bytes) of the first huge
 *                        zsmalloc &size_class.
 * @pool: zsmalloc pool to use
 *
 * The function returns the size of the first huge class - any object of equal
 * or bigger size will be stored in zspage consisting of a single physical
 * page.
 *
 * Context: Any context.
 *
 * Return: the size (in bytes) of the first huge zsmalloc &size_class.
 */
size_t zs_huge_class_size(struct zs_pool *pool)
{
	return huge_class_size;
}
EXPORT_SYMBOL_GPL(zs_huge_class_size);

#if IS_ENABLED(CONFIG_ZSMALLOC_KUNIT_TEST)
/*
 * For the KUnit suite: the zspage layout zsmalloc chose for the class of
 * @size, the pages a zspage has and the objects it holds.
 */
void zs_test_zspage_layout(struct zs_pool *pool, size_t size,
			   unsigned int *pages, unsigned int *objs)
{
	struct size_class *class = lookup_size_class(pool, size);

	*pages = class->pages_per_zspage;
	*objs = class->objs_per_zspage;
}
EXPORT_SYMBOL_IF_KUNIT(zs_test_zspage_layout);

/*
 * For the KUnit suite: store in @pages, up to @max of them, the pages the
 * object of @handle occupies, in order; returns how many it occupies.
 */
int zs_test_object_pages(struct zs_pool *pool, unsigned long handle,
			 struct page **pages, int max)
{
	struct size_class *class;
	struct zspage *zspage;
	unsigned int obj_idx;
	struct page *page;
	unsigned long off;
	int i, nr;

	read_lock(&pool->migrate_lock);
	obj_to_location(handle_to_obj(handle), &page, &obj_idx);
	zspage = get_zspage(page);
	class = zspage_class(pool, zspage);
	off = offset_in_page(class->size * obj_idx);
	nr = DIV_ROUND_UP(off + class->size, PAGE_SIZE);
	for (i = 0; i < nr && i < max; i++) {
		pages[i] = page;
		page = get_next_page(page);
	}
	read_unlock(&pool->migrate_lock);

	return nr;
}
EXPORT_SYMBOL_IF_KUNIT(zs_test_object_pages);

/* For the KUnit suite: how many objects compaction has moved */
long zs_test_objs_moved(struct zs_pool *pool)
{
	return atomic_long_read(&pool->objs_moved);
}
EXPORT_SYMBOL_IF_KUNIT(zs_test_objs_moved);

/*
 * For the KUnit suite: make zs_malloc() of @size objects act, while @hold,
 * as if another allocation were getting pages to grow a zspage of their
 * class, the way two CPUs that miss at once meet.
 */
void zs_test_hold_growth(struct zs_pool *pool, size_t size, bool hold)
{
	struct size_class *class = lookup_size_class(pool, size);

	spin_lock(&class->lock);
	class->growth_pending = hold;
	spin_unlock(&class->lock);
}
EXPORT_SYMBOL_IF_KUNIT(zs_test_hold_growth);
#endif

#ifdef CONFIG_ZSMALLOC_MULTI_PAGES
/**
 * zs_max_alloc_size() - Returns the largest object size zs_malloc() accepts.
 * @pool: zsmalloc pool to use
 *
 * A multi-page block (PAGE_SIZE << CONFIG_ZSMALLOC_MULTI_PAGES_ORDER) less
 * the inline handle; without multi-page classes, an inline stub gives
 * PAGE_SIZE.
 *
 * Context: Any context.
 *
 * Return: the largest object size, in bytes.
 */
size_t zs_max_alloc_size(struct zs_pool *pool)
{
	return ZS_MAX_OBJ_SIZE;
}
EXPORT_SYMBOL_GPL(zs_max_alloc_size);

/**
 * zs_multi_pages_huge_class_size() - Returns the size from which an object
 *                                    costs a whole multi-page block.
 * @pool: zsmalloc pool to use
 *
 * Objects of this size or bigger, up to zs_max_alloc_size(), end up in the
 * largest multi-page class and take as many pages as the uncompressed
 * block would: a caller may as well store such data uncompressed.
 *
 * Context: Any context.
 *
 * Return: the size in bytes.
 */
size_t zs_multi_pages_huge_class_size(struct zs_pool *pool)
{
	return multi_pages_huge_class_size;
}
EXPORT_SYMBOL_GPL(zs_multi_pages_huge_class_size);

/**
 * zs_block_huge_size() - Returns the size from which an object of a block
 *                        costs as much as the block uncompressed.
 * @pool: zsmalloc pool to use
 * @block: the uncompressed size: a multiple of PAGE_SIZE, more than one
 *         page and at most zs_max_alloc_size() plus the inline handle
 *
 * Objects of this size or bigger land in classes of @block bytes or more:
 * a caller that compressed @block bytes may as well store them as pages.
 * For the largest block, this is zs_multi_pages_huge_class_size(); a
 * caller with smaller blocks (zram's block_size) needs its own threshold.
 *
 * Context: Any context.
 *
 * Return: the size in bytes, or 0 if @block is out of range.
 */
size_t zs_block_huge_size(struct zs_pool *pool, size_t block)
{
	size_t size;

	if (block <= PAGE_SIZE || block > ZS_MULTI_PAGES_SIZE ||
	    !IS_ALIGNED(block, PAGE_SIZE))
		return 0;
	/*
	 * Class sizes grow with the size looked up, and step where an object
	 * and its handle reach a multiple of ZS_MULTI_SIZE_CLASS_DELTA above
	 * a page: find the largest such step whose class is still smaller
	 * than the block. Every size above it rounds up to a class of the
	 * block or more; a page's class is less.
	 */
	size = block - ZS_MULTI_SIZE_CLASS_DELTA;
	while (size > PAGE_SIZE &&
	       lookup_size_class(pool, size - ZS_HANDLE_SIZE)->size >= block)
		size -= ZS_MULTI_SIZE_CLASS_DELTA;
	return size + 1 - ZS_HANDLE_SIZE;
}
EXPORT_SYMBOL_GPL(zs_block_huge_size);
#endif

static unsigned long obj_malloc(struct zs_pool *pool,
				struct zspage *zspage, unsigned long handle)
{
	int i, nr_page, offset;
	unsigned long obj;
	struct link_free *link;
	struct size_class *class;

	struct page *m_page;
	unsigned long m_offset;
	void *vaddr;

	class = pool->size_class[zspage->class];
	obj = get_freeobj(zspage);

	offset = obj * class->size;
	nr_page = offset >> PAGE_SHIFT;
	m_offset = offset_in_page(offset);
	m_page = get_first_page(zspage);

	for (i = 0; i < nr_page; i++)
		m_page = get_next_page(m_page);

	vaddr = kmap_atomic(m_page);
	link = (struct link_free *)vaddr + m_offset / sizeof(*link);
	set_freeobj(zspage, link->next >> OBJ_TAG_BITS);
	if (likely(!ZsHugePage(zspage)))
		/* record handle in the header of allocated chunk */
		link->handle = handle | OBJ_ALLOCATED_TAG;
	else
		/* record handle to page->index */
		zspage->first_page->index = handle | OBJ_ALLOCATED_TAG;

	kunmap_atomic(vaddr);
	mod_zspage_inuse(zspage, 1);

	obj = location_to_obj(m_page, obj);
	record_obj(handle, obj);

	return obj;
}


/*
 * Add @nr pages to @zspage, a zspage of class->growable, and put the
 * objects they complete on its free list, which is empty.
 */
static void grow_zspage(struct zs_pool *pool, struct size_class *class,
			struct zspage *zspage, struct page *pages[],
			unsigned int nr)
{
	unsigned int old = zspage_capacity(class, zspage), i;
	struct page *last = get_first_page(zspage), *next;

	assert_spin_locked(&class->lock);
	VM_WARN_ON_ONCE(get_zspage_inuse(zspage) != old);

	while ((next = get_next_page(last)))
		last = next;
	for (i = 0; i < nr; i++) {
		struct page *page = pages[i];

		set_page_private(page, (unsigned long)zspage);
		page->index = 0;
		set_first_obj_offset(page,
				     first_obj_offset_of(class, zspage->nr_pages));
		set_page_movable(page);
		last->index = (unsigned long)page;
		last = page;
		zspage->nr_pages++;
	}

	link_free_objects(class, zspage, old, zspage_capacity(class, zspage));
	class_stat_add(class, ZS_OBJS_ALLOCATED,
		       zspage_capacity(class, zspage) - old);
	class_stat_add(class, ZS_PAGES_USED, nr);
	atomic_long_add(nr, &pool->pages_allocated);
	fix_fullness_group(class, zspage);
}

/* Pages the first zspage of class->growable needs for one more object */
static struct zspage *first_growable(struct zs_pool *pool,
				     struct size_class *class,
				     unsigned int *need)
{
	struct zspage *zspage;

	zspage = list_first_entry_or_null(&class->growable, struct zspage, list);
	if (zspage)
		*need = zspage_growth(pool, class, zspage->nr_pages,
				      zspage_capacity(class, zspage) + 1);
	return zspage;
}

/*
 * A zspage for one more object of @class: one with a free object, or a
 * zspage of class->growable grown by the pages it needs. Called and returns
 * with class->lock held, which it drops to allocate pages; NULL if a new
 * zspage is needed (*@err 0) or if pages could not be had (*@err -ENOMEM).
 *
 * One allocation at a time gets pages for growth (class->growth_pending):
 * another one that finds no free object meanwhile makes a new zspage, which
 * grows in turn once it is full. Pages are got with no zspage pointer held
 * across the unlocked allocation, since the zspage may be freed meanwhile;
 * whichever zspage is first in class->growable when they arrive takes them,
 * and they are only given back when none is left.
 */
static struct zspage *find_or_grow_zspage(struct zs_pool *pool,
					  struct size_class *class,
					  gfp_t gfp, int *err)
{
	struct page *pages[ZS_MAX_ZSPAGE_PAGES];
	unsigned int have = 0, need = 0;
	struct zspage *zspage;
	bool ok;

	*err = 0;
	for (;;) {
		zspage = first_growable(pool, class, &need);
		if (zspage && need <= have) {
			grow_zspage(pool, class, zspage, pages, need);
			memmove(pages, pages + need,
				(have - need) * sizeof(pages[0]));
			have -= need;
			break;
		}
		zspage = find_get_zspage(class);
		if (zspage || list_empty(&class->growable))
			break;
		if (class->growth_pending && !have)
			break;

		class->growth_pending = true;
		spin_unlock(&class->lock);
		ok = alloc_zspage_pages(pages + have, need - have, gfp);
		spin_lock(&class->lock);
		class->growth_pending = false;
		if (!ok) {
			*err = -ENOMEM;
			break;
		}
		have = need;
	}

	free_unused_pages(pages, have);
	return zspage;
}

/**
 * zs_malloc - Allocate block of given size from pool.
 * @pool: pool to allocate from
 * @size: size of block to allocate
 * @gfp: gfp flags when allocating object
 *
 * On success, handle to the allocated object is returned,
 * otherwise an ERR_PTR().
 * Allocation requests with size > zs_max_alloc_size() will fail.
 */
unsigned long zs_malloc(struct zs_pool *pool, size_t size, gfp_t gfp)
{
	unsigned long handle;
	struct size_class *class;
	int newfg, err;
	struct zspage *zspage;

	if (unlikely(!size))
		return (unsigned long)ERR_PTR(-EINVAL);

	if (unlikely(size > ZS_MAX_OBJ_SIZE))
		return (unsigned long)ERR_PTR(-ENOSPC);

	handle = cache_alloc_handle(pool, gfp);
	if (!handle)
		return (unsigned long)ERR_PTR(-ENOMEM);

	class = lookup_size_class(pool, size);
	if (class->size > PAGE_SIZE && !READ_ONCE(pool->holds_multi_pages))
		WRITE_ONCE(pool->holds_multi_pages, true);

	/* class->lock effectively protects the zpage migration */
	spin_lock(&class->lock);
	zspage = find_or_grow_zspage(pool, class, gfp, &err);
	if (likely(zspage)) {
		obj_malloc(pool, zspage, handle);
		/* Now move the zspage to another fullness group, if required */
		fix_fullness_group(class, zspage);
		class_stat_add(class, ZS_OBJS_INUSE, 1);

		goto out;
	}

	spin_unlock(&class->lock);

	zspage = err ? NULL : alloc_zspage(pool, class, gfp);
	if (!zspage) {
		cache_free_handle(pool, handle);
		return (unsigned long)ERR_PTR(-ENOMEM);
	}

	spin_lock(&class->lock);
	obj_malloc(pool, zspage, handle);
	newfg = get_fullness_group(class, zspage);
	insert_zspage(class, zspage, newfg);
	atomic_long_add(zspage->nr_pages, &pool->pages_allocated);
	class_stat_add(class, ZS_OBJS_ALLOCATED, zspage_capacity(class, zspage));
	class_stat_add(class, ZS_PAGES_USED, zspage->nr_pages);
	class_stat_add(class, ZS_OBJS_INUSE, 1);

	/* We completely set up zspage so mark them as movable */
	SetZsPageMovable(pool, zspage);
out:
	spin_unlock(&class->lock);

	return handle;
}
EXPORT_SYMBOL_GPL(zs_malloc);

static void obj_free(int class_size, unsigned long obj)
{
	struct link_free *link;
	struct zspage *zspage;
	struct page *f_page;
	unsigned long f_offset;
	unsigned int f_objidx;
	void *vaddr;

	obj_to_location(obj, &f_page, &f_objidx);
	f_offset = offset_in_page(class_size * f_objidx);
	zspage = get_zspage(f_page);

	vaddr = kmap_atomic(f_page);
	link = (struct link_free *)(vaddr + f_offset);

	/* Insert this object in containing zspage's freelist */
	if (likely(!ZsHugePage(zspage)))
		link->next = get_freeobj(zspage) << OBJ_TAG_BITS;
	else
		f_page->index = 0;
	set_freeobj(zspage, f_objidx);

	kunmap_atomic(vaddr);
	mod_zspage_inuse(zspage, -1);
}

void zs_free(struct zs_pool *pool, unsigned long handle)
{
	struct zspage *zspage;
	struct page *f_page;
	unsigned long obj;
	struct size_class *class;
	int fullness;

	if (IS_ERR_OR_NULL((void *)handle))
		return;

	/*
	 * The pool->migrate_lock protects the race with zpage's migration
	 * so it's safe to get the page from handle.
	 */
	read_lock(&pool->migrate_lock);
	obj = handle_to_obj(handle);
	obj_to_page(obj, &f_page);
	zspage = get_zspage(f_page);
	class = zspage_class(pool, zspage);
	spin_lock(&class->lock);
	read_unlock(&pool->migrate_lock);

	class_stat_sub(class, ZS_OBJS_INUSE, 1);
	obj_free(class->size, obj);

	fullness = fix_fullness_group(class, zspage);
	if (fullness == ZS_INUSE_RATIO_0)
		free_zspage(pool, class, zspage);

	spin_unlock(&class->lock);
	cache_free_handle(pool, handle);
}
EXPORT_SYMBOL_GPL(zs_free);

static void zs_object_copy(struct size_class *class, unsigned long dst,
				unsigned long src)
{
	struct page *s_page, *d_page;
	unsigned int s_objidx, d_objidx;
	unsigned long s_off, d_off;
	void *s_addr, *d_addr;
	int s_size, d_size, size;
	int written = 0;

	s_size = d_size = class->size;

	obj_to_location(src, &s_page, &s_objidx);
	obj_to_location(dst, &d_page, &d_objidx);

	s_off = offset_in_page(class->size * s_objidx);
	d_off = offset_in_page(class->size * d_objidx);

	if (s_off + class->size > PAGE_SIZE)
		s_size = PAGE_SIZE - s_off;

	if (d_off + class->size > PAGE_SIZE)
		d_size = PAGE_SIZE - d_off;

	s_addr = kmap_atomic(s_page);
	d_addr = kmap_atomic(d_page);

	while (1) {
		size = min(s_size, d_size);
		memcpy(d_addr + d_off, s_addr + s_off, size);
		written += size;

		if (written == class->size)
			break;

		s_off += size;
		s_size -= size;
		d_off += size;
		d_size -= size;

		/*
		 * Calling kunmap_atomic(d_addr) is necessary. kunmap_atomic()
		 * calls must occurs in reverse order of calls to kmap_atomic().
		 * So, to call kunmap_atomic(s_addr) we should first call
		 * kunmap_atomic(d_addr). For more details see
		 * Documentation/mm/highmem.rst.
		 */
		if (s_off >= PAGE_SIZE) {
			kunmap_atomic(d_addr);
			kunmap_atomic(s_addr);
			s_page = get_next_page(s_page);
			s_addr = kmap_atomic(s_page);
			d_addr = kmap_atomic(d_page);
			s_size = min_t(int, class->size - written, PAGE_SIZE);
			s_off = 0;
		}

		if (d_off >= PAGE_SIZE) {
			kunmap_atomic(d_addr);
			d_page = get_next_page(d_page);
			d_addr = kmap_atomic(d_page);
			d_size = min_t(int, class->size - written, PAGE_SIZE);
			d_off = 0;
		}
	}

	kunmap_atomic(d_addr);
	kunmap_atomic(s_addr);
}

/*
 * Find alloced object in zspage from index object and
 * return handle.
 */
static unsigned long find_alloced_obj(struct size_class *class,
				      struct page *page, int *obj_idx)
{
	unsigned int offset;
	int index = *obj_idx;
	unsigned long handle = 0;
	void *addr = kmap_atomic(page);

	offset = get_first_obj_offset(page);
	offset += class->size * index;

	while (offset < PAGE_SIZE) {
		if (obj_allocated(page, addr + offset, &handle))
			break;

		offset += class->size;
		index++;
	}

	kunmap_atomic(addr);

	*obj_idx = index;

	return handle;
}

/* Returns the number of objects moved */
static unsigned long migrate_zspage(struct zs_pool *pool,
				    struct zspage *src_zspage,
				    struct zspage *dst_zspage)
{
	unsigned long used_obj, free_obj, moved = 0;
	unsigned long handle;
	int obj_idx = 0;
	struct page *s_page = get_first_page(src_zspage);
	struct size_class *class = pool->size_class[src_zspage->class];

	while (1) {
		handle = find_alloced_obj(class, s_page, &obj_idx);
		if (!handle) {
			s_page = get_next_page(s_page);
			if (!s_page)
				break;
			obj_idx = 0;
			continue;
		}

		used_obj = handle_to_obj(handle);
		free_obj = obj_malloc(pool, dst_zspage, handle);
		zs_object_copy(class, free_obj, used_obj);
		obj_idx++;
		obj_free(class->size, used_obj);
		moved++;

		/* Stop if there is no more space */
		if (zspage_full(class, dst_zspage))
			break;

		/* Stop if there are no more objects to migrate */
		if (zspage_empty(src_zspage))
			break;
	}

	return moved;
}

static struct zspage *isolate_src_zspage(struct size_class *class)
{
	struct zspage *zspage;
	int fg;

	for (fg = ZS_INUSE_RATIO_10; fg <= ZS_INUSE_RATIO_99; fg++) {
		zspage = list_first_entry_or_null(&class->fullness_list[fg],
						  struct zspage, list);
		if (zspage) {
			remove_zspage(class, zspage);
			return zspage;
		}
	}

	return zspage;
}

static struct zspage *isolate_dst_zspage(struct size_class *class)
{
	struct zspage *zspage;
	int fg;

	for (fg = ZS_INUSE_RATIO_99; fg >= ZS_INUSE_RATIO_10; fg--) {
		zspage = list_first_entry_or_null(&class->fullness_list[fg],
						  struct zspage, list);
		if (zspage) {
			remove_zspage(class, zspage);
			return zspage;
		}
	}

	return zspage;
}

/*
 * putback_zspage - add @zspage into right class's fullness list
 * @class: destination class
 * @zspage: target page
 *
 * Return @zspage's fullness status
 */
static int putback_zspage(struct size_class *class, struct zspage *zspage)
{
	int fullness;

	fullness = get_fullness_group(class, zspage);
	insert_zspage(class, zspage, fullness);

	return fullness;
}

#ifdef CONFIG_COMPACTION
/*
 * To prevent zspage destroy during migration, zspage freeing should
 * hold locks of all pages in the zspage.
 */
static void lock_zspage(struct zspage *zspage)
{
	struct page *curr_page, *page;

	/*
	 * Pages we haven't locked yet can be migrated off the list while we're
	 * trying to lock them, so we need to be careful and only attempt to
	 * lock each page under migrate_read_lock(). Otherwise, the page we lock
	 * may no longer belong to the zspage. This means that we may wait for
	 * the wrong page to unlock, so we must take a reference to the page
	 * prior to waiting for it to unlock outside migrate_read_lock().
	 */
	/* off every list: no zs_malloc() can grow it (see the lock order) */
	VM_WARN_ON_ONCE(!list_empty(&zspage->list));

	while (1) {
		migrate_read_lock(zspage);
		page = get_first_page(zspage);
		if (trylock_page(page))
			break;
		get_page(page);
		migrate_read_unlock(zspage);
		wait_on_page_locked(page);
		put_page(page);
	}

	curr_page = page;
	while ((page = get_next_page(curr_page))) {
		if (trylock_page(page)) {
			curr_page = page;
		} else {
			get_page(page);
			migrate_read_unlock(zspage);
			wait_on_page_locked(page);
			put_page(page);
			migrate_read_lock(zspage);
		}
	}
	migrate_read_unlock(zspage);
}
#endif /* CONFIG_COMPACTION */

static void migrate_lock_init(struct zspage *zspage)
{
	rwlock_init(&zspage->lock);
}

static void migrate_read_lock(struct zspage *zspage) __acquires(&zspage->lock)
{
	read_lock(&zspage->lock);
}

static void migrate_read_unlock(struct zspage *zspage) __releases(&zspage->lock)
{
	read_unlock(&zspage->lock);
}

static void migrate_write_lock(struct zspage *zspage)
{
	write_lock(&zspage->lock);
}

static void migrate_write_unlock(struct zspage *zspage)
{
	write_unlock(&zspage->lock);
}

#ifdef CONFIG_COMPACTION

static const struct movable_operations zsmalloc_mops;

static void replace_sub_page(struct size_class *class, struct zspage *zspage,
				struct page *newpage, struct page *oldpage)
{
	struct page *page;
	struct page *pages[ZS_MAX_ZSPAGE_PAGES] = {NULL, };
	int idx = 0;

	page = get_first_page(zspage);
	do {
		if (page == oldpage)
			pages[idx] = newpage;
		else
			pages[idx] = page;
		idx++;
	} while ((page = get_next_page(page)) != NULL);

	create_page_chain(class, zspage, pages, idx);
	set_first_obj_offset(newpage, get_first_obj_offset(oldpage));
	if (unlikely(ZsHugePage(zspage)))
		newpage->index = oldpage->index;
	__SetPageMovable(newpage, &zsmalloc_mops);
}

static bool zs_page_isolate(struct page *page, isolate_mode_t mode)
{
	/*
	 * Page is locked so zspage couldn't be destroyed. For detail, look at
	 * lock_zspage in free_zspage.
	 */
	VM_BUG_ON_PAGE(PageIsolated(page), page);

	return true;
}

static int zs_page_migrate(struct page *newpage, struct page *page,
		enum migrate_mode mode)
{
	struct zs_pool *pool;
	struct size_class *class;
	struct zspage *zspage;
	struct page *dummy;
	void *s_addr, *d_addr, *addr;
	unsigned int offset;
	unsigned long handle;
	unsigned long old_obj, new_obj;
	unsigned int obj_idx;

	VM_BUG_ON_PAGE(!PageIsolated(page), page);

	/* We're committed, tell the world that this is a Zsmalloc page. */
	__SetPageZsmalloc(newpage);

	/* The page is locked, so this pointer must remain valid */
	zspage = get_zspage(page);
	pool = zspage->pool;

	/*
	 * The pool migrate_lock protects the race between zpage migration
	 * and zs_free.
	 */
	write_lock(&pool->migrate_lock);
	class = zspage_class(pool, zspage);

	/*
	 * the class lock protects zpage alloc/free in the zspage.
	 */
	spin_lock(&class->lock);
	/* the migrate_write_lock protects zpage access via zs_map_object */
	migrate_write_lock(zspage);

	offset = get_first_obj_offset(page);
	s_addr = kmap_atomic(page);

	/*
	 * Here, any user cannot access all objects in the zspage so let's move.
	 */
	d_addr = kmap_atomic(newpage);
	copy_page(d_addr, s_addr);
	kmsan_copy_page_meta(newpage, page);
	kunmap_atomic(d_addr);

	for (addr = s_addr + offset; addr < s_addr + PAGE_SIZE;
					addr += class->size) {
		if (obj_allocated(page, addr, &handle)) {

			old_obj = handle_to_obj(handle);
			obj_to_location(old_obj, &dummy, &obj_idx);
			new_obj = (unsigned long)location_to_obj(newpage,
								obj_idx);
			record_obj(handle, new_obj);
		}
	}
	kunmap_atomic(s_addr);

	replace_sub_page(class, zspage, newpage, page);
	/*
	 * Since we complete the data copy and set up new zspage structure,
	 * it's okay to release migration_lock.
	 */
	write_unlock(&pool->migrate_lock);
	spin_unlock(&class->lock);
	migrate_write_unlock(zspage);

	get_page(newpage);
	if (page_zone(newpage) != page_zone(page)) {
		dec_zone_page_state(page, NR_ZSPAGES);
		inc_zone_page_state(newpage, NR_ZSPAGES);
	}

	reset_page(page);
	put_page(page);

	return MIGRATEPAGE_SUCCESS;
}

static void zs_page_putback(struct page *page)
{
	VM_BUG_ON_PAGE(!PageIsolated(page), page);
}

static const struct movable_operations zsmalloc_mops = {
	.isolate_page = zs_page_isolate,
	.migrate_page = zs_page_migrate,
	.putback_page = zs_page_putback,
};

/*
 * Caller should hold page_lock of all pages in the zspage
 * In here, we cannot use zspage meta data.
 */
static void async_free_zspage(struct work_struct *work)
{
	int i;
	struct size_class *class;
	struct zspage *zspage, *tmp;
	LIST_HEAD(free_pages);
	struct zs_pool *pool = container_of(work, struct zs_pool,
					free_work);

	for (i = 0; i < ZS_SIZE_CLASSES; i++) {
		class = pool->size_class[i];
		if (class->index != i)
			continue;

		spin_lock(&class->lock);
		list_splice_init(&class->fullness_list[ZS_INUSE_RATIO_0],
				 &free_pages);
		spin_unlock(&class->lock);
	}

	list_for_each_entry_safe(zspage, tmp, &free_pages, list) {
		list_del_init(&zspage->list);
		lock_zspage(zspage);

		class = zspage_class(pool, zspage);
		spin_lock(&class->lock);
		class_stat_sub(class, ZS_INUSE_RATIO_0, 1);
		__free_zspage(pool, class, zspage);
		spin_unlock(&class->lock);
	}
};

static void kick_deferred_free(struct zs_pool *pool)
{
	schedule_work(&pool->free_work);
}

static void zs_flush_migration(struct zs_pool *pool)
{
	flush_work(&pool->free_work);
}

static void init_deferred_free(struct zs_pool *pool)
{
	INIT_WORK(&pool->free_work, async_free_zspage);
}

static void set_page_movable(struct page *page)
{
	WARN_ON(!trylock_page(page));
	__SetPageMovable(page, &zsmalloc_mops);
	unlock_page(page);
}

static void SetZsPageMovable(struct zs_pool *pool, struct zspage *zspage)
{
	struct page *page = get_first_page(zspage);

	do {
		set_page_movable(page);
	} while ((page = get_next_page(page)) != NULL);
}
#else
static inline void zs_flush_migration(struct zs_pool *pool) { }
#endif

/*
 *
 * Based on the number of unused allocated objects calculate
 * and return the number of pages that we can free.
 */
static unsigned long zs_can_compact(struct size_class *class)
{
	unsigned long obj_wasted;
	unsigned long obj_allocated = class_stat_read(class, ZS_OBJS_ALLOCATED);
	unsigned long obj_used = class_stat_read(class, ZS_OBJS_INUSE);

	if (obj_allocated <= obj_used)
		return 0;

	obj_wasted = obj_allocated - obj_used;
	obj_wasted /= class->objs_per_zspage;

	return obj_wasted * class->pages_per_zspage;
}

static unsigned long __zs_compact(struct zs_pool *pool,
				  struct size_class *class)
{
	struct zspage *src_zspage = NULL;
	struct zspage *dst_zspage = NULL;
	unsigned long pages_freed = 0, objs_moved = 0;

	/*
	 * protect the race between zpage migration and zs_free
	 * as well as zpage allocation/free
	 */
	write_lock(&pool->migrate_lock);
	spin_lock(&class->lock);
	while (zs_can_compact(class)) {
		int fg;

		if (!dst_zspage) {
			dst_zspage = isolate_dst_zspage(class);
			if (!dst_zspage)
				break;
		}

		src_zspage = isolate_src_zspage(class);
		if (!src_zspage)
			break;

		migrate_write_lock(src_zspage);
		objs_moved += migrate_zspage(pool, src_zspage, dst_zspage);
		migrate_write_unlock(src_zspage);

		fg = putback_zspage(class, src_zspage);
		if (fg == ZS_INUSE_RATIO_0) {
			pages_freed += src_zspage->nr_pages;
			free_zspage(pool, class, src_zspage);
		}
		src_zspage = NULL;

		if (get_fullness_group(class, dst_zspage) == ZS_INUSE_RATIO_100
		    || rwlock_is_contended(&pool->migrate_lock)) {
			putback_zspage(class, dst_zspage);
			dst_zspage = NULL;

			spin_unlock(&class->lock);
			write_unlock(&pool->migrate_lock);
			cond_resched();
			write_lock(&pool->migrate_lock);
			spin_lock(&class->lock);
		}
	}

	if (src_zspage)
		putback_zspage(class, src_zspage);

	if (dst_zspage)
		putback_zspage(class, dst_zspage);

	spin_unlock(&class->lock);
	write_unlock(&pool->migrate_lock);
	atomic_long_add(objs_moved, &pool->objs_moved);

	return pages_freed;
}

unsigned long zs_compact(struct zs_pool *pool)
{
	int i;
	struct size_class *class;
	unsigned long pages_freed = 0;

	/*
	 * Pool compaction is performed under pool->migrate_lock so it is basically
	 * single-threaded. Having more than one thread in __zs_compact()
	 * will increase pool->migrate_lock contention, which will impact other
	 * zsmalloc operations that need pool->migrate_lock.
	 */
	if (atomic_xchg(&pool->compaction_in_progress, 1))
		return 0;

	for (i = ZS_SIZE_CLASSES - 1; i >= 0; i--) {
		class = pool->size_class[i];
		if (class->index != i)
			continue;
		pages_freed += __zs_compact(pool, class);
	}
	atomic_long_add(pages_freed, &pool->stats.pages_compacted);
	atomic_set(&pool->compaction_in_progress, 0);

	return pages_freed;
}
EXPORT_SYMBOL_GPL(zs_compact);

void zs_pool_stats(struct zs_pool *pool, struct zs_pool_stats *stats)
{
	memcpy(stats, &pool->stats, sizeof(struct zs_pool_stats));
}
EXPORT_SYMBOL_GPL(zs_pool_stats);

static unsigned long zs_shrinker_scan(struct shrinker *shrinker,
		struct shrink_control *sc)
{
	unsigned long pages_freed;
	struct zs_pool *pool = shrinker->private_data;

	/*
	 * Compact classes and calculate compaction delta.
	 * Can run concurrently with a manually triggered
	 * (by user) compaction.
	 */
	pages_freed = zs_compact(pool);

	return pages_freed ? pages_freed : SHRINK_STOP;
}

static unsigned long zs_shrinker_count(struct shrinker *shrinker,
		struct shrink_control *sc)
{
	int i;
	struct size_class *class;
	unsigned long pages_to_free = 0;
	struct zs_pool *pool = shrinker->private_data;

	for (i = ZS_SIZE_CLASSES - 1; i >= 0; i--) {
		class = pool->size_class[i];
		if (class->index != i)
			continue;

		pages_to_free += zs_can_compact(class);
	}

	return pages_to_free;
}

static void zs_unregister_shrinker(struct zs_pool *pool)
{
	shrinker_free(pool->shrinker);
}

static int zs_register_shrinker(struct zs_pool *pool)
{
	pool->shrinker = shrinker_alloc(0, "mm-zspool:%s", pool->name);
	if (!pool->shrinker)
		return -ENOMEM;

	pool->shrinker->scan_objects = zs_shrinker_scan;
	pool->shrinker->count_objects = zs_shrinker_count;
	pool->shrinker->batch = 0;
	pool->shrinker->private_data = pool;

	shrinker_register(pool->shrinker);

	return 0;
}

/*
 * The number of pages, up to @max_pages, whose zspage wastes the fewest
 * bytes at its tail for objects of @class_size; the smallest such number.
 */
static int calculate_zspage_chain_size(int class_size, int max_pages)
{
	int i, min_waste = INT_MAX;
	int chain_size = 1;

	if (is_power_of_2(class_size) && class_size <= PAGE_SIZE)
		return chain_size;

	for (i = DIV_ROUND_UP(class_size, PAGE_SIZE); i <= max_pages; i++) {
		int waste;

		waste = (i * PAGE_SIZE) % class_size;
		if (waste < min_waste) {
			min_waste = waste;
			chain_size = i;
		}
	}

	return chain_size;
}

/**
 * zs_create_pool - Creates an allocation pool to work from.
 * @name: pool name to be created
 *
 * This function must be called before anything when using
 * the zsmalloc allocator.
 *
 * On success, a pointer to the newly created pool is returned,
 * otherwise NULL.
 */
struct zs_pool *zs_create_pool(const char *name)
{
	int i;
	struct zs_pool *pool;
	struct size_class *prev_class = NULL;

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;

	init_deferred_free(pool);
	rwlock_init(&pool->migrate_lock);
	atomic_set(&pool->compaction_in_progress, 0);

	pool->name = kstrdup(name, GFP_KERNEL);
	if (!pool->name)
		goto err;

	if (create_cache(pool))
		goto err;

	/*
	 * Iterate reversely, because, size of size_class that we want to use
	 * for merging should be larger or equal to current size.
	 */
	for (i = ZS_SIZE_CLASSES - 1; i >= 0; i--) {
		int size;
		int pages_per_zspage;
		int objs_per_zspage;
		int max_chain;
		struct size_class *class;
		int fullness;

		if (i >= ZS_BASE_SIZE_CLASSES) {
			size = ZS_MAX_ALLOC_SIZE + (i - ZS_BASE_SIZE_CLASSES + 1) *
				ZS_MULTI_SIZE_CLASS_DELTA;
			max_chain = ZS_MULTI_PAGES_MAX_CHAIN;
		} else {
			size = ZS_MIN_ALLOC_SIZE + i * ZS_SIZE_CLASS_DELTA;
			if (size > ZS_MAX_ALLOC_SIZE)
				size = ZS_MAX_ALLOC_SIZE;
			max_chain = ZS_MAX_PAGES_PER_ZSPAGE;
		}
		pages_per_zspage = calculate_zspage_chain_size(size, max_chain);
		objs_per_zspage = pages_per_zspage * PAGE_SIZE / size;

		/*
		 * The largest multi-page class that is not merged with the
		 * top one: anything bigger costs a whole multi-page block.
		 */
		if (i >= ZS_BASE_SIZE_CLASSES && i < ZS_SIZE_CLASSES - 1 &&
		    !multi_pages_huge_class_size &&
		    !can_merge(prev_class, pages_per_zspage, objs_per_zspage))
			multi_pages_huge_class_size = size - (ZS_HANDLE_SIZE - 1);

		/*
		 * We iterate from biggest down to smallest classes,
		 * so huge_class_size holds the size of the first huge
		 * class. Any object bigger than or equal to that will
		 * endup in the huge class.
		 */
		if (i < ZS_BASE_SIZE_CLASSES && pages_per_zspage != 1 &&
		    objs_per_zspage != 1 && !huge_class_size) {
			huge_class_size = size;
			/*
			 * The object uses ZS_HANDLE_SIZE bytes to store the
			 * handle. We need to subtract it, because zs_malloc()
			 * unconditionally adds handle size before it performs
			 * size class search - so object may be smaller than
			 * huge class size, yet it still can end up in the huge
			 * class because it grows by ZS_HANDLE_SIZE extra bytes
			 * right before class lookup.
			 */
			huge_class_size -= (ZS_HANDLE_SIZE - 1);
		}

		/*
		 * size_class is used for normal zsmalloc operation such
		 * as alloc/free for that size. Although it is natural that we
		 * have one size_class for each size, there is a chance that we
		 * can get more memory utilization if we use one size_class for
		 * many different sizes whose size_class have same
		 * characteristics. So, we makes size_class point to
		 * previous size_class if possible.
		 */
		if (prev_class) {
			if (can_merge(prev_class, pages_per_zspage, objs_per_zspage)) {
				pool->size_class[i] = prev_class;
				continue;
			}
		}

		class = kzalloc(sizeof(struct size_class), GFP_KERNEL);
		if (!class)
			goto err;

		class->size = size;
		class->index = i;
		class->pages_per_zspage = pages_per_zspage;
		class->objs_per_zspage = objs_per_zspage;
		spin_lock_init(&class->lock);
		pool->size_class[i] = class;

		fullness = ZS_INUSE_RATIO_0;
		while (fullness < NR_FULLNESS_GROUPS) {
			INIT_LIST_HEAD(&class->fullness_list[fullness]);
			fullness++;
		}
		INIT_LIST_HEAD(&class->growable);

		prev_class = class;
	}

	/* debug only, don't abort if it fails */
	zs_pool_stat_create(pool, name);

	/*
	 * Not critical since shrinker is only used to trigger internal
	 * defragmentation of the pool which is pretty optional thing.  If
	 * registration fails we still can use the pool normally and user can
	 * trigger compaction manually. Thus, ignore return code.
	 */
	zs_register_shrinker(pool);

	return pool;

err:
	zs_destroy_pool(pool);
	return NULL;
}
EXPORT_SYMBOL_GPL(zs_create_pool);

void zs_destroy_pool(struct zs_pool *pool)
{
	int i;

	zs_unregister_shrinker(pool);
	zs_flush_migration(pool);
	zs_pool_stat_destroy(pool);

	for (i = 0; i < ZS_SIZE_CLASSES; i++) {
		int fg;
		struct size_class *class = pool->size_class[i];

		if (!class)
			continue;

		if (class->index != i)
			continue;

		for (fg = ZS_INUSE_RATIO_0; fg < NR_FULLNESS_GROUPS; fg++) {
			if (list_empty(&class->fullness_list[fg]))
				continue;

			pr_err("Class-%d fullness group %d is not empty\n",
			       class->size, fg);
		}
		if (!list_empty(&class->growable))
			pr_err("Class-%d has zspages left to grow\n", class->size);
		kfree(class);
	}

	destroy_cache(pool);
	kfree(pool->name);
	kfree(pool);
}
EXPORT_SYMBOL_GPL(zs_destroy_pool);

static int __init zs_init(void)
{
	/* class indices must fit zspage->class, offsets the page_type bits */
	BUILD_BUG_ON(ZS_SIZE_CLASSES > (1 << (CLASS_BITS + 1)));
	BUILD_BUG_ON(ZS_MULTI_PAGES_SIZE > FIRST_OBJ_PAGE_TYPE_MASK);
	BUILD_BUG_ON(ZS_MAX_ZSPAGE_PAGES >= 1 << ZS_PAGES_BITS);

	int ret;

	ret = cpuhp_setup_state(CPUHP_MM_ZS_PREPARE, "mm/zsmalloc:prepare",
				zs_cpu_prepare, zs_cpu_dead);
	if (ret)
		goto out;

#ifdef CONFIG_ZPOOL
	zpool_register_driver(&zs_zpool_driver);
#endif

	zs_stat_init();

	return 0;

out:
	return ret;
}

static void __exit zs_exit(void)
{
#ifdef CONFIG_ZPOOL
	zpool_unregister_driver(&zs_zpool_driver);
#endif
	cpuhp_remove_state(CPUHP_MM_ZS_PREPARE);

	zs_stat_exit();
}

module_init(zs_init);
module_exit(zs_exit);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_AUTHOR("Nitin Gupta <ngupta@vflare.org>");
MODULE_DESCRIPTION("zsmalloc memory allocator");
