// SPDX-License-Identifier: GPL-2.0
/*
 * tbprof: a qemu TCG plugin for harness/bin/bench --profile.  Counts the
 * guest instructions executed in every translation block (by its start
 * address and length) and writes "address instructions executions", one
 * block a line, to the file named by its out= argument when qemu exits.
 * Single-threaded TCG (bench runs it with -icount) keeps the inline
 * counters exact.  Built against Debian's qemu 7.2 plugin header.
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

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b = lookup(qemu_plugin_tb_vaddr(tb),
				 qemu_plugin_tb_n_insns(tb));

	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->execs, 1);
}

static void write_out(qemu_plugin_id_t id, void *unused)
{
	FILE *f = fopen(out_path, "w");
	size_t i;

	if (!f) {
		perror(out_path);
		return;
	}
	for (i = 0; i < TABLE_SIZE; i++)
		if (table[i].execs)
			fprintf(f, "%llx %llu %llu\n",
				(unsigned long long)table[i].pc,
				(unsigned long long)table[i].insns,
				(unsigned long long)table[i].execs);
	fclose(f);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "out=", 4)) {
			fprintf(stderr, "tbprof: unknown argument %s\n", argv[i]);
			return -1;
		}
		out_path = strdup(argv[i] + 4);
	}
	table = calloc(TABLE_SIZE, sizeof(*table));
	if (!table)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, write_out, NULL);
	return 0;
}
