/* SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef _ZCOMP_H_
#define _ZCOMP_H_

#include <linux/mutex.h>

#define ZCOMP_PARAM_NOT_SET	INT_MIN

struct deflate_params {
	s32 winbits;
};

/*
 * Immutable driver (backend) parameters. The driver may attach private
 * data to it (e.g. driver representation of the dictionary, etc.).
 *
 * This data is kept per-comp and is shared among execution contexts.
 */
struct zcomp_params {
	void *dict;
	size_t dict_sz;
	s32 level;
	union {
		struct deflate_params deflate;
	};
#ifdef CONFIG_ZRAM_MULTI_PAGES
	/* largest input, PAGE_SIZE or a multi-page block */
	size_t block_size;
#endif

	void *drv_data;
};

/*
 * Run-time driver context - scratch buffers, etc. It is modified during
 * request execution (compression/decompression), cannot be shared, so
 * it's in per-CPU area.
 */
struct zcomp_ctx {
	void *context;
};

/* The largest input the streams of @params compress or decompress into */
static inline size_t zcomp_block_size(const struct zcomp_params *params)
{
#ifdef CONFIG_ZRAM_MULTI_PAGES
	return params->block_size;
#else
	return PAGE_SIZE;
#endif
}

struct zcomp_strm {
	struct mutex lock;
	/* compression buffer, twice zcomp_block_size() */
	void *buffer;
	/* local copy of handle memory, zcomp_block_size() */
	void *local_copy;
#ifdef CONFIG_ZRAM_MULTI_PAGES
	/*
	 * What the buffer holds, as the user tagged it after decompressing
	 * into it (zram: a block object's generation); 0: nothing the user
	 * can reuse. zcomp_compress() and zcomp_decompress() into the buffer
	 * clear it, and so does a new buffer (CPU hotplug). Anything else
	 * that writes to the buffer directly must clear it too.
	 */
	u64 buffer_tag;
#endif
	struct zcomp_ctx ctx;
};

struct zcomp_req {
	const unsigned char *src;
	const size_t src_len;

	unsigned char *dst;
	size_t dst_len;
};

struct zcomp_ops {
	int (*compress)(struct zcomp_params *params, struct zcomp_ctx *ctx,
			struct zcomp_req *req);
	int (*decompress)(struct zcomp_params *params, struct zcomp_ctx *ctx,
			  struct zcomp_req *req);

	int (*create_ctx)(struct zcomp_params *params, struct zcomp_ctx *ctx);
	void (*destroy_ctx)(struct zcomp_ctx *ctx);

	int (*setup_params)(struct zcomp_params *params);
	void (*release_params)(struct zcomp_params *params);

	const char *name;
};

/* dynamic per-device compression frontend */
struct zcomp {
	struct zcomp_strm __percpu *stream;
	const struct zcomp_ops *ops;
	struct zcomp_params *params;
	struct hlist_node node;
};

int zcomp_cpu_up_prepare(unsigned int cpu, struct hlist_node *node);
int zcomp_cpu_dead(unsigned int cpu, struct hlist_node *node);
ssize_t zcomp_available_show(const char *comp, char *buf, ssize_t at);
const char *zcomp_lookup_backend_name(const char *comp);

struct zcomp *zcomp_create(const char *alg, struct zcomp_params *params);
void zcomp_destroy(struct zcomp *comp);

struct zcomp_strm *zcomp_stream_get(struct zcomp *comp);
void zcomp_stream_put(struct zcomp_strm *zstrm);

int zcomp_compress(struct zcomp *comp, struct zcomp_strm *zstrm,
		   const void *src, unsigned int src_len, unsigned int *dst_len);
int zcomp_decompress(struct zcomp *comp, struct zcomp_strm *zstrm,
		     const void *src, unsigned int src_len, void *dst,
		     unsigned int dst_len);

#endif /* _ZCOMP_H_ */
