// SPDX-License-Identifier: GPL-2.0
/*
 * tbprof: a qemu TCG plugin for harness/bin/bench --profile and
 * harness/bin/thrash --profile.  Counts the guest instructions executed in
 * every translation block (by its start address and length) and writes
 * "address instructions executions", one block a line, to the file named
 * by its out= argument when qemu exits.  Single-threaded TCG (bench runs
 * it with -icount) keeps the inline counters exact.  With mark=ADDR (a
 * guest address, hex), only what runs between the first and the second
 * execution of the block at ADDR is written: the counts are taken at both
 * and the difference written, so a guest program that makes a rare system
 * call before and after a phase (swapbench --mark; thrash-build around
 * make) has that phase alone counted; a mark reached other than twice
 * leaves the file empty.  A block whose address has the top bit clear
 * (user space, and code that runs before the kernel is at its own
 * addresses, such as bzImage's decompressor) is counted in one entry,
 * address 0 and one instruction, executed once for each such instruction:
 * many processes' blocks would not fit the table.  Built against Debian's
 * qemu 7.2 plugin header.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct block {
	uint64_t pc;
	uint64_t insns;
	uint64_t execs;
};

#define TABLE_BITS 22
#define TABLE_SIZE (1ULL << TABLE_BITS)

static struct block *table;
static size_t used;
static const char *out_path = "tbprof.out";
static uint64_t mark;
static unsigned int marks_seen;
static uint64_t *at_first_mark;	/* execs of every entry at the first mark */
static uint64_t *at_second_mark;	/* and at the second */

static struct block *lookup(uint64_t pc, uint64_t insns)
{
	uint64_t i = (pc * 0x9E3779B97F4A7C15ULL + insns) >> (64 - TABLE_BITS);

	for (;; i = (i + 1) & (TABLE_SIZE - 1)) {
		struct block *b = &table[i];

		if (b->pc == pc && b->insns == insns)
			return b;
		if (!b->insns) {
			if (++used > TABLE_SIZE / 2) {
				fprintf(stderr, "tbprof: too many blocks\n");
				exit(1);
			}
			b->pc = pc;
			b->insns = insns;
			return b;
		}
	}
}

static uint64_t *take_counts(void)
{
	uint64_t *counts = malloc(TABLE_SIZE * sizeof(*counts));
	size_t i;

	if (!counts) {
		fprintf(stderr, "tbprof: out of memory\n");
		exit(1);
	}
	for (i = 0; i < TABLE_SIZE; i++)
		counts[i] = table[i].execs;
	return counts;
}

static void mark_reached(unsigned int vcpu, void *unused)
{
	if (marks_seen == 0)
		at_first_mark = take_counts();
	else if (marks_seen == 1)
		at_second_mark = take_counts();
	marks_seen++;
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t pc = qemu_plugin_tb_vaddr(tb);
	uint64_t n = qemu_plugin_tb_n_insns(tb);
	struct block *b;

	if (!(pc >> 63)) {
		b = lookup(0, 1);
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							 &b->execs, n);
		return;
	}
	b = lookup(pc, n);

	/* before the block's own count: the mark's block counts once */
	if (mark && pc == mark)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, mark_reached,
						     QEMU_PLUGIN_CB_NO_REGS,
						     NULL);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->execs, 1);
}

/* Executions of entry @i in what is written: all, or between the marks */
static uint64_t counted(size_t i)
{
	if (!mark)
		return table[i].execs;
	return at_second_mark[i] - at_first_mark[i];
}

static void write_out(qemu_plugin_id_t id, void *unused)
{
	FILE *f = fopen(out_path, "w");
	size_t i;

	if (!f) {
		perror(out_path);
		return;
	}
	if (mark && marks_seen != 2) {
		/* an empty profile: the reader reports the marks gone wrong */
		fprintf(stderr, "tbprof: the mark ran %u times, not twice\n",
			marks_seen);
		fclose(f);
		return;
	}
	for (i = 0; i < TABLE_SIZE; i++)
		if (counted(i))
			fprintf(f, "%llx %llu %llu\n",
				(unsigned long long)table[i].pc,
				(unsigned long long)table[i].insns,
				(unsigned long long)counted(i));
	fclose(f);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out_path = strdup(argv[i] + 4);
		} else if (!strncmp(argv[i], "mark=", 5)) {
			mark = strtoull(argv[i] + 5, NULL, 16);
		} else {
			fprintf(stderr, "tbprof: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	table = calloc(TABLE_SIZE, sizeof(*table));
	if (!table)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, write_out, NULL);
	return 0;
}
