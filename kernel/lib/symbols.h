/*
 * symbols.h - names of the kernel's functions, for backtraces and tracers.
 *
 * The build links the kernel once, lists its function symbols with nm, and links again
 * with that list as a table (tools/mksyms.c writes it); the table sits at the end of the
 * image so adding it moves no function.
 * Portable: tests/unit/test_symbols.c runs the lookups over a table of its own.
 */
#ifndef KERNEL_LIB_SYMBOLS_H
#define KERNEL_LIB_SYMBOLS_H

#include <stdint.h>

struct symbol_entry {
    uint32_t address;
    uint32_t name_offset; /* into the string block */
};

struct symbol_table {
    uint32_t count;
    /* The kernel's table (tools/mksyms.c) puts each name's nm type letter (T, t, W, w) in
     * the byte before it; symbol_type reads it. */
    const struct symbol_entry *entries; /* sorted by address; the last one ends the text */
    const char *names;
};

/* The kernel's own table. */
const struct symbol_table *kernel_symbols(void);

/* The function containing addr: its name, and addr's offset and the function's size.
 * NULL when addr is outside every function. */
const char *symbol_lookup(const struct symbol_table *t, uint32_t addr, uint32_t *offset,
                          uint32_t *size);

/* Entry i's nm type letter in the kernel's table (T global, t local, W/w weak), as
 * /proc/kallsyms prints it; 't' when the byte before the name is not one. */
char symbol_type(const struct symbol_table *t, uint32_t i);

/* The address of the function called name, or 0. */
uint32_t symbol_address(const struct symbol_table *t, const char *name);

#endif
