/* SPDX-License-Identifier: GPL-2.0 */
/* user-space shim for lib/lz4: see types.h */
#include <linux/types.h>
