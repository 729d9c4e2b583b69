/*
 * wait_table.c - sleepers hashed by the address they wait on (wait_table.h).
 */
#include "kernel/lib/wait_table.h"

void wait_table_init(struct wait_table *wt, struct wait_bucket *buckets, uint32_t nbuckets)
{
    for (uint32_t i = 0; i < nbuckets; i++)
        buckets[i].first = buckets[i].last = 0;
    wt->buckets = buckets;
    wt->nbuckets = nbuckets;
    wt->count = 0;
}

/* Fibonacci hashing of the address: the multiplication mixes every bit of it into the
 * high bits, which pick the bucket (low address bits alone repeat with structure sizes). */
static uint32_t bucket_index(uint32_t nbuckets, const void *chan)
{
    uint32_t h = (uint32_t)(uintptr_t)chan * 2654435769u;
    return nbuckets > 1 ? h >> (32 - __builtin_ctz(nbuckets)) : 0;
}

struct wait_bucket *wait_table_bucket(const struct wait_table *wt, const void *chan)
{
    return &wt->buckets[bucket_index(wt->nbuckets, chan)];
}

/* Links l at the end of bucket b. */
static void append(struct wait_bucket *b, struct wait_link *l)
{
    l->next = 0;
    l->prev = b->last;
    if (b->last)
        b->last->next = l;
    else
        b->first = l;
    b->last = l;
}

void wait_table_add(struct wait_table *wt, struct wait_link *l, const void *chan)
{
    l->chan = chan;
    append(wait_table_bucket(wt, chan), l);
    wt->count++;
}

void wait_table_remove(struct wait_table *wt, struct wait_link *l)
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

void wait_table_move(struct wait_table *wt, struct wait_bucket *buckets, uint32_t nbuckets)
{
    struct wait_bucket *old = wt->buckets;
    uint32_t old_n = wt->nbuckets, count = wt->count;
    wait_table_init(wt, buckets, nbuckets);
    wt->count = count;
    for (uint32_t i = 0; i < old_n; i++)
        for (struct wait_link *l = old[i].first, *next; l; l = next) {
            next = l->next;
            append(wait_table_bucket(wt, l->chan), l);
        }
}
