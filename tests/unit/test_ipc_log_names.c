/*
 * test_ipc_log_names.c - the table of IPC log contexts by name
 * (trace/ipc_logging/ipc_log_names.c): finding among colliding names, removing (the first,
 * middle and last of a chain, and during a walk over every name), growing by rehash with
 * every name still found, and a random run of adds and removes against a plain array.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "trace/ipc_logging/ipc_log_names.h"

#define MAX_ENTRIES 3000

struct entry {
    char name[20];
    struct ipc_log_name node;
};

static struct entry entries[MAX_ENTRIES];

static struct entry *named(int i)
{
    snprintf(entries[i].name, sizeof entries[i].name, "ctx_%d", i);
    entries[i].node.name = entries[i].name;
    return &entries[i];
}

/* Doubles the buckets as the kernel's add_name does, freeing the old array. */
static void add_growing(struct ipc_log_names *t, struct ipc_log_name *e, bool *first)
{
    ipc_log_names_add(t, e);
    if (ipc_log_names_want_grow(t)) {
        uint32_t n = t->bucket_count * 2;
        struct ipc_log_name **old = ipc_log_names_rehash(t, malloc(n * sizeof *old), n);
        if (!*first)
            free(old);
        *first = false;
    }
}

TEST(ipc_log_names_collisions_in_one_bucket)
{
    struct ipc_log_name *bucket[1]; /* one bucket: every name collides */
    struct ipc_log_names t;
    ipc_log_names_init(&t, bucket, 1);
    for (int i = 0; i < 5; i++)
        ipc_log_names_add(&t, &named(i)->node);
    for (int i = 0; i < 5; i++)
        CHECK(ipc_log_names_find(&t, entries[i].name) == &entries[i].node);
    CHECK(ipc_log_names_find(&t, "ctx_5") == NULL);
    CHECK(ipc_log_names_find(&t, "ctx_") == NULL);
    CHECK(ipc_log_names_find(&t, "") == NULL);
    /* the newest (head of the chain), the oldest (its tail), one in the middle */
    CHECK(ipc_log_names_remove(&t, &entries[4].node));
    CHECK(ipc_log_names_remove(&t, &entries[0].node));
    CHECK(ipc_log_names_remove(&t, &entries[2].node));
    CHECK(!ipc_log_names_remove(&t, &entries[2].node)); /* not in it any more */
    CHECK_EQ_INT(t.count, 2);
    CHECK(ipc_log_names_find(&t, "ctx_1") == &entries[1].node);
    CHECK(ipc_log_names_find(&t, "ctx_3") == &entries[3].node);
    CHECK(ipc_log_names_find(&t, "ctx_0") == NULL && ipc_log_names_find(&t, "ctx_4") == NULL);
    ipc_log_names_add(&t, &entries[2].node); /* back in after removal */
    CHECK(ipc_log_names_find(&t, "ctx_2") == &entries[2].node);
}

TEST(ipc_log_names_grow_keeps_every_name)
{
    struct ipc_log_name *first_buckets[4];
    struct ipc_log_names t;
    bool first = true;
    ipc_log_names_init(&t, first_buckets, 4);
    for (int i = 0; i < 2000; i++) {
        add_growing(&t, &named(i)->node, &first);
        CHECK(t.count <= t.bucket_count); /* grown as soon as the load passes 1 */
    }
    CHECK_EQ_INT(t.bucket_count, 2048);
    for (int i = 0; i < 2000; i++)
        CHECK(ipc_log_names_find(&t, entries[i].name) == &entries[i].node);
    /* no bucket is much longer than the mean of 1 */
    uint32_t longest = 0;
    for (uint32_t b = 0; b < t.bucket_count; b++) {
        uint32_t n = 0;
        for (struct ipc_log_name *e = t.buckets[b]; e; e = e->next)
            n++;
        longest = n > longest ? n : longest;
    }
    CHECK(longest <= 8);
    free(t.buckets);
}

TEST(ipc_log_names_remove_during_a_walk)
{
    struct ipc_log_name *buckets[8];
    struct ipc_log_names t;
    ipc_log_names_init(&t, buckets, 8);
    for (int i = 0; i < 40; i++)
        ipc_log_names_add(&t, &named(i)->node);
    /* Walk every bucket, removing each even-numbered entry as it is met: the walk goes on
     * from the next entry taken before the removal. */
    int seen = 0;
    for (uint32_t b = 0; b < t.bucket_count; b++) {
        for (struct ipc_log_name *e = t.buckets[b], *next; e; e = next) {
            next = e->next;
            seen++;
            if (atoi(e->name + 4) % 2 == 0)
                CHECK(ipc_log_names_remove(&t, e));
        }
    }
    CHECK_EQ_INT(seen, 40);
    CHECK_EQ_INT(t.count, 20);
    for (int i = 0; i < 40; i++)
        CHECK((ipc_log_names_find(&t, entries[i].name) != NULL) == (i % 2 == 1));
}

TEST(ipc_log_names_random_against_an_array)
{
    struct ipc_log_name *first_buckets[2];
    struct ipc_log_names t;
    bool first = true, in[MAX_ENTRIES] = { false };
    uint32_t live = 0;
    ipc_log_names_init(&t, first_buckets, 2);
    for (int i = 0; i < MAX_ENTRIES; i++)
        named(i);
    srand(24);
    for (int step = 0; step < 20000; step++) {
        int i = rand() % MAX_ENTRIES;
        if (in[i]) {
            CHECK(ipc_log_names_remove(&t, &entries[i].node));
            live--;
        } else {
            CHECK(ipc_log_names_find(&t, entries[i].name) == NULL);
            add_growing(&t, &entries[i].node, &first);
            live++;
        }
        in[i] = !in[i];
        int probe = rand() % MAX_ENTRIES;
        CHECK((ipc_log_names_find(&t, entries[probe].name) == &entries[probe].node) == in[probe]);
    }
    CHECK_EQ_INT(t.count, live);
    for (int i = 0; i < MAX_ENTRIES; i++)
        CHECK((ipc_log_names_find(&t, entries[i].name) != NULL) == in[i]);
    if (!first)
        free(t.buckets);
}
