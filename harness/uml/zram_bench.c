// SPDX-License-Identifier: GPL-2.0
/*
 * zram_bench: the zram data path at native speed (built for UML by
 * harness/bin/uml-bench, loaded once per measurement).
 *
 * Reads MiB of a corpus file into folios of 1 << order pages, writes them
 * to a zram device with one bio per folio (timed), reads them back the same
 * way (timed) and compares every byte. With order 2 on a device with
 * multi_pages on, every write is one 16 KiB block; with order 0, pages.
 * Prints one line "zram_bench: {json}"; the caller reads mm_stat after.
 *
 *   insmod zram_bench.ko dev=/dev/zram0 corpus=/path/img mib=64 order=2
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

static char *dev = "/dev/zram0";
module_param(dev, charp, 0444);
static char *corpus;
module_param(corpus, charp, 0444);
static unsigned int mib = 64;
module_param(mib, uint, 0444);
static unsigned int order;
module_param(order, uint, 0444);

static int read_corpus(void *buf, size_t size)
{
	struct file *f = filp_open(corpus, O_RDONLY, 0);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	while (pos < size) {
		n = kernel_read(f, buf + pos, size - pos, &pos);
		if (n <= 0)
			break;
	}
	fput(f);
	return pos == size ? 0 : -EIO;
}

/* One bio for folio @i, synchronous (zram completes it in submit_bio()) */
static int folio_io(struct block_device *bdev, struct folio *folio,
		    unsigned long i, blk_opf_t op)
{
	struct bio_vec bv;
	struct bio bio;

	bio_init(&bio, bdev, &bv, 1, op);
	bio.bi_iter.bi_sector = (i * folio_size(folio)) >> SECTOR_SHIFT;
	bio_add_folio_nofail(&bio, folio, folio_size(folio), 0);
	return submit_bio_wait(&bio);
}

static int __init zram_bench_init(void)
{
	size_t size = (size_t)mib << 20, fsize = PAGE_SIZE << order;
	unsigned long nr = size / fsize, i, bad = 0;
	struct folio **folios = NULL;
	struct file *bdev_file;
	struct block_device *bdev;
	u64 t0, t_write, t_read;
	void *buf;
	int ret;

	if (!corpus || !mib || order > MAX_PAGE_ORDER)
		return -EINVAL;
	buf = vmalloc(size);
	folios = kvcalloc(nr, sizeof(*folios), GFP_KERNEL);
	ret = -ENOMEM;
	if (!buf || !folios)
		goto out;
	ret = read_corpus(buf, size);
	if (ret)
		goto out;
	for (i = 0; i < nr; i++) {
		folios[i] = folio_alloc(GFP_KERNEL, order);
		if (!folios[i]) {
			ret = -ENOMEM;
			goto out;
		}
		memcpy_to_folio(folios[i], 0, buf + i * fsize, fsize);
	}

	bdev_file = bdev_file_open_by_path(dev, BLK_OPEN_READ | BLK_OPEN_WRITE,
					   NULL, NULL);
	if (IS_ERR(bdev_file)) {
		ret = PTR_ERR(bdev_file);
		goto out;
	}
	bdev = file_bdev(bdev_file);

	t0 = ktime_get_ns();
	for (i = 0; i < nr && !ret; i++)
		ret = folio_io(bdev, folios[i], i, REQ_OP_WRITE);
	t_write = ktime_get_ns() - t0;
	for (i = 0; i < nr; i++)
		folio_zero_range(folios[i], 0, fsize);
	t0 = ktime_get_ns();
	for (i = 0; i < nr && !ret; i++)
		ret = folio_io(bdev, folios[i], i, REQ_OP_READ);
	t_read = ktime_get_ns() - t0;
	fput(bdev_file);

	/* UML has no highmem: a folio's pages are mapped contiguously */
	for (i = 0; i < nr && !ret; i++) {
		const u8 *p = folio_address(folios[i]), *q = buf + i * fsize;
		size_t off;

		for (off = 0; off < fsize; off++)
			bad += p[off] != q[off];
	}
	pr_info("zram_bench: {\"dev\": \"%s\", \"order\": %u, \"bytes\": %zu, \"write_ns\": %llu, \"read_ns\": %llu, \"write_MBps\": %llu, \"read_MBps\": %llu, \"mismatches\": %lu, \"error\": %d}\n",
		dev, order, size, t_write, t_read,
		div64_u64((u64)size * 1000, t_write ?: 1),
		div64_u64((u64)size * 1000, t_read ?: 1), bad, ret);
out:
	if (folios)
		for (i = 0; i < nr && folios[i]; i++)
			folio_put(folios[i]);
	kvfree(folios);
	vfree(buf);
	return ret;
}

static void __exit zram_bench_exit(void)
{
}

module_init(zram_bench_init);
module_exit(zram_bench_exit);
MODULE_DESCRIPTION("zram data path micro-benchmark");
MODULE_LICENSE("GPL");
