/* test_name_hash.c - kernel/lib/name_hash.c: finding by name, names that collide (in the
 * bucket and in the whole 32-bit hash), growing past the small chain and through many
 * doublings, and deletes while the owner walks its own list of the entries. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/name_hash.h"

struct item {
    char name[16];
    struct name_hash_link link;
    struct item *next; /* the owner's list, as user_events keeps one */
};

static struct item *item_of(struct name_hash_link *l)
{
    return l ? (struct item *)((char *)l - offsetof(struct item, link)) : NULL;
}

static struct item *find(struct name_hash *h, const char *name)
{
    return item_of(name_hash_find(h, name, strlen(name)));
}

TEST(empty_table_finds_nothing_and_small_one_allocates_nothing)
{
    struct name_hash h = { 0 };
    CHECK(find(&h, "a") == NULL);
    struct item it[NAME_HASH_SMALL];
    for (int i = 0; i < NAME_HASH_SMALL; i++) {
        snprintf(it[i].name, sizeof it[i].name, "n%d", i);
        name_hash_add(&h, &it[i].link, it[i].name);
    }
    CHECK(h.buckets == NULL);
    for (int i = 0; i < NAME_HASH_SMALL; i++)
        CHECK(find(&h, it[i].name) == &it[i]);
    CHECK(find(&h, "n") == NULL);
    CHECK(find(&h, "n10") == NULL);
    name_hash_destroy(&h);
}

TEST(find_takes_a_name_that_is_not_nul_terminated)
{
    struct name_hash h = { 0 };
    struct item a = { .name = "enable" };
    name_hash_add(&h, &a.link, a.name);
    CHECK(item_of(name_hash_find(&h, "enable/more", 6)) == &a);
    CHECK(name_hash_find(&h, "enable/more", 5) == NULL);
    CHECK(name_hash_find(&h, "enablex", 7) == NULL);
    name_hash_destroy(&h);
}

TEST(names_in_one_bucket_are_told_apart)
{
    /* Names whose hashes share their low 10 bits fall in one bucket of any table of up to
     * 1024 buckets: each is still found, and deleting one leaves the others. */
    enum { WANT = 40 };
    static struct item it[WANT];
    uint32_t low = name_hash_of("b0", 2) & 1023;
    int n = 0;
    for (int i = 0; n < WANT; i++) {
        char name[16];
        snprintf(name, sizeof name, "b%d", i);
        if ((name_hash_of(name, strlen(name)) & 1023) == low)
            memcpy(it[n++].name, name, sizeof name);
    }
    struct name_hash h = { 0 };
    for (int i = 0; i < WANT; i++)
        name_hash_add(&h, &it[i].link, it[i].name);
    CHECK(h.nbuckets >= 32 && h.nbuckets <= 1024);
    for (int i = 0; i < WANT; i++)
        CHECK(find(&h, it[i].name) == &it[i]);
    for (int i = 0; i < WANT; i += 2)
        name_hash_del(&h, &it[i].link);
    for (int i = 0; i < WANT; i++)
        CHECK(find(&h, it[i].name) == (i % 2 ? &it[i] : NULL));
    CHECK_EQ_INT(h.count, WANT / 2);
    name_hash_destroy(&h);
}

static int by_hash(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The i-th of a fixed sequence of seven-letter names. */
static void random_name(uint32_t i, char name[16])
{
    uint32_t x = i * 2654435761u + 12345;
    for (int j = 0; j < 7; j++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        name[j] = (char)('a' + x % 26);
    }
    name[7] = '\0';
}

TEST(names_with_the_same_full_hash_are_told_apart)
{
    /* Search 2^18 names for two different ones with equal 32-bit hashes (the birthday
     * bound makes several likely), then index both with many others. */
    enum { N = 1 << 18 };
    uint64_t *keys = malloc(N * sizeof *keys);
    CHECK(keys != NULL);
    char name[16], other[16];
    for (uint32_t i = 0; i < N; i++) {
        random_name(i, name);
        keys[i] = ((uint64_t)name_hash_of(name, strlen(name)) << 32) | i;
    }
    qsort(keys, N, sizeof *keys, by_hash);
    uint32_t a = 0, b = 0;
    for (uint32_t i = 1; i < N && a == b; i++)
        if (keys[i] >> 32 == keys[i - 1] >> 32) {
            random_name((uint32_t)keys[i - 1], name);
            random_name((uint32_t)keys[i], other);
            if (strcmp(name, other) != 0) {
                a = (uint32_t)keys[i - 1];
                b = (uint32_t)keys[i];
            }
        }
    free(keys);
    CHECK(a != b);
    static struct item twins[2], others[100];
    random_name(a, twins[0].name);
    random_name(b, twins[1].name);
    CHECK(strcmp(twins[0].name, twins[1].name) != 0);
    CHECK(name_hash_of(twins[0].name, strlen(twins[0].name)) ==
          name_hash_of(twins[1].name, strlen(twins[1].name)));
    struct name_hash h = { 0 };
    name_hash_add(&h, &twins[0].link, twins[0].name);
    for (int i = 0; i < 100; i++) {
        snprintf(others[i].name, sizeof others[i].name, "o%d", i);
        name_hash_add(&h, &others[i].link, others[i].name);
    }
    CHECK(find(&h, twins[1].name) == NULL);
    name_hash_add(&h, &twins[1].link, twins[1].name);
    CHECK(find(&h, twins[0].name) == &twins[0]);
    CHECK(find(&h, twins[1].name) == &twins[1]);
    name_hash_del(&h, &twins[0].link);
    CHECK(find(&h, twins[0].name) == NULL);
    CHECK(find(&h, twins[1].name) == &twins[1]);
    name_hash_destroy(&h);
}

TEST(grows_and_keeps_chains_short)
{
    enum { N = 20000 };
    struct item *it = calloc(N, sizeof *it);
    CHECK(it != NULL);
    struct name_hash h = { 0 };
    for (int i = 0; i < N; i++) {
        snprintf(it[i].name, sizeof it[i].name, "ev_%d", i);
        name_hash_add(&h, &it[i].link, it[i].name);
        CHECK(h.count <= (h.buckets ? h.nbuckets : NAME_HASH_SMALL));
    }
    CHECK_EQ_INT(h.count, N);
    uint32_t longest = 0;
    for (uint32_t b = 0; b < h.nbuckets; b++) {
        uint32_t len = 0;
        for (struct name_hash_link *l = h.buckets[b]; l; l = l->next)
            len++;
        if (len > longest)
            longest = len;
    }
    CHECK(longest <= 12); /* FNV-1a spreads these names: one chain is not the table */
    for (int i = 0; i < N; i++)
        CHECK(find(&h, it[i].name) == &it[i]);
    name_hash_destroy(&h);
    free(it);
}

TEST(deletes_while_the_owner_walks_its_list)
{
    /* user_events deletes events while walking its own list of them (delete_all_events):
     * each delete takes only that entry out, so the rest stay found. */
    enum { N = 300 };
    static struct item it[N];
    struct item *head = NULL;
    struct name_hash h = { 0 };
    for (int i = N - 1; i >= 0; i--) {
        snprintf(it[i].name, sizeof it[i].name, "d%d", i);
        it[i].next = head;
        head = &it[i];
        name_hash_add(&h, &it[i].link, it[i].name);
    }
    struct item **link = &head;
    int i = 0;
    while (*link) {
        struct item *cur = *link;
        if (i++ % 3 == 0) {
            name_hash_del(&h, &cur->link);
            *link = cur->next;
        } else {
            link = &cur->next;
        }
    }
    for (i = 0; i < N; i++)
        CHECK(find(&h, it[i].name) == (i % 3 == 0 ? NULL : &it[i]));
    for (struct item *p = head; p; p = p->next)
        name_hash_del(&h, &p->link);
    CHECK_EQ_INT(h.count, 0);
    for (i = 0; i < N; i++)
        CHECK(find(&h, it[i].name) == NULL);
    name_hash_destroy(&h);
}
