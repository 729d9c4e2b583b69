/*
 * kprobe_parse.h - what a line written to kprobe_events means, in Linux's syntax
 * (Documentation/trace/kprobetrace.rst), and the line kprobe_events prints back for a probe.
 *
 *   p[:[GRP/]EVENT] SYM[+OFFS]|ADDR [FETCHARGS]     a probe at a function (plus an offset)
 *   r[MAXACTIVE][:[GRP/]EVENT] SYM[+0] [FETCHARGS]  a probe on a function's return
 *   -:[GRP/]EVENT                                   delete a probe
 *
 * A fetch arg is [NAME=]FETCHARG[:TYPE]; FETCHARG is %REG (i386: ax bx cx dx si di bp sp ip
 * flags, each also with its 'e': eax ... eflags), @ADDR, @SYM[+|-OFFS], $stackN, $stack,
 * $argN, $retval (return probes only), $comm, or +|-OFFS(FETCHARG) to read memory at the
 * value of the inner fetch arg plus OFFS (nested up to KP_DEREF_MAX deep). TYPE is u8 u16 u32
 * u64, s8 .. s64, x8 .. x64, string (a NUL-terminated string at the fetched address: only
 * for memory fetches and $comm) or symbol (a 32-bit address printed as SYM+OFFS). The
 * default type is x32 (Linux's x##BITS_PER_LONG), string for $comm; the default name is
 * argN, N counting the args from 1. Names and groups are C identifiers; a name may not be
 * a reserved field (common_*, __probe_ip, __probe_ret_ip, __probe_func) or repeat.
 *
 * Where Linux parses something this kernel cannot do yet, the parser refuses it: MOD:SYM,
 * SYM%return, immediates (\IMM), $current, ustring, bitfields, arrays, BTF names.
 *
 * Only the text is checked here; whether SYM exists, whether an address is a function's
 * ftrace site and what $argN reads (this kernel is built without -mregparm: every argument
 * is on the stack) is the kernel side's business (trace/kprobes/kprobe_events.c).
 * Portable: tests/unit/test_kprobe_parse.c, tests/fuzz/fuzz_kprobe_parse.c.
 */
#ifndef TRACE_KPROBES_KPROBE_PARSE_H
#define TRACE_KPROBES_KPROBE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/fs/fs_tree.h"

#define KP_NAME_MAX 64        /* group, event and symbol names, NUL included (MAX_EVENT_NAME_LEN) */
#define KP_ARG_NAME_MAX 32    /* a fetch arg's name, NUL included (MAX_ARG_NAME_LEN) */
#define KP_ARG_TEXT_MAX 64    /* a fetch arg's text after NAME=, NUL included (MAX_ARGSTR_LEN + 1) */
#define KP_MAX_ARGS 128       /* fetch args in one probe (MAX_TRACE_ARGS) */
#define KP_DEREF_MAX 8        /* nested +OFFS(...) in one fetch arg */
#define KP_MAXACTIVE_MAX 4096 /* r's MAXACTIVE (KRETPROBE_MAXACTIVE_MAX) */
#define KP_LINE_MAX 4096      /* longest line */
#define KP_DEFAULT_GROUP "kprobes"
/* uprobes (issue 18): uprobe_events lines share this parser (kp_parse_uprobe). */
#define KP_PATH_MAX 256       /* a uprobe's PATH, NUL included */
#define KP_UPROBE_GROUP "uprobes"

enum kp_op {
    KP_OP_NOTHING, /* a blank line or a comment */
    KP_OP_ADD,
    KP_OP_DELETE,
};

/* Where a fetch arg's value comes from, before any dereference. */
enum kp_fetch_base {
    KP_FETCH_REG,    /* %REG: reg */
    KP_FETCH_STACK,  /* $stackN: the N-th 32-bit word above the stack pointer: index */
    KP_FETCH_STACKP, /* $stack: the stack pointer */
    KP_FETCH_ARG,    /* $argN: the function's N-th argument (N from 1): index */
    KP_FETCH_RETVAL, /* $retval */
    KP_FETCH_COMM,   /* $comm: the running task's name */
    KP_FETCH_MEMORY, /* @ADDR: the memory at addr */
    KP_FETCH_SYMBOL, /* @SYM[+|-OFFS]: the memory at symbol + offset */
    KP_FETCH_FILE,   /* uprobes' @+OFFSET: the memory at file offset addr of the probed
                      * file (the kernel side turns it into KP_FETCH_MEMORY at its address) */
};

/* i386 registers, named as Linux's regs_query_register_offset knows them. */
enum kp_reg {
    KP_REG_AX, KP_REG_BX, KP_REG_CX, KP_REG_DX, KP_REG_SI, KP_REG_DI, KP_REG_BP, KP_REG_SP,
    KP_REG_IP, KP_REG_FLAGS, KP_NR_REGS,
};

enum kp_type {
    KP_TYPE_U8, KP_TYPE_U16, KP_TYPE_U32, KP_TYPE_U64,
    KP_TYPE_S8, KP_TYPE_S16, KP_TYPE_S32, KP_TYPE_S64,
    KP_TYPE_X8, KP_TYPE_X16, KP_TYPE_X32, KP_TYPE_X64,
    KP_TYPE_STRING, KP_TYPE_SYMBOL, KP_NR_TYPES,
};

struct kp_fetch_arg {
    char name[KP_ARG_NAME_MAX];
    char text[KP_ARG_TEXT_MAX];  /* FETCHARG[:TYPE] as written: what kprobe_events prints */
    char symbol[KP_NAME_MAX];    /* KP_FETCH_SYMBOL */
    uint8_t base;                /* enum kp_fetch_base */
    uint8_t reg;                 /* enum kp_reg, for KP_FETCH_REG */
    uint8_t type;                /* enum kp_type */
    uint8_t nderef;              /* how many +OFFS(...) wrap the base */
    uint32_t index;              /* $stackN, $argN */
    uint32_t addr;               /* @ADDR */
    int32_t offset;              /* @SYM+OFFS */
    int32_t deref[KP_DEREF_MAX]; /* the offsets, innermost (applied first) at [0] */
};

struct kp_command {
    uint8_t op;                /* enum kp_op */
    bool is_return;            /* r */
    bool has_symbol;           /* SYM[+OFFS] (else ADDR) */
    uint32_t maxactive;        /* r's MAXACTIVE, 0 when not given */
    char group[KP_NAME_MAX];
    char event[KP_NAME_MAX];
    char symbol[KP_NAME_MAX];
    uint32_t offset;           /* SYM+OFFS */
    uint32_t addr;             /* ADDR */
    uint32_t nargs;
    struct kp_fetch_arg *args; /* nargs of them (kzalloc'd; kp_command_free gives it back) */
    bool uprobe;               /* a uprobe_events line: PATH:OFFSET (offset) */
    char path[KP_PATH_MAX];    /* a uprobe's PATH */
};

/* Why a line was refused: the message (Linux's text where Linux has one) and the offset in
 * the line it points at, for error_log's caret. */
struct kp_error {
    const char *msg;
    uint32_t pos;
};

/* Parses one line of len bytes (no NUL needed, no newline; '#' starts a comment). Returns 0
 * with *cmd filled (KP_OP_NOTHING for a blank line), -EINVAL with *err set for anything
 * malformed, -E2BIG for more than KP_MAX_ARGS args or a line of KP_LINE_MAX bytes or more
 * (Linux's errnos), or -ENOMEM. After 0, kp_command_free(cmd) frees the args. */
int kp_parse(const char *line, size_t len, struct kp_command *cmd, struct kp_error *err);
void kp_command_free(struct kp_command *cmd);

/*
 * uprobes (issue 18, Documentation/trace/uprobetracer.rst): a uprobe_events line,
 *   p[:[GRP/]EVENT] PATH:OFFSET [FETCHARGS]     PATH up to the last ':', OFFSET a number
 *   r[:[GRP/]EVENT] PATH:OFFSET [FETCHARGS]     (no MAXACTIVE)
 *   -:[GRP/]EVENT
 * with the same fetch args, except that @+OFFSET (KP_FETCH_FILE) reads the memory at a
 * file offset of PATH, @ADDR is a user address, and @SYM and $argN are refused. The
 * default group is "uprobes", the default event p_BASE_0xOFFSET (BASE: PATH's last
 * component cut at its first '.', '-' or '_'), as Linux names them. Same results as kp_parse.
 */
int kp_parse_uprobe(const char *line, size_t len, struct kp_command *cmd, struct kp_error *err);

/* The probe's kprobe_events line, as Linux's show: "p:kprobes/ev do_fork+4 a=%ax:u32\n",
 * "r16:grp/ev 0xc0101000 arg1=$retval\n" (an address as 0x and 8 hex digits); a uprobe's
 * "p:uprobes/ev /bin/hello:0x00001040 a=%ax\n". */
void kp_print_command(struct fs_writer *out, const struct kp_command *cmd);

/* The type's name ("u32") and size in a record (string: 4, its __data_loc word). */
const char *kp_type_name(enum kp_type type);
uint32_t kp_type_size(enum kp_type type);

#endif
