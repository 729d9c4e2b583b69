/*
 * heap.c - a first-fit allocator with an address-ordered free list.
 *
 * Memory comes in chunks from grow(). Each chunk is a sequence of blocks; each block starts
 * with a header saying its size and whether it is free. Free blocks are also linked in a
 * list sorted by address, so that kfree can merge a block with free neighbours in one pass
 * and the heap does not fragment into slivers. A magic number in every header catches kfree
 * of a pointer kmalloc never returned, double frees, and writes before a block's start.
 */
#include "kernel/mm/heap.h"

#include <stdbool.h>

#include "kernel/lib/string.h"

#define MAGIC_USED 0x6b6d616cu /* "kmal" */
#define MAGIC_FREE 0x66726565u /* "free" */
#define MIN_CHUNK (64u * 1024)
#define MAX_CHUNKS 64
#define MAX_STEP (4u << 20) /* the most a chunk takes ahead of need (add_chunk) */

struct block {
    uint32_t magic;
    uint32_t size;          /* whole block, header included, multiple of HEAP_ALIGN */
    struct block *next_free; /* valid while free */
} __attribute__((aligned(HEAP_ALIGN)));

#define HEADER_SIZE sizeof(struct block)

struct chunk {
    char *start;
    size_t size;
};

static void *(*grow_fn)(size_t size);
static void (*corrupted_fn)(const char *message, const void *ptr);
static struct block *free_list;
static struct chunk chunks[MAX_CHUNKS];
static int chunk_count;
static struct heap_stats stats;

void heap_init(void *(*grow)(size_t), void (*corrupted)(const char *, const void *))
{
    grow_fn = grow;
    corrupted_fn = corrupted;
    free_list = NULL;
    chunk_count = 0;
    memset(&stats, 0, sizeof stats);
}

/* The index of the chunk holding p, or -1. */
static int chunk_of(const void *p)
{
    for (int i = 0; i < chunk_count; i++)
        if ((const char *)p >= chunks[i].start && (const char *)p < chunks[i].start + chunks[i].size)
            return i;
    return -1;
}

/* True when b is the block right after a in memory, inside the same chunk (two chunks may
 * happen to touch, but each is walked on its own by heap_check). */
static bool adjacent(const struct block *a, const struct block *b)
{
    return (const char *)a + a->size == (const char *)b && chunk_of(a) == chunk_of(b);
}

/* Inserts b into the address-ordered free list and merges it with free neighbours. */
static void insert_free(struct block *b)
{
    b->magic = MAGIC_FREE;
    struct block *prev = NULL, *cur = free_list;
    while (cur && cur < b) {
        prev = cur;
        cur = cur->next_free;
    }
    b->next_free = cur;
    if (prev)
        prev->next_free = b;
    else
        free_list = b;
    if (cur && adjacent(b, cur)) {
        b->size += cur->size;
        b->next_free = cur->next_free;
        cur->magic = 0;
    }
    if (prev && adjacent(prev, b)) {
        prev->size += b->size;
        prev->next_free = b->next_free;
        b->magic = 0;
    }
}

/* need rounded up to whole MIN_CHUNKs. */
static size_t chunk_round(size_t need)
{
    return need < MIN_CHUNK ? MIN_CHUNK : (need + MIN_CHUNK - 1) / MIN_CHUNK * MIN_CHUNK;
}

/*
 * Gets a new chunk of at least need bytes from grow() and puts it on the free list. Chunks
 * grow with the heap: each asks for a quarter of what the heap holds already (64 KiB at
 * least, MAX_STEP at most), so the MAX_CHUNKS slots cover about 200 MiB instead of capping
 * the heap at 64 chunks of 64 KiB, which capped the number of processes at about 1,800
 * (issue 24), while memory taken ahead of need stays under a quarter of the heap. When
 * memory is too fragmented for that many contiguous frames, it asks for half as much, down
 * to what the request needs.
 */
static bool add_chunk(size_t need)
{
    if (!grow_fn || chunk_count == MAX_CHUNKS)
        return false;
    size_t least = chunk_round(need), size = chunk_round(stats.chunk_bytes / 4);
    if (size > MAX_STEP)
        size = MAX_STEP;
    if (size < least)
        size = least;
    char *mem;
    while (!(mem = grow_fn(size)) && size / 2 >= least)
        size = chunk_round(size / 2);
    if (!mem)
        return false;
    stats.chunk_bytes += size;
    chunks[chunk_count].start = mem;
    chunks[chunk_count].size = size;
    chunk_count++;
    struct block *b = (struct block *)mem;
    b->size = (uint32_t)size;
    insert_free(b);
    return true;
}

/* Takes the first free block of at least size bytes off the list, splitting off the rest. */
static struct block *take_first_fit(uint32_t size)
{
    struct block *prev = NULL;
    for (struct block *b = free_list; b; prev = b, b = b->next_free) {
        if (b->size < size)
            continue;
        if (b->size - size >= 2 * HEADER_SIZE) {
            struct block *rest = (struct block *)((char *)b + size);
            rest->magic = MAGIC_FREE;
            rest->size = b->size - size;
            rest->next_free = b->next_free;
            b->size = size;
            b->next_free = rest;
        }
        if (prev)
            prev->next_free = b->next_free;
        else
            free_list = b->next_free;
        return b;
    }
    return NULL;
}

void *kmalloc(size_t size)
{
    if (size == 0 || size > (1u << 30))
        return NULL;
    uint32_t need = (uint32_t)((size + HEADER_SIZE + HEAP_ALIGN - 1) & ~(size_t)(HEAP_ALIGN - 1));
    struct block *b = take_first_fit(need);
    if (!b) {
        if (!add_chunk(need))
            return NULL;
        b = take_first_fit(need);
    }
    b->magic = MAGIC_USED;
    b->next_free = NULL;
    stats.used_bytes += b->size;
    stats.allocations++;
    return (char *)b + HEADER_SIZE;
}

void *kzalloc(size_t size)
{
    void *p = kmalloc(size);
    if (p)
        memset(p, 0, size);
    return p;
}

void kfree(void *ptr)
{
    if (!ptr)
        return;
    struct block *b = (struct block *)((char *)ptr - HEADER_SIZE);
    if (((uintptr_t)ptr & (HEAP_ALIGN - 1)) || chunk_of(b) < 0) {
        corrupted_fn("kfree of a pointer kmalloc did not return", ptr);
        return;
    }
    if (b->magic == MAGIC_FREE) {
        corrupted_fn("double kfree", ptr);
        return;
    }
    if (b->magic != MAGIC_USED) {
        corrupted_fn("kfree of a smashed or foreign block", ptr);
        return;
    }
    stats.used_bytes -= b->size;
    stats.allocations--;
    insert_free(b);
}

size_t kmalloc_cost_of_size(size_t size)
{
    return (size + HEADER_SIZE + HEAP_ALIGN - 1) & ~(size_t)(HEAP_ALIGN - 1);
}

size_t kmalloc_cost(const void *ptr)
{
    if (!ptr)
        return 0;
    const struct block *b = (const struct block *)((const char *)ptr - HEADER_SIZE);
    return b->size;
}

void heap_get_stats(struct heap_stats *out) { *out = stats; }

void heap_check(void)
{
    for (int i = 0; i < chunk_count; i++) {
        char *p = chunks[i].start, *end = p + chunks[i].size;
        while (p < end) {
            struct block *b = (struct block *)p;
            bool ok_magic = b->magic == MAGIC_USED || b->magic == MAGIC_FREE;
            if (!ok_magic || b->size < HEADER_SIZE || b->size % HEAP_ALIGN || b->size > (size_t)(end - p)) {
                corrupted_fn("heap block header smashed", b);
                return;
            }
            p += b->size;
        }
    }
}
