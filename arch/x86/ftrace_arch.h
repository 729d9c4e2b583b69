/*
 * ftrace_arch.h - x86's part of function tracing: the call sites and the trampolines.
 */
#ifndef ARCH_X86_FTRACE_ARCH_H
#define ARCH_X86_FTRACE_ARCH_H

#include <stdbool.h>
#include <stdint.h>

/* The trampolines (arch/x86/ftrace_entry.asm). */
void ftrace_caller(void);
void ftrace_stub(void);
void return_to_handler(void);

/* What every patched site calls: fn(site, parent_ip, &return address, caller's ebp). */
typedef void (*ftrace_func_t)(uint32_t ip, uint32_t parent_ip, uint32_t *parent_slot,
                              uint32_t fp);
extern volatile ftrace_func_t ftrace_trace_function;

/* True when site holds gcc's 5-byte NOP / a call to target. */
bool ftrace_site_is_nop(uint32_t site);
bool ftrace_site_calls(uint32_t site, uint32_t target);

/* Makes site `call target`, or the NOP again when target is 0, safely while code runs. */
void ftrace_site_patch(uint32_t site, uint32_t target);

/* If *eip is just after the int3 of a site being patched, moves it past the site and says
 * so: that int3 is the patcher's, not a breakpoint or a snapshot. */
bool ftrace_patching_int3(uint32_t *eip);

/* Installs the int3 handler the patching sequence relies on. */
void ftrace_arch_init(void);

#endif
