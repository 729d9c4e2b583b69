/*
 * ksyms.c - the kernel's own symbol table, generated at build time (tools/mksyms.c).
 */
#include "kernel/lib/symbols.h"

extern const uint32_t kernel_symbol_count;
extern const struct symbol_entry kernel_symbol_entries[];
extern const char kernel_symbol_names[];

const struct symbol_table *kernel_symbols(void)
{
    static struct symbol_table table;
    table.count = kernel_symbol_count;
    table.entries = kernel_symbol_entries;
    table.names = kernel_symbol_names;
    return &table;
}
