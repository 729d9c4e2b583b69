/*
 * asm/bitsperlong.h - __BITS_PER_LONG, as Linux's i386 header gives it: user programs here
 * are 32-bit.
 */
#ifndef _ASM_BITSPERLONG_H
#define _ASM_BITSPERLONG_H

#define __BITS_PER_LONG 32
#define __BITS_PER_LONG_LONG 64

#endif
