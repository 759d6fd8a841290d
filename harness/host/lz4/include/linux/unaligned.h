/* SPDX-License-Identifier: GPL-2.0 */
/* user-space shim for lib/lz4 (little-endian hosts): see types.h */
#ifndef ZMP_SHIM_UNALIGNED_H
#define ZMP_SHIM_UNALIGNED_H
#include <string.h>
#include <linux/types.h>
#define get_unaligned(p) \
	(((const struct { __typeof__(*(p)) x; } __attribute__((packed)) *)(p))->x)
#define put_unaligned(v, p) \
	(((struct { __typeof__(*(p)) x; } __attribute__((packed)) *)(p))->x = (v))
static inline u16 get_unaligned_le16(const void *p) { u16 v; memcpy(&v, p, 2); return v; }
static inline void put_unaligned_le16(u16 v, void *p) { memcpy(p, &v, 2); }
#endif
