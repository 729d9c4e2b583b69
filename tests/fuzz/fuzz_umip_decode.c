/* fuzz_umip_decode.c - the UMIP decoder (arch/x86/umip_decode.c) on arbitrary bytes, as a
 * program could place them before an sgdt: it never reads past the bytes it was given, an
 * accepted instruction is at most 15 bytes and of the form it claims, and the operand
 * address depends on nothing but the bytes and the registers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/umip_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 32)
        return 0;
    uint32_t regs[8];
    memcpy(regs, data, sizeof regs); /* the first 32 bytes are the registers */
    data += 32, size -= 32;
    int n = size > 40 ? 40 : (int)size;
    uint8_t *code = malloc(n ? (size_t)n : 1); /* exact size: ASan sees any overread */
    memcpy(code, data, (size_t)n);
    struct umip_insn in, again;
    if (umip_decode(code, n, regs, &in)) {
        if (in.length < 3 || in.length > n || in.length > UMIP_INSN_MAX)
            abort();
        int op = in.length - 1;
        while (op > 0 && !(code[op - 1] == 0x0f && (code[op] == 0x00 || code[op] == 0x01) &&
                           (code[op + 1] >> 6) == in.mod))
            op--;
        if (op == 0 || in.opcode2 != code[op] || in.mod > 3 || in.reg > 7 || in.rm > 7)
            abort();
        /* Deterministic: the same bytes decode the same way. */
        if (!umip_decode(code, n, regs, &again) || memcmp(&in, &again, sizeof in))
            abort();
    }
    free(code);
    return 0;
}
