/*
 * uprobe_elf.h - where a uprobe's file offset lands in a program (issue 18, uprobes).
 *
 * A uprobe names PATH:OFFSET, a byte of the file. This kernel loads every program at fixed
 * addresses (kernel/proc/elf.h: ET_EXEC where linked, static-pie at ELF_ET_DYN_BASE, no
 * randomisation), so the offset has one virtual address in every process running the file:
 * the address of the loadable segment whose file bytes hold it. A probe must be in an
 * executable segment; when a function of the file's symbol table (.symtab STT_FUNC) covers
 * it, it must also be where one of that function's instructions starts, decoding from the
 * function's first byte (the same rule as a kprobe at SYM+OFFS); and the instruction must be
 * one that can be single-stepped (insn_kprobe_refusal). Without a symbol covering it (a
 * stripped file), only the instruction at the offset is checked, as Linux checks only that.
 * Nothing in the file is trusted: every number is bounds-checked.
 * Portable: tests/unit/test_uprobe_elf.c.
 */
#ifndef TRACE_UPROBES_UPROBE_ELF_H
#define TRACE_UPROBES_UPROBE_ELF_H

#include <stdbool.h>
#include <stdint.h>

/* The address of file offset `offset` in a process running image (len bytes): 0 with
 * *vaddr set; -ENOEXEC with *why for a file this kernel does not load; -EINVAL with *why
 * when no loadable segment holds the offset in its file bytes (executable ones only when
 * executable is true). */
int uprobe_elf_address(const void *image, uint32_t len, uint32_t offset, bool executable,
                       uint32_t *vaddr, const char **why);

/* Whether a probe can go at file offset `offset`: 0 with *vaddr set, -EINVAL with *why
 * (not in an executable segment, past the file, an instruction that cannot be stepped or
 * decoded), -EILSEQ with *why when the offset falls inside an instruction of the function
 * covering it, -ENOEXEC for a file this kernel does not load. */
int uprobe_elf_check(const void *image, uint32_t len, uint32_t offset, uint32_t *vaddr,
                     const char **why);

#endif
