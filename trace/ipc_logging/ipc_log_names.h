/*
 * ipc_log_names.h - the IPC log contexts by name: a chained hash table, so that finding a
 * name (every ipc_log_context_create does, before it makes one) costs the same with 1 or
 * 1,000 contexts. Portable: the kernel's ipc_logging.c and the host unit tests use it.
 *
 * The table allocates nothing. Each entry is a struct ipc_log_name inside the caller's
 * object; the caller hands over the bucket arrays, and grows the table when
 * ipc_log_names_want_grow says so (the load factor has passed 1) by passing an array of
 * twice the buckets to ipc_log_names_rehash. The caller serialises every call.
 */
#ifndef TRACE_IPC_LOGGING_IPC_LOG_NAMES_H
#define TRACE_IPC_LOGGING_IPC_LOG_NAMES_H

#include <stdbool.h>
#include <stdint.h>

struct ipc_log_name {
    const char *name;          /* the key: stays valid and unchanged while in the table */
    uint32_t hash;
    struct ipc_log_name *next; /* the next entry of the same bucket */
};

struct ipc_log_names {
    struct ipc_log_name **buckets;
    uint32_t bucket_count; /* a power of two */
    uint32_t count;
};

/* An empty table over buckets[bucket_count] (a power of two, at least 1), zeroed here. */
void ipc_log_names_init(struct ipc_log_names *t, struct ipc_log_name **buckets, uint32_t bucket_count);
/* The entry named name, or NULL. */
struct ipc_log_name *ipc_log_names_find(const struct ipc_log_names *t, const char *name);
/* Adds e (e->name set, not in the table yet: the caller finds first). */
void ipc_log_names_add(struct ipc_log_names *t, struct ipc_log_name *e);
/* Takes e out of the table; false when it was not in it. */
bool ipc_log_names_remove(struct ipc_log_names *t, struct ipc_log_name *e);
/* True when the table has more entries than buckets: time to grow. */
bool ipc_log_names_want_grow(const struct ipc_log_names *t);
/* Moves every entry into buckets[bucket_count] (a power of two, zeroed here) and returns
 * the old array for the caller to free. */
struct ipc_log_name **ipc_log_names_rehash(struct ipc_log_names *t, struct ipc_log_name **buckets,
                                           uint32_t bucket_count);

#endif
