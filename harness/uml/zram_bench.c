// SPDX-License-Identifier: GPL-2.0
/*
 * zram_bench: the zram data path at native speed, under UML.
 *
 * harness/studies/uml-bench builds this file into a UML kernel (in a copy of the
 * patched tree, never in the series) and boots it. UML cannot run user
 * space on every host, so everything happens in a late initcall, like
 * KUnit: it mounts sysfs, devtmpfs and the host directory holding the
 * corpus (hostfs), then for each round, algorithm (zstd, lz4) and unit
 * (16 KiB folios on a device with multi_pages on, 4 KiB pages with it off)
 * sets up a fresh zram0 through sysfs, writes the corpus with one bio per
 * folio (timed), reads it back the same way (timed), compares every byte,
 * and prints one line "ZMP_UB {json}" with zram's mm_stat. Then it powers
 * the machine off.
 *
 * Kernel parameters: zram_bench.dir=HOSTDIR (holding corpus.img)
 * zram_bench.mib=64 zram_bench.rounds=3
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/init_syscalls.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/reboot.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

static char *dir;
module_param(dir, charp, 0444);
static unsigned int mib = 64;
module_param(mib, uint, 0444);
static unsigned int rounds = 3;
module_param(rounds, uint, 0444);

static int read_file(const char *path, void *buf, size_t size)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	while (pos < size) {
		n = kernel_read(f, buf + pos, size - pos, &pos);
		if (n <= 0)
			break;
	}
	__fput_sync(f);
	return pos;
}

static int zram_attr(const char *attr, const char *val)
{
	char path[64];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/block/zram0/%s", attr);
	f = filp_open(path, O_WRONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, val, strlen(val), &pos);
	__fput_sync(f);
	return n < 0 ? n : 0;
}

/* One synchronous bio for folio @i (zram completes it in submit_bio()) */
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

/*
 * Read everything again a page at a time (a small-folio swap-in or a page
 * cache read of stored blocks) and compare: adds the time to @t_ns. In
 * order, or @strided: page 0 of every 16 KiB, then page 1 of every 16 KiB,
 * ..., so that no read follows one of the same block.
 */
static int __init page_reads(struct block_device *bdev, const void *corpus,
			     size_t size, bool strided, u64 *t_ns,
			     unsigned long *bad)
{
	struct folio *folio = folio_alloc(GFP_KERNEL, 0);
	unsigned long n = size / PAGE_SIZE, k, i;
	u64 t0;
	int ret = 0;

	if (!folio)
		return -ENOMEM;
	for (k = 0; k < n && !ret; k++) {
		i = strided ? (k % (n / 4)) * 4 + k / (n / 4) : k;
		t0 = ktime_get_ns();
		ret = folio_io(bdev, folio, i, REQ_OP_READ);
		*t_ns += ktime_get_ns() - t0;
		*bad += !!memcmp(folio_address(folio), corpus + i * PAGE_SIZE,
				 PAGE_SIZE);
	}
	folio_put(folio);
	return ret;
}

static int __init run_one(const void *corpus, size_t size, unsigned int round,
			  const char *algo, unsigned int order)
{
	size_t fsize = PAGE_SIZE << order;
	unsigned long nr = size / fsize, i, bad = 0;
	struct folio **folios;
	struct file *bdev_file;
	struct block_device *bdev;
	u64 t0, t_write, t_read, t_pages = 0, t_strided = 0;
	char disksize[32], mm_stat[256] = "", mp_stat[256] = "";
	int ret;

	snprintf(disksize, sizeof(disksize), "%zuM", 2 * (size >> 20) + 16);
	ret = zram_attr("reset", "1");
	if (!ret) {
		/* a kernel without multi-page blocks: pages only */
		ret = zram_attr("multi_pages", order ? "1" : "0");
		if (ret == -ENOENT && !order)
			ret = 0;
	}
	if (ret)
		return ret;
	ret = zram_attr("comp_algorithm", algo) ?:
	      zram_attr("disksize", disksize);
	if (ret)
		return ret;

	folios = kvcalloc(nr, sizeof(*folios), GFP_KERNEL);
	if (!folios)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		folios[i] = folio_alloc(GFP_KERNEL, order);
		if (!folios[i]) {
			ret = -ENOMEM;
			goto out;
		}
		memcpy(folio_address(folios[i]), corpus + i * fsize, fsize);
	}

	bdev_file = bdev_file_open_by_path("/dev/zram0",
					   BLK_OPEN_READ | BLK_OPEN_WRITE,
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
		memset(folio_address(folios[i]), 0, fsize);
	t0 = ktime_get_ns();
	for (i = 0; i < nr && !ret; i++)
		ret = folio_io(bdev, folios[i], i, REQ_OP_READ);
	t_read = ktime_get_ns() - t0;
	if (!ret)
		ret = page_reads(bdev, corpus, nr * fsize, false, &t_pages,
				 &bad);
	if (!ret)
		ret = page_reads(bdev, corpus, nr * fsize, true, &t_strided,
				 &bad);
	__fput_sync(bdev_file);

	/* UML has no highmem: a folio's pages are mapped contiguously */
	for (i = 0; i < nr && !ret; i++) {
		const u8 *p = folio_address(folios[i]), *q = corpus + i * fsize;
		size_t off;

		for (off = 0; off < fsize; off++)
			bad += p[off] != q[off];
	}
	read_file("/sys/block/zram0/mm_stat", mm_stat, sizeof(mm_stat) - 1);
	strreplace(mm_stat, '\n', ' ');
	read_file("/sys/block/zram0/multi_pages_stat", mp_stat,
		  sizeof(mp_stat) - 1);
	strreplace(mp_stat, '\n', ' ');
	pr_info("ZMP_UB {\"round\": %u, \"algo\": \"%s\", \"order\": %u, \"bytes\": %zu, \"write_ns\": %llu, \"read_ns\": %llu, \"page_read_ns\": %llu, \"strided_read_ns\": %llu, \"mismatches\": %lu, \"error\": %d, \"mm_stat\": \"%s\", \"multi_pages_stat\": \"%s\"}\n",
		round, algo, order, size, t_write, t_read, t_pages, t_strided, bad, ret,
		mm_stat, mp_stat);
out:
	for (i = 0; i < nr && folios[i]; i++)
		folio_put(folios[i]);
	kvfree(folios);
	return ret;
}

static int __init zram_bench_init(void)
{
	static const char * const algos[] = { "zstd", "lz4" };
	size_t size = (size_t)mib << 20;
	char path[256];
	unsigned int r, a, o;
	void *corpus;
	int ret;

	if (!dir)
		return 0;
	init_mkdir("/sys", 0755);
	init_mkdir("/host", 0755);
	ret = init_mount("sysfs", "/sys", "sysfs", 0, NULL) ?:
	      init_mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) ?:
	      init_mount("none", "/host", "hostfs", 0, dir);
	corpus = vmalloc(size);
	if (!ret && !corpus)
		ret = -ENOMEM;
	if (!ret) {
		snprintf(path, sizeof(path), "/host/corpus.img");
		if (read_file(path, corpus, size) != size)
			ret = -EIO;
	}
	for (r = 1; r <= rounds && !ret; r++)
		for (a = 0; a < ARRAY_SIZE(algos) && !ret; a++)
			for (o = 0; o <= 2 && !ret; o += 2) {
				ret = run_one(corpus, size, r, algos[a], 2 - o);
				/* a kernel without blocks: pages only */
				if (ret == -ENOENT && o == 0)
					ret = 0;
			}
	zram_attr("reset", "1");
	vfree(corpus);
	pr_info("ZMP_UB_DONE %d\n", ret);
	kernel_power_off();
	return 0;
}
late_initcall(zram_bench_init);
