/* test_kprobe_parse.c - kprobe_events lines: a table of valid lines with what they mean and
 * the line kprobe_events prints back, a table of refused lines with their errno and the
 * column error_log's caret would point at, and the limits (args, line length, nesting). */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "collect_writer.h"
#include "kernel/lib/errno.h"
#include "trace/kprobes/kprobe_parse.h"

/* Parses a C string; on success the printed kprobe_events line is left in collected. */
static int parse(const char *line, struct kp_command *cmd, struct kp_error *err)
{
    int ret = kp_parse(line, strlen(line), cmd, err);
    collect_reset();
    if (ret == 0 && cmd->op == KP_OP_ADD)
        kp_print_command(&collect_writer, cmd);
    return ret;
}

/* Valid lines and the kprobe_events line Linux would print for each. */
static const struct {
    const char *line;
    const char *shown;
} valid[] = {
    { "p do_fork", "p:kprobes/p_do_fork_0 do_fork\n" },
    { "p:myprobe do_sys_open dfd=%ax filename=%dx flags=%cx mode=+4($stack)",
      "p:kprobes/myprobe do_sys_open dfd=%ax filename=%dx flags=%cx mode=+4($stack)\n" },
    { "r:myretprobe do_sys_open $retval", "r:kprobes/myretprobe do_sys_open arg1=$retval\n" },
    { "r16:grp/ev sys_read+0 ret=$retval:s32", "r16:grp/ev sys_read ret=$retval:s32\n" },
    { "p:g1/e1 kmalloc+0x10 %eax %ebx:u8", "p:g1/e1 kmalloc+16 arg1=%eax arg2=%ebx:u8\n" },
    { "p 0xc0101000", "p:kprobes/p_0xc0101000 0xc0101000\n" },
    { "p:e sym.isra.0 a=@jiffies b=@jiffies+4:u64 c=@jiffies-8:s16",
      "p:kprobes/e sym.isra.0 a=@jiffies b=@jiffies+4:u64 c=@jiffies-8:s16\n" },
    { "p:e f x=@0xc0100000:x8 s=+0(+4(%sp)):string",
      "p:kprobes/e f x=@0xc0100000:x8 s=+0(+4(%sp)):string\n" },
    { "p:e f $arg1 $arg2:s32 $stack0 $stack12 $stack $comm c2=$COMM",
      "p:kprobes/e f arg1=$arg1 arg2=$arg2:s32 arg3=$stack0 arg4=$stack12 arg5=$stack "
      "arg6=$comm c2=$COMM\n" },
    { "  p:e   f   a=%flags:symbol  # a comment", "p:kprobes/e f a=%flags:symbol\n" },
    { "p:e f a=%eflags b=%ip c=%eip d=%esp e=%bp f=%si g=%edi", 
      "p:kprobes/e f a=%eflags b=%ip c=%eip d=%esp e=%bp f=%si g=%edi\n" },
    { "p:e f a=-8(%bp):x64 b=+0(-4(+8(%bp))):u16",
      "p:kprobes/e f a=-8(%bp):x64 b=+0(-4(+8(%bp))):u16\n" },
};

TEST(valid_lines_print_as_linux)
{
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        struct kp_command cmd;
        struct kp_error err;
        int ret = parse(valid[i].line, &cmd, &err);
        if (ret != 0)
            fprintf(stderr, "  line \"%s\": %s at %u\n", valid[i].line, err.msg, err.pos);
        CHECK_EQ_INT(ret, 0);
        CHECK_EQ_STR(collected, valid[i].shown);
        kp_command_free(&cmd);
    }
}

TEST(fields_are_decoded)
{
    struct kp_command cmd;
    struct kp_error err;
    CHECK_EQ_INT(parse("r8:g/e f n=$retval:u16", &cmd, &err), 0);
    CHECK_EQ_INT(cmd.op, KP_OP_ADD);
    CHECK(cmd.is_return);
    CHECK_EQ_INT(cmd.maxactive, 8);
    CHECK_EQ_STR(cmd.group, "g");
    CHECK_EQ_STR(cmd.event, "e");
    CHECK_EQ_INT(cmd.nargs, 1);
    CHECK_EQ_INT(cmd.args[0].base, KP_FETCH_RETVAL);
    CHECK_EQ_INT(cmd.args[0].type, KP_TYPE_U16);
    kp_command_free(&cmd);

    CHECK_EQ_INT(parse("p:e f+0x20 %dx", &cmd, &err), 0);
    CHECK(cmd.has_symbol);
    CHECK_EQ_STR(cmd.symbol, "f");
    CHECK_EQ_INT(cmd.offset, 0x20);
    kp_command_free(&cmd);
}

TEST(fetch_args_are_decoded)
{
    struct kp_command cmd;
    struct kp_error err;
    CHECK_EQ_INT(parse("p:e f -4(+8(%ebp)):s8 @sym-12 $arg3 $stack7 %dx @0x10:string", &cmd, &err), 0);
    CHECK_EQ_INT(cmd.nargs, 6);
    struct kp_fetch_arg *a = cmd.args;
    CHECK_EQ_INT(a[0].base, KP_FETCH_REG);
    CHECK_EQ_INT(a[0].reg, KP_REG_BP);
    CHECK_EQ_INT(a[0].nderef, 2);
    CHECK_EQ_INT(a[0].deref[0], 8);   /* innermost first */
    CHECK_EQ_INT(a[0].deref[1], -4);
    CHECK_EQ_INT(a[0].type, KP_TYPE_S8);
    CHECK_EQ_INT(a[1].base, KP_FETCH_SYMBOL);
    CHECK_EQ_STR(a[1].symbol, "sym");
    CHECK_EQ_INT(a[1].offset, -12);
    CHECK_EQ_INT(a[1].type, KP_TYPE_X32);
    CHECK_EQ_INT(a[2].base, KP_FETCH_ARG);
    CHECK_EQ_INT(a[2].index, 3);
    CHECK_EQ_INT(a[3].base, KP_FETCH_STACK);
    CHECK_EQ_INT(a[3].index, 7);
    CHECK_EQ_INT(a[4].reg, KP_REG_DX);
    CHECK_EQ_STR(a[4].name, "arg5");
    CHECK_EQ_INT(a[5].base, KP_FETCH_MEMORY);
    CHECK_EQ_INT(a[5].addr, 0x10);
    CHECK_EQ_INT(a[5].type, KP_TYPE_STRING);
    kp_command_free(&cmd);
}

TEST(delete_and_blank)
{
    struct kp_command cmd;
    struct kp_error err;
    CHECK_EQ_INT(parse("-:myprobe", &cmd, &err), 0);
    CHECK_EQ_INT(cmd.op, KP_OP_DELETE);
    CHECK_EQ_STR(cmd.group, "kprobes");
    CHECK_EQ_STR(cmd.event, "myprobe");
    CHECK_EQ_INT(parse("-:grp/ev", &cmd, &err), 0);
    CHECK_EQ_STR(cmd.group, "grp");
    CHECK_EQ_STR(cmd.event, "ev");
    CHECK_EQ_INT(parse("", &cmd, &err), 0);
    CHECK_EQ_INT(cmd.op, KP_OP_NOTHING);
    CHECK_EQ_INT(parse("   # only a comment", &cmd, &err), 0);
    CHECK_EQ_INT(cmd.op, KP_OP_NOTHING);
}

/* Refused lines: the errno and the column the error points at. */
static const struct {
    const char *line;
    int err;
    unsigned pos;
} invalid[] = {
    { "x do_fork", -EINVAL, 0 },
    { "p", -EINVAL, 1 },
    { "p:", -EINVAL, 2 },
    { "p:1ev f", -EINVAL, 2 },
    { "p:g/ f", -EINVAL, 4 },
    { "p:/e f", -EINVAL, 2 },
    { "p:a-b f", -EINVAL, 2 },
    { "p4 f", -EINVAL, 1 },
    { "r0 f", -EINVAL, 1 },
    { "r4097 f", -EINVAL, 1 },
    { "rx f", -EINVAL, 1 },
    { "r f+4", -EINVAL, 3 },
    { "p f+x", -EINVAL, 4 },
    { "p f-4", -EINVAL, 2 },
    { "p mod:f", -EINVAL, 2 },
    { "p f%return", -EINVAL, 2 },
    { "p 0xg", -EINVAL, 2 },
    { "p 0x100000000", -EINVAL, 2 },
    { "p 1f", -EINVAL, 2 },
    { "p f %zz", -EINVAL, 4 },
    { "p f %e", -EINVAL, 4 },
    { "p f %eexx", -EINVAL, 4 },
    { "p f a=%r8", -EINVAL, 6 },
    { "p f $retval", -EINVAL, 4 },
    { "p f $arg0", -EINVAL, 8 },
    { "p f $arg", -EINVAL, 4 },
    { "p f $argx", -EINVAL, 8 },
    { "p f+4 $arg1", -EINVAL, 6 },
    { "r f $arg1", -EINVAL, 4 },
    { "p f $stackx", -EINVAL, 10 },
    { "p f $stack99999999", -EINVAL, 10 },
    { "p f $foo", -EINVAL, 4 },
    { "p f @", -EINVAL, 5 },
    { "p f @1x", -EINVAL, 5 },
    { "p f @sym+", -EINVAL, 8 },
    { "p f @sym+4x", -EINVAL, 8 },
    { "p f \\1", -EINVAL, 4 },
    { "p f +4%ax", -EINVAL, 4 },
    { "p f +4(%ax", -EINVAL, 4 },
    { "p f 4(%ax)", -EINVAL, 4 },
    { "p f +x(%ax)", -EINVAL, 4 },
    { "p f +0(+0(+0(+0(+0(+0(+0(+0(+0(%ax)))))))))", -EINVAL, 28 },
    { "p f +0($comm)", -EINVAL, 7 },
    { "p f %ax:u128", -EINVAL, 8 },
    { "p f %ax:string", -EINVAL, 8 },
    { "p f $comm:u32", -EINVAL, 10 },
    { "p f %ax:", -EINVAL, 8 },
    { "p f a=", -EINVAL, 6 },
    { "p f =%ax", -EINVAL, 4 },
    { "p f 1a=%ax", -EINVAL, 4 },
    { "p f common_pid=%ax", -EINVAL, 4 },
    { "p f __probe_ip=%ax", -EINVAL, 4 },
    { "p f a=%ax a=%bx", -EINVAL, 10 },
    { "p f arg2=%ax %bx", -EINVAL, 13 },
    { "-:", -EINVAL, 2 },
    { "-", -EINVAL, 0 },
    { "-:e extra", -EINVAL, 4 },
    { "-x:e", -EINVAL, 0 },
};

TEST(invalid_lines_are_refused_where_they_fail)
{
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        struct kp_command cmd;
        struct kp_error err;
        int ret = parse(invalid[i].line, &cmd, &err);
        if (ret != invalid[i].err || err.pos != invalid[i].pos)
            fprintf(stderr, "  line \"%s\": %d (%s) at %u\n", invalid[i].line, ret,
                    err.msg ? err.msg : "-", err.pos);
        CHECK_EQ_INT(ret, invalid[i].err);
        CHECK_EQ_INT(err.pos, invalid[i].pos);
        CHECK(err.msg != NULL);
        CHECK(cmd.args == NULL);
    }
}

TEST(long_names_are_refused)
{
    char line[512];
    struct kp_command cmd;
    struct kp_error err;
    memset(line, 'a', sizeof line);
    memcpy(line, "p:", 2);
    line[2 + 63] = ' ';
    memcpy(line + 2 + 64, "f", 2);  /* 63-byte event name: fits */
    CHECK_EQ_INT(parse(line, &cmd, &err), 0);
    memset(line, 'a', sizeof line);
    memcpy(line, "p:", 2);
    line[2 + 64] = ' ';
    memcpy(line + 2 + 65, "f", 2);  /* 64 bytes: too long */
    CHECK_EQ_INT(parse(line, &cmd, &err), -EINVAL);
    snprintf(line, sizeof line, "p f %s", "a23456789012345678901234567890123=%ax");
    CHECK_EQ_INT(parse(line, &cmd, &err), -EINVAL);  /* 33-byte arg name */
    snprintf(line, sizeof line, "p f %s", "+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%ax)))))))))))))");
    CHECK_EQ_INT(parse(line, &cmd, &err), -EINVAL);  /* 64-byte expression */
}

TEST(limits_give_e2big)
{
    static char line[KP_LINE_MAX + 16];
    struct kp_command cmd;
    struct kp_error err;
    size_t n = (size_t)snprintf(line, sizeof line, "p:e f");
    for (int i = 0; i < KP_MAX_ARGS; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, " %%ax");
    CHECK_EQ_INT(kp_parse(line, n, &cmd, &err), 0);
    CHECK_EQ_INT(cmd.nargs, KP_MAX_ARGS);
    CHECK_EQ_STR(cmd.args[KP_MAX_ARGS - 1].name, "arg128");
    kp_command_free(&cmd);
    n += (size_t)snprintf(line + n, sizeof line - n, " %%bx");
    CHECK_EQ_INT(kp_parse(line, n, &cmd, &err), -E2BIG);
    CHECK(cmd.args == NULL);

    memset(line, ' ', sizeof line);
    memcpy(line, "p f", 3);
    CHECK_EQ_INT(kp_parse(line, KP_LINE_MAX - 1, &cmd, &err), 0);
    CHECK_EQ_INT(kp_parse(line, KP_LINE_MAX, &cmd, &err), -E2BIG);
    CHECK_EQ_INT(kp_parse("p f\0x", 5, &cmd, &err), -EINVAL);
}

/* --- uprobe_events lines (kp_parse_uprobe) ------------------------------------------------ */

static int parse_uprobe(const char *line, struct kp_command *cmd, struct kp_error *err)
{
    int ret = kp_parse_uprobe(line, strlen(line), cmd, err);
    collect_reset();
    if (ret == 0 && cmd->op == KP_OP_ADD)
        kp_print_command(&collect_writer, cmd);
    return ret;
}

TEST(uprobe_lines_print_as_linux)
{
    static const struct {
        const char *line, *shown;
    } ok[] = {
        /* Linux's default name: the base name up to its first '.', '-' or '_'. */
        { "p /bin/uprobe_target:0xd0", "p:uprobes/p_uprobe_0xd0 /bin/uprobe_target:0x000000d0\n" },
        { "p /bin/bash.static:4 %ax", "p:uprobes/p_bash_0x4 /bin/bash.static:0x00000004 arg1=%ax\n" },
        { "p:g/e /a:b/c:16 x=@+0x3000:u32 y=+4($stack):s32 z=$stack2 w=$comm",
          "p:g/e /a:b/c:0x00000010 x=@+0x3000:u32 y=+4($stack):s32 z=$stack2 w=$comm\n" },
        { "p:e /bin/x:1 s=+0(@0x804c000):string", "p:uprobes/e /bin/x:0x00000001 s=+0(@0x804c000):string\n" },
        { "r:e /bin/x:0x10 $retval", "r:uprobes/e /bin/x:0x00000010 arg1=$retval\n" },
        { "p /bin/a+b:1", "p:uprobes/p_a_b_0x1 /bin/a+b:0x00000001\n" },
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        struct kp_command cmd;
        struct kp_error err;
        int ret = parse_uprobe(ok[i].line, &cmd, &err);
        if (ret != 0)
            fprintf(stderr, "  line \"%s\": %s at %u\n", ok[i].line, err.msg, err.pos);
        CHECK_EQ_INT(ret, 0);
        CHECK_EQ_STR(collected, ok[i].shown);
        CHECK(cmd.uprobe);
        kp_command_free(&cmd);
    }
    struct kp_command cmd;
    struct kp_error err;
    CHECK_EQ_INT(parse_uprobe("-:uprobes/p_x_0x1", &cmd, &err), 0);
    CHECK_EQ_INT(cmd.op, KP_OP_DELETE);
    CHECK_EQ_STR(cmd.group, "uprobes");
    CHECK_EQ_STR(cmd.event, "p_x_0x1");
}

TEST(uprobe_refusals)
{
    static const struct {
        const char *line, *msg;
        uint32_t pos;
    } bad[] = {
        { "p /bin/x", "Invalid uprobe offset: PATH:OFFSET", 2 },
        { "p :0x10", "Failed to find the given file", 2 },
        { "p /bin/x:zz", "Invalid uprobe offset", 9 },
        { "p /bin/x:", "Invalid uprobe offset", 9 },
        { "r4 /bin/x:1", "Probe type must be p, r or -:", 0 },
        { "p /bin/x:1 a=@jiffies", "Symbol is not available with uprobe", 13 },
        { "p /bin/x:1 a=@+zz", "Invalid file offset", 15 },
        { "p /bin/x:1 $arg1", "$arg is only available at a function entry", 11 },
        { "p /bin/x:1 $retval", "$retval is not available on probe", 11 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct kp_command cmd;
        struct kp_error err;
        int ret = parse_uprobe(bad[i].line, &cmd, &err);
        if (ret != -EINVAL || !err.msg || strcmp(err.msg, bad[i].msg) != 0 || err.pos != bad[i].pos)
            fprintf(stderr, "  line \"%s\": %d %s at %u\n", bad[i].line, ret,
                    err.msg ? err.msg : "(none)", err.pos);
        CHECK_EQ_INT(ret, -EINVAL);
        CHECK_EQ_STR(err.msg, bad[i].msg);
        CHECK_EQ_INT(err.pos, bad[i].pos);
    }
    /* A kprobe line keeps its meaning: PATH:OFFSET is no kernel place. */
    struct kp_command cmd;
    struct kp_error err;
    CHECK_EQ_INT(parse("p /bin/x:1", &cmd, &err), -EINVAL);
    char line[KP_PATH_MAX + 16];
    memset(line, 'a', sizeof line);
    memcpy(line, "p /", 3);
    snprintf(line + 2 + KP_PATH_MAX, 8, ":1");
    CHECK_EQ_INT(parse_uprobe(line, &cmd, &err), -EINVAL); /* a 256-byte path */
    CHECK_EQ_STR(err.msg, "File name is too long");
}
