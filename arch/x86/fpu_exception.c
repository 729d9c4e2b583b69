/*
 * fpu_exception.c - the si_code of an x87 or SIMD floating-point exception (see
 * fpu_exception.h). Portable: no CPU access.
 */
#include "arch/x86/fpu_exception.h"

#include "uapi/signal.h"

/* The exception flags of the status word and of MXCSR share one layout (bits 0-5: IE DE
 * ZE OE UE PE), and so do the x87 control word's and MXCSR's masks (shifted by 7 in
 * MXCSR): an exception counts when its flag is set and its mask bit clear. */
int fpu_exception_code(uint32_t vector, uint16_t cw, uint16_t sw, uint32_t mxcsr)
{
    uint32_t raised = vector == VEC_X87_FPU_ERROR ? (uint32_t)(sw & ~cw) : mxcsr & ~(mxcsr >> 7);
    if (raised & 0x01)
        return FPE_FLTINV;
    if (raised & 0x04)
        return FPE_FLTDIV;
    if (raised & 0x08)
        return FPE_FLTOVF;
    if (raised & 0x12)
        return FPE_FLTUND;
    if (raised & 0x20)
        return FPE_FLTRES;
    return 0;
}
