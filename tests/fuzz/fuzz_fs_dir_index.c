/*
 * fuzz_fs_dir_index.c - a directory's index (kernel/fs/fs_tree.c: the name hash of
 * kernel/lib/name_hash.c and the treap that orders the sibling list) under random
 * create, remove and lookup sequences, checked against a naive model: a set of names.
 *
 * Each input byte pair is one operation: the first byte's low two bits pick create (file
 * or directory), remove, or lookup, the second picks one of 256 names (different lengths
 * and first letters, so inserts land all over the sorted list). After every operation the
 * directory must hold exactly the model's names, its list strictly sorted with prev links
 * that mirror next, and every name found by fs_child and by a path lookup; a created name
 * must be refused while it exists. Enough pairs grow the hash through several doublings.
 * The directory is lazy (fs_mkdir_lazy): its fill makes every seventh name at the first
 * look, so the model starts with those.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/fs/fs_tree.h"

static int read_nothing(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    (void)out;
    return 0;
}
static const struct fs_file_ops file_ops = { .read = read_nothing };

static char names[256][16];

/* The directory's fill: names 0, 7, 14, ... (the model's starting set). */
static bool fill_every_seventh(struct fs_node *dir)
{
    for (unsigned i = 0; i < 256; i += 7)
        if (!fs_child(dir, names[i]) && !fs_create(dir, names[i], &file_ops, NULL))
            return false;
    return true;
}

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_fs_dir_index: %s\n", what);
        abort();
    }
}

/* The directory against the model. */
static void check_dir(struct fs_node *dir, const bool present[256], unsigned count)
{
    unsigned seen = 0;
    struct fs_node *prev = NULL;
    for (struct fs_node *n = dir->children; n; n = n->next) {
        check(n->prev == prev, "prev does not mirror next");
        check(n->parent == dir, "a child with another parent");
        check(!prev || strcmp(prev->name, n->name) < 0, "list not strictly sorted");
        check(fs_child(dir, n->name) == n, "a listed child not found by name");
        prev = n;
        seen++;
    }
    check(seen == count, "list length is not the model's");
    check((dir->index ? dir->index->names.count : 0) == count, "hash count is not the model's");
    for (unsigned i = 0; i < 256; i++)
        check((fs_child(dir, names[i]) != NULL) == present[i], "lookup disagrees with the model");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!names[0][0])
        for (unsigned i = 0; i < 256; i++)
            snprintf(names[i], sizeof names[i], "%c%u", 'a' + i % 7, i * 37 % 1000);
    struct fs_node *dir = fs_mkdir_lazy(fs_root(), "fuzz", fill_every_seventh, NULL);
    check(dir != NULL, "cannot make the directory");
    bool present[256] = { false };
    unsigned count = 0;
    for (unsigned i = 0; i < 256; i += 7, count++)
        present[i] = true;
    char path[32];
    for (size_t i = 0; i + 1 < size; i += 2) {
        unsigned op = data[i] & 3, k = data[i + 1];
        struct fs_node *n = fs_child(dir, names[k]);
        switch (op) {
        case 0:
        case 1: {
            struct fs_node *made = op ? fs_mkdir(dir, names[k]) : fs_create(dir, names[k], &file_ops, NULL);
            check((made != NULL) == !present[k], "create disagrees with the model");
            if (made) {
                present[k] = true;
                count++;
            }
            break;
        }
        case 2:
            if (present[k]) {
                check(n && fs_remove(n) == 0, "remove of an existing empty node failed");
                present[k] = false;
                count--;
            }
            break;
        default: {
            int err = 0;
            snprintf(path, sizeof path, "/fuzz/%s", names[k]);
            check((fs_lookup(path, &err) == n) && (n != NULL) == present[k], "path lookup disagrees");
            break;
        }
        }
        if (i % 64 == 0 || i + 3 >= size)
            check_dir(dir, present, count);
    }
    while (dir->children)
        check(fs_remove(dir->children) == 0, "cannot empty the directory");
    check(fs_remove(dir) == 0, "cannot remove the directory");
    return 0;
}
