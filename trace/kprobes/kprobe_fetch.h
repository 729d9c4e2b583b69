/*
 * kprobe_fetch.h - what a parsed fetch arg (kprobe_parse.h) reads at a probe hit: the
 * value of an integer or symbol arg, or the address of a string arg's text.
 *
 * The probe hook describes the hit in a struct kp_site: the registers it knows (an ftrace
 * site saves only some), the stack pointer at the probed instruction, the return value of
 * a return probe, and a reader of kernel memory that fails instead of faulting (the kernel's
 * fault-catching copy; the host tests give a fake memory). Nothing here reads memory any
 * other way, so a hostile @ADDR or +OFFS() can only make a fetch fail.
 *
 * Linux's rules: a +OFFS(...) reads a 32-bit word (an i386 pointer) at the inner value plus
 * OFFS, except the outermost, which reads the arg's type's size; @ADDR and @SYM are one such
 * read at the address (the kernel side resolves @SYM into arg->addr + arg->offset at
 * creation, passed here as sym_addr); a register, $stack, $retval are the value itself;
 * $stackN is the word N*4 above the stack pointer, and $argN is $stackN in this kernel
 * (built without -mregparm: at a function's entry [sp] is the return address, the
 * arguments follow). A string arg's text is at the address the last read would read.
 * Values are cut to the type's size and sign-extended for s*.
 * Portable: tests/unit/test_kprobe_fetch.c.
 */
#ifndef TRACE_KPROBES_KPROBE_FETCH_H
#define TRACE_KPROBES_KPROBE_FETCH_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/kprobes/kprobe_parse.h"

struct kp_site {
    uint32_t regs[KP_NR_REGS]; /* indexed by enum kp_reg; regs[KP_REG_SP] is the stack pointer */
    uint32_t known_regs;       /* bit r: regs[r] holds the register's value at the hit */
    uint32_t retval;           /* a return probe's %ax at the return */
    bool has_retval;
    /* Copies len bytes at addr into buf; false (buf untouched or partly filled) when the
     * memory cannot be read. Must never fault. */
    bool (*read)(void *ctx, uint32_t addr, void *buf, uint32_t len);
    void *ctx;
};

enum kp_fetch_status {
    KP_FETCH_OK,
    KP_FETCH_FAULT,       /* a read failed: Linux records the arg as 0 (a string as "(fault)") */
    KP_FETCH_UNAVAILABLE, /* the site does not know this register or $retval */
};

/* The value of an integer or symbol arg, cut and extended to 64 bits as its type says.
 * sym_addr is @SYM's resolved address (ignored for other bases). */
enum kp_fetch_status kp_fetch_value(const struct kp_fetch_arg *arg, const struct kp_site *site,
                                    uint32_t sym_addr, uint64_t *value);

/* Where a string arg's text starts (not read here). $comm is the hook's business and gets
 * KP_FETCH_UNAVAILABLE. */
enum kp_fetch_status kp_fetch_string_addr(const struct kp_fetch_arg *arg,
                                          const struct kp_site *site, uint32_t sym_addr,
                                          uint32_t *addr);

/* Whether every register and value arg needs is one the site can know: a probe is refused
 * at creation (EINVAL) when its args need something its kind of site never saves. */
bool kp_fetch_possible(const struct kp_fetch_arg *arg, uint32_t known_regs, bool has_retval);

#endif
