/*
 * wait_table.c - sleepers hashed by the address they wait on (wait_table.h): setting a
 * table up and moving it to more buckets (adding, removing and finding are inline there).
 */
#include "kernel/lib/wait_table.h"

void wait_table_init(struct wait_table *wt, struct wait_bucket *buckets, uint32_t nbuckets)
{
    for (uint32_t i = 0; i < nbuckets; i++)
        buckets[i].first = buckets[i].last = 0;
    wt->buckets = buckets;
    wt->nbuckets = nbuckets;
    /* The top log2(nbuckets) bits of the hash; one bucket: any shift (the mask is 0). */
    wt->shift = nbuckets > 1 ? 32 - (uint32_t)__builtin_ctz(nbuckets) : 0;
    wt->count = 0;
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
            wait_bucket_append(wait_table_bucket(wt, l->chan), l);
        }
}
