/* rb_host_env.h - a ring-buffer environment over host memory with the clock and CPU of host_arch.c,
 * shared by the ring buffer's unit tests and its fuzz target. */
#ifndef TESTS_UNIT_RB_HOST_ENV_H
#define TESTS_UNIT_RB_HOST_ENV_H

#include <stdlib.h>

#include "trace/core/ring_buffer.h"

/* The clock and CPU number the buffer reads (tests/unit/host_arch.c). */
extern uint64_t host_cycles;
extern unsigned host_cpu;
static long host_pages_live;
static long host_page_budget = -1; /* >= 0: fail allocations beyond it */

static void *host_alloc_page(void)
{
    if (host_page_budget >= 0 && host_pages_live >= host_page_budget)
        return NULL;
    host_pages_live++;
    return aligned_alloc(8, RB_PAGE_SIZE);
}
static void host_free_page(void *p)
{
    host_pages_live--;
    free(p);
}
static void *host_alloc(size_t n) { return malloc(n); }
static void host_free(void *p) { free(p); }
static const struct rb_env host_env = { host_alloc_page, host_free_page, host_alloc, host_free };

#endif
