// SPDX-License-Identifier: GPL-2.0
/*
 * appswitch: the guest side of the app-switch profile (harness/bin/appswitch).
 *
 * Android keeps several apps' processes alive, each in a memory cgroup of
 * its own, and brings one to the foreground at a time while the others sit
 * idle and are swapped out. appswitch forks APPS processes; each joins
 * CGROUP/appN (made here, under CGROUP, which the caller has limited), maps
 * SIZE MiB of anonymous memory and fills it from its own part of the corpus
 * (app N from byte N * SIZE MiB, wrapping). Then come PASSES passes. The
 * first brings every app to the foreground once; each later one the HOT
 * apps (0 to HOT - 1, the ones the user keeps going back to), then one of
 * the cold others in turn, which has sat idle since it was last used. An
 * app brought to the foreground touches one byte of each of its pages in
 * order, timing each touch that faults, and compares its memory with the
 * corpus. After each pass the parent runs BETWEEN (sh -c, untimed: the
 * phone's idle recompression and writeback, and what it reports).
 *
 * Output: a line "ZMP_SWITCH {json}" for each time an app is brought back
 * (its pass, whether it is cold, the time of its whole pass over its pages
 * and the distribution of its faults), "ZMP_PASS {json}" after each pass,
 * and "ZMP_APPSWITCH {json}" at the end with the distributions of the
 * faults of the hot and of the cold apps' switches after the first pass.
 * Exit status: 0 when every byte matched, 1 on a mismatch, 2 on bad usage
 * or a setup error.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "zmp.h"

#define MAX_APPS 32

/* what a child reports for one pass over its pages */
struct app_pass {
	unsigned long long pass_ns;	/* the whole pass, faults or not */
	unsigned long long faults;
	unsigned long long fault_ns;	/* the sum of the timed faults */
	unsigned long long mismatches;
};

/* "p50_us": ..., of the @n fault times at @v, sorted here */
static void print_distribution(unsigned long long *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_ull);
	printf("\"faults\": %zu, \"p50_us\": %.2f, \"p90_us\": %.2f, "
	       "\"p99_us\": %.2f, \"max_us\": %.2f", n,
	       percentile_us(v, n, 0.50), percentile_us(v, n, 0.90),
	       percentile_us(v, n, 0.99), n ? v[n - 1] / 1e3 : 0);
}

static void write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		die(path);
	close(fd);
}

/* The bytes of @mem that differ from the corpus at @off (wrapping) */
static unsigned long long compare(const unsigned char *mem, size_t size,
				  int fd, off_t off, off_t corpus_bytes)
{
	unsigned char *buf = malloc(MIB);
	unsigned long long bad = 0;
	size_t done, i;

	if (!buf)
		die("malloc");
	for (done = 0; done < size; done += MIB) {
		if (pread(fd, buf, MIB, (off + done) % corpus_bytes) != (ssize_t)MIB)
			die("reading the corpus");
		for (i = 0; i < MIB; i++)
			bad += buf[i] != mem[done + i];
	}
	free(buf);
	return bad;
}

/*
 * One app: fill its memory, then wait for a byte on @cmd; for each, touch
 * every page (timing the touches that fault into @lat, its share of the
 * shared buffer), compare, and answer with a struct app_pass on @res.
 */
static void __attribute__((noreturn))
app(int n, const char *cgroup, const char *corpus, size_t size,
    off_t corpus_bytes, int cmd, int res, unsigned long long *lat)
{
	size_t pages = size / PG, i, nf;
	off_t off = (off_t)n * size % corpus_bytes;
	unsigned long long f0, t0, t1, start;
	volatile unsigned char sink = 0;
	struct app_pass p;
	unsigned char *mem;
	char path[256], pid[32];
	size_t done;
	int fd;
	char c;

	snprintf(path, sizeof(path), "%s/app%d/cgroup.procs", cgroup, n);
	snprintf(pid, sizeof(pid), "%d", getpid());
	write_file(path, pid);
	fd = open(corpus, O_RDONLY);
	if (fd < 0)
		die(corpus);
	mem = map_aligned(size);
	for (done = 0; done < size; done += MIB)
		if (pread(fd, mem + done, MIB, (off + done) % corpus_bytes) != (ssize_t)MIB)
			die("reading the corpus");
	while (read(cmd, &c, 1) == 1) {
		memset(&p, 0, sizeof(p));
		nf = 0;
		start = ns_now();
		for (i = 0; i < pages; i++) {
			f0 = faults_so_far();
			t0 = ns_now();
			sink += mem[i * PG];
			t1 = ns_now();
			if (faults_so_far() == f0)
				continue;
			lat[nf++] = t1 - t0;
			p.fault_ns += t1 - t0;
		}
		p.pass_ns = ns_now() - start;
		p.faults = nf;
		p.mismatches = compare(mem, size, fd, off, corpus_bytes);
		if (write(res, &p, sizeof(p)) != sizeof(p))
			die("answering");
	}
	(void)sink;
	exit(0);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: appswitch --corpus PATH --cgroup DIR [--apps N] [--hot N]\n"
		"                 [--size MiB] [--passes N] [--between CMD]\n"
		"  N apps (default 6), each in DIR/appK with SIZE MiB (default 24) of\n"
		"  the corpus; PASSES passes (default 7) bring the HOT ones (default 3)\n"
		"  and one cold one to the foreground.\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "corpus", required_argument, NULL, 'c' },
		{ "cgroup", required_argument, NULL, 'g' },
		{ "apps", required_argument, NULL, 'a' },
		{ "size", required_argument, NULL, 's' },
		{ "passes", required_argument, NULL, 'p' },
		{ "hot", required_argument, NULL, 'h' },
		{ "between", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	const char *corpus = NULL, *cgroup = NULL, *between = NULL;
	unsigned long apps = 6, hot = 3, size_mib = 24, passes = 7, a, pass;
	unsigned long order[MAX_APPS], n, k;
	int cmd[MAX_APPS][2], res[MAX_APPS][2];
	unsigned long long *lat, *warm, *cold, bad = 0;
	size_t pages, nwarm = 0, ncold = 0;
	pid_t pids[MAX_APPS];
	struct app_pass p;
	off_t corpus_bytes;
	char path[256];
	struct stat st;
	int fd, c, status;
	char *end;

	zmp_init();
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			corpus = optarg;
			break;
		case 'g':
			cgroup = optarg;
			break;
		case 'a':
			apps = strtoul(optarg, &end, 10);
			if (*end || apps < 2 || apps > MAX_APPS)
				usage();
			break;
		case 's':
			size_mib = strtoul(optarg, &end, 10);
			if (*end || !size_mib || size_mib > 4096)
				usage();
			break;
		case 'p':
			passes = strtoul(optarg, &end, 10);
			if (*end || passes < 2 || passes > 1000)
				usage();
			break;
		case 'h':
			hot = strtoul(optarg, &end, 10);
			if (*end)
				usage();
			break;
		case 'b':
			between = optarg;
			break;
		default:
			usage();
		}
	}
	if (!corpus || !cgroup || optind != argc || hot >= apps)
		usage();
	fd = open(corpus, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die(corpus);
	corpus_bytes = S_ISBLK(st.st_mode) ? lseek(fd, 0, SEEK_END) : st.st_size;
	close(fd);
	if (corpus_bytes < (off_t)MIB)
		die("the corpus is smaller than 1 MiB");
	corpus_bytes -= corpus_bytes % MIB;
	pages = size_mib * MIB / PG;
	/* each app's faults of each pass, shared with the apps */
	lat = mmap(NULL, apps * pages * sizeof(*lat), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	warm = malloc(hot * (passes - 1) * pages * sizeof(*warm));
	cold = malloc((passes - 1) * pages * sizeof(*cold));
	if (lat == MAP_FAILED || !warm || !cold)
		die("the fault buffers");
	for (a = 0; a < apps; a++) {
		snprintf(path, sizeof(path), "%s/app%lu", cgroup, a);
		if (mkdir(path, 0755) && errno != EEXIST)
			die(path);
		if (pipe(cmd[a]) || pipe(res[a]))
			die("pipe");
		fflush(stdout);
		pids[a] = fork();
		if (pids[a] < 0)
			die("fork");
		if (!pids[a]) {
			/* the earlier apps' ends too: their EOF is their exit */
			for (k = 0; k <= a; k++) {
				close(cmd[k][1]);
				close(res[k][0]);
			}
			app(a, cgroup, corpus, size_mib * MIB, corpus_bytes,
			    cmd[a][0], res[a][1], lat + a * pages);
		}
		close(cmd[a][0]);
		close(res[a][1]);
	}
	for (pass = 0; pass < passes; pass++) {
		/* the first pass brings every app in; then the hot ones and one cold */
		n = 0;
		for (a = 0; a < apps; a++)
			if (!pass || a < hot)
				order[n++] = a;
		if (pass)
			order[n++] = hot + (pass - 1) % (apps - hot);
		for (k = 0; k < n; k++) {
			a = order[k];
			if (write(cmd[a][1], "f", 1) != 1 ||
			    read(res[a][0], &p, sizeof(p)) != sizeof(p))
				die("an app did not answer");
			bad += p.mismatches;
			printf("ZMP_SWITCH {\"pass\": %lu, \"app\": %lu, "
			       "\"cold\": %d, \"pass_ms\": %.3f, "
			       "\"fault_ms\": %.3f, \"mismatches\": %llu, ",
			       pass, a, a >= hot, p.pass_ns / 1e6,
			       p.fault_ns / 1e6, p.mismatches);
			if (pass && a < hot) {
				memcpy(warm + nwarm, lat + a * pages,
				       p.faults * sizeof(*lat));
				nwarm += p.faults;
			} else if (pass) {
				memcpy(cold + ncold, lat + a * pages,
				       p.faults * sizeof(*lat));
				ncold += p.faults;
			}
			print_distribution(lat + a * pages, p.faults);
			printf("}\n");
			fflush(stdout);
		}
		if (between) {
			status = system(between);
			if (status)
				die("the command between passes failed");
		}
		printf("ZMP_PASS {\"pass\": %lu}\n", pass);
		fflush(stdout);
	}
	for (a = 0; a < apps; a++) {
		close(cmd[a][1]);
		if (waitpid(pids[a], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			die("an app failed");
		snprintf(path, sizeof(path), "%s/app%lu", cgroup, a);
		rmdir(path);
	}
	printf("ZMP_APPSWITCH {\"apps\": %lu, \"hot\": %lu, \"size_mib\": %lu, "
	       "\"passes\": %lu, \"mismatches\": %llu, \"hot_faults\": {",
	       apps, hot, size_mib, passes, bad);
	print_distribution(warm, nwarm);
	printf("}, \"cold_faults\": {");
	print_distribution(cold, ncold);
	printf("}}\n");
	return bad ? 1 : 0;
}
