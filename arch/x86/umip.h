/*
 * umip.h - User-Mode Instruction Prevention: sgdt, sidt, sldt, smsw and str fault in ring 3
 * (CR4.UMIP) instead of showing where the kernel keeps its tables (arch/x86/umip.c).
 */
#ifndef ARCH_X86_UMIP_H
#define ARCH_X86_UMIP_H

#include <stdbool.h>

#include "arch/x86/trap.h"

/* Turns UMIP on when the CPU has it (CPUID.(EAX=7,ECX=0):ECX bit 2); says so either way. */
void umip_init(void);

/* True when UMIP is on. */
bool umip_enabled(void);

/* A #GP from ring 3: when UMIP caused it on sgdt, sidt, smsw, str or sldt, answers the
 * instruction with Linux's dummy values and skips it (true), or forces SIGSEGV/SEGV_MAPERR
 * when the result cannot be written (true as well). False for anything else (sgdt/sidt
 * with a register operand, a 0x67 prefix, an operand through a non-user segment): the #GP
 * then becomes SIGSEGV as any other. */
bool umip_emulate(struct trap_frame *tf);

#endif
