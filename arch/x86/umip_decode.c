/*
 * umip_decode.c - decoding the instructions UMIP protects from bytes a program supplied:
 * portable (no CPU access), so the host's fuzzer feeds it arbitrary bytes
 * (tests/fuzz/fuzz_umip_decode.c).
 */
#include "arch/x86/umip_decode.h"

#include "kernel/lib/string.h"

bool umip_decode(const uint8_t *code, int n, const uint32_t regs[8], struct umip_insn *in)
{
    static const int8_t seg_of_prefix[6][2] = { { 0x26, 0 }, { 0x2e, 1 }, { 0x36, 2 },
                                                { 0x3e, 3 }, { 0x64, 4 }, { 0x65, 5 } };
    int i = 0;
    memset(in, 0, sizeof *in);
    in->segment = -1;
    for (;; i++) {
        if (i >= n || i >= UMIP_INSN_MAX)
            return false;
        uint8_t b = code[i];
        bool prefix = true;
        if (b == 0x66)
            in->operand16 = true;
        else if (b == 0xf2 || b == 0xf3)
            ; /* repeat prefixes do not change these instructions */
        else if (b == 0x67 || b == 0xf0)
            return false; /* 16-bit addressing is not decoded; lock is #UD anyway */
        else {
            prefix = false;
            for (int s = 0; s < 6; s++)
                if (b == (uint8_t)seg_of_prefix[s][0])
                    in->segment = seg_of_prefix[s][1], prefix = true;
        }
        if (!prefix)
            break;
    }
    if (i + 3 > n || code[i] != 0x0f || (code[i + 1] != 0x01 && code[i + 1] != 0x00))
        return false;
    in->opcode2 = code[i + 1];
    uint8_t modrm = code[i + 2];
    i += 3;
    in->mod = modrm >> 6, in->reg = (modrm >> 3) & 7, in->rm = modrm & 7;
    if (in->mod != 3) {
        uint32_t addr = 0;
        int base = in->rm;
        if (in->rm == 4) { /* SIB */
            if (i >= n)
                return false;
            uint8_t sib = code[i++];
            int scale = sib >> 6, index = (sib >> 3) & 7;
            base = sib & 7;
            if (index != 4)
                addr += regs[index] << scale;
            if (base == 5 && in->mod == 0)
                base = -1; /* disp32, no base */
        } else if (in->rm == 5 && in->mod == 0) {
            base = -1; /* disp32 alone */
        }
        if (base >= 0) {
            addr += regs[base];
            in->stack_default = base == 4 || base == 5;
        }
        int disp_len = in->mod == 1 ? 1 : (in->mod == 2 || base < 0) ? 4 : 0;
        if (i + disp_len > n)
            return false;
        if (disp_len == 1)
            addr += (uint32_t)(int32_t)(int8_t)code[i];
        else if (disp_len == 4) {
            uint32_t d;
            memcpy(&d, code + i, 4);
            addr += d;
        }
        i += disp_len;
        in->address = addr;
    }
    if (i > UMIP_INSN_MAX)
        return false; /* the CPU would not have executed it (#GP) */
    in->length = i;
    return true;
}
