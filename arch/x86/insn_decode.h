/*
 * insn_decode.h - the length and shape of any 32-bit x86 instruction, for kprobes: where the
 * instructions of a function begin (a probe must sit on one), and what the displaced
 * instruction is (whether it can be single-stepped out of line, and which fix-up it needs).
 *
 * An instruction is read as the CPU reads it in 32-bit protected mode:
 *
 *   prefixes  opcode (1 byte, 0F + 1, 0F 38 + 1, 0F 3A + 1)  ModRM  SIB  disp  imm
 *
 * Prefixes: F0 F2 F3, the segment overrides 26 2E 36 3E 64 65, 66 (operand size: an imm16
 * for the immediates that are imm32 by default, rel16 for E8/E9/0F 8x, ptr16:16 for 9A/EA)
 * and 67 (16-bit addressing: moffs16 for A0-A3, the 16-bit ModRM forms without SIB). The
 * tables cover all of the one-byte map, the defined two-byte map (system, cmov, setcc, bt*,
 * shld/shrd, cmpxchg, movzx/movsx, bswap, the MMX/SSE rows the kernel could contain) and
 * the three-byte maps 0F 38 (ModRM) and 0F 3A (ModRM + imm8). C4/C5 are LES/LDS (in 32-bit
 * mode VEX needs ModRM.mod 11, which -mgeneral-regs-only code never contains; they decode as
 * LES/LDS, whatever follows). 3DNow! (0F 0F) is ModRM + imm8. Undefined opcodes are refused.
 * Portable: tests/unit/test_insn_decode.c (a table, and every instruction of
 * build/tracekern.elf against objdump), tests/fuzz/fuzz_insn_decode.c.
 */
#ifndef ARCH_X86_INSN_DECODE_H
#define ARCH_X86_INSN_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define INSN_MAX 15 /* the longest x86 instruction */

/* The three bytes that select an instruction, for its map. */
enum insn_map { INSN_MAP_1, INSN_MAP_0F, INSN_MAP_0F38, INSN_MAP_0F3A };

struct insn {
    uint8_t length;      /* bytes in all */
    uint8_t nprefixes;   /* bytes of prefixes before the opcode */
    uint8_t map;         /* enum insn_map */
    uint8_t opcode;      /* the byte after the prefixes and the map's escape bytes */
    bool has_modrm;
    uint8_t modrm;       /* when has_modrm */
    bool operand16;      /* 66 */
    bool address16;      /* 67 */
    bool lock, rep, repne;
    uint8_t imm_bytes;   /* size of the immediate (or rel / moffs / ptr) after ModRM..disp */
};

/* Decodes the instruction at code (avail bytes readable; never reads more). 0 with *in
 * filled, or -1 for an undefined opcode, or one longer than avail or INSN_MAX bytes. */
int insn_decode(const uint8_t *code, size_t avail, struct insn *in);

/* ModRM's fields. */
static inline unsigned insn_modrm_mod(const struct insn *in) { return in->modrm >> 6; }
static inline unsigned insn_modrm_reg(const struct insn *in) { return (in->modrm >> 3) & 7; }
static inline unsigned insn_modrm_rm(const struct insn *in) { return in->modrm & 7; }

/* --- kprobes ---------------------------------------------------------------------------- */

/* Whether offset is where an instruction of the code starts, decoding from code[0] (a
 * function's first byte; size: the function's bytes): 0 when it is, -1 when offset falls
 * inside an instruction, -2 when an undecodable instruction comes first. */
int insn_boundary(const uint8_t *code, size_t size, size_t offset);

/* Why the instruction cannot be single-stepped out of line in a kprobe's slot (Linux's
 * can_probe and the checks of arch_prepare_kprobe), or NULL when it can: traps and
 * breakpoints (int3, int n, into, int1, ud0/1/2, bound's #BR is fine), what changes the
 * interrupt flag or returns through the kernel's stack frames in ways a slot cannot follow
 * (cli, sti, popf, iret), far transfers and segment loads (lcall, ljmp, lret, mov/pop to a
 * segment register, lds/les/lss/lfs/lgs), sysenter/sysexit/syscall/sysret, hlt, the
 * descriptor-table and control/debug-register writes (0F 00, 0F 01, mov to CR/DR, wrmsr,
 * rsm), and near branches with a 66 prefix (they cut EIP to 16 bits). */
const char *insn_kprobe_refusal(const struct insn *in);

/* What the single-step's #DB must fix after the instruction ran at copy instead of orig
 * (Linux's resume_execution): */
enum insn_fixup {
    INSN_FIX_IP,          /* EIP += orig - copy (also right for relative jumps: both ends move) */
    INSN_FIX_IP_RET,      /* call rel: the same, and the pushed return address too */
    INSN_FIX_RET,         /* call indirect: the pushed return address; EIP is the target */
    INSN_FIX_NONE,        /* ret, jmp indirect: EIP is where they went */
    INSN_FIX_IP_FLAGS,    /* pushf: EIP, and the pushed flags get the probed code's TF/IF */
};
enum insn_fixup insn_step_fixup(const struct insn *in);

#endif
