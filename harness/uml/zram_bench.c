// SPDX-License-Identifier: GPL-2.0
/*
 * zram_bench: the zram data path at native speed, under UML.
 *
 * harness/studies/uml-bench builds this file into a UML kernel (in a copy of the
 * patched tree, never in the series) and boots it. UML cannot run user
 * space on every host, so everything happens in a late initcall, like
 * KUnit: it mounts sysfs, devtmpfs and the host directory holding the
 * corpus (hostfs), then for each round, algorithm (zstd, lz4) and unit
 * (a folio size: by default 16 KiB folios on a device with multi_pages on,
 * 4 KiB pages with it off) sets up a fresh zram0 through sysfs, writes the
 * corpus with one bio per folio (timed), reads it back the same way
 * (timed), reads it a page at a time in order and strided (timed), reads
 * it whole again into cleared folios with debug_stat read around each bio
 * (timed; each bio's time and how the series' zram read its block, in
 * place or copied, go to a file in the host directory), compares every
 * byte after each whole read, and prints one line "ZMP_UB {json}" with
 * zram's mm_stat and each operation's latency percentiles. Then it
 * powers the machine off.
 *
 * Kernel parameters: zram_bench.dir=HOSTDIR (holding corpus.img)
 * zram_bench.mib=64 zram_bench.rounds=3 zram_bench.units=16,4 (folio sizes
 * in KiB; a kernel with block_size stores each folio as one block of its
 * size, one with multi_pages only as 16 KiB blocks, a kernel without
 * either page by page) zram_bench.algos=zstd,lz4
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
#include <linux/sort.h>
#include <linux/vmalloc.h>

static char *dir;
module_param(dir, charp, 0444);
static unsigned int mib = 64;
module_param(mib, uint, 0444);
static unsigned int rounds = 3;
module_param(rounds, uint, 0444);
static char *units = "16,4";
module_param(units, charp, 0444);
static char *algos = "zstd,lz4";
module_param(algos, charp, 0444);

/* Per-operation times of one pass, and their percentiles */
struct op_times {
	u64 *ns;
	unsigned long n;
};

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 op_pct(struct op_times *t, unsigned int pct)
{
	if (!t->n)
		return 0;
	return t->ns[min(t->n - 1, t->n * pct / 100)];
}

static void op_sort(struct op_times *t)
{
	sort(t->ns, t->n, sizeof(*t->ns), cmp_u64, NULL);
}

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
			     struct op_times *ops, unsigned long *bad)
{
	struct folio *folio = folio_alloc(GFP_KERNEL, 0);
	unsigned long n = size / PAGE_SIZE, k, i;
	u64 t0, dt;
	int ret = 0;

	if (!folio)
		return -ENOMEM;
	ops->n = 0;
	for (k = 0; k < n && !ret; k++) {
		i = strided ? (k % (n / 4)) * 4 + k / (n / 4) : k;
		t0 = ktime_get_ns();
		ret = folio_io(bdev, folio, i, REQ_OP_READ);
		dt = ktime_get_ns() - t0;
		*t_ns += dt;
		ops->ns[ops->n++] = dt;
		*bad += !!memcmp(folio_address(folio), corpus + i * PAGE_SIZE,
				 PAGE_SIZE);
	}
	folio_put(folio);
	op_sort(ops);
	return ret;
}

/*
 * The series' debug_stat block line (a device of blocks): how many block
 * decompressions so far read their object where it lies, and how many
 * copied it out first. False where the device has no such line.
 */
static bool __init block_reads_so_far(u64 *in_place, u64 *copied)
{
	char buf[256] = "";
	unsigned long long v[4];
	char *p = buf;
	int line;

	if (read_file("/sys/block/zram0/debug_stat", buf, sizeof(buf) - 1) <= 0)
		return false;
	/* past "version: 1" and the line of writestall and miss_free */
	for (line = 0; line < 2 && p; line++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p || sscanf(p, "%llu %llu %llu %llu", &v[0], &v[1], &v[2],
			 &v[3]) != 4)
		return false;
	*in_place = v[1];
	*copied = v[2];
	return true;
}

/* How the series' zram read a block for one bio: see classified_reads() */
enum read_kind { READ_OTHER, READ_IN_PLACE, READ_COPIED };

/*
 * Read every folio again, whole, one bio each, reading debug_stat before
 * and after each bio (untimed): each bio's time goes to @all, in the
 * order of the folios until sorted, and how its block's object was read
 * to @kind: in place, copied out of pages that were not contiguous, or
 * neither (an object within one page, a same-filled block, the base's
 * kernel). Both kernels read debug_stat alike, so that their bios follow
 * the same work.
 */
static int __init classified_reads(struct block_device *bdev,
				   struct folio **folios, unsigned long nr,
				   struct op_times *all, u8 *kind)
{
	u64 ip0 = 0, cp0 = 0, ip1 = 0, cp1 = 0, t0;
	unsigned long i;
	bool known;
	int ret = 0;

	all->n = 0;
	for (i = 0; i < nr && !ret; i++) {
		known = block_reads_so_far(&ip0, &cp0);
		t0 = ktime_get_ns();
		ret = folio_io(bdev, folios[i], i, REQ_OP_READ);
		all->ns[all->n++] = ktime_get_ns() - t0;
		known &= block_reads_so_far(&ip1, &cp1);
		kind[i] = READ_OTHER;
		if (known && ip1 == ip0 + 1 && cp1 == cp0)
			kind[i] = READ_IN_PLACE;
		else if (known && cp1 == cp0 + 1 && ip1 == ip0)
			kind[i] = READ_COPIED;
	}
	return ret;
}

/*
 * Write the host directory's reads-ALGO-UNIT.txt: a line per folio of
 * classified_reads(), "ns kind" (enum read_kind), for the harness to
 * compare the two kernels over the same folios. Sorts @all afterwards.
 */
static int __init write_reads(const char *algo, unsigned int unit_kb,
			      struct op_times *all, const u8 *kind)
{
	size_t size = all->n * 24 + 1, len = 0;
	char path[96], *buf = kvmalloc(size, GFP_KERNEL);
	struct file *f;
	loff_t pos = 0;
	unsigned long i;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	for (i = 0; i < all->n; i++)
		len += scnprintf(buf + len, size - len, "%llu %u\n",
				 all->ns[i], kind[i]);
	op_sort(all);
	snprintf(path, sizeof(path), "/host/reads-%s-%u.txt", algo, unit_kb);
	f = filp_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (IS_ERR(f)) {
		kvfree(buf);
		return PTR_ERR(f);
	}
	n = kernel_write(f, buf, len, &pos);
	__fput_sync(f);
	kvfree(buf);
	return n == len ? 0 : n < 0 ? n : -EIO;
}

/* Bytes of @folios that differ from the corpus they were written from */
static unsigned long __init folio_mismatches(struct folio **folios,
					     unsigned long nr, size_t fsize,
					     const void *corpus)
{
	unsigned long i, bad = 0;
	size_t off;

	/* UML has no highmem: a folio's pages are mapped contiguously */
	for (i = 0; i < nr; i++) {
		const u8 *p = folio_address(folios[i]);
		const u8 *q = corpus + i * fsize;

		for (off = 0; off < fsize; off++)
			bad += p[off] != q[off];
	}
	return bad;
}

/* One pass of a bio per folio over @folios, timed whole and per bio */
static int __init folio_pass(struct block_device *bdev, struct folio **folios,
			     unsigned long nr, blk_opf_t op, u64 *t_ns,
			     struct op_times *ops)
{
	unsigned long i;
	u64 t0, t1;
	int ret = 0;

	ops->n = 0;
	*t_ns = 0;
	for (i = 0; i < nr && !ret; i++) {
		t0 = ktime_get_ns();
		ret = folio_io(bdev, folios[i], i, op);
		t1 = ktime_get_ns();
		*t_ns += t1 - t0;
		ops->ns[ops->n++] = t1 - t0;
	}
	op_sort(ops);
	return ret;
}

/*
 * A fresh zram0 storing @unit_kb folios: as blocks of that size where the
 * kernel has block_size, as 16 KiB blocks (or pages) where it has only
 * multi_pages, page by page where it has neither. Returns the block size
 * the device stores, in KiB, or a negative errno.
 */
static int __init zram_setup(const char *algo, unsigned int unit_kb,
			     size_t size)
{
	char disksize[32], val[16];
	int ret, block_kb;

	snprintf(disksize, sizeof(disksize), "%zuM", 2 * (size >> 20) + 16);
	ret = zram_attr("reset", "1");
	if (ret)
		return ret;
	snprintf(val, sizeof(val), "%uK", unit_kb);
	block_kb = unit_kb;
	ret = zram_attr("block_size", val);
	if (ret == -ENOENT) {
		ret = zram_attr("multi_pages", unit_kb >= 16 ? "1" : "0");
		block_kb = !ret && unit_kb >= 16 ? 16 : PAGE_SIZE >> 10;
		if (ret == -ENOENT)
			ret = 0;
	}
	if (ret)
		return ret;
	ret = zram_attr("comp_algorithm", algo) ?:
	      zram_attr("disksize", disksize);
	return ret ?: block_kb;
}

static int __init run_one(const void *corpus, size_t size, unsigned int round,
			  const char *algo, unsigned int unit_kb)
{
	size_t fsize = (size_t)unit_kb << 10;
	unsigned long nr = size / fsize, i, bad = 0;
	struct op_times w = {}, r = {}, pg = {}, st = {}, cl = {};
	u8 *kind = NULL;
	struct folio **folios;
	struct file *bdev_file;
	struct block_device *bdev;
	u64 t_write, t_read, t_pages = 0, t_strided = 0;
	char mm_stat[256] = "", mp_stat[256] = "", dbg_stat[256] = "";
	int ret, block_kb;

	block_kb = zram_setup(algo, unit_kb, size);
	if (block_kb < 0)
		return block_kb;

	folios = kvcalloc(nr, sizeof(*folios), GFP_KERNEL);
	w.ns = kvcalloc(size / PAGE_SIZE, sizeof(u64), GFP_KERNEL);
	r.ns = kvcalloc(size / PAGE_SIZE, sizeof(u64), GFP_KERNEL);
	pg.ns = kvcalloc(size / PAGE_SIZE, sizeof(u64), GFP_KERNEL);
	st.ns = kvcalloc(size / PAGE_SIZE, sizeof(u64), GFP_KERNEL);
	cl.ns = kvcalloc(nr, sizeof(u64), GFP_KERNEL);
	kind = kvcalloc(nr, sizeof(*kind), GFP_KERNEL);
	if (!folios || !w.ns || !r.ns || !pg.ns || !st.ns || !cl.ns ||
	    !kind) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nr; i++) {
		folios[i] = folio_alloc(GFP_KERNEL, get_order(fsize));
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
	ret = folio_pass(bdev, folios, nr, REQ_OP_WRITE, &t_write, &w);
	for (i = 0; i < nr; i++)
		memset(folio_address(folios[i]), 0, fsize);
	if (!ret)
		ret = folio_pass(bdev, folios, nr, REQ_OP_READ, &t_read, &r);
	if (!ret)
		ret = page_reads(bdev, corpus, nr * fsize, false, &t_pages,
				 &pg, &bad);
	if (!ret)
		ret = page_reads(bdev, corpus, nr * fsize, true, &t_strided,
				 &st, &bad);
	/* check the whole reads, then read whole again into cleared folios */
	if (!ret) {
		bad += folio_mismatches(folios, nr, fsize, corpus);
		for (i = 0; i < nr; i++)
			memset(folio_address(folios[i]), 0, fsize);
		ret = classified_reads(bdev, folios, nr, &cl, kind);
	}
	__fput_sync(bdev_file);
	if (!ret) {
		bad += folio_mismatches(folios, nr, fsize, corpus);
		ret = write_reads(algo, unit_kb, &cl, kind);
	}
	read_file("/sys/block/zram0/mm_stat", mm_stat, sizeof(mm_stat) - 1);
	strreplace(mm_stat, '\n', ' ');
	read_file("/sys/block/zram0/multi_pages_stat", mp_stat,
		  sizeof(mp_stat) - 1);
	strreplace(mp_stat, '\n', ' ');
	/* its third line: how block reads were served */
	read_file("/sys/block/zram0/debug_stat", dbg_stat, sizeof(dbg_stat) - 1);
	strreplace(dbg_stat, '\n', ' ');
	pr_info("ZMP_UB {\"round\": %u, \"algo\": \"%s\", \"order\": %u, \"unit_kb\": %u, \"block_kb\": %d, \"bytes\": %zu, \"write_ns\": %llu, \"read_ns\": %llu, \"page_read_ns\": %llu, \"strided_read_ns\": %llu, \"write_p50_ns\": %llu, \"write_p99_ns\": %llu, \"read_p50_ns\": %llu, \"read_p99_ns\": %llu, \"page_p50_ns\": %llu, \"page_p99_ns\": %llu, \"strided_p50_ns\": %llu, \"strided_p99_ns\": %llu, \"classified_p50_ns\": %llu, \"mismatches\": %lu, \"error\": %d, \"mm_stat\": \"%s\", \"multi_pages_stat\": \"%s\", \"debug_stat\": \"%s\"}\n",
		round, algo, get_order(fsize), unit_kb, block_kb, nr * fsize,
		t_write, t_read, t_pages, t_strided,
		op_pct(&w, 50), op_pct(&w, 99), op_pct(&r, 50), op_pct(&r, 99),
		op_pct(&pg, 50), op_pct(&pg, 99), op_pct(&st, 50),
		op_pct(&st, 99), op_pct(&cl, 50), bad, ret, mm_stat, mp_stat,
		dbg_stat);
out:
	for (i = 0; folios && i < nr && folios[i]; i++)
		folio_put(folios[i]);
	kvfree(folios);
	kvfree(w.ns);
	kvfree(r.ns);
	kvfree(pg.ns);
	kvfree(st.ns);
	kvfree(cl.ns);
	kvfree(kind);
	return ret;
}

/* Parse a comma-separated list of folio sizes in KiB into @kb */
static int __init parse_units(unsigned int *kb, int max)
{
	char *list = kstrdup(units, GFP_KERNEL), *p = list, *tok;
	int n = 0;

	while (list && (tok = strsep(&p, ",")) && n < max)
		if (kstrtouint(tok, 10, &kb[n]) == 0 && kb[n] >= 4 &&
		    is_power_of_2(kb[n]))
			n++;
	kfree(list);
	return n;
}

static int __init zram_bench_init(void)
{
	size_t size = (size_t)mib << 20;
	unsigned int r, u, unit_kb[8];
	char path[256], *alist, *p, *algo;
	int nunits, ret;
	void *corpus;

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
	nunits = parse_units(unit_kb, ARRAY_SIZE(unit_kb));
	if (!ret && !nunits)
		ret = -EINVAL;
	for (r = 1; r <= rounds && !ret; r++) {
		alist = kstrdup(algos, GFP_KERNEL);
		p = alist;
		if (!alist)
			ret = -ENOMEM;
		while (!ret && (algo = strsep(&p, ",")))
			for (u = 0; u < nunits && !ret; u++)
				ret = run_one(corpus, size, r, algo,
					      unit_kb[u]);
		kfree(alist);
	}
	zram_attr("reset", "1");
	vfree(corpus);
	pr_info("ZMP_UB_DONE %d\n", ret);
	kernel_power_off();
	return 0;
}
late_initcall(zram_bench_init);
