/*
 * fuzz_name_hash.c - kernel/lib/name_hash.c under random add, delete and find sequences,
 * checked against a naive model: an array of the names held, searched one by one.
 *
 * The input is a list of operations, each an opcode byte and a name: the opcode's low two
 * bits pick add, delete or find (twice as likely), the next bits the name's length (0 to 7
 * bytes, taken from the input, any byte values but NUL), so inputs can repeat names, make
 * prefixes of each other, and pile many names into one table to make it grow. Find is
 * asked with a length that does not end at a NUL, as the path walk asks. After each
 * operation the table's count must be the model's; at the end every model name must be
 * found, and every entry of every chain must be one the model holds, in the chain its
 * hash selects.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/name_hash.h"

#define MAX_ITEMS 512

struct item {
    char name[8];
    struct name_hash_link link;
    bool held;
};

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_name_hash: %s\n", what);
        abort();
    }
}

/* The model's item named name, or NULL. */
static struct item *model_find(struct item *items, unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (items[i].held && strcmp(items[i].name, name) == 0)
            return &items[i];
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct item items[MAX_ITEMS];
    memset(items, 0, sizeof items);
    unsigned used = 0, held = 0;
    struct name_hash h = { 0 };
    size_t pos = 0;
    while (pos < size) {
        uint8_t op = data[pos++];
        size_t len = (op >> 2) & 7;
        char name[16];
        size_t j = 0;
        while (j < len && pos < size) {
            char c = (char)data[pos++];
            name[j++] = c ? c : 'x';
        }
        name[j] = '\0';
        memcpy(name + j + 1, "/tail", 6); /* find must stop at the length it is given */
        if (j == 0)
            continue;
        struct item *in_model = model_find(items, used, name);
        struct name_hash_link *found = name_hash_find(&h, name, j);
        check(found == (in_model ? &in_model->link : NULL), "find disagrees with the model");
        switch (op & 3) {
        case 0:
            if (!in_model && used < MAX_ITEMS) {
                struct item *it = &items[used++];
                memcpy(it->name, name, j + 1);
                it->held = true;
                name_hash_add(&h, &it->link, it->name);
                held++;
            }
            break;
        case 1:
            if (in_model) {
                name_hash_del(&h, &in_model->link);
                in_model->held = false;
                held--;
                check(name_hash_find(&h, name, j) == NULL, "found after delete");
            }
            break;
        default:
            break;
        }
        check(h.count == held, "count is not the model's");
    }
    for (unsigned i = 0; i < used; i++)
        if (items[i].held)
            check(name_hash_find(&h, items[i].name, strlen(items[i].name)) == &items[i].link,
                  "a held name is not found");
    unsigned chains = h.buckets ? h.nbuckets : 1, seen = 0;
    for (unsigned b = 0; b < chains; b++)
        for (struct name_hash_link *l = h.buckets ? h.buckets[b] : h.chain0; l; l = l->next) {
            struct item *it = (struct item *)((char *)l - offsetof(struct item, link));
            check(it >= items && it < items + used && it->held, "a chain holds a stranger");
            check(!h.buckets || (l->hash & (h.nbuckets - 1)) == b, "an entry in the wrong chain");
            seen++;
        }
    check(seen == held, "the chains do not hold the model's names");
    name_hash_destroy(&h);
    return 0;
}
