/*
 * kprobe_parse.c - kprobe_events lines: split into words at blanks, as Linux's argv_split
 * does, then the probe word, the place word and one word per fetch arg. Nothing here
 * touches the kernel: names are checked as text, numbers as 32-bit values (i386's long).
 */
#include "trace/kprobes/kprobe_parse.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/parse.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"

static const char *const type_names[KP_NR_TYPES] = {
    "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
    "x8", "x16", "x32", "x64", "string", "symbol",
};
static const uint8_t type_sizes[KP_NR_TYPES] = { 1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8, 4, 4 };

static const char *const reg_names[KP_NR_REGS] = {
    "ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "ip", "flags",
};

/* Field names every probe event has already (Linux's reserved_field_names). */
static const char *const reserved_names[] = {
    "common_type", "common_flags", "common_preempt_count", "common_pid", "common_tgid",
    "__probe_ip", "__probe_ret_ip", "__probe_func",
};

const char *kp_type_name(enum kp_type type)
{
    return type < KP_NR_TYPES ? type_names[type] : "?";
}

uint32_t kp_type_size(enum kp_type type)
{
    return type < KP_NR_TYPES ? type_sizes[type] : 0;
}

/* A word of the line: text[0..len) and where it starts in the line. */
struct word {
    const char *text;
    size_t len;
    uint32_t pos;
};

/* Records why the line fails; returns -EINVAL so callers can `return fail(...)`. */
static int fail(struct kp_error *err, const char *msg, uint32_t pos)
{
    err->msg = msg;
    err->pos = pos;
    return -EINVAL;
}

static bool word_is(const struct word *w, const char *s)
{
    return strlen(s) == w->len && strncmp(w->text, s, w->len) == 0;
}

/* Whether text[0..len) is a C identifier (Linux's is_good_name). */
static bool good_name(const char *text, size_t len)
{
    bool letter = (text[0] | 0x20) >= 'a' && (text[0] | 0x20) <= 'z';
    if (len == 0 || (!letter && text[0] != '_'))
        return false;
    for (size_t i = 1; i < len; i++) {
        char c = text[i];
        if (!(((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    }
    return true;
}

/* Whether text[0..len) can be a kernel symbol: an identifier that may contain '.', as
 * gcc's clones (foo.isra.0, foo.cold) do. */
static bool good_symbol(const char *text, size_t len)
{
    if (len == 0 || (text[0] >= '0' && text[0] <= '9') || text[0] == '.')
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (!(((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '.'))
            return false;
    }
    return true;
}

/* An unsigned number in base 0 (0x hex, 0 octal, else decimal: kstrtoul's base 0) that
 * fills text[0..len) and fits in 32 bits. */
static bool parse_u32(const char *text, size_t len, uint32_t *out)
{
    unsigned base = 10;
    size_t i = 0;
    if (len >= 2 && text[0] == '0' && (text[1] | 0x20) == 'x') {
        base = 16;
        i = 2;
    } else if (len >= 2 && text[0] == '0') {
        base = 8;
        i = 1;
    }
    if (i == len)
        return false;
    uint64_t value = 0;
    for (; i < len; i++) {
        int d = parse_digit(text[i], base);
        if (d < 0)
            return false;
        value = value * base + (unsigned)d;
        if (value > 0xffffffffu)
            return false;
    }
    *out = (uint32_t)value;
    return true;
}

/* A decimal number (kstrtoul base 10: $stackN, $argN) that fills text[0..len), at most
 * 0xffff so nothing derived from it can overflow. */
static bool parse_decimal(const char *text, size_t len, uint32_t *out)
{
    if (len == 0 || len > 5)
        return false;
    uint32_t value = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        value = value * 10 + (uint32_t)(text[i] - '0');
    }
    if (value > 0xffff)
        return false;
    *out = value;
    return true;
}

/* A signed offset, +N or -N (the sign is required), that fits in a 32-bit long. */
static bool parse_offset(const char *text, size_t len, int32_t *out)
{
    uint32_t magnitude;
    if (len < 2 || (text[0] != '+' && text[0] != '-') || !parse_u32(text + 1, len - 1, &magnitude))
        return false;
    if (text[0] == '-') {
        if (magnitude > 0x80000000u)
            return false;
        *out = (int32_t)(0u - magnitude);
    } else {
        if (magnitude > 0x7fffffffu)
            return false;
        *out = (int32_t)magnitude;
    }
    return true;
}

/* Copies text[0..len) into dst[size]; false when it does not fit. */
static bool copy_name(char *dst, size_t size, const char *text, size_t len)
{
    if (len >= size)
        return false;
    memcpy(dst, text, len);
    dst[len] = '\0';
    return true;
}

/* "p", "r", "r16", with ":[GRP/]EVENT" after it, or "-:[GRP/]EVENT". */
static int parse_head(const struct word *w, struct kp_command *cmd, struct kp_error *err)
{
    const char *colon = memchr(w->text, ':', w->len);
    size_t kind_len = colon ? (size_t)(colon - w->text) : w->len;
    char kind = w->text[0];
    if (kind == '-') {
        if (kind_len != 1 || !colon)
            return fail(err, "Event name is not specified", w->pos);
        cmd->op = KP_OP_DELETE;
    } else if (kind == 'p' || kind == 'r') {
        cmd->op = KP_OP_ADD;
        cmd->is_return = kind == 'r';
        if (kind_len > 1) {
            if (cmd->uprobe)
                return fail(err, "Probe type must be p, r or -:", w->pos);
            if (kind == 'p')
                return fail(err, "Maxactive is not for kprobe", w->pos + 1);
            if (!parse_u32(w->text + 1, kind_len - 1, &cmd->maxactive) || cmd->maxactive == 0)
                return fail(err, "Invalid maxactive number", w->pos + 1);
            if (cmd->maxactive > KP_MAXACTIVE_MAX)
                return fail(err, "Maxactive is too big", w->pos + 1);
        }
    } else {
        return fail(err, "Probe type must be p, r or -:", w->pos);
    }
    const char *group = cmd->uprobe ? KP_UPROBE_GROUP : KP_DEFAULT_GROUP;
    copy_name(cmd->group, sizeof cmd->group, group, strlen(group));
    if (!colon)
        return 0;

    const char *name = colon + 1;
    size_t name_len = w->len - kind_len - 1;
    uint32_t name_pos = w->pos + (uint32_t)kind_len + 1;
    const char *slash = memchr(name, '/', name_len);
    if (slash) {
        size_t group_len = (size_t)(slash - name);
        if (group_len == 0)
            return fail(err, "Group name is not specified", name_pos);
        if (group_len >= KP_NAME_MAX)
            return fail(err, "Group name is too long", name_pos);
        if (!good_name(name, group_len))
            return fail(err, "Group name must follow the same rules as C identifiers", name_pos);
        copy_name(cmd->group, sizeof cmd->group, name, group_len);
        name_pos += (uint32_t)group_len + 1;
        name_len -= group_len + 1;
        name = slash + 1;
    }
    if (name_len == 0)
        return fail(err, "Event name is not specified", name_pos);
    if (name_len >= KP_NAME_MAX)
        return fail(err, "Event name is too long", name_pos);
    if (!good_name(name, name_len))
        return fail(err, "Event name must follow the same rules as C identifiers", name_pos);
    copy_name(cmd->event, sizeof cmd->event, name, name_len);
    return 0;
}

/* "SYM", "SYM+OFFS" or an address. */
static int parse_place(const struct word *w, struct kp_command *cmd, struct kp_error *err)
{
    if (w->text[0] >= '0' && w->text[0] <= '9') {
        if (!parse_u32(w->text, w->len, &cmd->addr))
            return fail(err, "Invalid probed address or symbol", w->pos);
        return 0;
    }
    if (memchr(w->text, ':', w->len))
        return fail(err, "Module symbols are not supported", w->pos);
    if (memchr(w->text, '%', w->len))
        return fail(err, "SYM%return is not supported: use r", w->pos);
    const char *plus = memchr(w->text, '+', w->len);
    size_t sym_len = plus ? (size_t)(plus - w->text) : w->len;
    if (memchr(w->text, '-', w->len))
        return fail(err, "Invalid probe offset: only +OFFS", w->pos);
    if (!good_symbol(w->text, sym_len))
        return fail(err, "Invalid symbol name", w->pos);
    if (sym_len >= KP_NAME_MAX)
        return fail(err, "Symbol name is too long", w->pos);
    copy_name(cmd->symbol, sizeof cmd->symbol, w->text, sym_len);
    cmd->has_symbol = true;
    if (plus && !parse_u32(plus + 1, w->len - sym_len - 1, &cmd->offset))
        return fail(err, "Invalid probe offset", w->pos + (uint32_t)sym_len + 1);
    if (cmd->is_return && cmd->offset != 0)
        return fail(err, "Retprobe address must be a function entry", w->pos + (uint32_t)sym_len);
    return 0;
}

/* A uprobe's "PATH:OFFSET": PATH is everything before the last ':' (Linux's strrchr). */
static int parse_uprobe_place(const struct word *w, struct kp_command *cmd, struct kp_error *err)
{
    size_t colon = w->len;
    while (colon > 0 && w->text[colon - 1] != ':')
        colon--;
    if (colon == 0)
        return fail(err, "Invalid uprobe offset: PATH:OFFSET", w->pos);
    size_t path_len = colon - 1;
    if (path_len == 0)
        return fail(err, "Failed to find the given file", w->pos);
    if (path_len >= KP_PATH_MAX)
        return fail(err, "File name is too long", w->pos);
    if (!parse_u32(w->text + colon, w->len - colon, &cmd->offset))
        return fail(err, "Invalid uprobe offset", w->pos + (uint32_t)colon);
    copy_name(cmd->path, sizeof cmd->path, w->text, path_len);
    return 0;
}

/* The base of a fetch arg: text[0..len) with no dereference around it. */
static int parse_base(const char *text, size_t len, uint32_t pos, const struct kp_command *cmd,
                      struct kp_fetch_arg *arg, struct kp_error *err)
{
    if (len == 0)
        return fail(err, "No argument expression", pos);
    if (text[0] == '%') {
        const char *name = text + 1;
        size_t name_len = len - 1;
        if (name_len >= 3 && name[0] == 'e')
            name++, name_len--;  /* eax, eflags: i386's spelling of the same register */
        for (unsigned r = 0; r < KP_NR_REGS; r++) {
            if (strlen(reg_names[r]) == name_len && strncmp(reg_names[r], name, name_len) == 0) {
                arg->base = KP_FETCH_REG;
                arg->reg = (uint8_t)r;
                return 0;
            }
        }
        return fail(err, "Invalid register name", pos);
    }
    if (text[0] == '@') {
        if (len >= 2 && text[1] >= '0' && text[1] <= '9') {
            if (!parse_u32(text + 1, len - 1, &arg->addr))
                return fail(err, "Invalid memory address", pos + 1);
            arg->base = KP_FETCH_MEMORY;
            return 0;
        }
        if (cmd->uprobe && len >= 3 && text[1] == '+') {
            if (!parse_u32(text + 2, len - 2, &arg->addr))
                return fail(err, "Invalid file offset", pos + 2);
            arg->base = KP_FETCH_FILE;
            return 0;
        }
        if (cmd->uprobe)
            return fail(err, "Symbol is not available with uprobe", pos);
        size_t sym_len = 1;
        while (sym_len < len && text[sym_len] != '+' && text[sym_len] != '-')
            sym_len++;
        sym_len--;
        if (!good_symbol(text + 1, sym_len))
            return fail(err, "Invalid symbol name", pos + 1);
        if (sym_len >= KP_NAME_MAX)
            return fail(err, "Symbol name is too long", pos + 1);
        if (1 + sym_len < len && !parse_offset(text + 1 + sym_len, len - 1 - sym_len, &arg->offset))
            return fail(err, "Invalid symbol offset", pos + 1 + (uint32_t)sym_len);
        copy_name(arg->symbol, sizeof arg->symbol, text + 1, sym_len);
        arg->base = KP_FETCH_SYMBOL;
        return 0;
    }
    if (text[0] == '$') {
        struct word w = { text, len, pos };
        if (word_is(&w, "$stack")) {
            arg->base = KP_FETCH_STACKP;
            return 0;
        }
        if (word_is(&w, "$retval")) {
            if (!cmd->is_return)
                return fail(err, "$retval is not available on probe", pos);
            arg->base = KP_FETCH_RETVAL;
            return 0;
        }
        if (word_is(&w, "$comm") || word_is(&w, "$COMM")) {
            arg->base = KP_FETCH_COMM;
            return 0;
        }
        if (len > 6 && strncmp(text, "$stack", 6) == 0) {
            if (!parse_decimal(text + 6, len - 6, &arg->index))
                return fail(err, "Invalid stack number", pos + 6);
            arg->base = KP_FETCH_STACK;
            return 0;
        }
        if (len > 4 && strncmp(text, "$arg", 4) == 0) {
            if (!parse_decimal(text + 4, len - 4, &arg->index) || arg->index == 0 ||
                arg->index > KP_MAX_ARGS)
                return fail(err, "Invalid argument number", pos + 4);
            if (cmd->is_return || !cmd->has_symbol || cmd->offset != 0)
                return fail(err, "$arg is only available at a function entry", pos);
            arg->base = KP_FETCH_ARG;
            return 0;
        }
        return fail(err, "Invalid $-variable specified", pos);
    }
    if (text[0] == '\\')
        return fail(err, "Immediate values are not supported", pos);
    return fail(err, "Invalid fetch argument", pos);
}

/* A fetch arg without its type: its base, wrapped in up to KP_DEREF_MAX +|-OFFS(...). */
static int parse_fetch(const char *text, size_t len, uint32_t pos, const struct kp_command *cmd,
                       struct kp_fetch_arg *arg, struct kp_error *err)
{
    int32_t outer[KP_DEREF_MAX];
    unsigned depth = 0;
    while (len > 0 && (text[0] == '+' || text[0] == '-')) {
        const char *open = memchr(text, '(', len);
        if (!open || text[len - 1] != ')')
            return fail(err, "Dereference needs +|-OFFS(FETCHARG)", pos);
        if (depth == KP_DEREF_MAX)
            return fail(err, "Dereference is nested too deep", pos);
        size_t off_len = (size_t)(open - text);
        if (!parse_offset(text, off_len, &outer[depth]))
            return fail(err, "Invalid dereference offset", pos);
        depth++;
        pos += (uint32_t)off_len + 1;
        len -= off_len + 2;
        text = open + 1;
    }
    int ret = parse_base(text, len, pos, cmd, arg, err);
    if (ret)
        return ret;
    if (depth > 0 && (arg->base == KP_FETCH_COMM))
        return fail(err, "$comm can not be dereferenced", pos);
    arg->nderef = (uint8_t)depth;
    for (unsigned i = 0; i < depth; i++)
        arg->deref[i] = outer[depth - 1 - i];
    return 0;
}

/* One word "[NAME=]FETCHARG[:TYPE]", the number-th fetch arg (from 1). */
static int parse_arg(const struct word *w, unsigned number, const struct kp_command *cmd,
                     struct kp_fetch_arg *arg, struct kp_error *err)
{
    const char *text = w->text;
    size_t len = w->len;
    uint32_t pos = w->pos;
    const char *eq = memchr(text, '=', len);
    if (eq) {
        size_t name_len = (size_t)(eq - text);
        if (name_len >= KP_ARG_NAME_MAX)
            return fail(err, "Argument name is too long", pos);
        if (!good_name(text, name_len))
            return fail(err, "Argument name must follow the same rules as C identifiers", pos);
        copy_name(arg->name, sizeof arg->name, text, name_len);
        text = eq + 1;
        len -= name_len + 1;
        pos += (uint32_t)name_len + 1;
    } else {
        ksnprintf(arg->name, sizeof arg->name, "arg%u", number);
    }
    for (size_t i = 0; i < sizeof reserved_names / sizeof reserved_names[0]; i++)
        if (strcmp(arg->name, reserved_names[i]) == 0)
            return fail(err, "Argument name is reserved", w->pos);
    if (len >= KP_ARG_TEXT_MAX)
        return fail(err, "Argument expression is too long", pos);
    if (len == 0)
        return fail(err, "No argument expression", pos);
    copy_name(arg->text, sizeof arg->text, text, len);

    const char *colon = memchr(text, ':', len);
    size_t fetch_len = colon ? (size_t)(colon - text) : len;
    int ret = parse_fetch(text, fetch_len, pos, cmd, arg, err);
    if (ret)
        return ret;
    if (!colon) {
        arg->type = arg->base == KP_FETCH_COMM ? KP_TYPE_STRING : KP_TYPE_X32;
        return 0;
    }
    struct word type = { colon + 1, len - fetch_len - 1, pos + (uint32_t)fetch_len + 1 };
    unsigned t = 0;
    while (t < KP_NR_TYPES && !word_is(&type, type_names[t]))
        t++;
    if (t == KP_NR_TYPES)
        return fail(err, "Unknown type is specified", type.pos);
    arg->type = (uint8_t)t;
    bool from_memory = arg->nderef > 0 || arg->base == KP_FETCH_MEMORY ||
                       arg->base == KP_FETCH_SYMBOL;
    if (t == KP_TYPE_STRING && !from_memory && arg->base != KP_FETCH_COMM)
        return fail(err, "String accepts only memory argument", type.pos);
    if (t != KP_TYPE_STRING && arg->base == KP_FETCH_COMM)
        return fail(err, "$comm is a string", type.pos);
    return 0;
}

/* Splits line[0..len) (up to a '#') into words at blanks; returns how many, at most max
 * stored, more counted. */
static size_t split_words(const char *line, size_t len, struct word *words, size_t max)
{
    size_t n = 0, i = 0;
    while (i < len && line[i] != '#') {
        if (is_space(line[i])) {
            i++;
            continue;
        }
        size_t start = i;
        while (i < len && !is_space(line[i]) && line[i] != '#')
            i++;
        if (n < max)
            words[n] = (struct word){ line + start, i - start, (uint32_t)start };
        n++;
    }
    return n;
}

/* Linux's default event name: p_SYM_OFFS or p_0xADDR, non-identifier bytes made '_'. */
static void default_event_name(struct kp_command *cmd)
{
    char kind = cmd->is_return ? 'r' : 'p';
    if (cmd->uprobe) {
        /* Linux's trace_uprobe_create: "p_" and the file's base name up to its first '.',
         * '-' or '_', then "_0x" and the offset ('p' for r too, as Linux). */
        const char *base = cmd->path;
        for (const char *c = cmd->path; *c; c++)
            if (*c == '/')
                base = c + 1;
        size_t n = 0;
        while (base[n] && base[n] != '.' && base[n] != '-' && base[n] != '_')
            n++;
        if (n > KP_NAME_MAX - 16)
            n = KP_NAME_MAX - 16;
        ksnprintf(cmd->event, sizeof cmd->event, "p_%.*s_0x%x", (int)n, base, cmd->offset);
    } else if (cmd->has_symbol)
        ksnprintf(cmd->event, sizeof cmd->event, "%c_%s_%u", kind, cmd->symbol, cmd->offset);
    else
        ksnprintf(cmd->event, sizeof cmd->event, "%c_0x%08x", kind, cmd->addr);
    for (char *c = cmd->event; *c; c++)
        if (!good_name(c, 1) && !(*c >= '0' && *c <= '9'))
            *c = '_';
}

/* kp_parse and kp_parse_uprobe: the same words, the place word read as uprobe says. */
static int parse_line(const char *line, size_t len, struct kp_command *cmd, struct kp_error *err,
                      bool uprobe)
{
    memset(cmd, 0, sizeof *cmd);
    cmd->uprobe = uprobe;
    err->msg = NULL;
    err->pos = 0;
    if (len >= KP_LINE_MAX) {
        err->msg = "Command is too long";
        return -E2BIG;
    }
    for (size_t i = 0; i < len; i++)
        if (line[i] == '\0')
            return fail(err, "NUL byte in command", (uint32_t)i);

    enum { HEAD_WORDS = 2 };
    struct word head[HEAD_WORDS];
    size_t nwords = split_words(line, len, head, HEAD_WORDS);
    if (nwords == 0)
        return 0;  /* KP_OP_NOTHING */
    int ret = parse_head(&head[0], cmd, err);
    if (ret)
        return ret;
    if (cmd->op == KP_OP_DELETE) {
        if (nwords > 1)
            return fail(err, "Delete takes only the event name", head[1].pos);
        return 0;
    }
    if (nwords < 2)
        return fail(err, "Probe point is not specified", (uint32_t)len);
    ret = uprobe ? parse_uprobe_place(&head[1], cmd, err) : parse_place(&head[1], cmd, err);
    if (ret)
        return ret;
    if (!cmd->event[0])
        default_event_name(cmd);
    if (nwords - 2 > KP_MAX_ARGS) {
        err->msg = "Too many arguments are specified";
        err->pos = head[1].pos;
        return -E2BIG;
    }
    cmd->nargs = (uint32_t)(nwords - 2);
    if (cmd->nargs == 0)
        return 0;

    cmd->args = kzalloc(cmd->nargs * sizeof *cmd->args);
    if (!cmd->args) {
        cmd->nargs = 0;
        err->msg = "Out of memory";
        return -ENOMEM;
    }
    /* The words again, one at a time: the fixed head array holds only the first two. */
    size_t cursor = head[1].pos + head[1].len;
    for (uint32_t i = 0; i < cmd->nargs; i++) {
        struct word w;
        split_words(line + cursor, len - cursor, &w, 1);
        w.pos += (uint32_t)cursor;
        cursor = w.pos + w.len;
        ret = parse_arg(&w, i + 1, cmd, &cmd->args[i], err);
        for (uint32_t j = 0; ret == 0 && j < i; j++)
            if (strcmp(cmd->args[j].name, cmd->args[i].name) == 0)
                ret = fail(err, "This argument name is already used", w.pos);
        if (ret) {
            kp_command_free(cmd);
            return ret;
        }
    }
    return 0;
}

int kp_parse(const char *line, size_t len, struct kp_command *cmd, struct kp_error *err)
{
    return parse_line(line, len, cmd, err, false);
}

int kp_parse_uprobe(const char *line, size_t len, struct kp_command *cmd, struct kp_error *err)
{
    return parse_line(line, len, cmd, err, true);
}

void kp_command_free(struct kp_command *cmd)
{
    kfree(cmd->args);
    cmd->args = NULL;
    cmd->nargs = 0;
}

void kp_print_command(struct fs_writer *out, const struct kp_command *cmd)
{
    fs_printf(out, "%c", cmd->is_return ? 'r' : 'p');
    if (cmd->is_return && cmd->maxactive)
        fs_printf(out, "%u", cmd->maxactive);
    fs_printf(out, ":%s/%s", cmd->group, cmd->event);
    if (cmd->uprobe)
        fs_printf(out, " %s:0x%08x", cmd->path, cmd->offset);
    else if (!cmd->has_symbol)
        fs_printf(out, " 0x%08x", cmd->addr);
    else if (cmd->offset)
        fs_printf(out, " %s+%u", cmd->symbol, cmd->offset);
    else
        fs_printf(out, " %s", cmd->symbol);
    for (uint32_t i = 0; i < cmd->nargs; i++)
        fs_printf(out, " %s=%s", cmd->args[i].name, cmd->args[i].text);
    fs_puts(out, "\n");
}
