/*
 * test_insn_decode.c - instruction lengths (arch/x86/insn_decode.c): a table of encodings
 * (from `as --32`, checked with `objdump -d`) covering each shape of the maps, prefixes,
 * every ModRM/SIB/displacement form and the refusals; then every instruction objdump finds
 * in build/tracekern.elf, decoded from exactly its own bytes and compared with objdump's
 * length. Each case is decoded from an exactly sized heap copy: ASan sees any overread.
 */
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

#include "arch/x86/insn_decode.h"

/* Parses hex ("8b 44 24 08") into bytes; returns how many. */
static size_t parse_hex(const char *hex, uint8_t *out, size_t max)
{
    size_t n = 0;
    while (*hex && n < max) {
        if (*hex == ' ') {
            hex++;
            continue;
        }
        unsigned v;
        if (sscanf(hex, "%2x", &v) != 1)
            break;
        out[n++] = (uint8_t)v;
        hex += 2;
    }
    return n;
}

/* Decodes bytes from a copy of exactly n bytes. */
static int decode_exact(const uint8_t *bytes, size_t n, struct insn *in)
{
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, bytes, n);
    int r = insn_decode(copy, n, in);
    free(copy);
    return r;
}

struct len_case {
    const char *text;
    const char *hex;
};

static const struct len_case valid[] = {
    { "nopl 0x0(%eax,%eax,1)", "0f 1f 44 00 00" },
    { "push %ebp", "55" },
    { "mov %esp,%ebp", "89 e5" },
    { "sub $0x20,%esp", "83 ec 20" },
    { "mov 0xc01924fc,%eax", "a1 fc 24 19 c0" },
    { "mov 0xc01924fc,%edi", "8b 3d fc 24 19 c0" },
    { "mov 0x8(%ebp),%esi", "8b 75 08" },
    { "mov 0x33c(%eax),%edx", "8b 90 3c 03 00 00" },
    { "mov %eax,0x8(%esp)", "89 44 24 08" },
    { "mov %eax,(%esp)", "89 04 24" },
    { "mov (%esi,%ebx,1),%eax", "8b 04 1e" },
    { "mov 0x358(%edi,%ebx,4),%eax", "8b 84 9f 58 03 00 00" },
    { "mov 0x0(,%eax,4),%eax", "8b 04 85 00 00 00 00" },
    { "lea 0x0(%esi,%eiz,1),%esi", "8d 74 26 00" },
    { "lea 0x0(%esi,%eiz,1),%esi (disp32)", "8d b4 26 00 00 00 00" },
    { "call rel32", "e8 98 9d 00 00" },
    { "jmp rel32", "e9 00 01 00 00" },
    { "jmp rel8", "eb 12" },
    { "jne rel8", "75 15" },
    { "jne rel32", "0f 85 10 01 00 00" },
    { "ret", "c3" },
    { "ret $0x4", "c2 04 00" },
    { "movl $0x1,0x4(%esp)", "c7 44 24 04 01 00 00 00" },
    { "movw $0x1,0x4(%esp)", "66 c7 44 24 04 01 00" },
    { "movb $0x1,(%eax)", "c6 00 01" },
    { "cmpl $0x7f,0x8(%ebp)", "83 7d 08 7f" },
    { "cmpl $0x1000,0x8(%ebp)", "81 7d 08 00 10 00 00" },
    { "testb $0x1,(%eax)", "f6 00 01" },
    { "notl (%eax)", "f7 10" },
    { "testl $0x100,0x4(%eax)", "f7 40 04 00 01 00 00" },
    { "test $0x1,%ax", "66 f7 c0 01 00" },
    { "mov $0x12345678,%eax", "b8 78 56 34 12" },
    { "mov $0x1234,%ax", "66 b8 34 12" },
    { "mov $0x1,%al", "b0 01" },
    { "push $0x12345678", "68 78 56 34 12" },
    { "push $0x1", "6a 01" },
    { "imul $0x64,%eax,%eax", "6b c0 64" },
    { "imul $0x1000,%eax,%eax", "69 c0 00 10 00 00" },
    { "movzbl 0x4(%eax),%edx", "0f b6 50 04" },
    { "movzwl (%eax),%eax", "0f b7 00" },
    { "cmove %edx,%eax", "0f 44 c2" },
    { "sete %al", "0f 94 c0" },
    { "bswap %eax", "0f c8" },
    { "btl $0x3,(%eax)", "0f ba 20 03" },
    { "shld $0x4,%edx,%eax", "0f a4 d0 04" },
    { "lock cmpxchg %ecx,(%edx)", "f0 0f b1 0a" },
    { "rep movsl", "f3 a5" },
    { "repnz scasb", "f2 ae" },
    { "rep stos %eax,%es:(%edi)", "f3 ab" },
    { "cpuid", "0f a2" },
    { "rdtsc", "0f 31" },
    { "ud2", "0f 0b" },
    { "mov %cr0,%eax", "0f 20 c0" },
    { "mov %eax,%db7", "0f 23 f8" },
    { "lgdtl (%eax)", "0f 01 10" },
    { "invlpg (%eax)", "0f 01 38" },
    { "lfence", "0f ae e8" },
    { "sysenter", "0f 34" },
    { "int3", "cc" },
    { "int $0x80", "cd 80" },
    { "iret", "cf" },
    { "hlt", "f4" },
    { "cli", "fa" },
    { "sti", "fb" },
    { "pushf", "9c" },
    { "popf", "9d" },
    { "mov %eax,%ss", "8e d0" },
    { "ljmp $0x8,$0xc0100000", "ea 00 00 10 c0 08 00" },
    { "lcall $0x8,$0x1234 (66)", "66 9a 34 12 08 00" },
    { "enter $0x10,$0x0", "c8 10 00 00" },
    { "leave", "c9" },
    { "in $0x60,%al", "e4 60" },
    { "out %al,(%dx)", "ee" },
    { "mov %fs:0x0,%eax (seg prefix, moffs)", "64 a1 00 00 00 00" },
    { "mov 0x1234,%ax (67 moffs16)", "67 a1 34 12" },
    { "mov (%bx,%si),%eax (67)", "67 8b 00" },
    { "mov 0x1234,%eax (67 disp16)", "67 8b 06 34 12" },
    { "mov 0x12(%bp),%eax (67 disp8)", "67 8b 46 12" },
    { "mov 0x1234(%bp),%eax (67 disp16)", "67 8b 86 34 12" },
    { "fldl 0x8(%ebp)", "dd 45 08" },
    { "pshufd $0x1b,%xmm1,%xmm0 (0F 70 with 66)", "66 0f 70 c1 1b" },
    { "pshufb %xmm1,%xmm0 (0F 38)", "66 0f 38 00 c1" },
    { "palignr $0x4,%xmm1,%xmm0 (0F 3A)", "66 0f 3a 0f c1 04" },
    { "call *0x10(%eax)", "ff 50 10" },
    { "jmp *0xc0100000(,%eax,4)", "ff 24 85 00 00 10 c0" },
    { "les (%eax),%eax", "c4 00" },
    { "loop rel8", "e2 fe" },
    { "call rel16 (66)", "66 e8 00 01" },
    { "jne rel16 (66)", "66 0f 85 00 01" },
    { "xchg %ax,%ax", "66 90" },
    { "14 prefixes + nop", "66 66 66 66 66 66 66 66 66 66 66 66 66 66 90" },
};

TEST(decodes_the_table)
{
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        uint8_t bytes[32];
        size_t n = parse_hex(valid[i].hex, bytes, sizeof bytes);
        struct insn in;
        int r = decode_exact(bytes, n, &in);
        if (r != 0 || in.length != n) {
            char msg[256];
            snprintf(msg, sizeof msg, "%s: result %d, length %u, expected %zu", valid[i].text,
                     r, r == 0 ? in.length : 0, n);
            unit_fail(__FILE__, __LINE__, msg);
        }
        /* one byte fewer never decodes */
        CHECK(decode_exact(bytes, n - 1, &in) == -1);
    }
}

TEST(reports_the_shape)
{
    struct insn in;
    uint8_t jne32[] = { 0x0f, 0x85, 0x10, 0x01, 0x00, 0x00 };
    CHECK_EQ_INT(decode_exact(jne32, sizeof jne32, &in), 0);
    CHECK_EQ_INT(in.map, INSN_MAP_0F);
    CHECK_EQ_INT(in.opcode, 0x85);
    CHECK_EQ_INT(in.imm_bytes, 4);
    CHECK(!in.has_modrm);
    uint8_t sib[] = { 0xf0, 0x66, 0x8b, 0x84, 0x9f, 0x58, 0x03, 0x00, 0x00 };
    CHECK_EQ_INT(decode_exact(sib, sizeof sib, &in), 0);
    CHECK_EQ_INT(in.nprefixes, 2);
    CHECK(in.lock && in.operand16 && in.has_modrm);
    CHECK_EQ_INT(in.modrm, 0x84);
    CHECK_EQ_INT(insn_modrm_mod(&in), 2);
    CHECK_EQ_INT(insn_modrm_reg(&in), 0);
    CHECK_EQ_INT(insn_modrm_rm(&in), 4);
    uint8_t rep[] = { 0xf2, 0xf3, 0xa5 };
    CHECK_EQ_INT(decode_exact(rep, sizeof rep, &in), 0);
    CHECK(in.rep && !in.repne); /* the last of F2/F3 counts */
}

TEST(refuses_undefined_and_too_long)
{
    static const char *const bad[] = {
        "d6",           /* salc: undefined */
        "0f 04", "0f 0a", "0f 0c", "0f 24", "0f 36", "0f 39", "0f 7a", "0f a6",
        "66 66 66 66 66 66 66 66 66 66 66 66 66 66 66 90", /* 16 bytes */
        "66 66 66 66 66 66 66 66 66 66 66 66 66 66 66", /* prefixes only */
        "f3 66 66 66 66 66 66 66 66 66 66 66 8b 84 9f 58 03 00 00", /* > 15 */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t bytes[32];
        size_t n = parse_hex(bad[i], bytes, sizeof bytes);
        struct insn in;
        if (decode_exact(bytes, n, &in) != -1)
            unit_fail(__FILE__, __LINE__, bad[i]);
    }
    struct insn in;
    CHECK_EQ_INT(insn_decode((const uint8_t *)"", 0, &in), -1);
}

/* Every instruction of the kernel image: objdump's bytes, one line each (--insn-width=16),
 * decoded from exactly those bytes, must have objdump's length. Lines objdump cannot decode
 * ("(bad)") and the padding after the last function are skipped. */
TEST(agrees_with_objdump_on_the_kernel)
{
    FILE *f = popen("objdump -d --insn-width=16 -j .text build/tracekern.elf 2>/dev/null", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[512];
    unsigned checked = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        char *tab1 = strchr(line, '\t');
        if (!tab1 || !strchr(line, ':') || strchr(line, ':') > tab1)
            continue;
        char *tab2 = strchr(tab1 + 1, '\t');
        if (!tab2 || strstr(tab2, "(bad)"))
            continue;
        *tab2 = '\0';
        uint8_t bytes[32];
        size_t n = parse_hex(tab1 + 1, bytes, sizeof bytes);
        if (n == 0)
            continue;
        struct insn in;
        int r = decode_exact(bytes, n, &in);
        checked++;
        if (r != 0 || in.length != n) {
            if (bad++ < 10) {
                char msg[600];
                snprintf(msg, sizeof msg, "%.40s[%s]: result %d length %u", line, tab1 + 1,
                         r, r == 0 ? in.length : 0);
                unit_fail(__FILE__, __LINE__, msg);
            }
        }
    }
    pclose(f);
    printf("# %u instructions of build/tracekern.elf decoded, %u disagree with objdump\n",
           checked, bad);
    CHECK(checked > 10000); /* the image was there and objdump read it */
    CHECK_EQ_INT(bad, 0);
}

/* Decodes hex into in; fails the test if it does not decode. */
static void decode_hex(const char *hex, struct insn *in)
{
    uint8_t bytes[32];
    size_t n = parse_hex(hex, bytes, sizeof bytes);
    if (decode_exact(bytes, n, in) != 0)
        unit_fail(__FILE__, __LINE__, hex);
}

TEST(finds_instruction_boundaries)
{
    /* sys_getresuid's first instructions: nopl (5), push (1), mov (2), push (1), sub (3) */
    static const uint8_t code[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00, 0x55, 0x89, 0xe5, 0x56,
                                    0x83, 0xec, 0x20 };
    static const int expect[] = { 0, -1, -1, -1, -1, 0, 0, -1, 0, 0, -1, -1, 0 };
    for (size_t off = 0; off <= sizeof code; off++)
        CHECK_EQ_INT(insn_boundary(code, sizeof code, off), expect[off]);
    static const uint8_t undefined[] = { 0x55, 0xd6, 0x55 };
    CHECK_EQ_INT(insn_boundary(undefined, sizeof undefined, 1), 0);
    CHECK_EQ_INT(insn_boundary(undefined, sizeof undefined, 2), -2);
}

TEST(refuses_what_cannot_be_stepped_out_of_line)
{
    static const char *const refused[] = {
        "cc", "cd 80", "ce", "f1", "cf", "fa", "fb", "9d", "f4", "8e d0", "17", "1f", "07",
        "c4 00", "c5 00", "9a 00 00 10 c0 08 00", "ea 00 00 10 c0 08 00", "ca 04 00", "cb",
        "ff 18", "ff 28", "0f 0b", "0f b9 00", "0f ff 00", "0f 34", "0f 35", "0f 05", "0f 07",
        "0f a1", "0f a9", "0f b2 00", "0f 01 10", "0f 00 d8", "0f 22 c0", "0f 23 f8", "0f 30",
        "0f aa", "66 e8 00 01", "66 c3", "66 75 02", "66 0f 85 00 01", "66 ff d0",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        struct insn in;
        decode_hex(refused[i], &in);
        if (!insn_kprobe_refusal(&in))
            unit_fail(__FILE__, __LINE__, refused[i]);
    }
    static const char *const steppable[] = {
        "55", "89 e5", "8b 04 1e", "89 44 24 08", "e8 98 9d 00 00", "75 15", "0f 85 10 01 00 00",
        "c3", "c2 04 00", "9c", "ff d0", "ff 24 85 00 00 10 c0", "f3 a5", "f0 0f b1 0a",
        "0f a2", "0f 31", "0f 20 c0", "e2 fe", "c9", "5d", "ff 30", "0f ae e8",
    };
    for (size_t i = 0; i < sizeof steppable / sizeof steppable[0]; i++) {
        struct insn in;
        decode_hex(steppable[i], &in);
        if (insn_kprobe_refusal(&in))
            unit_fail(__FILE__, __LINE__, steppable[i]);
    }
}

TEST(says_which_fixup_a_step_needs)
{
    static const struct {
        const char *hex;
        enum insn_fixup fix;
    } cases[] = {
        { "55", INSN_FIX_IP }, { "75 15", INSN_FIX_IP }, { "0f 85 10 01 00 00", INSN_FIX_IP },
        { "eb 12", INSN_FIX_IP }, { "e9 00 01 00 00", INSN_FIX_IP }, { "e2 fe", INSN_FIX_IP },
        { "e8 98 9d 00 00", INSN_FIX_IP_RET }, { "ff d0", INSN_FIX_RET },
        { "ff 50 10", INSN_FIX_RET }, { "ff e0", INSN_FIX_NONE },
        { "ff 24 85 00 00 10 c0", INSN_FIX_NONE }, { "c3", INSN_FIX_NONE },
        { "c2 04 00", INSN_FIX_NONE }, { "9c", INSN_FIX_IP_FLAGS }, { "ff 30", INSN_FIX_IP },
        { "ff 00", INSN_FIX_IP },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct insn in;
        decode_hex(cases[i].hex, &in);
        if (insn_step_fixup(&in) != cases[i].fix)
            unit_fail(__FILE__, __LINE__, cases[i].hex);
    }
}
