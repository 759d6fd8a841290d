// SPDX-License-Identifier: GPL-2.0
/*
 * swapbench: the guest side of the swap benchmark and of the swap tests.
 *
 * Maps SIZE MiB of anonymous memory, fills it from a corpus (a block device
 * or file), then for each round MADV_PAGEOUTs it to swap (timed), touches
 * every page back in (timed) and compares every byte with the corpus.  One
 * JSON object per round goes to stdout on a line starting "ZMP_ROUND ".
 * With --fail-swapin, the swap-in of every round runs with this task's
 * /proc/self/make-it-fail set: with fail_page_alloc set up for order >= 2
 * (bench.sh does it), no large folio can be had at swap-in.
 * With --compact, every round compacts memory (/proc/sys/vm/compact_memory)
 * between swap-out and swap-in, untimed: migration moves pool pages under
 * the stored data.
 * With --between CMD, every round runs CMD with sh -c between swap-out and
 * swap-in, untimed (the phone profile: recompression and writeback of idle
 * memory); a CMD that fails fails the run.
 * With --writers N, N threads page the memory out at once, each its own
 * contiguous share of it, so that N CPUs store into zram (and allocate
 * from zsmalloc) at the same time.
 * With --latency, three more passes follow the rounds. The first two page
 * the memory out and touch it back in, one page after another, then in a
 * fixed pseudo-random order: each touch that faults is timed alone, and
 * the distribution of those times goes to a line starting "ZMP_LATENCY ".
 * The third pages the memory out once more and frees it 16 KiB at a time
 * with MADV_DONTNEED, in the fixed pseudo-random order, timing each call:
 * freeing swapped-out memory frees its swap slots, and with them zram's
 * (zram_slot_free_notify(), called under swap's locks). Its line has the
 * order "free"; the memory holds zeroes after it.
 * Exit status: 0 when every byte matched, 1 on a mismatch, 2 on bad usage
 * or a setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <time.h>
#include <unistd.h>

#include "zmp.h"


/* the page size, set first thing in main() */
#define MAX_SIZES 16
#define MAX_WRITERS 8

/*
 * A snapshot's clocks are read twice: first thing (the end of the phase
 * before it) and last thing (the start of the phase after it), so that
 * reading the statistics, which differ between kernels (a sysfs file of
 * the series' is read only where it exists), is timed in no phase.
 */
struct snapshot {
	double mono;		/* seconds, when the snapshot began */
	double stime;		/* this process's system time, seconds, then */
	double mono_end;	/* both again when the snapshot was done */
	double stime_end;
	unsigned long long sys_ticks;	/* /proc/stat system + softirq + irq */
	unsigned long long mm[9];	/* zram mm_stat */
	unsigned long long pswpin, pswpout;
	unsigned long long swap_ra;	/* vmstat swap_ra: pages read ahead */
	unsigned long long partial_reads;	/* zram multi_pages_stat */
	unsigned long long buffered_reads;	/* of those, no decompression */
	/* debug_stat's block line holds buffered_reads and these two */
	unsigned long long in_place_reads;	/* blocks decompressed in place */
	unsigned long long copied_reads;	/* ... copied out first */
	unsigned long long swpout[MAX_SIZES], fallback[MAX_SIZES];
};

static char size_names[MAX_SIZES][32];
static int nr_sizes;
static const char *zram = "zram0";

static unsigned long long read_ull(const char *path)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static void find_sizes(void)
{
	glob_t g;
	size_t i;

	if (glob("/sys/kernel/mm/transparent_hugepage/hugepages-*kB", 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc && nr_sizes < MAX_SIZES; i++) {
		const char *b = strrchr(g.gl_pathv[i], '/') + 1;

		snprintf(size_names[nr_sizes++], sizeof(size_names[0]), "%s", b);
	}
	globfree(&g);
}

static void read_clocks(double *mono, double *stime)
{
	struct timespec ts;
	struct rusage ru;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	*mono = ts.tv_sec + ts.tv_nsec / 1e9;
	getrusage(RUSAGE_SELF, &ru);
	*stime = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void snap(struct snapshot *s)
{
	char path[1024], line[512];
	FILE *f;
	int i, n;

	memset(s, 0, sizeof(*s));
	read_clocks(&s->mono, &s->stime);

	f = fopen("/proc/stat", "r");
	if (f) {
		unsigned long long u, n, sy, id, io, irq, sirq;

		if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu",
			   &u, &n, &sy, &id, &io, &irq, &sirq) == 7)
			s->sys_ticks = sy + irq + sirq;
		fclose(f);
	}
	snprintf(path, sizeof(path), "/sys/block/%s/mm_stat", zram);
	f = fopen(path, "r");
	if (f) {
		for (i = 0; i < 9; i++)
			if (fscanf(f, "%llu", &s->mm[i]) != 1)
				break;
		fclose(f);
	}
	f = fopen("/proc/vmstat", "r");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			sscanf(line, "pswpin %llu", &s->pswpin);
			sscanf(line, "pswpout %llu", &s->pswpout);
			sscanf(line, "swap_ra %llu", &s->swap_ra);
		}
		fclose(f);
	}
	snprintf(path, sizeof(path), "/sys/block/%s/multi_pages_stat", zram);
	f = fopen(path, "r");
	s->partial_reads = 0;
	if (f) {
		if (fscanf(f, "%*u %*u %*u %llu", &s->partial_reads) != 1)
			s->partial_reads = 0;
		fclose(f);
	}
	/* its third line, where the kernel has one */
	snprintf(path, sizeof(path), "/sys/block/%s/debug_stat", zram);
	f = fopen(path, "r");
	s->buffered_reads = s->in_place_reads = s->copied_reads = 0;
	if (f) {
		n = 0;
		if (fgets(line, sizeof(line), f) && fgets(line, sizeof(line), f) &&
		    fgets(line, sizeof(line), f))
			n = sscanf(line, "%llu %llu %llu", &s->buffered_reads,
				   &s->in_place_reads, &s->copied_reads);
		/* the 6.12 backport's: buffered_reads, deferred_frees */
		if (n < 1)
			s->buffered_reads = 0;
		if (n < 3)
			s->in_place_reads = s->copied_reads = 0;
		fclose(f);
	}
	for (i = 0; i < nr_sizes; i++) {
		snprintf(path, sizeof(path),
			 "/sys/kernel/mm/transparent_hugepage/%s/stats/swpout",
			 size_names[i]);
		s->swpout[i] = read_ull(path);
		snprintf(path, sizeof(path),
			 "/sys/kernel/mm/transparent_hugepage/%s/stats/swpout_fallback",
			 size_names[i]);
		s->fallback[i] = read_ull(path);
	}
	read_clocks(&s->mono_end, &s->stime_end);
}

/*
 * @a: before swap-out; @out: after it; @mid: before swap-in (the classes
 * dump and the fault injection switch in between are not timed); @in:
 * after swap-in.
 */
static void print_round(int round, const struct snapshot *a,
			const struct snapshot *out, const struct snapshot *mid,
			const struct snapshot *in, unsigned long mismatches)
{
	static const char * const mm_names[] = {
		"orig_data_size", "compr_data_size", "mem_used_total",
		"mem_limit", "mem_used_max", "same_pages", "pages_compacted",
		"huge_pages", "huge_pages_since",
	};
	long tck = sysconf(_SC_CLK_TCK);
	int i;

	printf("ZMP_ROUND {\"round\": %d, \"swapout_ms\": %.1f, \"swapin_ms\": %.1f, ",
	       round, (out->mono - a->mono_end) * 1e3,
	       (in->mono - mid->mono_end) * 1e3);
	printf("\"swapout_stime_ms\": %.1f, \"swapin_stime_ms\": %.1f, ",
	       (out->stime - a->stime_end) * 1e3,
	       (in->stime - mid->stime_end) * 1e3);
	printf("\"sys_ms\": %.1f, ",
	       (double)(in->sys_ticks - mid->sys_ticks +
			out->sys_ticks - a->sys_ticks) * 1e3 / tck);
	printf("\"pswpout\": %llu, \"pswpin\": %llu, ",
	       out->pswpout - a->pswpout, in->pswpin - out->pswpin);
	printf("\"swap_ra\": %llu, \"partial_reads\": %llu, ",
	       in->swap_ra - mid->swap_ra,
	       in->partial_reads - mid->partial_reads);
	printf("\"buffered_reads\": %llu, ",
	       in->buffered_reads - mid->buffered_reads);
	printf("\"in_place_reads\": %llu, \"copied_reads\": %llu, ",
	       in->in_place_reads - mid->in_place_reads,
	       in->copied_reads - mid->copied_reads);
	/* pool state right after swap-out: everything is stored */
	printf("\"mm_stat\": {");
	for (i = 0; i < 9; i++)
		printf("%s\"%s\": %llu", i ? ", " : "", mm_names[i], out->mm[i]);
	printf("}, \"swpout\": {");
	for (i = 0; i < nr_sizes; i++)
		printf("%s\"%s\": %llu", i ? ", " : "", size_names[i],
		       out->swpout[i] - a->swpout[i]);
	printf("}, \"swpout_fallback\": {");
	for (i = 0; i < nr_sizes; i++)
		printf("%s\"%s\": %llu", i ? ", " : "", size_names[i],
		       out->fallback[i] - a->fallback[i]);
	printf("}, \"mismatches\": %lu}\n", mismatches);
	fflush(stdout);
}

static unsigned long compare(const unsigned char *mem, int fd, size_t size)
{
	static unsigned char buf[MIB];
	unsigned long bad = 0;
	size_t off, i;

	for (off = 0; off < size; off += MIB) {
		size_t n = size - off < MIB ? size - off : MIB;

		if (pread(fd, buf, n, off) != (ssize_t)n)
			die("re-reading the corpus");
		if (!memcmp(mem + off, buf, n))
			continue;
		for (i = 0; i < n; i++) {
			if (mem[off + i] == buf[i])
				continue;
			if (!bad)
				fprintf(stderr, "swapbench: first mismatch at byte %zu\n",
					off + i);
			bad++;
		}
	}
	return bad;
}

/* The pool's debugfs classes table, each line prefixed "ZMP_CLASSES " */
static void dump_classes(void)
{
	char path[256], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/zsmalloc/%s/classes",
		 zram);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		printf("ZMP_CLASSES %s", line);
	fclose(f);
	fflush(stdout);
}

static void make_it_fail(int on)
{
	int fd = open("/proc/self/make-it-fail", O_WRONLY);

	if (fd < 0 || write(fd, on ? "1" : "0", 1) != 1)
		die("/proc/self/make-it-fail");
	close(fd);
}

static void write_proc(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		die(path);
	close(fd);
}

/*
 * Drop the @size bytes at @mem and read them from the corpus again: large
 * folios again (mTHP) where a swap-in without them left small ones.
 */
static void refill(unsigned char *mem, size_t size, int fd)
{
	size_t off;

	if (madvise(mem, size, MADV_DONTNEED))
		die("madvise(MADV_DONTNEED)");
	for (off = 0; off < size; off += MIB)
		if (pread(fd, mem + off, MIB, off) != (ssize_t)MIB)
			die("reading the corpus");
}

/*
 * A "ZMP_LATENCY " line: pass @order, @touches tried, the distribution of
 * the @n times (ns) at @lat, which it sorts, and their @sum.
 */
static void print_latency(const char *order, size_t touches,
			  unsigned long long *lat, size_t n,
			  unsigned long long sum)
{
	qsort(lat, n, sizeof(*lat), cmp_ull);
	printf("ZMP_LATENCY {\"order\": \"%s\", \"touches\": %zu, \"faults\": %zu, ",
	       order, touches, n);
	printf("\"p50_us\": %.2f, \"p90_us\": %.2f, \"p99_us\": %.2f, ",
	       percentile_us(lat, n, 0.50), percentile_us(lat, n, 0.90),
	       percentile_us(lat, n, 0.99));
	printf("\"max_us\": %.2f, \"mean_us\": %.2f}\n",
	       n ? lat[n - 1] / 1e3 : 0, n ? sum / 1e3 / n : 0);
	fflush(stdout);
}

/*
 * One latency pass over the @size bytes at @mem: page them out, then touch
 * one byte of every page, in order or in a fixed pseudo-random permutation,
 * timing each touch that faulted (the fault count is read outside the
 * timed window); print the distribution and return the bytes that differ
 * from the corpus afterwards.
 */
static unsigned long latency_pass(unsigned char *mem, size_t size, int fd,
				  int random_order, int fail_swapin)
{
	size_t n = size / PG, i, j, nf = 0;
	size_t *idx = malloc(n * sizeof(*idx));
	unsigned long long *lat = malloc(n * sizeof(*lat));
	struct { unsigned long long ns; size_t touch; } worst[3] = { { 0 } };
	unsigned long long sum = 0, f0, t0, t1;
	volatile unsigned char sink = 0;

	if (!idx || !lat)
		die("malloc");
	page_order(idx, n, random_order, 0x9e3779b97f4a7c15ULL);
	/* as the rounds do: mTHP again after a swap-in that had none */
	if (fail_swapin)
		refill(mem, size, fd);
	if (madvise(mem, size, MADV_PAGEOUT))
		die("madvise(MADV_PAGEOUT)");
	if (fail_swapin)
		make_it_fail(1);
	for (i = 0; i < n; i++) {
		f0 = faults_so_far();
		t0 = ns_now();
		sink += mem[idx[i] * PG];
		t1 = ns_now();
		if (faults_so_far() == f0)
			continue;
		lat[nf++] = t1 - t0;
		sum += t1 - t0;
		/* the three slowest faults, by their touch number */
		for (j = 3; j > 0 && t1 - t0 > worst[j - 1].ns; j--)
			if (j < 3)
				worst[j] = worst[j - 1];
		if (j < 3) {
			worst[j].ns = t1 - t0;
			worst[j].touch = i;
		}
	}
	if (fail_swapin)
		make_it_fail(0);
	(void)sink;
	if (nf)
		printf("ZMP_LATENCY_WORST %s: touch %zu of %zu: %.1f us, touch %zu: %.1f us, touch %zu: %.1f us\n",
		       random_order ? "random" : "sequential",
		       worst[0].touch, n, worst[0].ns / 1e3,
		       worst[1].touch, worst[1].ns / 1e3,
		       worst[2].touch, worst[2].ns / 1e3);
	print_latency(random_order ? "random" : "sequential", n, lat, nf, sum);
	free(idx);
	free(lat);
	return compare(mem, fd, size);
}

/*
 * The free pass: page the @size bytes at @mem out, then MADV_DONTNEED them
 * FREE_CHUNK bytes at a time in a fixed pseudo-random order, timing each
 * call, which frees the chunk's swap slots; print the distribution (order
 * "free", every call counted in "faults"). The memory is zero after it.
 */
#define FREE_CHUNK (16 * 1024)
static void free_pass(unsigned char *mem, size_t size, int fd, int fail_swapin)
{
	size_t n = size / FREE_CHUNK, i;
	size_t *idx = malloc(n * sizeof(*idx));
	unsigned long long *lat = malloc(n * sizeof(*lat));
	unsigned long long sum = 0, t0, t1;

	if (!idx || !lat)
		die("malloc");
	page_order(idx, n, 1, 0x9e3779b97f4a7c15ULL);
	/* as latency_pass(): mTHP again after a swap-in that had none */
	if (fail_swapin)
		refill(mem, size, fd);
	if (madvise(mem, size, MADV_PAGEOUT))
		die("madvise(MADV_PAGEOUT)");
	for (i = 0; i < n; i++) {
		t0 = ns_now();
		if (madvise(mem + idx[i] * FREE_CHUNK, FREE_CHUNK, MADV_DONTNEED))
			die("madvise(MADV_DONTNEED)");
		t1 = ns_now();
		lat[i] = t1 - t0;
		sum += t1 - t0;
	}
	print_latency("free", n, lat, n, sum);
	free(idx);
	free(lat);
}

struct pageout_share {
	unsigned char *mem;
	size_t len;
	int err;
};

static void *pageout_thread(void *arg)
{
	struct pageout_share *sh = arg;

	sh->err = madvise(sh->mem, sh->len, MADV_PAGEOUT) ? errno : 0;
	return NULL;
}

/*
 * MADV_PAGEOUT @size bytes at @mem from @writers threads at once, each a
 * contiguous share (whole 2 MiB units, the last one takes the rest).
 */
static void pageout(unsigned char *mem, size_t size, int writers)
{
	struct pageout_share sh[MAX_WRITERS];
	pthread_t tid[MAX_WRITERS];
	size_t unit = 2 * MIB, share;
	int i;

	if (writers == 1) {
		if (madvise(mem, size, MADV_PAGEOUT))
			die("madvise(MADV_PAGEOUT)");
		return;
	}
	share = size / unit / writers * unit;
	for (i = 0; i < writers; i++) {
		sh[i].mem = mem + i * share;
		sh[i].len = i == writers - 1 ? size - i * share : share;
		if (pthread_create(&tid[i], NULL, pageout_thread, &sh[i]))
			die("pthread_create");
	}
	for (i = 0; i < writers; i++) {
		pthread_join(tid[i], NULL);
		if (sh[i].err) {
			errno = sh[i].err;
			die("madvise(MADV_PAGEOUT)");
		}
	}
}

static void usage(void)
{
	fprintf(stderr,
		"usage: swapbench --corpus PATH [--size MiB] [--rounds N] [--zram NAME]\n"
		"                 [--fail-swapin] [--compact] [--latency] [--writers N]\n"
		"                 [--between CMD] [--mark]\n"
		"  Maps SIZE MiB (default 100) of anonymous memory, fills it from the\n"
		"  corpus, and for each round (default 3) pages it out with\n"
		"  MADV_PAGEOUT, touches it back in and verifies every byte.\n"
		"  --mark: call getpriority() right before and after the first\n"
		"  round's swap-in, for a profiler that counts between the calls.\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "corpus", required_argument, NULL, 'c' },
		{ "size", required_argument, NULL, 's' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "zram", required_argument, NULL, 'z' },
		{ "fail-swapin", no_argument, NULL, 'f' },
		{ "compact", no_argument, NULL, 'C' },
		{ "latency", no_argument, NULL, 'l' },
		{ "writers", required_argument, NULL, 'w' },
		{ "between", required_argument, NULL, 'b' },
		{ "mark", no_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	const char *corpus = NULL, *between = NULL;
	unsigned long size_mib = 100, rounds = 3, total_bad = 0, r;
	unsigned long long corpus_bytes;
	struct snapshot a, out, mid, in;
	unsigned char *mem;
	struct stat st;
	size_t size, off;
	int fd, c, fail_swapin = 0, compact = 0, latency = 0, writers = 1;
	int mark = 0;
	char *end;

	zmp_init();
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			corpus = optarg;
			break;
		case 's':
			size_mib = strtoul(optarg, &end, 10);
			if (*end || !size_mib || size_mib > 65536)
				usage();
			break;
		case 'r':
			rounds = strtoul(optarg, &end, 10);
			if (*end || !rounds || rounds > 100000)
				usage();
			break;
		case 'z':
			zram = optarg;
			break;
		case 'f':
			fail_swapin = 1;
			break;
		case 'C':
			compact = 1;
			break;
		case 'l':
			latency = 1;
			break;
		case 'w':
			writers = strtoul(optarg, &end, 10);
			if (*end || writers < 1 || writers > MAX_WRITERS)
				usage();
			break;
		case 'b':
			between = optarg;
			break;
		case 'm':
			mark = 1;
			break;
		default:
			usage();
		}
	}
	if (!corpus || optind != argc)
		usage();

	size = size_mib * MIB;
	fd = open(corpus, O_RDONLY);
	if (fd < 0)
		die(corpus);
	if (fstat(fd, &st))
		die("fstat");
	corpus_bytes = st.st_size;
	if (S_ISBLK(st.st_mode) && ioctl(fd, BLKGETSIZE64, &corpus_bytes))
		die("BLKGETSIZE64");
	if (corpus_bytes < size) {
		fprintf(stderr, "swapbench: corpus has %llu bytes, fewer than the %lu MiB mapping\n",
			corpus_bytes, size_mib);
		return 2;
	}
	find_sizes();

	/* 2 MiB aligned so that every 16 KiB block of it can be an mTHP */
	mem = map_aligned(size);

	for (r = 1; r <= rounds; r++) {
		volatile unsigned char sink = 0;
		unsigned long bad;

		/* fill; after a swap-in without mTHP, refill to have it again */
		if (r == 1 || fail_swapin)
			refill(mem, size, fd);
		snap(&a);
		pageout(mem, size, writers);
		snap(&out);
		if (r == 1)
			dump_classes();	/* after the timed phase */
		if (compact)
			write_proc("/proc/sys/vm/compact_memory", "1");
		if (between) {
			fflush(stdout);
			if (system(between)) {
				fprintf(stderr, "swapbench: '%s' failed\n", between);
				return 2;
			}
		}
		if (fail_swapin)
			make_it_fail(1);
		snap(&mid);
		if (mark && r == 1)
			(void)getpriority(PRIO_PROCESS, 0);
		for (off = 0; off < size; off += PG)
			sink += mem[off];
		if (mark && r == 1)
			(void)getpriority(PRIO_PROCESS, 0);
		snap(&in);
		if (fail_swapin)
			make_it_fail(0);
		(void)sink;
		bad = compare(mem, fd, size);
		total_bad += bad;
		print_round(r, &a, &out, &mid, &in, bad);
	}
	if (latency) {
		total_bad += latency_pass(mem, size, fd, 0, fail_swapin);
		total_bad += latency_pass(mem, size, fd, 1, fail_swapin);
		free_pass(mem, size, fd, fail_swapin);
	}
	printf("ZMP_DONE {\"rounds\": %lu, \"size_mib\": %lu, \"mismatches\": %lu}\n",
	       rounds, size_mib, total_bad);
	return total_bad ? 1 : 0;
}
