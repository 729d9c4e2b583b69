/*
 * test_mmio_decode.c - the decoder of instructions that fault on MMIO (arch/x86/mmio_decode.c).
 *
 * Every supported form is here as GNU as encodes it (the byte strings were produced with
 * `as --32` and checked against `objdump -d`; the few that as will not emit, such as
 * F6 /1 or a SIB byte with no index, were hand-encoded and checked with objdump), with the
 * operand the decoder must report. Each case is decoded from an exactly sized heap copy, so
 * under AddressSanitizer a read past `avail` fails the test.
 */
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

#include "arch/x86/mmio_decode.h"

#define EAX MMIO_EAX
#define ECX MMIO_ECX
#define EDX MMIO_EDX
#define EBX MMIO_EBX
#define ESP MMIO_ESP
#define EBP MMIO_EBP
#define ESI MMIO_ESI
#define EDI MMIO_EDI
#define NOREG MMIO_NOREG

enum { R = 1, W = 2, RW = 3 };

/* One instruction with one ModRM or moffs memory operand. */
struct mem_case {
    const char *text;   /* what it is, in AT&T syntax */
    const char *hex;    /* its bytes; the whole string is one instruction */
    uint8_t access, width;
    int8_t base, index;
    uint8_t scale;
    int32_t disp;
    int8_t bitreg;
};

static const struct mem_case mem_cases[] = {
    { "movb %al,(%eax)", "88 00", W, 1, EAX, NOREG, 1, 0, NOREG },
    { "movl %eax,0x10(%ebx,%ecx,4)", "89 44 8b 10", W, 4, EBX, ECX, 4, 0x10, NOREG },
    { "movw %ax,-0x80(%ebp)", "66 89 45 80", W, 2, EBP, NOREG, 1, -0x80, NOREG },
    { "movb (%esi),%cl", "8a 0e", R, 1, ESI, NOREG, 1, 0, NOREG },
    { "movl 0x12345678(%edi),%edx", "8b 97 78 56 34 12", R, 4, EDI, NOREG, 1, 0x12345678, NOREG },
    { "movw (%esp),%bx", "66 8b 1c 24", R, 2, ESP, NOREG, 1, 0, NOREG },
    { "movl (%ebp),%eax", "8b 45 00", R, 4, EBP, NOREG, 1, 0, NOREG },
    { "movl -0x1000(%eax),%eax", "8b 80 00 f0 ff ff", R, 4, EAX, NOREG, 1, -0x1000, NOREG },
    { "movl %ebx,0x1000", "89 1d 00 10 00 00", W, 4, NOREG, NOREG, 1, 0x1000, NOREG },
    { "movl 0x8(%ebp,%eax,2),%ecx", "8b 4c 45 08", R, 4, EBP, EAX, 2, 0x8, NOREG },
    { "movl 0x80(%ebp,%edx,1),%ecx", "8b 8c 15 80 00 00 00", R, 4, EBP, EDX, 1, 0x80, NOREG },
    { "movl (%eax,%eax,1),%ecx", "8b 0c 00", R, 4, EAX, EAX, 1, 0, NOREG },
    { "movl -4(%esi,%edi,8),%ecx", "8b 4c fe fc", R, 4, ESI, EDI, 8, -0x4, NOREG },
    { "movl (,%eax,2),%ecx", "8b 0c 45 00 00 00 00", R, 4, NOREG, EAX, 2, 0, NOREG },
    { "movl (%esp,%eiz,2),%eax", "8b 04 64", R, 4, ESP, NOREG, 1, 0, NOREG },
    { "movl 0x10(,%eiz,1),%eax", "8b 04 25 10 00 00 00", R, 4, NOREG, NOREG, 1, 0x10, NOREG },
    { "movb $0x12,(%ecx)", "c6 01 12", W, 1, ECX, NOREG, 1, 0, NOREG },
    { "movl $0x12345678,0x100(,%ecx,4)", "c7 04 8d 00 01 00 00 78 56 34 12", W, 4, NOREG, ECX, 4, 0x100, NOREG },
    { "movw $0x1234,(%eax)", "66 c7 00 34 12", W, 2, EAX, NOREG, 1, 0, NOREG },
    { "movl $1,-4(%ebp)", "c7 45 fc 01 00 00 00", W, 4, EBP, NOREG, 1, -0x4, NOREG },
    { "movl $0x12345678,0x12345678(%eax,%ebx,8)", "c7 84 d8 78 56 34 12 78 56 34 12", W, 4, EAX, EBX, 8, 0x12345678, NOREG },
    { "movw $0xabcd,0x100(,%ecx,4)", "66 c7 04 8d 00 01 00 00 cd ab", W, 2, NOREG, ECX, 4, 0x100, NOREG },
    { "movb $0xff,0x7f(%esp)", "c6 44 24 7f ff", W, 1, ESP, NOREG, 1, 0x7f, NOREG },
    { "movb 0x1000,%al", "a0 00 10 00 00", R, 1, NOREG, NOREG, 1, 0x1000, NOREG },
    { "movl 0xfee00020,%eax", "a1 20 00 e0 fe", R, 4, NOREG, NOREG, 1, (int32_t)0xfee00020, NOREG },
    { "movw 0x1000,%ax", "66 a1 00 10 00 00", R, 2, NOREG, NOREG, 1, 0x1000, NOREG },
    { "movb %al,0x1000", "a2 00 10 00 00", W, 1, NOREG, NOREG, 1, 0x1000, NOREG },
    { "movl %eax,0xfebf0000", "a3 00 00 bf fe", W, 4, NOREG, NOREG, 1, (int32_t)0xfebf0000, NOREG },
    { "movw %ax,0x2000", "66 a3 00 20 00 00", W, 2, NOREG, NOREG, 1, 0x2000, NOREG },
    { "movzbl (%eax),%ecx", "0f b6 08", R, 1, EAX, NOREG, 1, 0, NOREG },
    { "movzwl 4(%eax),%ecx", "0f b7 48 04", R, 2, EAX, NOREG, 1, 0x4, NOREG },
    { "movzbw (%eax),%cx", "66 0f b6 08", R, 1, EAX, NOREG, 1, 0, NOREG },
    { "movzww (%eax),%cx", "66 0f b7 08", R, 2, EAX, NOREG, 1, 0, NOREG },
    { "movsbl (%ebx),%ecx", "0f be 0b", R, 1, EBX, NOREG, 1, 0, NOREG },
    { "movswl 0x10(%ebx),%ecx", "0f bf 4b 10", R, 2, EBX, NOREG, 1, 0x10, NOREG },
    { "movsbw (%ebx),%cx", "66 0f be 0b", R, 1, EBX, NOREG, 1, 0, NOREG },
    { "movntil %eax,(%ebx)", "0f c3 03", W, 4, EBX, NOREG, 1, 0, NOREG },
    { "addb %al,(%ebx)", "00 03", RW, 1, EBX, NOREG, 1, 0, NOREG },
    { "addl %eax,0x10(%ebx)", "01 43 10", RW, 4, EBX, NOREG, 1, 0x10, NOREG },
    { "addw %ax,(%ebx)", "66 01 03", RW, 2, EBX, NOREG, 1, 0, NOREG },
    { "addb (%ebx),%al", "02 03", R, 1, EBX, NOREG, 1, 0, NOREG },
    { "addl (%ebx,%esi,4),%eax", "03 04 b3", R, 4, EBX, ESI, 4, 0, NOREG },
    { "addw (%ebx),%ax", "66 03 03", R, 2, EBX, NOREG, 1, 0, NOREG },
    { "addb $0x12,(%eax)", "80 00 12", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "addl $0x12345678,(%eax)", "81 00 78 56 34 12", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "addw $0x1234,(%eax)", "66 81 00 34 12", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "addl $0x7f,8(%eax)", "83 40 08 7f", RW, 4, EAX, NOREG, 1, 0x8, NOREG },
    { "addw $-1,(%eax)", "66 83 00 ff", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "orb %al,(%ebx)", "08 03", RW, 1, EBX, NOREG, 1, 0, NOREG },
    { "orl %eax,0x10(%ebx)", "09 43 10", RW, 4, EBX, NOREG, 1, 0x10, NOREG },
    { "orw %ax,(%ebx)", "66 09 03", RW, 2, EBX, NOREG, 1, 0, NOREG },
    { "orb (%ebx),%al", "0a 03", R, 1, EBX, NOREG, 1, 0, NOREG },
    { "orl (%ebx,%esi,4),%eax", "0b 04 b3", R, 4, EBX, ESI, 4, 0, NOREG },
    { "orw (%ebx),%ax", "66 0b 03", R, 2, EBX, NOREG, 1, 0, NOREG },
    { "orb $0x12,(%eax)", "80 08 12", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "orl $0x12345678,(%eax)", "81 08 78 56 34 12", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "orw $0x1234,(%eax)", "66 81 08 34 12", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "orl $0x7f,8(%eax)", "83 48 08 7f", RW, 4, EAX, NOREG, 1, 0x8, NOREG },
    { "orw $-1,(%eax)", "66 83 08 ff", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "adcb %al,(%ebx)", "10 03", RW, 1, EBX, NOREG, 1, 0, NOREG },
    { "adcl %eax,0x10(%ebx)", "11 43 10", RW, 4, EBX, NOREG, 1, 0x10, NOREG },
    { "adcw %ax,(%ebx)", "66 11 03", RW, 2, EBX, NOREG, 1, 0, NOREG },
    { "adcb (%ebx),%al", "12 03", R, 1, EBX, NOREG, 1, 0, NOREG },
    { "adcl (%ebx,%esi,4),%eax", "13 04 b3", R, 4, EBX, ESI, 4, 0, NOREG },
    { "adcw (%ebx),%ax", "66 13 03", R, 2, EBX, NOREG, 1, 0, NOREG },
    { "adcb $0x12,(%eax)", "80 10 12", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "adcl $0x12345678,(%eax)", "81 10 78 56 34 12", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "adcw $0x1234,(%eax)", "66 81 10 34 12", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "adcl $0x7f,8(%eax)", "83 50 08 7f", RW, 4, EAX, NOREG, 1, 0x8, NOREG },
    { "adcw $-1,(%eax)", "66 83 10 ff", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "sbbb %al,(%ebx)", "18 03", RW, 1, EBX, NOREG, 1, 0, NOREG },
    { "sbbl %eax,0x10(%ebx)", "19 43 10", RW, 4, EBX, NOREG, 1, 0x10, NOREG },
    { "sbbw %ax,(%ebx)", "66 19 03", RW, 2, EBX, NOREG, 1, 0, NOREG },
    { "sbbb (%ebx),%al", "1a 03", R, 1, EBX, NOREG, 1, 0, NOREG },
    { "sbbl (%ebx,%esi,4),%eax", "1b 04 b3", R, 4, EBX, ESI, 4, 0, NOREG },
    { "sbbw (%ebx),%ax", "66 1b 03", R, 2, EBX, NOREG, 1, 0, NOREG },
    { "sbbb $0x12,(%eax)", "80 18 12", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "sbbl $0x12345678,(%eax)", "81 18 78 56 34 12", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "sbbw $0x1234,(%eax)", "66 81 18 34 12", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "sbbl $0x7f,8(%eax)", "83 58 08 7f", RW, 4, EAX, NOREG, 1, 0x8, NOREG },
    { "sbbw $-1,(%eax)", "66 83 18 ff", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "andb %al,(%ebx)", "20 03", RW, 1, EBX, NOREG, 1, 0, NOREG },
    { "andl %eax,0x10(%ebx)", "21 43 10", RW, 4, EBX, NOREG, 1, 0x10, NOREG },
    { "andw %ax,(%ebx)", "66 21 03", RW, 2, EBX, NOREG, 1, 0, NOREG },
    { "andb (%ebx),%al", "22 03", R, 1, EBX, NOREG, 1, 0, NOREG },
    { "andl (%ebx,%esi,4),%eax", "23 04 b3", R, 4, EBX, ESI, 4, 0, NOREG },
    { "andw (%ebx),%ax", "66 23 03", R, 2, EBX, NOREG, 1, 0, NOREG },
    { "andb $0x12,(%eax)", "80 20 12", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "andl $0x12345678,(%eax)", "81 20 78 56 34 12", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "andw $0x1234,(%eax)", "66 81 20 34 12", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "andl $0x7f,8(%eax)", "83 60 08 7f", RW, 4, EAX, NOREG, 1, 0x8, NOREG },
    { "andw $-1,(%eax)", "66 83 20 ff", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "subb %al,(%ebx)", "28 03", RW, 1, EBX, NOREG, 1, 0, NOREG },
    { "subl %eax,0x10(%ebx)", "29 43 10", RW, 4, EBX, NOREG, 1, 0x10, NOREG },
    { "subw %ax,(%ebx)", "66 29 03", RW, 2, EBX, NOREG, 1, 0, NOREG },
    { "subb (%ebx),%al", "2a 03", R, 1, EBX, NOREG, 1, 0, NOREG },
    { "subl (%ebx,%esi,4),%eax", "2b 04 b3", R, 4, EBX, ESI, 4, 0, NOREG },
    { "subw (%ebx),%ax", "66 2b 03", R, 2, EBX, NOREG, 1, 0, NOREG },
    { "subb $0x12,(%eax)", "80 28 12", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "subl $0x12345678,(%eax)", "81 28 78 56 34 12", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "subw $0x1234,(%eax)", "66 81 28 34 12", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "subl $0x7f,8(%eax)", "83 68 08 7f", RW, 4, EAX, NOREG, 1, 0x8, NOREG },
    { "subw $-1,(%eax)", "66 83 28 ff", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "xorb %al,(%ebx)", "30 03", RW, 1, EBX, NOREG, 1, 0, NOREG },
    { "xorl %eax,0x10(%ebx)", "31 43 10", RW, 4, EBX, NOREG, 1, 0x10, NOREG },
    { "xorw %ax,(%ebx)", "66 31 03", RW, 2, EBX, NOREG, 1, 0, NOREG },
    { "xorb (%ebx),%al", "32 03", R, 1, EBX, NOREG, 1, 0, NOREG },
    { "xorl (%ebx,%esi,4),%eax", "33 04 b3", R, 4, EBX, ESI, 4, 0, NOREG },
    { "xorw (%ebx),%ax", "66 33 03", R, 2, EBX, NOREG, 1, 0, NOREG },
    { "xorb $0x12,(%eax)", "80 30 12", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "xorl $0x12345678,(%eax)", "81 30 78 56 34 12", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "xorw $0x1234,(%eax)", "66 81 30 34 12", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "xorl $0x7f,8(%eax)", "83 70 08 7f", RW, 4, EAX, NOREG, 1, 0x8, NOREG },
    { "xorw $-1,(%eax)", "66 83 30 ff", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "cmpb %al,(%ebx)", "38 03", R, 1, EBX, NOREG, 1, 0, NOREG },
    { "cmpl %eax,0x10(%ebx)", "39 43 10", R, 4, EBX, NOREG, 1, 0x10, NOREG },
    { "cmpw %ax,(%ebx)", "66 39 03", R, 2, EBX, NOREG, 1, 0, NOREG },
    { "cmpb (%ebx),%al", "3a 03", R, 1, EBX, NOREG, 1, 0, NOREG },
    { "cmpl (%ebx,%esi,4),%eax", "3b 04 b3", R, 4, EBX, ESI, 4, 0, NOREG },
    { "cmpw (%ebx),%ax", "66 3b 03", R, 2, EBX, NOREG, 1, 0, NOREG },
    { "cmpb $0x12,(%eax)", "80 38 12", R, 1, EAX, NOREG, 1, 0, NOREG },
    { "cmpl $0x12345678,(%eax)", "81 38 78 56 34 12", R, 4, EAX, NOREG, 1, 0, NOREG },
    { "cmpw $0x1234,(%eax)", "66 81 38 34 12", R, 2, EAX, NOREG, 1, 0, NOREG },
    { "cmpl $0x7f,8(%eax)", "83 78 08 7f", R, 4, EAX, NOREG, 1, 0x8, NOREG },
    { "cmpw $-1,(%eax)", "66 83 38 ff", R, 2, EAX, NOREG, 1, 0, NOREG },
    { "orb $1,4(%esp)", "80 4c 24 04 01", RW, 1, ESP, NOREG, 1, 0x4, NOREG },
    { "cmpl $0x100,0x100(,%ecx,4)", "81 3c 8d 00 01 00 00 00 01 00 00", R, 4, NOREG, ECX, 4, 0x100, NOREG },
    { "subl $-0x80,0x12345678", "83 2d 78 56 34 12 80", RW, 4, NOREG, NOREG, 1, 0x12345678, NOREG },
    { "testb %al,(%ebx)", "84 03", R, 1, EBX, NOREG, 1, 0, NOREG },
    { "testl %eax,(%ebx)", "85 03", R, 4, EBX, NOREG, 1, 0, NOREG },
    { "testw %ax,(%ebx)", "66 85 03", R, 2, EBX, NOREG, 1, 0, NOREG },
    { "testb $0x80,(%eax)", "f6 00 80", R, 1, EAX, NOREG, 1, 0, NOREG },
    { "testl $0x10000,(%eax)", "f7 00 00 00 01 00", R, 4, EAX, NOREG, 1, 0, NOREG },
    { "testw $0x8000,(%eax)", "66 f7 00 00 80", R, 2, EAX, NOREG, 1, 0, NOREG },
    { "testb $0x12,(%eax) /1", "f6 08 12", R, 1, EAX, NOREG, 1, 0, NOREG },
    { "testl $0x12345678,(%eax) /1", "f7 08 78 56 34 12", R, 4, EAX, NOREG, 1, 0, NOREG },
    { "notb (%eax)", "f6 10", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "notl 0x10(%eax)", "f7 50 10", RW, 4, EAX, NOREG, 1, 0x10, NOREG },
    { "notw (%eax)", "66 f7 10", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "negb (%eax)", "f6 18", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "negl 0x10(%eax)", "f7 58 10", RW, 4, EAX, NOREG, 1, 0x10, NOREG },
    { "negw (%eax)", "66 f7 18", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "mulb (%eax)", "f6 20", R, 1, EAX, NOREG, 1, 0, NOREG },
    { "mull 0x10(%eax)", "f7 60 10", R, 4, EAX, NOREG, 1, 0x10, NOREG },
    { "mulw (%eax)", "66 f7 20", R, 2, EAX, NOREG, 1, 0, NOREG },
    { "imulb (%eax)", "f6 28", R, 1, EAX, NOREG, 1, 0, NOREG },
    { "imull 0x10(%eax)", "f7 68 10", R, 4, EAX, NOREG, 1, 0x10, NOREG },
    { "imulw (%eax)", "66 f7 28", R, 2, EAX, NOREG, 1, 0, NOREG },
    { "divb (%eax)", "f6 30", R, 1, EAX, NOREG, 1, 0, NOREG },
    { "divl 0x10(%eax)", "f7 70 10", R, 4, EAX, NOREG, 1, 0x10, NOREG },
    { "divw (%eax)", "66 f7 30", R, 2, EAX, NOREG, 1, 0, NOREG },
    { "idivb (%eax)", "f6 38", R, 1, EAX, NOREG, 1, 0, NOREG },
    { "idivl 0x10(%eax)", "f7 78 10", R, 4, EAX, NOREG, 1, 0x10, NOREG },
    { "idivw (%eax)", "66 f7 38", R, 2, EAX, NOREG, 1, 0, NOREG },
    { "incb (%eax)", "fe 00", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "decb (%eax)", "fe 08", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "incl (%eax)", "ff 00", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "decl 4(%eax)", "ff 48 04", RW, 4, EAX, NOREG, 1, 0x4, NOREG },
    { "incw (%eax)", "66 ff 00", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "decw (%eax)", "66 ff 08", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "xchgb %al,(%ebx)", "86 03", RW, 1, EBX, NOREG, 1, 0, NOREG },
    { "xchgl %eax,(%ebx)", "87 03", RW, 4, EBX, NOREG, 1, 0, NOREG },
    { "xchgw %ax,(%ebx)", "66 87 03", RW, 2, EBX, NOREG, 1, 0, NOREG },
    { "xchgl (%ebx),%eax /8B", "87 03", RW, 4, EBX, NOREG, 1, 0, NOREG },
    { "cmpxchgb %cl,(%ebx)", "0f b0 0b", RW, 1, EBX, NOREG, 1, 0, NOREG },
    { "cmpxchgl %ecx,(%ebx)", "0f b1 0b", RW, 4, EBX, NOREG, 1, 0, NOREG },
    { "cmpxchgw %cx,(%ebx)", "66 0f b1 0b", RW, 2, EBX, NOREG, 1, 0, NOREG },
    { "lock cmpxchgl %ecx,(%ebx)", "f0 0f b1 0b", RW, 4, EBX, NOREG, 1, 0, NOREG },
    { "xaddb %cl,(%ebx)", "0f c0 0b", RW, 1, EBX, NOREG, 1, 0, NOREG },
    { "xaddl %ecx,(%ebx)", "0f c1 0b", RW, 4, EBX, NOREG, 1, 0, NOREG },
    { "xaddw %cx,(%ebx)", "66 0f c1 0b", RW, 2, EBX, NOREG, 1, 0, NOREG },
    { "lock xaddl %ecx,(%ebx)", "f0 0f c1 0b", RW, 4, EBX, NOREG, 1, 0, NOREG },
    { "rolb $3,(%eax)", "c0 00 03", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "roll $3,(%eax)", "c1 00 03", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "rolw $3,(%eax)", "66 c1 00 03", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "rolb (%eax)", "d0 00", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "roll 4(%eax)", "d1 40 04", RW, 4, EAX, NOREG, 1, 0x4, NOREG },
    { "rolw (%eax)", "66 d1 00", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "rolb %cl,(%eax)", "d2 00", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "roll %cl,(%eax)", "d3 00", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "rolw %cl,(%eax)", "66 d3 00", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "rorb $3,(%eax)", "c0 08 03", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "rorl $3,(%eax)", "c1 08 03", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "rorw $3,(%eax)", "66 c1 08 03", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "rorb (%eax)", "d0 08", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "rorl 4(%eax)", "d1 48 04", RW, 4, EAX, NOREG, 1, 0x4, NOREG },
    { "rorw (%eax)", "66 d1 08", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "rorb %cl,(%eax)", "d2 08", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "rorl %cl,(%eax)", "d3 08", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "rorw %cl,(%eax)", "66 d3 08", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "rclb $3,(%eax)", "c0 10 03", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "rcll $3,(%eax)", "c1 10 03", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "rclw $3,(%eax)", "66 c1 10 03", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "rclb (%eax)", "d0 10", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "rcll 4(%eax)", "d1 50 04", RW, 4, EAX, NOREG, 1, 0x4, NOREG },
    { "rclw (%eax)", "66 d1 10", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "rclb %cl,(%eax)", "d2 10", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "rcll %cl,(%eax)", "d3 10", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "rclw %cl,(%eax)", "66 d3 10", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "rcrb $3,(%eax)", "c0 18 03", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "rcrl $3,(%eax)", "c1 18 03", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "rcrw $3,(%eax)", "66 c1 18 03", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "rcrb (%eax)", "d0 18", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "rcrl 4(%eax)", "d1 58 04", RW, 4, EAX, NOREG, 1, 0x4, NOREG },
    { "rcrw (%eax)", "66 d1 18", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "rcrb %cl,(%eax)", "d2 18", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "rcrl %cl,(%eax)", "d3 18", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "rcrw %cl,(%eax)", "66 d3 18", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "shlb $3,(%eax)", "c0 20 03", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "shll $3,(%eax)", "c1 20 03", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "shlw $3,(%eax)", "66 c1 20 03", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "shlb (%eax)", "d0 20", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "shll 4(%eax)", "d1 60 04", RW, 4, EAX, NOREG, 1, 0x4, NOREG },
    { "shlw (%eax)", "66 d1 20", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "shlb %cl,(%eax)", "d2 20", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "shll %cl,(%eax)", "d3 20", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "shlw %cl,(%eax)", "66 d3 20", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "shrb $3,(%eax)", "c0 28 03", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "shrl $3,(%eax)", "c1 28 03", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "shrw $3,(%eax)", "66 c1 28 03", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "shrb (%eax)", "d0 28", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "shrl 4(%eax)", "d1 68 04", RW, 4, EAX, NOREG, 1, 0x4, NOREG },
    { "shrw (%eax)", "66 d1 28", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "shrb %cl,(%eax)", "d2 28", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "shrl %cl,(%eax)", "d3 28", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "shrw %cl,(%eax)", "66 d3 28", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "sarb $3,(%eax)", "c0 38 03", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "sarl $3,(%eax)", "c1 38 03", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "sarw $3,(%eax)", "66 c1 38 03", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "sarb (%eax)", "d0 38", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "sarl 4(%eax)", "d1 78 04", RW, 4, EAX, NOREG, 1, 0x4, NOREG },
    { "sarw (%eax)", "66 d1 38", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "sarb %cl,(%eax)", "d2 38", RW, 1, EAX, NOREG, 1, 0, NOREG },
    { "sarl %cl,(%eax)", "d3 38", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "sarw %cl,(%eax)", "66 d3 38", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "shll $3,0x100(,%ecx,4)", "c1 24 8d 00 01 00 00 03", RW, 4, NOREG, ECX, 4, 0x100, NOREG },
    { "btl %eax,(%ebx)", "0f a3 03", R, 4, EBX, NOREG, 1, 0, EAX },
    { "btsl %ecx,(%ebx)", "0f ab 0b", RW, 4, EBX, NOREG, 1, 0, ECX },
    { "btrl %edx,0x10(%ebx)", "0f b3 53 10", RW, 4, EBX, NOREG, 1, 0x10, EDX },
    { "btcl %edi,(%ebx)", "0f bb 3b", RW, 4, EBX, NOREG, 1, 0, EDI },
    { "btw %ax,(%ebx)", "66 0f a3 03", R, 2, EBX, NOREG, 1, 0, EAX },
    { "btsw %si,(%ebx)", "66 0f ab 33", RW, 2, EBX, NOREG, 1, 0, ESI },
    { "lock btsl %eax,-4(%ebp)", "f0 0f ab 45 fc", RW, 4, EBP, NOREG, 1, -0x4, EAX },
    { "btl $3,(%eax)", "0f ba 20 03", R, 4, EAX, NOREG, 1, 0, NOREG },
    { "btsl $31,(%eax)", "0f ba 28 1f", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "btrl $0,(%eax)", "0f ba 30 00", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "btcl $7,(%eax)", "0f ba 38 07", RW, 4, EAX, NOREG, 1, 0, NOREG },
    { "btw $15,(%eax)", "66 0f ba 20 0f", R, 2, EAX, NOREG, 1, 0, NOREG },
    { "lock btrl $1,0x100(,%ecx,4)", "f0 0f ba 34 8d 00 01 00 00 01", RW, 4, NOREG, ECX, 4, 0x100, NOREG },
    { "imull $0x12345678,(%eax),%ecx", "69 08 78 56 34 12", R, 4, EAX, NOREG, 1, 0, NOREG },
    { "imulw $0x1234,(%eax),%cx", "66 69 08 34 12", R, 2, EAX, NOREG, 1, 0, NOREG },
    { "imull $3,(%eax),%ecx", "6b 08 03", R, 4, EAX, NOREG, 1, 0, NOREG },
    { "imulw $-3,(%eax),%cx", "66 6b 08 fd", R, 2, EAX, NOREG, 1, 0, NOREG },
    { "imull (%eax),%ecx", "0f af 08", R, 4, EAX, NOREG, 1, 0, NOREG },
    { "imulw (%eax),%cx", "66 0f af 08", R, 2, EAX, NOREG, 1, 0, NOREG },
    { "popl (%eax)", "8f 00", W, 4, EAX, NOREG, 1, 0, NOREG },
    { "popw (%eax)", "66 8f 00", W, 2, EAX, NOREG, 1, 0, NOREG },
    { "popl 4(%esp)", "8f 44 24 04", W, 4, ESP, NOREG, 1, 0x8, NOREG },
    { "popl (%esp)", "8f 04 24", W, 4, ESP, NOREG, 1, 0x4, NOREG },
    { "popw 2(%esp)", "66 8f 44 24 02", W, 2, ESP, NOREG, 1, 0x4, NOREG },
    { "popl 0x10(%esp,%eax,2)", "8f 44 44 10", W, 4, ESP, EAX, 2, 0x14, NOREG },
    { "popl -4(%ebp)", "8f 45 fc", W, 4, EBP, NOREG, 1, -0x4, NOREG },
    { "lock cs addw %bx,(%eax)", "f0 66 2e 01 18", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "cs ss lock data16 addw $1,(%eax)", "2e 36 f0 66 83 00 01", RW, 2, EAX, NOREG, 1, 0, NOREG },
    { "es es es movl (%eax),%eax", "26 26 26 8b 00", R, 4, EAX, NOREG, 1, 0, NOREG },
    { "fs data16 movw $0x1234,(%eax)", "64 66 c7 00 34 12", W, 2, EAX, NOREG, 1, 0, NOREG },
    { "data16 data16 movw %ax,(%eax)", "66 66 89 00", W, 2, EAX, NOREG, 1, 0, NOREG },
    { "xacquire lock addl %eax,(%ebx)", "f2 f0 01 03", RW, 4, EBX, NOREG, 1, 0, NOREG },
    { "xrelease movl $1,(%eax)", "f3 c7 00 01 00 00 00", W, 4, EAX, NOREG, 1, 0, NOREG },
    { "rep movl (%eax),%eax (rep ignored)", "f3 8b 00", R, 4, EAX, NOREG, 1, 0, NOREG },
    { "gs movl 0x10,%eax (moffs)", "65 a1 10 00 00 00", R, 4, NOREG, NOREG, 1, 0x10, NOREG },
    { "13 ds + movl (%eax),%eax = 15 bytes", "3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 8b 00", R, 4, EAX, NOREG, 1, 0, NOREG },
    { "4 prefixes + 11-byte movl = 15 bytes", "3e 3e 3e 3e c7 84 d8 78 56 34 12 78 56 34 12", W, 4, EAX, EBX, 8, 0x12345678, NOREG },
};

/* One string instruction: its operands are [ESI] and/or [EDI]. */
struct string_case {
    const char *text;
    const char *hex;
    uint8_t width, rep, noperands;
    struct { int8_t reg; uint8_t access; } op[2];
};

static const struct string_case string_cases[] = {
    { "movsb", "a4", 1, 0x00, 2, {{ESI, R}, {EDI, W}} },
    { "movsl", "a5", 4, 0x00, 2, {{ESI, R}, {EDI, W}} },
    { "movsw", "66 a5", 2, 0x00, 2, {{ESI, R}, {EDI, W}} },
    { "rep movsl", "f3 a5", 4, 0xf3, 2, {{ESI, R}, {EDI, W}} },
    { "rep movsb", "f3 a4", 1, 0xf3, 2, {{ESI, R}, {EDI, W}} },
    { "rep movsw (66 after f3)", "f3 66 a5", 2, 0xf3, 2, {{ESI, R}, {EDI, W}} },
    { "ds data16 rep movsw", "3e 66 f3 a5", 2, 0xf3, 2, {{ESI, R}, {EDI, W}} },
    { "cmpsb", "a6", 1, 0x00, 2, {{ESI, R}, {EDI, R}} },
    { "cmpsl", "a7", 4, 0x00, 2, {{ESI, R}, {EDI, R}} },
    { "cmpsw", "66 a7", 2, 0x00, 2, {{ESI, R}, {EDI, R}} },
    { "repe cmpsl", "f3 a7", 4, 0xf3, 2, {{ESI, R}, {EDI, R}} },
    { "repne cmpsb", "f2 a6", 1, 0xf2, 2, {{ESI, R}, {EDI, R}} },
    { "stosb", "aa", 1, 0x00, 1, {{EDI, W}} },
    { "stosl", "ab", 4, 0x00, 1, {{EDI, W}} },
    { "stosw", "66 ab", 2, 0x00, 1, {{EDI, W}} },
    { "rep stosl", "f3 ab", 4, 0xf3, 1, {{EDI, W}} },
    { "lodsb", "ac", 1, 0x00, 1, {{ESI, R}} },
    { "lodsl", "ad", 4, 0x00, 1, {{ESI, R}} },
    { "lodsw", "66 ad", 2, 0x00, 1, {{ESI, R}} },
    { "rep lodsb", "f3 ac", 1, 0xf3, 1, {{ESI, R}} },
    { "fs lodsl (segment override ignored)", "64 ad", 4, 0x00, 1, {{ESI, R}} },
    { "scasb", "ae", 1, 0x00, 1, {{EDI, R}} },
    { "scasl", "af", 4, 0x00, 1, {{EDI, R}} },
    { "scasw", "66 af", 2, 0x00, 1, {{EDI, R}} },
    { "repne scasb", "f2 ae", 1, 0xf2, 1, {{EDI, R}} },
    { "repe scasl", "f3 af", 4, 0xf3, 1, {{EDI, R}} },
    { "14 prefixes + movsb = 15 bytes", "3e 26 3e 26 3e 26 3e 26 3e 26 3e 26 3e 26 a4", 1, 0x00, 2, {{ESI, R}, {EDI, W}} },
    { "rep rep rep stosb", "f3 f3 f3 aa", 1, 0xf3, 1, {{EDI, W}} },
};

/* One instruction the decoder must refuse, and the length it must still report (0: none). */
struct refused_case {
    const char *text;
    const char *hex;
    uint8_t length;
};

static const struct refused_case refused_cases[] = {
    { "addr16 movl (%bx,%si),%eax", "67 8b 00", 0 },
    { "addr16 movl 0x1000,%eax (moffs16)", "67 a1 00 10", 0 },
    { "movl %eax,%ebx", "89 c3", 2 },
    { "movl $0x12345678,%eax /C7", "c7 c0 78 56 34 12", 6 },
    { "addl $0x12345678,%ebx", "81 c3 78 56 34 12", 6 },
    { "shll $3,%eax", "c1 e0 03", 3 },
    { "incl %eax /FF", "ff c0", 2 },
    { "btl %eax,%ebx", "0f a3 c3", 3 },
    { "btl $3,%ebx", "0f ba e3 03", 4 },
    { "movzbl %al,%ecx", "0f b6 c8", 3 },
    { "popl %eax /8F", "8f c0", 2 },
    { "notl %eax", "f7 d0", 2 },
    { "testl $1,%eax /F7", "f7 c0 01 00 00 00", 6 },
    { "addb $0x12,%al", "04 12", 0 },
    { "addl $0x12345678,%eax", "05 78 56 34 12", 0 },
    { "cmpb $1,%al", "3c 01", 0 },
    { "testl $1,%eax /A9", "a9 01 00 00 00", 0 },
    { "call *(%eax)", "ff 10", 0 },
    { "jmp *(%eax)", "ff 20", 0 },
    { "pushl (%eax)", "ff 30", 0 },
    { "lcall *(%eax)", "ff 18", 0 },
    { "ljmp *(%eax)", "ff 28", 0 },
    { "FF /7", "ff 38", 0 },
    { "FE /2", "fe 10", 0 },
    { "8F /1", "8f 08", 0 },
    { "C6 /1", "c6 08 12", 0 },
    { "C7 /2", "c7 10 00 00 00 00 00", 0 },
    { "sal /6 C1", "c1 30 03", 0 },
    { "sal /6 D0", "d0 30", 0 },
    { "82 /0 (alias of 80)", "82 00 01", 0 },
    { "0F BA /0", "0f ba 00 03", 0 },
    { "0F BA /3", "0f ba 18 03", 0 },
    { "movw %es,(%eax)", "8c 00", 0 },
    { "movw (%eax),%es", "8e 00", 0 },
    { "cmpxchg8b (%eax)", "0f c7 08", 0 },
    { "leal (%eax),%eax", "8d 00", 0 },
    { "pushl %eax", "50", 0 },
    { "nop", "90", 0 },
    { "movl %cr0,%eax", "0f 20 c0", 0 },
    { "ret", "c3", 0 },
    { "movd (%eax),%mm0", "0f 6e 00", 0 },
    { "ds addr16 movl (%bx,%si),%eax", "3e 67 8b 00", 0 },
    { "lock movl %eax,(%ebx)", "f0 89 03", 3 },
    { "lock cmpl %eax,(%ebx)", "f0 39 03", 3 },
    { "lock addl (%ebx),%eax", "f0 03 03", 3 },
    { "lock testl %eax,(%ebx)", "f0 85 03", 3 },
    { "lock btl %eax,(%ebx)", "f0 0f a3 03", 4 },
    { "lock btl $1,(%ebx)", "f0 0f ba 23 01", 5 },
    { "lock shll (%eax)", "f0 d1 20", 3 },
    { "lock movsb", "f0 a4", 2 },
    { "lock movl 0x1000,%eax", "f0 a1 00 10 00 00", 6 },
    { "lock popl (%eax)", "f0 8f 00", 3 },
    { "lock mull (%eax)", "f0 f7 20", 3 },
    { "lock imull (%eax),%ecx", "f0 0f af 08", 4 },
    { "repne movsl", "f2 a5", 2 },
    { "repne stosb", "f2 aa", 2 },
    { "repne lodsb", "f2 ac", 2 },
    { "rep repne cmpsb", "f3 f2 a6", 3 },
    { "repne rep scasb", "f2 f3 ae", 3 },
    { "rep movzbl (%eax),%ecx", "f3 0f b6 08", 4 },
    { "repne btl %eax,(%ebx)", "f2 0f a3 03", 4 },
    { "popcnt (%eax),%ecx", "f3 0f b8 08", 0 },
    { "data16 movnti", "66 0f c3 03", 4 },
    { "rep movnti", "f3 0f c3 03", 4 },
    { "15 prefixes + movsb", "3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e a4", 0 },
    { "16 prefixes + movl", "3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 8b 00", 0 },
    { "14 prefixes + movl (%eax),%eax = 16 bytes", "3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 3e 8b 00", 0 },
    { "5 prefixes + 11-byte movl = 16 bytes", "3e 3e 3e 3e 3e c7 84 d8 78 56 34 12 78 56 34 12", 0 },
    { "0F alone", "0f", 0 },
    { "empty", "", 0 },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Turns "c7 04 8d" into bytes; returns how many. */
static size_t parse_hex(const char *hex, uint8_t *out, size_t max)
{
    size_t n = 0;
    while (*hex) {
        if (*hex == ' ') {
            hex++;
            continue;
        }
        unsigned v;
        if (n == max || sscanf(hex, "%2x", &v) != 1) {
            fprintf(stderr, "bad hex in test table: %s\n", hex);
            abort();
        }
        out[n++] = (uint8_t)v;
        hex += 2;
    }
    return n;
}

/* Decodes the first avail bytes of code from a heap copy of exactly that size. */
static int decode_exact(const uint8_t *code, size_t avail, struct mmio_insn *insn)
{
    uint8_t *copy = malloc(avail);
    if (avail)
        memcpy(copy, code, avail);
    int rc = mmio_decode(copy, avail, insn);
    free(copy);
    return rc;
}

/* Reports a mismatch naming the case, so one run lists every broken form. */
#define EXPECT(text, what, got, want)                                          \
    do {                                                                       \
        long long got_ = (long long)(got), want_ = (long long)(want);          \
        if (got_ != want_) {                                                   \
            char msg_[256];                                                    \
            snprintf(msg_, sizeof msg_, "%s: %s == %lld, expected %lld",       \
                     text, what, got_, want_);                                 \
            unit_fail(__FILE__, __LINE__, msg_);                               \
        }                                                                      \
    } while (0)

static bool is_prefix(uint8_t b)
{
    return b == 0x66 || b == 0x67 || b == 0xF0 || b == 0xF2 || b == 0xF3 || b == 0x26 ||
           b == 0x2E || b == 0x36 || b == 0x3E || b == 0x64 || b == 0x65;
}

/* insn->opcode must hold the (up to) three bytes after the prefixes, zeros past the end. */
static void expect_opcode(const char *text, const uint8_t *code, size_t n,
                          const struct mmio_insn *insn)
{
    size_t p = 0;
    while (p < n && is_prefix(code[p]))
        p++;
    for (size_t i = 0; i < 3; i++)
        EXPECT(text, "opcode byte", insn->opcode[i], p + i < n ? code[p + i] : 0);
}

/* Checks one operand against register, displacement, width and access. */
static void expect_operand(const char *text, const struct mmio_operand *op, int base,
                           int index, int scale, int32_t disp, int width, int access,
                           int bitreg)
{
    EXPECT(text, "base", op->base, base);
    EXPECT(text, "index", op->index, index);
    EXPECT(text, "scale", op->scale, scale);
    EXPECT(text, "disp", op->disp, disp);
    EXPECT(text, "width", op->width, width);
    EXPECT(text, "read", op->read, (access & R) != 0);
    EXPECT(text, "write", op->write, (access & W) != 0);
    EXPECT(text, "bitoffset_reg", op->bitoffset_reg, bitreg);
}

TEST(every_memory_form)
{
    for (size_t i = 0; i < NELEM(mem_cases); i++) {
        const struct mem_case *c = &mem_cases[i];
        uint8_t code[32];
        size_t n = parse_hex(c->hex, code, sizeof code);
        struct mmio_insn insn;
        EXPECT(c->text, "rc", decode_exact(code, n, &insn), 0);
        EXPECT(c->text, "length", insn.length, n);
        EXPECT(c->text, "noperands", insn.noperands, 1);
        EXPECT(c->text, "string", insn.string, 0);
        EXPECT(c->text, "rep", insn.rep, 0);
        expect_operand(c->text, &insn.op[0], c->base, c->index, c->scale, c->disp, c->width,
                       c->access, c->bitreg);
        expect_opcode(c->text, code, n, &insn);
    }
}

TEST(every_string_form)
{
    for (size_t i = 0; i < NELEM(string_cases); i++) {
        const struct string_case *c = &string_cases[i];
        uint8_t code[32];
        size_t n = parse_hex(c->hex, code, sizeof code);
        struct mmio_insn insn;
        EXPECT(c->text, "rc", decode_exact(code, n, &insn), 0);
        EXPECT(c->text, "length", insn.length, n);
        EXPECT(c->text, "string", insn.string, 1);
        EXPECT(c->text, "rep", insn.rep, c->rep);
        EXPECT(c->text, "noperands", insn.noperands, c->noperands);
        for (int k = 0; k < c->noperands; k++)
            expect_operand(c->text, &insn.op[k], c->op[k].reg, NOREG, 1, 0, c->width,
                           c->op[k].access, NOREG);
        expect_opcode(c->text, code, n, &insn);
    }
}

TEST(refused_forms)
{
    for (size_t i = 0; i < NELEM(refused_cases); i++) {
        const struct refused_case *c = &refused_cases[i];
        uint8_t code[32];
        size_t n = parse_hex(c->hex, code, sizeof code);
        struct mmio_insn insn;
        EXPECT(c->text, "rc", decode_exact(code, n, &insn), -1);
        EXPECT(c->text, "length", insn.length, c->length);
        EXPECT(c->text, "noperands", insn.noperands, 0);
        EXPECT(c->text, "string", insn.string, 0);
        EXPECT(c->text, "rep", insn.rep, 0);
    }
}

/* Every proper prefix of every supported instruction is refused, without a length and
 * without reading a byte beyond it (each is decoded from an exactly sized copy). */
TEST(truncated_input_is_refused)
{
    uint8_t code[32];
    struct mmio_insn insn;
    for (size_t i = 0; i < NELEM(mem_cases) + NELEM(string_cases); i++) {
        const char *text = i < NELEM(mem_cases) ? mem_cases[i].text
                                                 : string_cases[i - NELEM(mem_cases)].text;
        const char *hex = i < NELEM(mem_cases) ? mem_cases[i].hex
                                                : string_cases[i - NELEM(mem_cases)].hex;
        size_t n = parse_hex(hex, code, sizeof code);
        for (size_t avail = 0; avail < n; avail++) {
            EXPECT(text, "rc of a truncated copy", decode_exact(code, avail, &insn), -1);
            EXPECT(text, "length of a truncated copy", insn.length, 0);
        }
    }
}

/* True if a and b describe the same instruction: every field, except opcode bytes that lie
 * past the instruction (opcode records what follows the prefixes, whatever it is). */
static bool same_decoding(const struct mmio_insn *a, const struct mmio_insn *b)
{
    if (a->length != b->length || a->noperands != b->noperands || a->string != b->string ||
        a->rep != b->rep)
        return false;
    for (int i = 0; i < 2; i++) {
        const struct mmio_operand *x = &a->op[i], *y = &b->op[i];
        if (x->base != y->base || x->index != y->index || x->scale != y->scale ||
            x->disp != y->disp || x->width != y->width || x->read != y->read ||
            x->write != y->write || x->bitoffset_reg != y->bitoffset_reg)
            return false;
    }
    return true;
}

/* What follows an instruction never changes how it decodes. */
TEST(trailing_bytes_do_not_matter)
{
    static const uint8_t tails[][4] = {
        {0x00, 0x00, 0x00, 0x00}, {0xFF, 0xFF, 0xFF, 0xFF}, {0x66, 0x0F, 0xF0, 0x8B},
    };
    for (size_t i = 0; i < NELEM(mem_cases) + NELEM(string_cases); i++) {
        const char *text = i < NELEM(mem_cases) ? mem_cases[i].text
                                                 : string_cases[i - NELEM(mem_cases)].text;
        const char *hex = i < NELEM(mem_cases) ? mem_cases[i].hex
                                                : string_cases[i - NELEM(mem_cases)].hex;
        uint8_t code[32];
        size_t n = parse_hex(hex, code, sizeof code);
        struct mmio_insn exact, longer;
        decode_exact(code, n, &exact);
        for (size_t t = 0; t < NELEM(tails); t++) {
            memcpy(code + n, tails[t], sizeof tails[t]);
            EXPECT(text, "rc with trailing bytes", decode_exact(code, n + 4, &longer), 0);
            EXPECT(text, "same decoding with trailing bytes", same_decoding(&exact, &longer), 1);
        }
    }
}

/* The cases Linux's pf_in.c gets wrong or that are easy to miscount, spelled out. */
TEST(immediate_after_sib_and_displacement)
{
    /* movl $0x12345678, 0x100(,%ecx,4): SIB, no base, disp32, then imm32 */
    static const uint8_t movl[] = {0xc7, 0x04, 0x8d, 0x00, 0x01, 0x00, 0x00,
                                   0x78, 0x56, 0x34, 0x12};
    struct mmio_insn insn;
    CHECK_EQ_INT(decode_exact(movl, sizeof movl, &insn), 0);
    CHECK_EQ_INT(insn.length, 11);
    CHECK_EQ_INT(insn.op[0].base, NOREG);
    CHECK_EQ_INT(insn.op[0].index, ECX);
    CHECK_EQ_INT(insn.op[0].scale, 4);
    CHECK_EQ_INT(insn.op[0].disp, 0x100);
    CHECK(insn.op[0].write && !insn.op[0].read);

    /* orb $1, 4(%esp): mod 01, SIB, disp8, imm8 */
    static const uint8_t orb[] = {0x80, 0x4c, 0x24, 0x04, 0x01};
    CHECK_EQ_INT(decode_exact(orb, sizeof orb, &insn), 0);
    CHECK_EQ_INT(insn.length, 5);
    CHECK_EQ_INT(insn.op[0].base, ESP);
    CHECK_EQ_INT(insn.op[0].disp, 4);
    CHECK_EQ_INT(insn.op[0].width, 1);
    CHECK(insn.op[0].read && insn.op[0].write);

    /* movw $0x1234, (%eax): the 66 prefix makes the immediate 2 bytes */
    static const uint8_t movw[] = {0x66, 0xc7, 0x00, 0x34, 0x12};
    CHECK_EQ_INT(decode_exact(movw, sizeof movw, &insn), 0);
    CHECK_EQ_INT(insn.length, 5);
    CHECK_EQ_INT(insn.op[0].width, 2);
}

TEST(group1_immediate_sizes)
{
    static const uint8_t imm32[] = {0x81, 0x00, 0x78, 0x56, 0x34, 0x12};   /* addl $imm32 */
    static const uint8_t imm16[] = {0x66, 0x81, 0x00, 0x34, 0x12};         /* addw $imm16 */
    static const uint8_t imm8[] = {0x83, 0x00, 0x7f};                      /* addl $imm8 */
    static const uint8_t imm8w[] = {0x66, 0x83, 0x00, 0xff};               /* addw $imm8 */
    static const uint8_t byte[] = {0x80, 0x00, 0x12};                      /* addb $imm8 */
    struct mmio_insn insn;
    CHECK_EQ_INT(decode_exact(imm32, sizeof imm32, &insn), 0);
    CHECK_EQ_INT(insn.length, 6);
    CHECK_EQ_INT(insn.op[0].width, 4);
    CHECK_EQ_INT(decode_exact(imm16, sizeof imm16, &insn), 0);
    CHECK_EQ_INT(insn.length, 5);
    CHECK_EQ_INT(insn.op[0].width, 2);
    CHECK_EQ_INT(decode_exact(imm8, sizeof imm8, &insn), 0);
    CHECK_EQ_INT(insn.length, 3);
    CHECK_EQ_INT(insn.op[0].width, 4);
    CHECK_EQ_INT(decode_exact(imm8w, sizeof imm8w, &insn), 0);
    CHECK_EQ_INT(insn.length, 4);
    CHECK_EQ_INT(insn.op[0].width, 2);
    CHECK_EQ_INT(decode_exact(byte, sizeof byte, &insn), 0);
    CHECK_EQ_INT(insn.length, 3);
    CHECK_EQ_INT(insn.op[0].width, 1);
}

TEST(group3_immediate_only_for_test)
{
    /* F7 /0 (test) carries imm32; F7 /2 (not) right after it has none. */
    static const uint8_t test_then_not[] = {0xf7, 0x00, 0x01, 0x00, 0x00, 0x00, 0xf7, 0x10};
    struct mmio_insn insn;
    CHECK_EQ_INT(decode_exact(test_then_not, sizeof test_then_not, &insn), 0);
    CHECK_EQ_INT(insn.length, 6);
    CHECK_EQ_INT(decode_exact(test_then_not + 6, 2, &insn), 0);
    CHECK_EQ_INT(insn.length, 2);
}

TEST(refused_instruction_keeps_opcode_and_length)
{
    static const uint8_t call[] = {0x3e, 0xff, 0x10};          /* call *%ds:(%eax) */
    static const uint8_t reg[] = {0x66, 0x0f, 0xba, 0xe0, 0x03}; /* btw $3,%ax */
    static const uint8_t prefixes_only[] = {0x66, 0xf3};
    struct mmio_insn insn;
    CHECK_EQ_INT(decode_exact(call, sizeof call, &insn), -1);
    CHECK_EQ_INT(insn.length, 0);
    CHECK_EQ_INT(insn.opcode[0], 0xff);
    CHECK_EQ_INT(insn.opcode[1], 0x10);
    CHECK_EQ_INT(insn.opcode[2], 0);
    CHECK_EQ_INT(decode_exact(reg, sizeof reg, &insn), -1);
    CHECK_EQ_INT(insn.length, 5);
    CHECK_EQ_INT(insn.opcode[0], 0x0f);
    CHECK_EQ_INT(insn.opcode[1], 0xba);
    CHECK_EQ_INT(insn.opcode[2], 0xe0);
    CHECK_EQ_INT(decode_exact(prefixes_only, sizeof prefixes_only, &insn), -1);
    CHECK_EQ_INT(insn.length, 0);
    CHECK_EQ_INT(insn.opcode[0], 0);
}

TEST(fifteen_bytes_at_most)
{
    uint8_t code[18];
    struct mmio_insn insn;
    memset(code, 0x2e, 16);
    code[16] = 0x8b;                        /* movl (%eax),%eax after the prefixes */
    code[17] = 0x00;
    CHECK_EQ_INT(decode_exact(code, 18, &insn), -1);            /* 16 prefixes */
    CHECK_EQ_INT(decode_exact(code + 2, 16, &insn), -1);        /* 14 prefixes: 16 bytes */
    CHECK_EQ_INT(decode_exact(code + 3, 15, &insn), 0);         /* 13 prefixes: 15 bytes */
    CHECK_EQ_INT(insn.length, 15);
}

/* Decodes hex and returns operand i's address for regs. */
static uint32_t address_of(const char *hex, int i, const uint32_t regs[8])
{
    uint8_t code[32];
    size_t n = parse_hex(hex, code, sizeof code);
    struct mmio_insn insn;
    if (decode_exact(code, n, &insn) != 0 || i >= insn.noperands) {
        unit_fail(__FILE__, __LINE__, hex);
        return 0;
    }
    return mmio_operand_address(&insn, i, regs);
}

TEST(address_base_index_scale_disp)
{
    uint32_t regs[8] = {0};
    regs[EBX] = 0xfeb00000;
    regs[ECX] = 3;
    CHECK_EQ_INT(address_of("89 44 8b 10", 0, regs), 0xfeb0001c);  /* 0x10(%ebx,%ecx,4) */
    regs[EBP] = 0x1000;
    CHECK_EQ_INT(address_of("66 89 45 80", 0, regs), 0xf80);       /* -0x80(%ebp) */
    regs[EAX] = 0x5000;
    CHECK_EQ_INT(address_of("8b 80 00 f0 ff ff", 0, regs), 0x4000); /* -0x1000(%eax) */
    CHECK_EQ_INT(address_of("c7 04 8d 00 01 00 00 78 56 34 12", 0, regs), 0x10c);
    CHECK_EQ_INT(address_of("a1 20 00 e0 fe", 0, regs), 0xfee00020);  /* moffs */
    CHECK_EQ_INT(address_of("89 1d 00 10 00 00", 0, regs), 0x1000);    /* disp32, no base */
}

TEST(address_wraps_at_32_bits)
{
    uint32_t regs[8] = {0};
    regs[EAX] = 8;
    CHECK_EQ_INT(address_of("8b 40 f0", 0, regs), 0xfffffff8);        /* -0x10(%eax) */
    regs[EAX] = 0xfffffff0;
    regs[ECX] = 0x20000001;
    CHECK_EQ_INT(address_of("8b 44 c8 10", 0, regs), 0x8);            /* 0x10(%eax,%ecx,8) */
}

TEST(address_of_string_operands)
{
    uint32_t regs[8] = {0};
    regs[ESI] = 0xfeb00010;
    regs[EDI] = 0x00200000;
    CHECK_EQ_INT(address_of("f3 a5", 0, regs), 0xfeb00010);          /* rep movsl: source */
    CHECK_EQ_INT(address_of("f3 a5", 1, regs), 0x00200000);          /* destination */
    CHECK_EQ_INT(address_of("aa", 0, regs), 0x00200000);             /* stosb */
    CHECK_EQ_INT(address_of("ac", 0, regs), 0xfeb00010);             /* lodsb */
}

TEST(address_of_bt_register_offset)
{
    uint32_t regs[8] = {0};
    regs[EBX] = 0x1000;
    const char *btl = "0f a3 0b";           /* btl %ecx,(%ebx) */
    const char *btw = "66 0f a3 0b";        /* btw %cx,(%ebx) */
    regs[ECX] = 31;
    CHECK_EQ_INT(address_of(btl, 0, regs), 0x1000);
    regs[ECX] = 32;
    CHECK_EQ_INT(address_of(btl, 0, regs), 0x1004);
    regs[ECX] = (uint32_t)-1;               /* bit 31 of the dword below */
    CHECK_EQ_INT(address_of(btl, 0, regs), 0xffc);
    regs[ECX] = (uint32_t)-32;
    CHECK_EQ_INT(address_of(btl, 0, regs), 0xffc);
    regs[ECX] = (uint32_t)-33;
    CHECK_EQ_INT(address_of(btl, 0, regs), 0xff8);
    regs[ECX] = 0x7fffffff;
    CHECK_EQ_INT(address_of(btl, 0, regs), 0x10000ffc);
    regs[ECX] = 0x80000000;
    CHECK_EQ_INT(address_of(btl, 0, regs), 0xf0001000);
    /* 16-bit: the offset is %cx, signed; the upper half of %ecx does not count */
    regs[ECX] = 0x12340010;
    CHECK_EQ_INT(address_of(btw, 0, regs), 0x1002);
    regs[ECX] = 0x0000ffff;
    CHECK_EQ_INT(address_of(btw, 0, regs), 0xffe);
    regs[ECX] = 0x00008000;
    CHECK_EQ_INT(address_of(btw, 0, regs), 0x0);
    /* the bit offset register may also be the base */
    regs[EBX] = 0x100;
    CHECK_EQ_INT(address_of("0f ab 1b", 0, regs), 0x120);           /* btsl %ebx,(%ebx) */
    /* an imm8 bit offset never moves the address */
    CHECK_EQ_INT(address_of("0f ba 23 ff", 0, regs), 0x100);        /* btl $255,(%ebx) */
}

TEST(address_of_pop_uses_esp_after_the_pop)
{
    uint32_t regs[8] = {0};
    regs[ESP] = 0x2000;
    CHECK_EQ_INT(address_of("8f 44 24 04", 0, regs), 0x2008);       /* popl 4(%esp) */
    CHECK_EQ_INT(address_of("66 8f 04 24", 0, regs), 0x2002);       /* popw (%esp) */
    regs[EBP] = 0x3000;
    CHECK_EQ_INT(address_of("8f 45 fc", 0, regs), 0x2ffc);          /* popl -4(%ebp) */
}
