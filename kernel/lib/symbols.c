/*
 * symbols.c - lookups in a sorted symbol table.
 */
#include "kernel/lib/symbols.h"

#include "kernel/lib/string.h"

const char *symbol_lookup(const struct symbol_table *t, uint32_t addr, uint32_t *offset,
                          uint32_t *size)
{
    /* The last entry only marks the end of the text, so a hit needs an entry after it. */
    if (t->count < 2 || addr < t->entries[0].address || addr >= t->entries[t->count - 1].address)
        return 0;
    /* Binary search for the last entry whose address is <= addr. */
    uint32_t lo = 0, hi = t->count - 1;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->entries[mid].address <= addr)
            lo = mid;
        else
            hi = mid;
    }
    if (offset)
        *offset = addr - t->entries[lo].address;
    if (size)
        *size = t->entries[lo + 1].address - t->entries[lo].address;
    return t->names + t->entries[lo].name_offset;
}

uint32_t symbol_address(const struct symbol_table *t, const char *name)
{
    for (uint32_t i = 0; i + 1 < t->count; i++)
        if (strcmp(t->names + t->entries[i].name_offset, name) == 0)
            return t->entries[i].address;
    return 0;
}

char symbol_type(const struct symbol_table *t, uint32_t i)
{
    uint32_t off = t->entries[i].name_offset;
    char type = off > 0 ? t->names[off - 1] : 0;
    return type == 'T' || type == 't' || type == 'W' || type == 'w' ? type : 't';
}
