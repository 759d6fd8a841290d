/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel definitions lib/lz4 needs, for building its decoder in
 * user space (harness/host/lz4). Not a kernel header.
 */
#ifndef ZMP_SHIM_TYPES_H
#define ZMP_SHIM_TYPES_H
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
#define BITS_PER_LONG 64
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#undef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)
#define min(a, b) ((a) < (b) ? (a) : (b))
#define min_t(t, a, b) min((t)(a), (t)(b))
#define __ffs(x) ((unsigned long)__builtin_ctzl(x))
#define __fls(x) ((unsigned long)(BITS_PER_LONG - 1 - __builtin_clzl(x)))
#define EXPORT_SYMBOL(s)
#define MODULE_LICENSE(s)
#define MODULE_DESCRIPTION(s)
#endif
