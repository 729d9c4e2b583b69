/*
 * name_hash.h - an index of names to the objects that carry them, found in O(1).
 *
 * Intrusive, as Linux's hlist: an object embeds a struct name_hash_link and is added with a
 * pointer to its own NUL-terminated name, which must not change while it is indexed. The
 * table is chained and doubles its buckets when it holds more entries than buckets, so a
 * chain stays about one entry long however many names it holds (Linux's user_events
 * register_table and the dcache hash are the anchors). A table holding few names uses one
 * chain and allocates nothing; a failed allocation while growing is not an error, only
 * longer chains. Adding never fails; duplicates are the owner's to refuse (find first).
 *
 * Not locked: the owner's lock covers the table (the tree's, ue_lock).
 * Portable: tests/unit/test_name_hash.c, tests/fuzz/fuzz_name_hash.c (and, through the
 * tree, tests/fuzz/fuzz_fs_dir_index.c).
 */
#ifndef KERNEL_LIB_NAME_HASH_H
#define KERNEL_LIB_NAME_HASH_H

#include <stddef.h>
#include <stdint.h>

struct name_hash_link {
    struct name_hash_link *next; /* the next entry in its chain */
    const char *name;            /* the owner's name */
    uint32_t hash;               /* name_hash_of(name) */
};

/* All zero is an empty table. */
struct name_hash {
    struct name_hash_link **buckets; /* NULL: every entry is on chain0 */
    struct name_hash_link *chain0;
    uint32_t nbuckets;               /* a power of two, or 0 while buckets is NULL */
    uint32_t count;
};

/* The entries a table holds before it allocates buckets. */
#define NAME_HASH_SMALL 8

/* FNV-1a of the len bytes at name: the same for equal names, whatever follows them. */
uint32_t name_hash_of(const char *name, size_t len);

/* The entry named by the len bytes at name (not NUL-terminated), or NULL. */
struct name_hash_link *name_hash_find(const struct name_hash *h, const char *name, size_t len);

/* Indexes link under name (its owner's, NUL-terminated). */
void name_hash_add(struct name_hash *h, struct name_hash_link *link, const char *name);

/* Takes link, which h holds, out of h. */
void name_hash_del(struct name_hash *h, struct name_hash_link *link);

/* Frees what h allocated; h is empty afterwards. Its entries are forgotten, not touched. */
void name_hash_destroy(struct name_hash *h);

#endif
