/*
 * fpu_exception.h - which floating-point error an #MF or #XM reports, as Linux's
 * fpu__exception_code decides it (arch/x86/fpu_exception.c). Portable: the caller reads the
 * x87 control/status words or MXCSR; the decision is unit-tested on the host.
 */
#ifndef ARCH_X86_FPU_EXCEPTION_H
#define ARCH_X86_FPU_EXCEPTION_H

#include <stdint.h>

#define VEC_X87_FPU_ERROR 16 /* #MF */
#define VEC_SIMD_FP_ERROR 19 /* #XM */
#define MXCSR_DEFAULT 0x1f80u /* every SIMD exception masked, none raised */

/* The si_code of SIGFPE for exception vector (#MF: cw and sw are the x87 control and
 * status words; #XM: mxcsr) from the first unmasked exception raised, in Linux's order:
 * invalid, divide by zero, overflow, underflow or denormal, precision. 0 when none is
 * raised and unmasked: a spurious exception, which sends no signal. */
int fpu_exception_code(uint32_t vector, uint16_t cw, uint16_t sw, uint32_t mxcsr);

#endif
