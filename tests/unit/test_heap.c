/* test_heap.c - kmalloc/kfree over host memory: alignment, reuse, merging, misuse. */
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

#include "kernel/mm/heap.h"

static int grows;
static const char *last_corruption;
static void *chunks[64]; /* MAX_CHUNKS */

static void *grow(size_t size)
{
    void *p = aligned_alloc(HEAP_ALIGN, size);
    chunks[grows++] = p;
    return p;
}

static void corrupted(const char *message, const void *ptr)
{
    (void)ptr;
    last_corruption = message;
}

static void setup(void)
{
    for (int i = 0; i < grows; i++)
        free(chunks[i]);
    grows = 0;
    last_corruption = NULL;
    heap_init(grow, corrupted);
}

TEST(alignment_and_separation)
{
    setup();
    char *a = kmalloc(1), *b = kmalloc(100), *c = kmalloc(17);
    CHECK(a && b && c);
    CHECK(((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) % HEAP_ALIGN == 0);
    memset(a, 1, 1);
    memset(b, 2, 100);
    memset(c, 3, 17);
    CHECK(a[0] == 1 && b[99] == 2 && c[16] == 3);
    CHECK(kmalloc(0) == NULL);
    heap_check();
    CHECK(last_corruption == NULL);
}

TEST(freed_memory_is_reused_and_merged)
{
    setup();
    void *p[10];
    for (int i = 0; i < 10; i++)
        p[i] = kmalloc(1000);
    struct heap_stats s;
    heap_get_stats(&s);
    CHECK_EQ_INT(s.allocations, 10);
    for (int i = 0; i < 10; i++)
        kfree(p[i]);
    heap_get_stats(&s);
    CHECK_EQ_INT(s.allocations, 0);
    CHECK_EQ_INT(s.used_bytes, 0);
    /* All ten merged back: one allocation of their total size fits without growing. */
    int before = grows;
    void *big = kmalloc(10000);
    CHECK(big == p[0]);
    CHECK_EQ_INT(grows, before);
    kfree(big);
}

TEST(large_allocation_gets_own_chunk)
{
    setup();
    void *big = kzalloc(1 << 20);
    CHECK(big != NULL);
    CHECK(((char *)big)[(1 << 20) - 1] == 0);
    kfree(big);
    heap_check();
    CHECK(last_corruption == NULL);
}

TEST(double_free_detected)
{
    setup();
    void *p = kmalloc(64);
    kfree(p);
    kfree(p);
    CHECK_EQ_STR(last_corruption, "double kfree");
}

TEST(foreign_pointer_detected)
{
    setup();
    void *p = kmalloc(64);
    static char outside[64] __attribute__((aligned(16)));
    kfree(outside + 16);
    CHECK_EQ_STR(last_corruption, "kfree of a pointer kmalloc did not return");
    last_corruption = NULL;
    kfree((char *)p + 1);
    CHECK(last_corruption != NULL);
    kfree(NULL); /* allowed */
}

TEST(smashed_header_detected)
{
    setup();
    char *p = kmalloc(64);
    char *q = kmalloc(64);
    memset(p, 0xff, 64 + 16); /* overflow into q's header */
    heap_check();
    CHECK_EQ_STR(last_corruption, "heap block header smashed");
    (void)q;
}

TEST(grow_failure_returns_null)
{
    heap_init(NULL, corrupted);
    CHECK(kmalloc(10) == NULL);
}

/* kmalloc_cost is what used_bytes grows by: the size rounded up, with the header. */
TEST(cost_is_what_the_heap_gives)
{
    setup();
    struct heap_stats before, after;
    heap_get_stats(&before);
    void *p = kmalloc(1), *q = kmalloc(100);
    heap_get_stats(&after);
    CHECK(kmalloc_cost(p) >= 1 + HEAP_ALIGN && kmalloc_cost(p) % HEAP_ALIGN == 0);
    CHECK(kmalloc_cost(q) >= 100 && kmalloc_cost(q) < 100 + 3 * HEAP_ALIGN);
    CHECK_EQ_INT(after.used_bytes - before.used_bytes, kmalloc_cost(p) + kmalloc_cost(q));
    CHECK_EQ_INT(kmalloc_cost(NULL), 0);
    CHECK_EQ_INT(kmalloc_cost_of_size(1), kmalloc_cost(p)); /* the charge before, the same */
    kfree(p);
    kfree(q);
}

/* The heap is not capped at its 64 chunk slots of 64 KiB (4 MiB, which capped the number of
 * processes): each chunk asks for a quarter of what the heap holds, so 64 chunks cover far
 * more, and what it holds ahead of need stays under a quarter. */
TEST(heap_grows_past_64_chunks_of_64_kib)
{
    setup();
    int n = 0;
    while (n < 40000 && kmalloc(512)) /* 20 MiB of small blocks */
        n++;
    CHECK_EQ_INT(n, 40000);
    CHECK(grows < 40);
    struct heap_stats st;
    heap_get_stats(&st);
    CHECK(st.chunk_bytes >= st.used_bytes && st.chunk_bytes - st.used_bytes < st.used_bytes / 4 + (64u << 10));
}

static int refusals;
/* A grow() that refuses anything over 256 KiB, as fragmented memory would. */
static void *grow_small(size_t size)
{
    if (size > 256 * 1024) {
        refusals++;
        return NULL;
    }
    return grow(size);
}

TEST(a_refused_big_chunk_falls_back_to_smaller_ones)
{
    setup();
    heap_init(grow_small, corrupted);
    refusals = 0;
    int n = 0;
    while (n < 4000 && kmalloc(512)) /* 2 MiB: more than one 256 KiB chunk */
        n++;
    CHECK_EQ_INT(n, 4000);
    CHECK(refusals > 0);
    CHECK(kmalloc(300 * 1024) == NULL); /* one block bigger than any chunk grow() gives */
}
