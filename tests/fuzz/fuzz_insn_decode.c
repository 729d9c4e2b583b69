/* fuzz_insn_decode.c - the instruction length decoder (arch/x86/insn_decode.c) on arbitrary
 * bytes: it never reads past the bytes it was given (ASan), an accepted instruction is 1 to
 * 15 bytes and within them, its parts add up (prefixes, escape bytes, ModRM, immediate) and
 * decoding is deterministic and independent of the bytes after the instruction. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/insn_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = size > 20 ? 20 : size;
    uint8_t *code = malloc(n ? n : 1); /* exact size: ASan sees any overread */
    memcpy(code, data, n);
    struct insn in, again;
    if (insn_decode(code, n, &in) == 0) {
        if (in.length < 1 || in.length > INSN_MAX || in.length > n)
            abort();
        unsigned escape = in.map == INSN_MAP_1 ? 0 : in.map == INSN_MAP_0F ? 1 : 2;
        if (in.nprefixes + 1u + escape + in.has_modrm + in.imm_bytes > in.length)
            abort();
        if (code[in.nprefixes + escape] != in.opcode)
            abort();
        /* the same bytes, cut right after the instruction, decode the same way */
        if (insn_decode(code, in.length, &again) != 0 || memcmp(&in, &again, sizeof in))
            abort();
    }
    free(code);
    return 0;
}
