/*
 * name_hash.c - the chained, growing name index of name_hash.h.
 */
#include "kernel/lib/name_hash.h"

#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"

/* The FNV-1a prime and offset basis (32 bits): cheap per byte, and the low bits, which
 * pick the bucket, depend on every byte. */
#define FNV_PRIME 16777619u
#define FNV_BASIS 2166136261u

uint32_t name_hash_of(const char *name, size_t len)
{
    uint32_t h = FNV_BASIS;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)name[i]) * FNV_PRIME;
    return h;
}

/* Where the chain of hash starts. */
static struct name_hash_link **chain_of(const struct name_hash *h, uint32_t hash)
{
    if (!h->buckets)
        return (struct name_hash_link **)&h->chain0;
    return &h->buckets[hash & (h->nbuckets - 1)];
}

struct name_hash_link *name_hash_find(const struct name_hash *h, const char *name, size_t len)
{
    uint32_t hash = name_hash_of(name, len);
    for (struct name_hash_link *l = *chain_of(h, hash); l; l = l->next)
        if (l->hash == hash && strncmp(l->name, name, len) == 0 && l->name[len] == '\0')
            return l;
    return NULL;
}

/* Moves every entry into a table of n buckets; keeps the old layout if there is no memory. */
static void rehash(struct name_hash *h, uint32_t n)
{
    struct name_hash_link **fresh = kzalloc(n * sizeof *fresh);
    if (!fresh)
        return;
    uint32_t old_n = h->buckets ? h->nbuckets : 1;
    for (uint32_t b = 0; b < old_n; b++) {
        struct name_hash_link *l = h->buckets ? h->buckets[b] : h->chain0;
        while (l) {
            struct name_hash_link *next = l->next;
            struct name_hash_link **head = &fresh[l->hash & (n - 1)];
            l->next = *head;
            *head = l;
            l = next;
        }
    }
    kfree(h->buckets);
    h->buckets = fresh;
    h->chain0 = NULL;
    h->nbuckets = n;
}

void name_hash_add(struct name_hash *h, struct name_hash_link *link, const char *name)
{
    link->name = name;
    link->hash = name_hash_of(name, strlen(name));
    h->count++;
    if (!h->buckets && h->count > NAME_HASH_SMALL)
        rehash(h, 2 * NAME_HASH_SMALL);
    else if (h->buckets && h->count > h->nbuckets && h->nbuckets < (1u << 30))
        rehash(h, 2 * h->nbuckets);
    struct name_hash_link **head = chain_of(h, link->hash);
    link->next = *head;
    *head = link;
}

void name_hash_del(struct name_hash *h, struct name_hash_link *link)
{
    struct name_hash_link **p = chain_of(h, link->hash);
    while (*p && *p != link)
        p = &(*p)->next;
    if (!*p)
        return;
    *p = link->next;
    link->next = NULL;
    h->count--;
}

void name_hash_destroy(struct name_hash *h)
{
    kfree(h->buckets);
    h->buckets = NULL;
    h->chain0 = NULL;
    h->nbuckets = 0;
    h->count = 0;
}
