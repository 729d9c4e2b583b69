/*
 * ipc_log_names.c - the IPC log contexts by name (see ipc_log_names.h): a chained hash
 * table keyed by FNV-1a of the name, which the caller grows by doubling.
 */
#include "trace/ipc_logging/ipc_log_names.h"

#include "kernel/lib/string.h"

/* FNV-1a, 32 bits: a few instructions per character, and names that differ in one
 * character (ctx_1, ctx_2) land in different buckets. */
static uint32_t name_hash(const char *name)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h;
}

void ipc_log_names_init(struct ipc_log_names *t, struct ipc_log_name **buckets, uint32_t bucket_count)
{
    for (uint32_t i = 0; i < bucket_count; i++)
        buckets[i] = 0;
    t->buckets = buckets;
    t->bucket_count = bucket_count;
    t->count = 0;
}

struct ipc_log_name *ipc_log_names_find(const struct ipc_log_names *t, const char *name)
{
    uint32_t h = name_hash(name);
    struct ipc_log_name *e = t->buckets[h & (t->bucket_count - 1)];
    while (e && !(e->hash == h && strcmp(e->name, name) == 0))
        e = e->next;
    return e;
}

void ipc_log_names_add(struct ipc_log_names *t, struct ipc_log_name *e)
{
    e->hash = name_hash(e->name);
    struct ipc_log_name **bucket = &t->buckets[e->hash & (t->bucket_count - 1)];
    e->next = *bucket;
    *bucket = e;
    t->count++;
}

bool ipc_log_names_remove(struct ipc_log_names *t, struct ipc_log_name *e)
{
    struct ipc_log_name **link = &t->buckets[e->hash & (t->bucket_count - 1)];
    while (*link && *link != e)
        link = &(*link)->next;
    if (!*link)
        return false;
    *link = e->next;
    t->count--;
    return true;
}

bool ipc_log_names_want_grow(const struct ipc_log_names *t)
{
    return t->count > t->bucket_count;
}

struct ipc_log_name **ipc_log_names_rehash(struct ipc_log_names *t, struct ipc_log_name **buckets,
                                           uint32_t bucket_count)
{
    struct ipc_log_name **old = t->buckets;
    uint32_t old_count = t->bucket_count;
    for (uint32_t i = 0; i < bucket_count; i++)
        buckets[i] = 0;
    for (uint32_t i = 0; i < old_count; i++) {
        while (old[i]) {
            struct ipc_log_name *e = old[i];
            old[i] = e->next;
            struct ipc_log_name **bucket = &buckets[e->hash & (bucket_count - 1)];
            e->next = *bucket;
            *bucket = e;
        }
    }
    t->buckets = buckets;
    t->bucket_count = bucket_count;
    return old;
}
