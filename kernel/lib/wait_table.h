/*
 * wait_table.h - who waits on what: sleepers indexed by the address they wait on (their
 * channel), so that a wake-up visits the sleepers of its own channel's bucket only.
 *
 * Linux gives each waitable object a wait queue of its own; where waiting is on an
 * address instead (wait_var_event and wake_up_var, futexes), it hashes the address into a
 * table of wait queues (kernel/sched/wait_bit.c, kernel/futex/). This is that table: a
 * sleeper embeds a struct wait_link, which goes on the list of its channel's bucket, in
 * the order the sleepers came (a wake-up wakes them in that order). Other channels may
 * share a bucket; the owner keeps that rare by keeping at least as many buckets as
 * possible sleepers (wait_table_move to a larger array), so a bucket holds about one.
 *
 * Not locked: the owner's lock covers the table (the scheduler's: the kernel lock).
 * Portable: tests/unit/test_wait_table.c.
 */
#ifndef KERNEL_LIB_WAIT_TABLE_H
#define KERNEL_LIB_WAIT_TABLE_H

#include <stdint.h>

struct wait_link {
    const void *chan;              /* what it waits on */
    struct wait_link *prev, *next; /* its neighbours in the bucket, in arrival order */
};

struct wait_bucket {
    struct wait_link *first, *last;
};

struct wait_table {
    struct wait_bucket *buckets;
    uint32_t nbuckets; /* a power of two */
    uint32_t shift;    /* a hash's bucket is (hash >> shift) & (nbuckets - 1) */
    uint32_t count;    /* links in the table */
};

/* An empty table over buckets, an array of nbuckets (a power of two) it zeroes. */
void wait_table_init(struct wait_table *wt, struct wait_bucket *buckets, uint32_t nbuckets);

/* The bucket of chan: Fibonacci hashing of the address, whose multiplication mixes every
 * bit of it into the high bits that pick the bucket (the low bits alone repeat with the
 * sizes of the structures waited on). Inline, as add and remove: the scheduler calls them
 * on every sleep and wake-up. */
static inline struct wait_bucket *wait_table_bucket(const struct wait_table *wt, const void *chan)
{
    uint32_t h = (uint32_t)(uintptr_t)chan * 2654435769u;
    return &wt->buckets[(h >> wt->shift) & (wt->nbuckets - 1)];
}

/* Links l at the end of bucket b (the table's count is the caller's). */
static inline void wait_bucket_append(struct wait_bucket *b, struct wait_link *l)
{
    l->next = 0;
    l->prev = b->last;
    if (b->last)
        b->last->next = l;
    else
        b->first = l;
    b->last = l;
}

/* Adds l, which is in no table, as the last sleeper on chan. */
static inline void wait_table_add(struct wait_table *wt, struct wait_link *l, const void *chan)
{
    l->chan = chan;
    wait_bucket_append(wait_table_bucket(wt, chan), l);
    wt->count++;
}

/* Takes l, which wt holds, out of it (l->chan is kept). */
static inline void wait_table_remove(struct wait_table *wt, struct wait_link *l)
{
    struct wait_bucket *b = wait_table_bucket(wt, l->chan);
    if (l->prev)
        l->prev->next = l->next;
    else
        b->first = l->next;
    if (l->next)
        l->next->prev = l->prev;
    else
        b->last = l->prev;
    l->prev = l->next = 0;
    wt->count--;
}

/* Moves every link into buckets, an array of nbuckets (a power of two) it zeroes first,
 * keeping each channel's sleepers in their order; the old array is then the caller's. */
void wait_table_move(struct wait_table *wt, struct wait_bucket *buckets, uint32_t nbuckets);

#endif
