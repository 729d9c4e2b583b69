/* fuzz_mmio_decode.c - mmio_decode on arbitrary bytes: never read past avail (the input is an
 * exactly sized heap buffer, so ASan sees any over-read), report only well-formed operands,
 * and agree with itself: bytes after an instruction change nothing, and the instruction's
 * own bytes alone decode the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/mmio_decode.h"

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond))                                                           \
            abort();                                                           \
    } while (0)

/* Decodes the first n bytes of data from a heap copy of exactly n bytes. */
static int decode_copy(const uint8_t *data, size_t n, struct mmio_insn *insn)
{
    uint8_t *copy = malloc(n ? n : 1);
    CHECK(copy != NULL);
    if (n)
        memcpy(copy, data, n);
    int rc = mmio_decode(copy, n, insn);
    free(copy);
    return rc;
}

static bool valid_reg(int r)
{
    return r >= MMIO_NOREG && r <= MMIO_EDI;
}

/* Every field of a successful decoding is in range and consistent with the others. */
static void check_success(const struct mmio_insn *insn, size_t size)
{
    CHECK(insn->length >= 1 && insn->length <= MMIO_INSN_MAX && insn->length <= size);
    CHECK(insn->noperands == 1 || insn->noperands == 2);
    CHECK(insn->rep == 0 || insn->rep == 0xF2 || insn->rep == 0xF3);
    CHECK(insn->string || insn->rep == 0);
    CHECK(insn->string || insn->noperands == 1);
    for (int i = 0; i < insn->noperands; i++) {
        const struct mmio_operand *op = &insn->op[i];
        CHECK(op->width == 1 || op->width == 2 || op->width == 4);
        CHECK(op->read || op->write);
        CHECK(valid_reg(op->base) && valid_reg(op->index) && valid_reg(op->bitoffset_reg));
        CHECK(op->index != MMIO_ESP);
        CHECK(op->scale == 1 || op->scale == 2 || op->scale == 4 || op->scale == 8);
        CHECK(op->index != MMIO_NOREG || op->scale == 1);
        CHECK(op->bitoffset_reg == MMIO_NOREG || op->width != 1);
        if (insn->string) {
            CHECK(op->base == MMIO_ESI || op->base == MMIO_EDI);
            CHECK(op->index == MMIO_NOREG && op->disp == 0 && op->bitoffset_reg == MMIO_NOREG);
            CHECK(op->width == insn->op[0].width);
        }
    }
    if (insn->noperands == 2)
        CHECK(insn->op[0].base == MMIO_ESI && insn->op[1].base == MMIO_EDI);
}

/* Same instruction, same operands (opcode bytes past the instruction may differ). */
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

/* Addresses: string operands are the bare register; others base + index*scale + disp,
 * moved (for bt with a register offset) by a multiple of the width. */
static void check_addresses(const struct mmio_insn *insn, const uint8_t *data, size_t size)
{
    uint32_t regs[8];
    for (int r = 0; r < 8; r++) {
        uint32_t v = 0;
        for (int k = 0; k < 4; k++)
            v = v << 8 | (size ? data[(size_t)(r * 4 + k) % size] : 0);
        regs[r] = v;
    }
    for (int i = 0; i < insn->noperands; i++) {
        const struct mmio_operand *op = &insn->op[i];
        uint32_t a = mmio_operand_address(insn, i, regs);
        uint32_t plain = (uint32_t)op->disp;
        if (op->base != MMIO_NOREG)
            plain += regs[op->base];
        if (op->index != MMIO_NOREG)
            plain += regs[op->index] * op->scale;
        if (op->bitoffset_reg == MMIO_NOREG)
            CHECK(a == plain);
        else
            CHECK((a - plain) % op->width == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct mmio_insn insn, again;
    int rc = mmio_decode(data, size, &insn);

    if (rc != 0) {
        CHECK(rc == -1);
        CHECK(insn.noperands == 0 && !insn.string && insn.rep == 0);
        CHECK(insn.length <= MMIO_INSN_MAX && insn.length <= size);
    } else {
        check_success(&insn, size);
        check_addresses(&insn, data, size);
        /* The instruction's own bytes suffice, and one byte fewer never does. */
        CHECK(decode_copy(data, insn.length, &again) == 0 && same_decoding(&insn, &again));
        CHECK(decode_copy(data, insn.length - 1u, &again) == -1 && again.length == 0);
    }

    /* Trailing garbage: a decoded instruction (or a refused one whose length was known)
     * decodes the same; one refused for want of bytes may now succeed, but only by using
     * bytes past the original input. */
    static const uint8_t garbage[16] = {0xF0, 0x66, 0x0F, 0xC7, 0x84, 0x24, 0xFF, 0x00,
                                        0x8B, 0x3E, 0xF3, 0xA5, 0x67, 0x01, 0x80, 0x05};
    uint8_t *longer = malloc(size + sizeof garbage);
    CHECK(longer != NULL);
    if (size)
        memcpy(longer, data, size);
    memcpy(longer + size, garbage, sizeof garbage);
    int rc2 = mmio_decode(longer, size + sizeof garbage, &again);
    free(longer);
    if (rc == 0 || insn.length != 0) {
        CHECK(rc2 == rc && same_decoding(&insn, &again));
    } else if (rc2 == 0) {
        CHECK(again.length > size);
    }
    return 0;
}
