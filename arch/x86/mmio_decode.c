/*
 * mmio_decode.c - decodes the memory operands of the x86 instruction that faulted on MMIO.
 *
 * An instruction is read in the order the CPU reads it:
 *
 *   prefixes  opcode (1 byte, or 0F + 1 byte)  ModRM  SIB  displacement  immediate
 *
 * Prefixes may come in any order and repeat. 66 switches the operand size from 32 to 16
 * bits; F0 (lock) is accepted only where the CPU accepts it (elsewhere it raises #UD); F2/F3
 * are rep/repe/repne on string forms and ignored on the other one-byte opcodes (where they
 * do nothing or are the xacquire/xrelease hints), but on 0F opcodes they select a different
 * instruction, so there they make it unsupported; segment overrides do nothing with flat
 * segments; 67 (16-bit addressing) is not supported. The opcode selects an entry of one of
 * two tables below, which gives the operand's shape (ModRM, an absolute moffs address, or
 * string [ESI]/[EDI]), its width, how it is accessed and the immediate that follows. For
 * group opcodes, the reg field of the ModRM byte picks the instruction, and with it the
 * access. The decoder only says where the operands are; the CPU, single-stepping the
 * instruction on the shadow page, computes what is written.
 *
 * Supported (b = byte form, v = 16/32 by the 66 prefix; R read, W written, RW both):
 *
 *   mov        88/89 r/m,reg W   8A/8B reg,r/m R   C6/C7 /0 r/m,imm W   A0/A1 R, A2/A3 W moffs
 *   movzx      0F B6 (b) 0F B7 (word) R            movsx 0F BE (b) 0F BF (word) R
 *   movnti     0F C3 (dword) W
 *   alu        add or adc sbb and sub xor: 00-35 r/m,reg RW, reg,r/m R; cmp 38-3B R
 *   group 1    80 (imm b) 81 (imm v) 83 (imm8 sign-extended): /0-/6 RW, /7 cmp R
 *   test       84/85 R; F6/F7 /0 /1 with imm R
 *   group 3    F6/F7 /2 not /3 neg RW, /4 mul /5 imul /6 div /7 idiv R
 *   inc/dec    FE (b) FF (v) /0 /1 RW
 *   xchg       86/87 RW          cmpxchg 0F B0/B1 RW        xadd 0F C0/C1 RW
 *   shifts     C0/C1 (imm8) D0/D1 (by 1) D2/D3 (by CL), /0-/5 and /7 RW
 *   bt         0F A3 R; bts btr btc 0F AB/B3/BB RW (register bit offset: the address moves)
 *              0F BA /4 bt R, /5 bts /6 btr /7 btc RW (imm8 bit offset: it does not)
 *   imul       69 (imm v) 6B (imm8) reg,r/m,imm R; 0F AF reg,r/m R
 *   pop        8F /0 W (with ESP as base, the address uses ESP after the pop)
 *   strings    movs A4/A5 [ESI] R + [EDI] W   cmps A6/A7 [ESI] R + [EDI] R
 *              stos AA/AB [EDI] W   lods AC/AD [ESI] R   scas AE/AF [EDI] R
 *              with rep (F3); cmps and scas also with repne (F2)
 *
 * Everything else is unsupported, including any supported opcode whose ModRM names a
 * register rather than memory (mod 11): such an instruction cannot fault on MMIO. So are
 * forms whose behaviour is undocumented or would be a guess: 82 (an alias of 80), the
 * shift /6, repne on movs/stos/lods, F2 and F3 together on a string instruction, and 66 on
 * movnti.
 */
#include "arch/x86/mmio_decode.h"

#include "kernel/lib/string.h"

/* How an opcode's operand is found. */
enum shape {
    SHAPE_NONE,     /* not supported */
    SHAPE_MODRM,    /* ModRM (+ SIB + displacement) names the operand */
    SHAPE_MOFFS,    /* a 32-bit absolute address follows the opcode */
    SHAPE_STRING,   /* [ESI] and/or [EDI] */
};

/* Operand widths: fixed, or v = 4 bytes, 2 with the 66 prefix. */
enum width { W8 = 1, W16, W32, WV };

/* Accesses, as bits. */
#define R  1
#define W  2
#define RW (R | W)

/* Immediates: none, one byte, or as wide as the operand (imm8/imm16/imm32). */
enum imm { IMM_NONE, IMM_8, IMM_W };

/* Flags of an opcode or group member. */
#define LOCK_OK   0x01  /* the lock prefix is legal */
#define BITREG    0x02  /* the ModRM reg field holds a bit offset that moves the address */
#define POP       0x04  /* pop: an ESP base means ESP after the pop */
#define NO_66     0x08  /* the 66 prefix makes it another (unsupported) instruction */
#define NO_IMM    0x10  /* group member without the opcode's immediate (F6/F7 /2-/7) */
#define READS_ESI 0x20  /* string form that reads [ESI] */
#define REPNE_OK  0x40  /* string form that compares, so F2 (repne) is meaningful */

/* One ModRM.reg member of a group opcode; access 0 = not supported. */
struct member {
    uint8_t access;
    uint8_t flags;
};

/* One opcode. For string forms, access is the access to [EDI] (0 for lods). */
struct form {
    uint8_t shape;
    uint8_t width;
    uint8_t access;
    uint8_t imm;
    uint8_t flags;
    const struct member *group;     /* non-NULL: ModRM.reg picks access and flags here */
};

/* Group 1 (80, 81, 83): add or adc sbb and sub xor, cmp. */
static const struct member group1[8] = {
    {RW, LOCK_OK}, {RW, LOCK_OK}, {RW, LOCK_OK}, {RW, LOCK_OK},
    {RW, LOCK_OK}, {RW, LOCK_OK}, {RW, LOCK_OK}, {R, 0},
};
/* Group 2 (C0 C1 D0-D3): rol ror rcl rcr shl shr, (/6 undocumented), sar. */
static const struct member group2[8] = {
    {RW, 0}, {RW, 0}, {RW, 0}, {RW, 0}, {RW, 0}, {RW, 0}, {0, 0}, {RW, 0},
};
/* Group 3 (F6, F7): test imm (and its /1 alias), not neg, mul imul div idiv. */
static const struct member group3[8] = {
    {R, 0}, {R, 0}, {RW, LOCK_OK | NO_IMM}, {RW, LOCK_OK | NO_IMM},
    {R, NO_IMM}, {R, NO_IMM}, {R, NO_IMM}, {R, NO_IMM},
};
/* Groups 4 and 5 (FE, FF): inc dec; FF's call/jmp/push through memory are not supported. */
static const struct member group_incdec[8] = {
    {RW, LOCK_OK}, {RW, LOCK_OK},
};
/* Group 11 (C6, C7): mov imm. */
static const struct member group_movimm[8] = {
    {W, 0},
};
/* Group 1A (8F): pop. */
static const struct member group_pop[8] = {
    {W, POP},
};
/* Group 8 (0F BA): bt bts btr btc with an imm8 bit offset. */
static const struct member group8[8] = {
    [4] = {R, 0}, [5] = {RW, LOCK_OK}, [6] = {RW, LOCK_OK}, [7] = {RW, LOCK_OK},
};

#define MODRM(width, access, imm, flags) { SHAPE_MODRM, width, access, imm, flags, NULL }
#define GROUP(width, imm, group)         { SHAPE_MODRM, width, 0, imm, 0, group }
#define MOFFS(width, access)             { SHAPE_MOFFS, width, access, IMM_NONE, 0, NULL }
#define STRING(width, access, flags)     { SHAPE_STRING, width, access, IMM_NONE, flags, NULL }

/* add/or/adc/sbb/and/sub/xor at opcode op: r/m,reg (RW, lockable) then reg,r/m (R). */
#define ALU(op)                                                                           \
    [op] = MODRM(W8, RW, IMM_NONE, LOCK_OK), [op + 1] = MODRM(WV, RW, IMM_NONE, LOCK_OK), \
    [op + 2] = MODRM(W8, R, IMM_NONE, 0),    [op + 3] = MODRM(WV, R, IMM_NONE, 0)

static const struct form onebyte[256] = {
    ALU(0x00), ALU(0x08), ALU(0x10), ALU(0x18), ALU(0x20), ALU(0x28), ALU(0x30),
    [0x38] = MODRM(W8, R, IMM_NONE, 0),  [0x39] = MODRM(WV, R, IMM_NONE, 0),   /* cmp */
    [0x3A] = MODRM(W8, R, IMM_NONE, 0),  [0x3B] = MODRM(WV, R, IMM_NONE, 0),
    [0x69] = MODRM(WV, R, IMM_W, 0),     [0x6B] = MODRM(WV, R, IMM_8, 0),      /* imul */
    [0x80] = GROUP(W8, IMM_W, group1),   [0x81] = GROUP(WV, IMM_W, group1),    /* group 1 */
    [0x83] = GROUP(WV, IMM_8, group1),
    [0x84] = MODRM(W8, R, IMM_NONE, 0),  [0x85] = MODRM(WV, R, IMM_NONE, 0),   /* test */
    [0x86] = MODRM(W8, RW, IMM_NONE, LOCK_OK),                                 /* xchg */
    [0x87] = MODRM(WV, RW, IMM_NONE, LOCK_OK),
    [0x88] = MODRM(W8, W, IMM_NONE, 0),  [0x89] = MODRM(WV, W, IMM_NONE, 0),   /* mov */
    [0x8A] = MODRM(W8, R, IMM_NONE, 0),  [0x8B] = MODRM(WV, R, IMM_NONE, 0),
    [0x8F] = GROUP(WV, IMM_NONE, group_pop),                                   /* pop */
    [0xA0] = MOFFS(W8, R),               [0xA1] = MOFFS(WV, R),                /* mov moffs */
    [0xA2] = MOFFS(W8, W),               [0xA3] = MOFFS(WV, W),
    [0xA4] = STRING(W8, W, READS_ESI),   [0xA5] = STRING(WV, W, READS_ESI),    /* movs */
    [0xA6] = STRING(W8, R, READS_ESI | REPNE_OK),                              /* cmps */
    [0xA7] = STRING(WV, R, READS_ESI | REPNE_OK),
    [0xAA] = STRING(W8, W, 0),           [0xAB] = STRING(WV, W, 0),            /* stos */
    [0xAC] = STRING(W8, 0, READS_ESI),   [0xAD] = STRING(WV, 0, READS_ESI),    /* lods */
    [0xAE] = STRING(W8, R, REPNE_OK),    [0xAF] = STRING(WV, R, REPNE_OK),     /* scas */
    [0xC0] = GROUP(W8, IMM_8, group2),   [0xC1] = GROUP(WV, IMM_8, group2),    /* shifts */
    [0xD0] = GROUP(W8, IMM_NONE, group2), [0xD1] = GROUP(WV, IMM_NONE, group2),
    [0xD2] = GROUP(W8, IMM_NONE, group2), [0xD3] = GROUP(WV, IMM_NONE, group2),
    [0xC6] = GROUP(W8, IMM_W, group_movimm),                                   /* mov imm */
    [0xC7] = GROUP(WV, IMM_W, group_movimm),
    [0xF6] = GROUP(W8, IMM_W, group3),   [0xF7] = GROUP(WV, IMM_W, group3),    /* group 3 */
    [0xFE] = GROUP(W8, IMM_NONE, group_incdec),                                /* inc dec */
    [0xFF] = GROUP(WV, IMM_NONE, group_incdec),
};

/* Opcodes 0F xx, indexed by xx. */
static const struct form twobyte[256] = {
    [0xA3] = MODRM(WV, R, IMM_NONE, BITREG),                                   /* bt */
    [0xAB] = MODRM(WV, RW, IMM_NONE, BITREG | LOCK_OK),                        /* bts */
    [0xAF] = MODRM(WV, R, IMM_NONE, 0),                                        /* imul */
    [0xB0] = MODRM(W8, RW, IMM_NONE, LOCK_OK),                                 /* cmpxchg */
    [0xB1] = MODRM(WV, RW, IMM_NONE, LOCK_OK),
    [0xB3] = MODRM(WV, RW, IMM_NONE, BITREG | LOCK_OK),                        /* btr */
    [0xB6] = MODRM(W8, R, IMM_NONE, 0),  [0xB7] = MODRM(W16, R, IMM_NONE, 0),  /* movzx */
    [0xBA] = GROUP(WV, IMM_8, group8),                                         /* bt imm8 */
    [0xBB] = MODRM(WV, RW, IMM_NONE, BITREG | LOCK_OK),                        /* btc */
    [0xBE] = MODRM(W8, R, IMM_NONE, 0),  [0xBF] = MODRM(W16, R, IMM_NONE, 0),  /* movsx */
    [0xC0] = MODRM(W8, RW, IMM_NONE, LOCK_OK),                                 /* xadd */
    [0xC1] = MODRM(WV, RW, IMM_NONE, LOCK_OK),
    [0xC3] = MODRM(W32, W, IMM_NONE, NO_66),                                   /* movnti */
};

/* The bytes of one instruction, read front to back; never beyond limit. */
struct cursor {
    const uint8_t *code;
    size_t limit;       /* min(avail, MMIO_INSN_MAX) */
    size_t pos;
};

/* Reads n (1, 2 or 4) bytes as a little-endian number; false if they are not all there. */
static bool take(struct cursor *c, size_t n, uint32_t *value)
{
    if (n > c->limit - c->pos)
        return false;
    uint32_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint32_t)c->code[c->pos + i] << (8 * i);
    c->pos += n;
    *value = v;
    return true;
}

/* Reads one byte; false if it is not there. */
static bool take_byte(struct cursor *c, uint8_t *b)
{
    uint32_t v;
    if (!take(c, 1, &v))
        return false;
    *b = (uint8_t)v;
    return true;
}

/* Two's complement reading of the low `bits` bits of v, without implementation-defined
 * conversions. */
static int32_t sign_extend(uint32_t v, int bits)
{
    uint32_t sign = 1u << (bits - 1);
    v &= sign | (sign - 1);
    return v & sign ? -(int32_t)(sign - 1 - (v ^ sign)) - 1 : (int32_t)v;
}

/* The prefixes seen before the opcode. */
struct prefixes {
    bool opsize16;      /* 66 */
    bool addr16;        /* 67 */
    bool lock;          /* F0 */
    bool f2, f3;        /* repne, rep/repe */
    uint8_t last_rep;   /* the later of F2/F3, 0 if neither */
};

/* Consumes the prefix bytes. False if no opcode byte follows within the limit, so that an
 * instruction of 15 prefixes (or more) is refused as the CPU refuses it. */
static bool read_prefixes(struct cursor *c, struct prefixes *p)
{
    for (;;) {
        uint8_t b;
        if (!take_byte(c, &b))
            return false;
        switch (b) {
        case 0x66: p->opsize16 = true; break;
        case 0x67: p->addr16 = true; break;
        case 0xF0: p->lock = true; break;
        case 0xF2: p->f2 = true; p->last_rep = b; break;
        case 0xF3: p->f3 = true; p->last_rep = b; break;
        case 0x26: case 0x2E: case 0x36: case 0x3E: case 0x64: case 0x65: break;
        default:
            c->pos--;   /* the opcode: leave it for the caller */
            return true;
        }
    }
}

/* Decodes ModRM, SIB and displacement (32-bit addressing) into op. Returns false if the
 * bytes run out. *mod and *reg get the ModRM fields; for mod 11 op is left without base. */
static bool read_modrm(struct cursor *c, struct mmio_operand *op, uint8_t *mod, uint8_t *reg)
{
    uint8_t modrm, sib;
    uint32_t disp = 0;

    if (!take_byte(c, &modrm))
        return false;
    *mod = modrm >> 6;
    *reg = (modrm >> 3) & 7;
    uint8_t rm = modrm & 7;
    if (*mod == 3)
        return true;

    bool disp32 = *mod == 2;
    if (rm == 4) {                          /* a SIB byte follows */
        if (!take_byte(c, &sib))
            return false;
        uint8_t index = (sib >> 3) & 7, base = sib & 7;
        if (index != 4) {                   /* index 100: none */
            op->index = (int8_t)index;
            op->scale = (uint8_t)(1u << (sib >> 6));
        }
        if (base == 5 && *mod == 0)
            disp32 = true;                  /* no base, disp32 */
        else
            op->base = (int8_t)base;
    } else if (rm == 5 && *mod == 0) {
        disp32 = true;                      /* no base, disp32 */
    } else {
        op->base = (int8_t)rm;
    }

    if (*mod == 1) {
        if (!take(c, 1, &disp))
            return false;
        op->disp = sign_extend(disp, 8);
    } else if (disp32) {
        if (!take(c, 4, &disp))
            return false;
        op->disp = sign_extend(disp, 32);
    }
    return true;
}

/* Gives operand op the string address reg ([ESI] or [EDI]). */
static void string_operand(struct mmio_operand *op, int reg, uint8_t width, uint8_t access)
{
    op->base = (int8_t)reg;
    op->width = width;
    op->read = access & R;
    op->write = access & W;
}

/* Decodes a string form: [ESI] source first, then [EDI]; checks its rep prefix. */
static int decode_string(const struct form *f, const struct prefixes *p, uint8_t width,
                         struct mmio_insn *insn)
{
    if (f->flags & READS_ESI)
        string_operand(&insn->op[insn->noperands++], MMIO_ESI, width, R);
    if (f->access)
        string_operand(&insn->op[insn->noperands++], MMIO_EDI, width, f->access);
    insn->string = true;
    if (p->f2 && p->f3)
        return -1;              /* which one the CPU obeys is not architectural */
    if (p->f2 && !(f->flags & REPNE_OK))
        return -1;              /* repne on movs/stos/lods: undefined */
    insn->rep = p->last_rep;
    return p->lock ? -1 : 0;
}

/* Does the work of mmio_decode() on an insn cleared to no operands; on -1 it may leave
 * operands half filled, which mmio_decode() then clears. */
static int decode(const uint8_t *code, size_t avail, struct mmio_insn *insn)
{
    struct cursor c = { code, avail < MMIO_INSN_MAX ? avail : MMIO_INSN_MAX, 0 };
    struct prefixes p = { 0 };
    uint8_t b;

    if (!read_prefixes(&c, &p))
        return -1;
    for (size_t i = 0; i < sizeof insn->opcode && c.pos + i < avail; i++)
        insn->opcode[i] = code[c.pos + i];
    if (p.addr16)
        return -1;              /* 16-bit addressing changes ModRM and moffs: unsupported */

    if (!take_byte(&c, &b))
        return -1;
    const struct form *f = &onebyte[b];
    bool is_0f = b == 0x0F;
    if (is_0f) {
        if (!take_byte(&c, &b))
            return -1;
        f = &twobyte[b];
    }
    if (f->shape == SHAPE_NONE)
        return -1;

    uint8_t width = f->width == W8 ? 1 : f->width == W16 ? 2 : f->width == W32 ? 4
                  : p.opsize16 ? 2 : 4;
    struct mmio_operand *op = &insn->op[0];
    uint32_t value;

    if (f->shape == SHAPE_STRING) {
        insn->length = (uint8_t)c.pos;
        return decode_string(f, &p, width, insn);
    }

    if (f->shape == SHAPE_MOFFS) {
        if (!take(&c, 4, &value))
            return -1;
        insn->length = (uint8_t)c.pos;
        insn->noperands = 1;
        op->disp = sign_extend(value, 32);
        op->width = width;
        op->read = f->access & R;
        op->write = f->access & W;
        return p.lock ? -1 : 0;
    }

    /* SHAPE_MODRM */
    uint8_t mod, reg;
    if (!read_modrm(&c, op, &mod, &reg))
        return -1;
    struct member m = { f->access, f->flags };
    if (f->group)
        m = f->group[reg];
    if (m.access == 0)
        return -1;
    enum imm imm = (m.flags & NO_IMM) ? IMM_NONE : f->imm;
    size_t imm_bytes = imm == IMM_8 ? 1 : imm == IMM_W ? width : 0;
    if (imm_bytes > c.limit - c.pos)
        return -1;
    c.pos += imm_bytes;
    insn->length = (uint8_t)c.pos;

    if (mod == 3)
        return -1;              /* a register operand: cannot have faulted on MMIO */
    if (p.lock && !(m.flags & LOCK_OK))
        return -1;              /* the CPU raises #UD */
    if (is_0f && (p.f2 || p.f3))
        return -1;              /* a mandatory prefix: some other instruction */
    if (p.opsize16 && (m.flags & NO_66))
        return -1;

    insn->noperands = 1;
    op->width = width;
    op->read = m.access & R;
    op->write = m.access & W;
    if (m.flags & BITREG)
        op->bitoffset_reg = (int8_t)reg;
    if ((m.flags & POP) && op->base == MMIO_ESP)
        op->disp = sign_extend((uint32_t)op->disp + width, 32);
    return 0;
}

/* Sets insn to no operands: both operands without registers, scale 1, no access. */
static void clear_operands(struct mmio_insn *insn)
{
    insn->noperands = 0;
    insn->string = false;
    insn->rep = 0;
    memset(insn->op, 0, sizeof insn->op);
    for (int i = 0; i < 2; i++) {
        insn->op[i].base = insn->op[i].index = insn->op[i].bitoffset_reg = MMIO_NOREG;
        insn->op[i].scale = 1;
    }
}

int mmio_decode(const uint8_t *code, size_t avail, struct mmio_insn *insn)
{
    memset(insn, 0, sizeof *insn);
    clear_operands(insn);
    if (decode(code, avail, insn) == 0)
        return 0;
    clear_operands(insn);   /* a refused instruction keeps only its length and opcode */
    return -1;
}

/* How far a register bit offset moves a bt operand: floor(offset / bits) * width bytes,
 * with offset the register read as a signed number of the operand's width. Written with
 * unsigned arithmetic so that it wraps as the CPU does and is defined in C. */
static uint32_t bit_offset_move(uint32_t offset, uint8_t width)
{
    int shift = width == 2 ? 4 : 5;
    if (width == 2)
        offset = (uint32_t)sign_extend(offset, 16);
    uint32_t units = offset & 0x80000000u ? ~(~offset >> shift) : offset >> shift;
    return units * width;
}

uint32_t mmio_operand_address(const struct mmio_insn *insn, int i, const uint32_t regs[8])
{
    const struct mmio_operand *op = &insn->op[i];
    uint32_t addr = (uint32_t)op->disp;
    if (op->base != MMIO_NOREG)
        addr += regs[op->base];
    if (op->index != MMIO_NOREG)
        addr += regs[op->index] * op->scale;
    if (op->bitoffset_reg != MMIO_NOREG)
        addr += bit_offset_move(regs[op->bitoffset_reg], op->width);
    return addr;
}
