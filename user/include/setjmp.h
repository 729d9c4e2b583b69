/*
 * setjmp.h - sigsetjmp/siglongjmp: leaving a signal handler (or any deep call) for a point
 * saved earlier, with the signal mask of that point when savemask was non-zero.
 */
#ifndef _SETJMP_H
#define _SETJMP_H

#include <signal.h>

/* EBX ESI EDI EBP ESP EIP, then whether the mask was saved, then the mask. */
typedef struct {
    unsigned long regs[6];
    int mask_saved;
    sigset_t mask;
} sigjmp_buf[1];

/* Returns 0 when called, and val (1 if val is 0) when siglongjmp comes back to it. */
int sigsetjmp(sigjmp_buf env, int savemask) __attribute__((returns_twice));
void siglongjmp(sigjmp_buf env, int val) __attribute__((noreturn));

#endif
