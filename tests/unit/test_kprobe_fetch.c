/* test_kprobe_fetch.c - fetch args read at a probe hit: registers, the stack and $argN in
 * this kernel's calling convention, @ADDR/@SYM, nested dereferences, sizes and signs, string
 * addresses, and that a read outside the (fake) memory only fails the fetch. */
#include "unit.h"

#include <stdint.h>
#include <string.h>

#include "kernel/lib/errno.h"
#include "trace/kprobes/kprobe_fetch.h"

/* A fake kernel memory: MEM_SIZE bytes at MEM_BASE; anything else cannot be read. */
#define MEM_BASE 0xc0100000u
#define MEM_SIZE 256u
static uint8_t memory[MEM_SIZE];
static unsigned reads;

static bool fake_read(void *ctx, uint32_t addr, void *buf, uint32_t len)
{
    (void)ctx;
    reads++;
    if (addr < MEM_BASE || len > MEM_SIZE || addr - MEM_BASE > MEM_SIZE - len)
        return false;
    memcpy(buf, memory + (addr - MEM_BASE), len);
    return true;
}

static void put32(uint32_t addr, uint32_t v) { memcpy(memory + (addr - MEM_BASE), &v, 4); }

/* A hit at a function entry: sp at MEM_BASE+0x40 holding the return address, then args
 * 7 and -2 and a pointer to MEM_BASE+0x80; ax = MEM_BASE+0x10, cx = 0x1234abcd. */
static struct kp_site site(void)
{
    memset(memory, 0, sizeof memory);
    put32(MEM_BASE + 0x40, 0xc0105555);
    put32(MEM_BASE + 0x44, 7);
    put32(MEM_BASE + 0x48, 0xfffffffe);
    put32(MEM_BASE + 0x4c, MEM_BASE + 0x80);
    put32(MEM_BASE + 0x80, MEM_BASE + 0x90);
    memcpy(memory + 0x90, "hello", 6);
    put32(MEM_BASE + 0x10, 0x8899aabb);
    put32(MEM_BASE + 0x14, 0x11223344);
    struct kp_site s = { .read = fake_read };
    s.regs[KP_REG_AX] = MEM_BASE + 0x10;
    s.regs[KP_REG_CX] = 0x1234abcd;
    s.regs[KP_REG_SP] = MEM_BASE + 0x40;
    s.known_regs = 1u << KP_REG_AX | 1u << KP_REG_CX | 1u << KP_REG_SP;
    return s;
}

/* The value of the only arg of "p f ARG" (a parse error or fetch status is returned
 * negated/as is, the value through *v). */
static int fetch(const char *argtext, uint32_t sym_addr, uint64_t *v)
{
    char line[128];
    snprintf(line, sizeof line, "p f %s", argtext);
    struct kp_command cmd;
    struct kp_error err;
    int ret = kp_parse(line, strlen(line), &cmd, &err);
    if (ret)
        return ret;
    struct kp_site s = site();
    ret = (int)kp_fetch_value(&cmd.args[0], &s, sym_addr, v);
    kp_command_free(&cmd);
    return ret;
}

TEST(registers_are_cut_to_the_type)
{
    uint64_t v;
    CHECK_EQ_INT(fetch("%cx", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT(v, 0x1234abcd);
    CHECK_EQ_INT(fetch("%ecx:u8", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT(v, 0xcd);
    CHECK_EQ_INT(fetch("%cx:s8", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT((int64_t)v, -51);
    CHECK_EQ_INT(fetch("%cx:s16", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT((int64_t)v, (int16_t)0xabcd);
    CHECK_EQ_INT(fetch("%cx:u64", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT(v, 0x1234abcd);
    CHECK_EQ_INT(fetch("%dx", 0, &v), KP_FETCH_UNAVAILABLE);  /* the site did not save it */
}

TEST(stack_and_args_follow_this_kernels_convention)
{
    uint64_t v;
    CHECK_EQ_INT(fetch("$stack", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT(v, MEM_BASE + 0x40);
    CHECK_EQ_INT(fetch("$stack0", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT(v, 0xc0105555);  /* the return address */
    CHECK_EQ_INT(fetch("$arg1", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT(v, 7);
    CHECK_EQ_INT(fetch("$arg2:s32", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT((int64_t)v, -2);
    CHECK_EQ_INT(fetch("$stack2:s32", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT((int64_t)v, -2);
    CHECK_EQ_INT(fetch("+8($stack)", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT(v, 0xfffffffe);
}

TEST(memory_and_dereferences)
{
    uint64_t v;
    CHECK_EQ_INT(fetch("+0(%ax)", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT(v, 0x8899aabb);
    CHECK_EQ_INT(fetch("+4(%ax):u16", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT(v, 0x3344);
    CHECK_EQ_INT(fetch("+0(%ax):u64", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT(v, 0x112233448899aabbull);
    CHECK_EQ_INT(fetch("@0xc0100010:x8", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT(v, 0xbb);
    CHECK_EQ_INT(fetch("@sym+4", MEM_BASE + 0x10, &v), KP_FETCH_OK);
    CHECK_EQ_INT(v, 0x11223344);
    CHECK_EQ_INT(fetch("@sym-4:s8", MEM_BASE + 0x14, &v), KP_FETCH_OK);
    CHECK_EQ_INT((int64_t)v, (int8_t)0xbb);
    /* $arg3 is a pointer to a pointer to "hello": two reads, then the last one. */
    CHECK_EQ_INT(fetch("+0(+0($arg3)):u8", 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT(v, 'h');
    CHECK_EQ_INT(fetch("-8(+12(%sp))", 0, &v), KP_FETCH_OK);  /* [sp+12] - 8 = base+0x78 */
    CHECK_EQ_INT(v, 0);
}

TEST(bad_addresses_only_fail_the_fetch)
{
    uint64_t v = 99;
    CHECK_EQ_INT(fetch("@0", 0, &v), KP_FETCH_FAULT);
    CHECK_EQ_INT(fetch("@0xffffffff:u64", 0, &v), KP_FETCH_FAULT);
    CHECK_EQ_INT(fetch("@0xc01000fd", 0, &v), KP_FETCH_FAULT);  /* runs past the end */
    CHECK_EQ_INT(fetch("+0(+0(%cx))", 0, &v), KP_FETCH_FAULT);
    CHECK_EQ_INT(fetch("$stack65535", 0, &v), KP_FETCH_FAULT);
    CHECK_EQ_INT(fetch("+0x7fffffff(%ax)", 0, &v), KP_FETCH_FAULT);
    CHECK_EQ_INT(v, 99);  /* untouched by a failed fetch */
}

TEST(string_addresses)
{
    struct kp_command cmd;
    struct kp_error err;
    const char *line = "p f a=+0(+12($stack)):string b=@0xc0100090:string $comm";
    CHECK_EQ_INT(kp_parse(line, strlen(line), &cmd, &err), 0);
    struct kp_site s = site();
    uint32_t addr = 0;
    CHECK_EQ_INT(kp_fetch_string_addr(&cmd.args[0], &s, 0, &addr), KP_FETCH_OK);
    CHECK_EQ_INT(addr, MEM_BASE + 0x80);
    CHECK_EQ_INT(kp_fetch_string_addr(&cmd.args[1], &s, 0, &addr), KP_FETCH_OK);
    CHECK_EQ_INT(addr, MEM_BASE + 0x90);
    CHECK_EQ_INT(kp_fetch_string_addr(&cmd.args[2], &s, 0, &addr), KP_FETCH_UNAVAILABLE);
    kp_command_free(&cmd);
}

TEST(retval_and_possibility)
{
    struct kp_command cmd;
    struct kp_error err;
    const char *line = "r f $retval:s16 %bx";
    CHECK_EQ_INT(kp_parse(line, strlen(line), &cmd, &err), 0);
    struct kp_site s = site();
    uint64_t v;
    CHECK_EQ_INT(kp_fetch_value(&cmd.args[0], &s, 0, &v), KP_FETCH_UNAVAILABLE);
    s.retval = 0x1ffff;
    s.has_retval = true;
    CHECK_EQ_INT(kp_fetch_value(&cmd.args[0], &s, 0, &v), KP_FETCH_OK);
    CHECK_EQ_INT((int64_t)v, -1);
    CHECK(kp_fetch_possible(&cmd.args[0], s.known_regs, true));
    CHECK(!kp_fetch_possible(&cmd.args[0], s.known_regs, false));
    CHECK(!kp_fetch_possible(&cmd.args[1], s.known_regs, true));  /* bx not saved */
    CHECK(kp_fetch_possible(&cmd.args[1], s.known_regs | 1u << KP_REG_BX, true));
    kp_command_free(&cmd);
}
