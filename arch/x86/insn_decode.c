/*
 * insn_decode.c - x86-32 instruction lengths: prefixes, the opcode maps' operand shapes,
 * ModRM/SIB/displacement, immediates. Each map is a table of one shape per opcode, written
 * as rows of sixteen so that a row reads like a row of the opcode map in Intel's SDM
 * (volume 2, appendix A).
 */
#include "arch/x86/insn_decode.h"

/* What follows an opcode. */
enum shape {
    U,  /* undefined (or reserved): refused */
    N,  /* nothing */
    M,  /* ModRM (+ SIB + displacement) */
    MB, /* ModRM, then an imm8 */
    MZ, /* ModRM, then an imm16/imm32 (by the operand size) */
    B,  /* imm8 or rel8 */
    Z,  /* imm16/imm32 or rel16/rel32 (by the operand size) */
    W,  /* imm16 (ret imm16, lret imm16) */
    P,  /* a far pointer: ptr16:32, or ptr16:16 with 66 */
    A,  /* a moffs: 32-bit address, 16-bit with 67 */
    E,  /* enter: imm16 then imm8 */
    G,  /* F6 group 3: ModRM, an imm8 only for /0 /1 (test) */
    H,  /* F7 group 3: ModRM, an imm16/32 only for /0 /1 (test) */
    X,  /* a prefix or an escape byte: handled before the table */
};

static const uint8_t one_byte[256] = {
    /*        0   1   2   3   4   5   6   7   8   9   a   b   c   d   e   f */
    /* 0 */   M,  M,  M,  M,  B,  Z,  N,  N,  M,  M,  M,  M,  B,  Z,  N,  X,
    /* 1 */   M,  M,  M,  M,  B,  Z,  N,  N,  M,  M,  M,  M,  B,  Z,  N,  N,
    /* 2 */   M,  M,  M,  M,  B,  Z,  X,  N,  M,  M,  M,  M,  B,  Z,  X,  N,
    /* 3 */   M,  M,  M,  M,  B,  Z,  X,  N,  M,  M,  M,  M,  B,  Z,  X,  N,
    /* 4 */   N,  N,  N,  N,  N,  N,  N,  N,  N,  N,  N,  N,  N,  N,  N,  N,
    /* 5 */   N,  N,  N,  N,  N,  N,  N,  N,  N,  N,  N,  N,  N,  N,  N,  N,
    /* 6 */   N,  N,  M,  M,  X,  X,  X,  X,  Z,  MZ, B,  MB, N,  N,  N,  N,
    /* 7 */   B,  B,  B,  B,  B,  B,  B,  B,  B,  B,  B,  B,  B,  B,  B,  B,
    /* 8 */   MB, MZ, MB, MB, M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,
    /* 9 */   N,  N,  N,  N,  N,  N,  N,  N,  N,  N,  P,  N,  N,  N,  N,  N,
    /* a */   A,  A,  A,  A,  N,  N,  N,  N,  B,  Z,  N,  N,  N,  N,  N,  N,
    /* b */   B,  B,  B,  B,  B,  B,  B,  B,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,
    /* c */   MB, MB, W,  N,  M,  M,  MB, MZ, E,  N,  W,  N,  N,  B,  N,  N,
    /* d */   M,  M,  M,  M,  B,  B,  U,  N,  M,  M,  M,  M,  M,  M,  M,  M,
    /* e */   B,  B,  B,  B,  B,  B,  B,  B,  Z,  Z,  P,  B,  N,  N,  N,  N,
    /* f */   X,  N,  X,  X,  N,  N,  G,  H,  N,  N,  N,  N,  N,  N,  M,  M,
};

static const uint8_t two_byte[256] = {
    /*        0   1   2   3   4   5   6   7   8   9   a   b   c   d   e   f */
    /* 0 */   M,  M,  M,  M,  U,  N,  N,  N,  N,  N,  U,  N,  U,  M,  N,  MB,
    /* 1 */   M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,
    /* 2 */   M,  M,  M,  M,  U,  U,  U,  U,  M,  M,  M,  M,  M,  M,  M,  M,
    /* 3 */   N,  N,  N,  N,  N,  N,  U,  N,  X,  U,  X,  U,  U,  U,  U,  U,
    /* 4 */   M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,
    /* 5 */   M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,
    /* 6 */   M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,
    /* 7 */   MB, MB, MB, MB, M,  M,  M,  N,  M,  M,  U,  U,  M,  M,  M,  M,
    /* 8 */   Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,
    /* 9 */   M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,
    /* a */   N,  N,  N,  M,  MB, M,  U,  U,  N,  N,  N,  M,  MB, M,  M,  M,
    /* b */   M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  MB, M,  M,  M,  M,  M,
    /* c */   M,  M,  MB, M,  MB, MB, MB, M,  N,  N,  N,  N,  N,  N,  N,  N,
    /* d */   M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,
    /* e */   M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,
    /* f */   M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,  M,
};

/* Bytes of SIB and displacement after a ModRM byte (the ModRM itself not counted); the SIB
 * byte is at code[at] when there is one. -1 when it is not within avail. */
static int address_bytes(const struct insn *in, const uint8_t *code, size_t avail, size_t at)
{
    unsigned mod = insn_modrm_mod(in), rm = insn_modrm_rm(in);
    if (mod == 3)
        return 0;
    if (in->address16) {
        if (mod == 0)
            return rm == 6 ? 2 : 0;
        return mod == 1 ? 1 : 2;
    }
    int n = 0;
    unsigned base = rm;
    if (rm == 4) {
        if (at >= avail)
            return -1;
        base = code[at] & 7;
        n = 1;
    }
    if (mod == 0)
        return n + (base == 5 ? 4 : 0);
    return n + (mod == 1 ? 1 : 4);
}

int insn_decode(const uint8_t *code, size_t avail, struct insn *in)
{
    *in = (struct insn){ 0 };
    size_t limit = avail < INSN_MAX ? avail : INSN_MAX;
    size_t i = 0;
    for (;; i++) {
        if (i >= limit)
            return -1;
        uint8_t b = code[i];
        if (b == 0x66)
            in->operand16 = true;
        else if (b == 0x67)
            in->address16 = true;
        else if (b == 0xf0)
            in->lock = true;
        else if (b == 0xf2)
            in->repne = true, in->rep = false;
        else if (b == 0xf3)
            in->rep = true, in->repne = false;
        else if (b != 0x26 && b != 0x2e && b != 0x36 && b != 0x3e && b != 0x64 && b != 0x65)
            break;
    }
    in->nprefixes = (uint8_t)i;

    uint8_t shape;
    in->opcode = code[i++];
    if (in->opcode != 0x0f) {
        in->map = INSN_MAP_1;
        shape = one_byte[in->opcode];
    } else {
        if (i >= limit)
            return -1;
        in->opcode = code[i++];
        in->map = INSN_MAP_0F;
        shape = two_byte[in->opcode];
        if (in->opcode == 0x38 || in->opcode == 0x3a) {
            if (i >= limit)
                return -1;
            in->map = in->opcode == 0x38 ? INSN_MAP_0F38 : INSN_MAP_0F3A;
            shape = in->opcode == 0x38 ? M : MB;
            in->opcode = code[i++];
        }
    }
    if (shape == U || shape == X)
        return -1;

    if (shape == M || shape == MB || shape == MZ || shape == G || shape == H) {
        if (i >= limit)
            return -1;
        in->has_modrm = true;
        in->modrm = code[i++];
        int extra = address_bytes(in, code, limit, i);
        if (extra < 0)
            return -1;
        i += (size_t)extra;
    }
    unsigned imm_z = in->operand16 ? 2 : 4;
    switch (shape) {
    case MB: case B: in->imm_bytes = 1; break;
    case MZ: case Z: in->imm_bytes = (uint8_t)imm_z; break;
    case W: in->imm_bytes = 2; break;
    case P: in->imm_bytes = (uint8_t)(imm_z + 2); break;
    case A: in->imm_bytes = in->address16 ? 2 : 4; break;
    case E: in->imm_bytes = 3; break;
    case G: in->imm_bytes = insn_modrm_reg(in) < 2 ? 1 : 0; break;
    case H: in->imm_bytes = insn_modrm_reg(in) < 2 ? (uint8_t)imm_z : 0; break;
    default: break;
    }
    i += in->imm_bytes;
    if (i > limit)
        return -1;
    in->length = (uint8_t)i;
    return 0;
}

int insn_boundary(const uint8_t *code, size_t size, size_t offset)
{
    size_t at = 0;
    while (at < offset) {
        struct insn in;
        if (insn_decode(code + at, size - at, &in) != 0)
            return -2;
        at += in.length;
    }
    return at == offset ? 0 : -1;
}

/* Near control transfers: with 66 they truncate EIP to 16 bits. */
static bool near_branch(const struct insn *in)
{
    if (in->map == INSN_MAP_0F)
        return in->opcode >= 0x80 && in->opcode <= 0x8f;
    if (in->map != INSN_MAP_1)
        return false;
    uint8_t op = in->opcode;
    return (op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3) || op == 0xe8 ||
           op == 0xe9 || op == 0xeb || op == 0xc2 || op == 0xc3 ||
           (op == 0xff && (insn_modrm_reg(in) == 2 || insn_modrm_reg(in) == 4));
}

const char *insn_kprobe_refusal(const struct insn *in)
{
    if (in->operand16 && near_branch(in))
        return "a 16-bit near branch";
    if (in->map == INSN_MAP_1) {
        switch (in->opcode) {
        case 0xcc: case 0xcd: case 0xce: case 0xf1:
            return "a software interrupt or breakpoint";
        case 0xcf:
            return "iret";
        case 0xfa: case 0xfb: case 0x9d:
            return "an interrupt-flag modifier (cli, sti, popf)";
        case 0xf4:
            return "hlt";
        case 0x8e: case 0x07: case 0x17: case 0x1f: case 0xc4: case 0xc5:
            return "a segment register load";
        case 0x9a: case 0xea: case 0xca: case 0xcb:
            return "a far call, jump or return";
        case 0xff:
            if (insn_modrm_reg(in) == 3 || insn_modrm_reg(in) == 5)
                return "a far call, jump or return";
            return NULL;
        default:
            return NULL;
        }
    }
    if (in->map != INSN_MAP_0F)
        return NULL;
    switch (in->opcode) {
    case 0x0b: case 0xb9: case 0xff:
        return "an undefined-instruction trap (ud0, ud1, ud2)";
    case 0x05: case 0x07: case 0x34: case 0x35:
        return "a system call or return (syscall, sysret, sysenter, sysexit)";
    case 0xa1: case 0xa9: case 0xb2: case 0xb4: case 0xb5:
        return "a segment register load";
    case 0x00: case 0x01: case 0x22: case 0x23: case 0x30: case 0xaa:
        return "a system-register write (descriptor tables, CR, DR, MSR, rsm)";
    default:
        return NULL;
    }
}

enum insn_fixup insn_step_fixup(const struct insn *in)
{
    if (in->map != INSN_MAP_1)
        return INSN_FIX_IP;
    switch (in->opcode) {
    case 0x9c:
        return INSN_FIX_IP_FLAGS;
    case 0xc2: case 0xc3:
        return INSN_FIX_NONE;
    case 0xe8:
        return INSN_FIX_IP_RET;
    case 0xff:
        if (insn_modrm_reg(in) == 2)
            return INSN_FIX_RET;
        if (insn_modrm_reg(in) == 4)
            return INSN_FIX_NONE;
        return INSN_FIX_IP;
    default:
        return INSN_FIX_IP;
    }
}
