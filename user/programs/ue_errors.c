/*
 * ue_errors.c - every error path of user_events and of the system calls, each checked
 * against the errno Linux gives for it (kernel/trace/trace_events_user.c for user_events,
 * the system calls' own checks for the rest; where we depart on purpose, the case says so
 * and docs/user_events.md section 9 says why): bad structure sizes and fields, bad pointers
 * in every place a pointer goes, malformed commands, bad writes, __data_loc records that
 * point outside themselves, deleting events that are in use, how long an event lives
 * (Linux 6.4's struct user_reg: deleted with its last reference unless
 * USER_EVENT_REG_PERSIST, as 6.6+; the pre-6.4 structure: until deleted, as 6.1), deletes
 * racing another process that writes the event or holds its enable file, and the event
 * limit.
 *
 * Usage: ue_errors            every group but the limit
 *        ue_errors full N     only the limit; the kernel was booted with user_events_max=N
 * Prints, TAP-style (tracekern/check.h):
 *   # GROUP
 *   ok N - WHAT -> WANT
 *   not ok N - WHAT -> WANT (got X)
 *   ...
 *   ue_errors: P passed, F failed
 * where WANT and X are errno names ("success" for a call that worked) or numbers. Exit
 * status 0 when nothing failed, 1 otherwise, 2 for a usage error.
 *
 * Every event it registers is deleted at the end (the "# cleanup" group), so it can run
 * again in the same boot. The event ue_err_loc is enabled and disabled by the program
 * itself, through its enable file.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/user_events.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <tracekern/check.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing/"
#define DATA_FILE TRACEFS "user_events_data"
#define STATUS_FILE TRACEFS "user_events_status"
#define LOC_ENABLE_FILE TRACEFS "events/user_events/ue_err_loc/enable"
#define SEED_ENABLE_FILE TRACEFS "events/user_events/ue_err_seed/enable"

#define UNMAPPED_ADDR 0x1000L  /* below USER_BASE, and never mapped */
#define KERNEL_ADDR 0xc0100000L  /* the kernel's own memory: mapped, but not for ring 3 */
#define COMMON_HEADER_SIZE 8   /* struct trace_entry, before an event's first field */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Every event the groups register (the names before the fields). */
static const char *const event_names[] = {
    "ue_err_size", "ue_err_field", "ue_err_dup",  "ue_err_name",
    "ue_err_seed", "ue_err_sext", "ue_err_loc",   "ue_err_busy", "ue_err_enabler", "ue_err_big",
    "ue_err_persist", "ue_err_shared", "ue_err_held", "ue_err_held64", "ue_err_race",
    "ue_err_gone",
};

static int data_fd = -1, status_fd = -1;
static const volatile uint8_t *status_page; /* user_events_status, mapped read-only */
static uintptr_t edge; /* the end of a writable page that is followed by an unmapped one */
static uint32_t seed_index; /* write_index of ue_err_seed ("u32 a") on data_fd */

/* The words whose bits registrations with enable_addr name; each gets a bit of its own
 * (user_reg_for), and cleanup unregisters every bit handed out. */
static volatile uint32_t enable_words[4];
static unsigned enable_bits_used;
static volatile uint32_t never_registered; /* a word no registration names */

/* Names of events the kernel created although it should have refused the command. */
static char leaked[8][64];
static unsigned leaked_count;

/* One system call and the errno it must fail with (0: it must succeed). Groups build
 * tables of these at run time, since most arguments are addresses known only then. */
struct errno_case {
    const char *what;
    long nr;
    long arg[6];
    int want;
};

/* Makes each call of the table in order and checks its result. */
static void run_cases(const struct errno_case *cases, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const struct errno_case *c = &cases[i];
        check_call(c->what,
                   syscall(c->nr, c->arg[0], c->arg[1], c->arg[2], c->arg[3], c->arg[4], c->arg[5]),
                   c->want);
    }
}
#define RUN_CASES(table) run_cases((table), ARRAY_SIZE(table))

/* The call and arguments of an ioctl on fd with a pointer (or integer) argument. */
#define IOCTL(fd, cmd, arg) SYS_ioctl, { (fd), (long)(cmd), (long)(uintptr_t)(arg) }

/* ---- helpers ---- */

/* A valid struct user_reg (Linux 6.4's ABI) for command, with a bit of enable_words that
 * no other registration of this run uses. */
static struct user_reg user_reg_for(const char *command)
{
    unsigned n = enable_bits_used++;
    if (n >= 32 * ARRAY_SIZE(enable_words)) {
        printf("Bail out! ue_errors: more enable bits than enable_words has\n");
        exit(1);
    }
    struct user_reg r = { 0 };
    r.size = sizeof(r);
    r.enable_bit = (uint8_t)(n % 32);
    r.enable_size = sizeof(enable_words[0]);
    r.enable_addr = (uintptr_t)&enable_words[n / 32];
    r.name_args = (uintptr_t)command;
    return r;
}

/* A struct user_reg_status (the pre-6.4 status-page ABI) for command. */
static struct user_reg_status seed_reg_for(const char *command)
{
    struct user_reg_status r = { 0 };
    r.size = sizeof(r);
    r.name_args = (uintptr_t)command;
    return r;
}

/* Remembers the event name of command (the text before the first space or ':') so that
 * cleanup deletes it: for commands the kernel should have refused but took. */
static void note_leaked(const char *command)
{
    if (leaked_count == ARRAY_SIZE(leaked) || command[0] == ' ' || command[0] == ':' ||
        command[0] == '\0')
        return;
    char *name = leaked[leaked_count++];
    size_t n = 0;
    while (command[n] && command[n] != ' ' && command[n] != ':' && n + 1 < sizeof(leaked[0]))
        n++;
    memcpy(name, command, n);
    name[n] = '\0';
}

/* Deletes name through fd: checked, where 0 and ENOENT are both fine (an event some
 * groups register only when the kernel errs). Used at the end of a run. */
static bool delete_at_end(int fd, const char *name)
{
    long ret = ioctl(fd, DIAG_IOCSDEL, name);
    int got = ret == -1 ? errno : 0;
    char what[96];
    snprintf(what, sizeof(what), "delete %s -> success or ENOENT", name);
    if (!check_true(what, got == 0 || got == ENOENT))
        printf("#   got %s\n", strerrorname_np(got));
    return got == 0 || got == ENOENT;
}

/* The number after "Active:" in user_events_status (the events that exist), or -1. The
 * file is read a line at a time, so any number of events before that line fits. */
static int active_events(void)
{
    int fd = open(STATUS_FILE, O_RDONLY);
    if (fd < 0)
        return -1;
    char chunk[256], line[64];
    size_t len = 0;
    int active = -1;
    ssize_t n;
    while (active < 0 && (n = read(fd, chunk, sizeof(chunk))) > 0) {
        for (ssize_t i = 0; i < n && active < 0; i++) {
            if (chunk[i] != '\n') {
                if (len + 1 < sizeof(line))
                    line[len++] = chunk[i];
                continue;
            }
            line[len] = '\0';
            if (strncmp(line, "Active:", 7) == 0)
                active = (int)strtol(line + 7, 0, 10);
            len = 0;
        }
    }
    close(fd);
    return active;
}

/* ---- the groups ---- */

/*
 * What every group needs: user_events_status mapped read-only (a page the kernel must not
 * write for us), a user_events_data descriptor, and a writable page with an unmapped one
 * right after it (for buffers and structures that run off the end of user memory).
 * Without these nothing else means anything, so a failure here ends the run.
 */
static bool setup(void)
{
    printf("# setup\n");
    status_fd = open(STATUS_FILE, O_RDONLY);
    if (!check_call("open user_events_status O_RDONLY", status_fd, 0))
        return false;
    void *page = mmap(0, USER_PAGE_SIZE, PROT_READ, MAP_SHARED, status_fd, 0);
    if (!check_call("mmap user_events_status read-only", (long)(uintptr_t)page, 0))
        return false;
    status_page = page;
    data_fd = open(DATA_FILE, O_RDWR);
    if (!check_call("open user_events_data O_RDWR", data_fd, 0))
        return false;
    char *pages = mmap(0, 2 * USER_PAGE_SIZE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!check_call("mmap two anonymous pages", (long)(uintptr_t)pages, 0))
        return false;
    if (!check_call("munmap the second one", munmap(pages + USER_PAGE_SIZE, USER_PAGE_SIZE), 0))
        return false;
    edge = (uintptr_t)pages + USER_PAGE_SIZE;
    /* Left over from a run that did not reach its cleanup: not checked. */
    for (unsigned i = 0; i < ARRAY_SIZE(event_names); i++)
        ioctl(data_fd, DIAG_IOCSDEL, event_names[i]);
    return true;
}

/*
 * DIAG_IOCSREG tells its two ABIs apart by the size field: 20 is struct user_reg_status
 * (Linux's struct user_reg before 6.4), 28 and more Linux 6.4's struct user_reg (more is
 * fine when the extra bytes are zero, as copy_struct_from_user allows for newer programs on
 * older kernels).
 * Everything else must be refused before the kernel reads past what the program has.
 */
static void group_struct_size(void)
{
    static const struct {
        uint32_t size;
        uint8_t tail; /* the last of 4 bytes after struct user_reg */
        int want;
    } sizes[] = {
        { 0, 0, EINVAL },  { 19, 0, EINVAL }, { 21, 0, EINVAL }, { 27, 0, EINVAL },
        { 4097, 0, E2BIG }, { 32, 1, E2BIG }, { 32, 0, 0 },
    };
    struct sized_reg {
        struct user_reg reg;
        uint8_t tail[4];
    } __attribute__((packed));

    printf("# DIAG_IOCSREG structure size\n");
    for (unsigned i = 0; i < ARRAY_SIZE(sizes); i++) {
        struct sized_reg s = { user_reg_for("ue_err_size u32 a"), { 0 } };
        s.reg.size = sizes[i].size;
        s.tail[3] = sizes[i].tail;
        char what[96];
        snprintf(what, sizeof(what), "size %u%s", sizes[i].size,
                 sizes[i].size == 32 ? (sizes[i].tail ? " with a nonzero trailing byte"
                                                      : " with zero trailing bytes")
                                     : "");
        check_call(what, ioctl(data_fd, DIAG_IOCSREG, &s), sizes[i].want);
    }
}

/*
 * The fields of struct user_reg the kernel checks before it writes the enable bit: the only
 * flag is USER_EVENT_REG_PERSIST (bit 0), a 32-bit process has only 4-byte words, the bit must be inside the
 * word, the word aligned, and writable by this process (the kernel writes it on our
 * behalf, so a read-only page is as wrong as kernel memory). One (enable_addr, enable_bit)
 * may serve only one registration per process.
 */
static void group_reg_fields(void)
{
    const char *cmd = "ue_err_field u32 a";
    struct user_reg flags = user_reg_for(cmd), flag2 = user_reg_for(cmd), size8 = user_reg_for(cmd),
                    size2 = user_reg_for(cmd), bit32 = user_reg_for(cmd),
                    misaligned = user_reg_for(cmd), kernel = user_reg_for(cmd),
                    unmapped = user_reg_for(cmd), readonly = user_reg_for(cmd);
    flags.flags = 0x8000;
    flag2.flags = USER_EVENT_REG_PERSIST << 1; /* Linux 6.10's MULTI_FORMAT: not in 6.6 */
    size8.enable_size = 8;
    size2.enable_size = 2;
    bit32.enable_bit = 32;
    misaligned.enable_addr += 2;
    kernel.enable_addr = KERNEL_ADDR;
    unmapped.enable_addr = UNMAPPED_ADDR;
    readonly.enable_addr = (uintptr_t)status_page + 64;
    struct user_reg first = user_reg_for("ue_err_dup u32 a");
    struct user_reg again = first, again_bad = first;
    again_bad.name_args = (uintptr_t)"ue_err_dup long x"; /* Linux checks the bit first */

    printf("# struct user_reg fields\n");
    const struct errno_case cases[] = {
        { "flags 0x8000", IOCTL(data_fd, DIAG_IOCSREG, &flags), EINVAL },
        { "flags 0x2 (only PERSIST is defined)", IOCTL(data_fd, DIAG_IOCSREG, &flag2), EINVAL },
        { "enable_size 8", IOCTL(data_fd, DIAG_IOCSREG, &size8), EINVAL },
        { "enable_size 2", IOCTL(data_fd, DIAG_IOCSREG, &size2), EINVAL },
        { "enable_bit 32", IOCTL(data_fd, DIAG_IOCSREG, &bit32), EINVAL },
        { "misaligned enable_addr", IOCTL(data_fd, DIAG_IOCSREG, &misaligned), EINVAL },
        { "enable_addr in kernel memory (0xc0100000)", IOCTL(data_fd, DIAG_IOCSREG, &kernel),
          EFAULT },
        { "enable_addr unmapped (0x1000)", IOCTL(data_fd, DIAG_IOCSREG, &unmapped), EFAULT },
        { "enable_addr in the read-only status page", IOCTL(data_fd, DIAG_IOCSREG, &readonly),
          EFAULT },
        { "register ue_err_dup", IOCTL(data_fd, DIAG_IOCSREG, &first), 0 },
        { "the same enable_addr and enable_bit again", IOCTL(data_fd, DIAG_IOCSREG, &again),
          EADDRINUSE },
        { "the same enable_addr and enable_bit with a malformed command",
          IOCTL(data_fd, DIAG_IOCSREG, &again_bad), EADDRINUSE },
    };
    RUN_CASES(cases);
}

/*
 * The two pointers DIAG_IOCSREG follows: name_args, a string of at most
 * USER_EVENTS_MAX_DESC bytes with its NUL, and the argument itself, which must be readable
 * for its whole size (the size field alone being readable is not enough).
 */
static void group_reg_pointers(void)
{
    static char no_nul[USER_EVENTS_MAX_DESC + 1]; /* 512 'a' then the NUL, one too far */
    memset(no_nul, 'a', USER_EVENTS_MAX_DESC);
    const char *cmd = "ue_err_name u32 a";
    struct user_reg null_name = user_reg_for(cmd), kernel_name = user_reg_for(cmd),
                    unmapped_name = user_reg_for(cmd), long_name = user_reg_for(cmd);
    null_name.name_args = 0;
    kernel_name.name_args = KERNEL_ADDR;
    unmapped_name.name_args = UNMAPPED_ADDR;
    long_name.name_args = (uintptr_t)no_nul;
    /* A pre-6.4 struct user_reg_status (size, name_args low and high, status_bit,
     * write_index) in the program's read-only segment: readable, but the answer cannot be
     * written back, so the kernel must refuse it before it registers anything. */
    static const char readonly_cmd[] = "ue_err_ro u32 a";
    static const uint32_t readonly_reg[5] = { 20, (uintptr_t)readonly_cmd, 0, 0, 0 };
    /* A struct whose size field (and next 4 bytes) are the last of a mapped page. */
    struct user_reg straddling = user_reg_for(cmd);
    memcpy((void *)(edge - 8), &straddling, 8);

    printf("# DIAG_IOCSREG pointers\n");
    const struct errno_case cases[] = {
        { "name_args NULL", IOCTL(data_fd, DIAG_IOCSREG, &null_name), EFAULT },
        { "name_args in kernel memory", IOCTL(data_fd, DIAG_IOCSREG, &kernel_name), EFAULT },
        { "name_args unmapped", IOCTL(data_fd, DIAG_IOCSREG, &unmapped_name), EFAULT },
        { "name with no NUL in its first 512 bytes", IOCTL(data_fd, DIAG_IOCSREG, &long_name),
          EINVAL },
        { "struct user_reg pointer NULL", IOCTL(data_fd, DIAG_IOCSREG, 0), EFAULT },
        { "struct user_reg pointer in kernel memory", IOCTL(data_fd, DIAG_IOCSREG, KERNEL_ADDR),
          EFAULT },
        { "struct user_reg running into an unmapped page",
          IOCTL(data_fd, DIAG_IOCSREG, edge - 8), EFAULT },
        { "struct user_reg_status in read-only memory (no room for the answer; Linux: 0)",
          IOCTL(data_fd, DIAG_IOCSREG, readonly_reg), EFAULT },
        { "and so ue_err_ro was never created",
          IOCTL(data_fd, DIAG_IOCSDEL, "ue_err_ro"), ENOENT },
    };
    RUN_CASES(cases);
}

/*
 * The pre-6.4 status-page ABI (size 20): the answer is a status bit, never 0 (bit 0 is the
 * one a program may use for "no event"). Registering the same command again on the same fd is
 * not an error and gives the same write_index; the same name with other fields is.
 */
static void group_seed_abi(void)
{
    printf("# seed ABI (struct user_reg_status)\n");
    struct user_reg_status reg = seed_reg_for("ue_err_seed u32 a");
    check_call("register ue_err_seed with size 20", ioctl(data_fd, DIAG_IOCSREG, &reg), 0);
    check_true("its status_bit is not 0", reg.status_bit != 0);
    seed_index = reg.write_index;

    struct user_reg_status again = seed_reg_for("ue_err_seed u32 a");
    check_call("register ue_err_seed again, same fields", ioctl(data_fd, DIAG_IOCSREG, &again), 0);
    check_number("same write_index the second time", again.write_index, reg.write_index);

    struct user_reg_status other = seed_reg_for("ue_err_seed u64 a");
    check_call("register ue_err_seed with other fields",
               ioctl(data_fd, DIAG_IOCSREG, &other), EADDRINUSE);
}

/*
 * Commands Linux's parser refuses: no name, a field without a name, long (its size
 * differs between programs), struct without its size, words after a field, an array
 * over the largest size, and a flag with no name before it (flags themselves are accepted
 * and ignored, as Linux 6.1 does: its dyn_test checks it). Also the name "enable", which
 * events/user_events/enable (the system's own switch) already has.
 */
static void group_grammar(void)
{
    static const char *const bad[] = {
        "", "a b", "x long y", "x u32", "x struct s y", "x u32 y z", "x char[2048] y",
        ":bogus u32 y", "enable u32 a",
    };
    printf("# command grammar\n");
    for (unsigned i = 0; i < ARRAY_SIZE(bad); i++) {
        struct user_reg_status reg = seed_reg_for(bad[i]);
        char what[64];
        snprintf(what, sizeof(what), "command \"%s\"", bad[i]);
        long ret = ioctl(data_fd, DIAG_IOCSREG, &reg);
        check_call(what, ret, EINVAL);
        if (ret != -1)
            note_leaked(bad[i]);
    }
}

/*
 * A write to user_events_data starts with a write_index of this fd and carries at least
 * the payload the event's fields describe. Linux reads the index first (a write shorter
 * than it cannot be copied: EFAULT), then looks it up, then checks the length; writev's
 * vector count and every vector are checked before anything is written.
 */
static void group_writes(void)
{
    static struct iovec many[IOV_MAX + 1];
    uint32_t value = 7;
    uint32_t good[2] = { seed_index, value }, unknown[2] = { 9999, value };
    int32_t negative[2] = { -1, (int32_t)value };
    struct iovec kernel_iov[2] = { { &seed_index, 4 }, { (void *)KERNEL_ADDR, 4 } };
    many[0] = (struct iovec){ &seed_index, 4 };
    many[1] = (struct iovec){ &value, 4 };
    for (unsigned i = 2; i < ARRAY_SIZE(many); i++)
        many[i] = (struct iovec){ &value, 0 };

    printf("# writes to user_events_data\n");
    const struct errno_case disabled[] = {
        { "write to ue_err_seed while disabled: its length (pre-6.4 ABI, as 6.1)", SYS_write,
          { data_fd, (long)good, sizeof(good) }, 0 },
        { "... a short payload is still EINVAL first", SYS_write, { data_fd, (long)good, 4 },
          EINVAL },
    };
    RUN_CASES(disabled);
    int enable_fd = open(SEED_ENABLE_FILE, O_WRONLY);
    check_call("enable ue_err_seed, writing \"1\\0\" (sizeof \"1\", as Linux's selftests do)",
               write(enable_fd, "1", sizeof("1")), 0);
    const struct errno_case cases[] = {
        { "write [write_index, u32] of ue_err_seed", SYS_write,
          { data_fd, (long)good, sizeof(good) }, 0 },
        { "write of an unknown write_index", SYS_write,
          { data_fd, (long)unknown, sizeof(unknown) }, ENOENT },
        { "write of a negative write_index", SYS_write,
          { data_fd, (long)negative, sizeof(negative) }, EINVAL },
        { "2-byte write", SYS_write, { data_fd, (long)good, 2 }, EFAULT },
        { "write_index without the u32 payload", SYS_write, { data_fd, (long)good, 4 },
          EINVAL },
        { "writev with an iovec in kernel memory", SYS_writev, { data_fd, (long)kernel_iov, 2 },
          EFAULT },
        { "writev with the iovec array in kernel memory", SYS_writev,
          { data_fd, KERNEL_ADDR, 2 }, EFAULT },
        { "writev of 1025 iovecs", SYS_writev, { data_fd, (long)many, IOV_MAX + 1 }, EINVAL },
    };
    RUN_CASES(cases);
    check_call("disable ue_err_seed (\"0\\n\")", write(enable_fd, "0\n", 2), 0);
    close(enable_fd);
}

/*
 * What a 32-bit Linux does with what i386 programs write: an event's `enable` file parses
 * as kstrtoul_from_user ("1\0" and "+1" pass; blanks, hex and junk are EINVAL; more than
 * 32 bits ERANGE), and a registration's 64-bit enable_addr counts by its low 32 bits, so
 * that (__u64)&stack_variable, which sign-extends to 0xffffffffbeff...., registers that
 * variable and unregisters it the same way (Linux 6.4+'s selftests do exactly that).
 */
static void group_linux_32bit(void)
{
    printf("# enable files and 64-bit addresses, as a 32-bit Linux\n");
    int enable_fd = open(SEED_ENABLE_FILE, O_WRONLY);
    static const struct {
        const char *text, *shown;
        size_t len;
        int err;
    } writes[] = {
        { " 1", "\" 1\"", 2, EINVAL },   { "1 ", "\"1 \"", 2, EINVAL },
        { "0x1", "0x1", 3, EINVAL },      { "-1", "-1", 2, EINVAL },
        { "2", "2", 1, EINVAL },          { "1junk", "1junk", 5, EINVAL },
        { "4294967296", "4294967296", 10, ERANGE }, { "", "nothing", 0, EINVAL },
        { "+1", "+1", 2, 0 },             { "0\n", "0\\n", 2, 0 },
        { "1\n\0", "1\\n\\0", 3, 0 },  { "0", "0", 1, 0 },
    };
    for (unsigned i = 0; i < ARRAY_SIZE(writes); i++) {
        char what[64];
        snprintf(what, sizeof what, "enable file write of %s", writes[i].shown);
        check_call(what, write(enable_fd, writes[i].text, writes[i].len), writes[i].err);
    }

    volatile uint32_t on_stack = 0;
    struct user_reg reg = { 0 };
    reg.size = sizeof(reg);
    reg.enable_bit = 5;
    reg.enable_size = sizeof(on_stack);
    reg.enable_addr = (uint64_t)(uintptr_t)&on_stack | 0xffffffff00000000ull;
    reg.name_args = (uintptr_t)"ue_err_sext u32 a";
    check_call("register with enable_addr 0xffffffff:&stack_word (sign-extended)",
               ioctl(data_fd, DIAG_IOCSREG, &reg), 0);
    uint32_t record[2] = { reg.write_index, 1 };
    check_call("write to ue_err_sext while disabled: EBADF (6.4 ABI, as 6.4+)",
               write(data_fd, record, sizeof record), EBADF);
    check_call("enable ue_err_sext",
               write_file(TRACEFS "events/user_events/ue_err_sext/enable", "1"), 0);
    check_number("write to it enabled", write(data_fd, record, sizeof record), sizeof record);
    check_true("the kernel set bit 5 of the stack word", on_stack == 1u << 5);
    struct user_unreg unreg = { 0 };
    unreg.size = sizeof(unreg);
    unreg.disable_bit = 5;
    unreg.disable_addr = reg.enable_addr;
    check_call("unregister with the same sign-extended address",
               ioctl(data_fd, DIAG_IOCSUNREG, &unreg), 0);
    check_true("and the bit is cleared", on_stack == 0);
    check_call("disable ue_err_sext",
               write_file(TRACEFS "events/user_events/ue_err_sext/enable", "0"), 0);
    close(enable_fd);
}

/*
 * A __data_loc field is a u32 (length << 16 | offset), the offset counted from the start
 * of the record, the kernel's 8-byte header included. While the event is enabled the
 * kernel checks, as Linux's user_event_validate does, that the data lies inside the record
 * and that a string ends with its NUL; a disabled event records nothing and checks
 * nothing, so the program enables it first.
 */
static void group_data_loc(void)
{
    enum { DATA_OFFSET = COMMON_HEADER_SIZE + 4 + 4 }; /* after a and msg's u32 */
    printf("# __data_loc records\n");
    struct user_reg_status reg = seed_reg_for("ue_err_loc u32 a;__data_loc char[] msg");
    check_call("register ue_err_loc", ioctl(data_fd, DIAG_IOCSREG, &reg), 0);
    int enable_fd = open(LOC_ENABLE_FILE, O_WRONLY);
    check_call("open events/user_events/ue_err_loc/enable", enable_fd, 0);
    check_call("enable ue_err_loc", write(enable_fd, "1\n", 2), 0);

    uint32_t index = reg.write_index, a = 1;
    uint32_t loc_good = DYN_LOC(DATA_OFFSET, 3), loc_past_offset = DYN_LOC(DATA_OFFSET + 1, 3),
             loc_past_length = DYN_LOC(DATA_OFFSET, 4);
    char string[3] = "hi", no_nul[3] = { 'h', 'i', '!' };
    struct iovec good[4] = { { &index, 4 }, { &a, 4 }, { &loc_good, 4 }, { string, 3 } };
    struct iovec past_offset[4] = { { &index, 4 }, { &a, 4 }, { &loc_past_offset, 4 },
                                    { string, 3 } };
    struct iovec past_length[4] = { { &index, 4 }, { &a, 4 }, { &loc_past_length, 4 },
                                    { string, 3 } };
    struct iovec unterminated[4] = { { &index, 4 }, { &a, 4 }, { &loc_good, 4 }, { no_nul, 3 } };
    const struct errno_case cases[] = {
        { "a record with its string in place", SYS_writev, { data_fd, (long)good, 4 }, 0 },
        { "__data_loc offset one byte past the record", SYS_writev,
          { data_fd, (long)past_offset, 4 }, EFAULT },
        { "__data_loc length one byte past the record", SYS_writev,
          { data_fd, (long)past_length, 4 }, EFAULT },
        { "__data_loc string without its NUL", SYS_writev, { data_fd, (long)unterminated, 4 },
          EFAULT },
    };
    RUN_CASES(cases);

    check_call("disable ue_err_loc", write(enable_fd, "0\n", 2), 0);
    close(enable_fd);
}

/* The "dropped events" count of CPU 0's trace buffer (per_cpu/cpu0/stats), or -1. */
static long dropped_events(void)
{
    char text[256];
    int fd = open(TRACEFS "per_cpu/cpu0/stats", O_RDONLY);
    int n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
    if (fd >= 0)
        close(fd);
    if (n <= 0)
        return -1;
    text[n] = '\0';
    const char *at = strstr(text, "dropped events: ");
    return at ? strtol(at + 16, 0, 10) : -1;
}

/*
 * Fields may describe more than one trace buffer event holds (2048 bytes): Linux registers
 * such an event, and so do we. A write of it cannot be recorded: it still returns its
 * length (the program did nothing wrong), and the buffer counts it as dropped, so the loss
 * shows in per_cpu/cpu0/stats and in the trace's entries-written.
 */
static void group_oversize(void)
{
    printf("# records larger than the trace buffer takes\n");
    static char blob[3000];
    struct user_reg_status reg = seed_reg_for("ue_err_big struct blob b 3000");
    check_call("register ue_err_big (3000 bytes of fields)", ioctl(data_fd, DIAG_IOCSREG, &reg), 0);
    int enable_fd = open(TRACEFS "events/user_events/ue_err_big/enable", O_WRONLY);
    check_call("enable ue_err_big", write(enable_fd, "1\n", 2), 0);
    long before = dropped_events();
    uint32_t index = reg.write_index;
    struct iovec io[2] = { { &index, 4 }, { blob, sizeof blob } };
    check_number("a 3004-byte write returns its length", writev(data_fd, io, 2), 3004);
    long after = dropped_events();
    if (!check_true("and is counted as one dropped event", before >= 0 && after == before + 1))
        printf("#   dropped events: %ld before, %ld after\n", before, after);
    check_call("disable ue_err_big", write(enable_fd, "0\n", 2), 0);
    close(enable_fd);
}

/*
 * DIAG_IOCSDEL deletes an event only when nothing uses it: no fd that registered it, none
 * open on its events/user_events/NAME files, and no enable_addr registration, which
 * outlives its fd until DIAG_IOCSUNREG (or the process's exit). An event registered without
 * USER_EVENT_REG_PERSIST does not wait for the delete: it goes with its last reference. DIAG_IOCSUNREG names a registration by (address, bit) and checks its own size and
 * reserved bytes. Anything else asked of user_events_data is not an ioctl it has.
 */
static void group_delete(void)
{
    printf("# DIAG_IOCSDEL and DIAG_IOCSUNREG\n");
    int busy_fd = open(DATA_FILE, O_RDWR);
    struct user_reg_status busy = seed_reg_for("ue_err_busy u32 a");
    check_call("register ue_err_busy on a second fd", ioctl(busy_fd, DIAG_IOCSREG, &busy), 0);
    check_call("delete ue_err_busy while that fd is open",
               ioctl(data_fd, DIAG_IOCSDEL, "ue_err_busy"), EBUSY);
    check_call("delete an event that does not exist",
               ioctl(data_fd, DIAG_IOCSDEL, "ue_err_no_such_event"), ENOENT);
    /* Linux 6.1: an open enable or format file does not hold the event, and the pre-6.4
     * structure's event stays until deleted; the files answer ENODEV once it is. */
    int format_fd = open(TRACEFS "events/user_events/ue_err_busy/format", O_RDONLY);
    int enable_fd = open(TRACEFS "events/user_events/ue_err_busy/enable", O_RDWR);
    check_call("open ue_err_busy's format file", format_fd, 0);
    check_call("open ue_err_busy's enable file", enable_fd, 0);
    check_call("enable ue_err_busy through it", write(enable_fd, "1", 2), 0);
    check_call("close the fd that registered it", close(busy_fd), 0);
    check_call("enabled, ue_err_busy is held: delete",
               ioctl(data_fd, DIAG_IOCSDEL, "ue_err_busy"), EBUSY);
    check_call("disable ue_err_busy through the same file", write(enable_fd, "0", 2), 0);
    check_call("pre-6.4 structure: unreferenced, ue_err_busy is still there",
               open(TRACEFS "events/user_events/ue_err_busy/id", O_RDONLY) >= 0 ? 0 : -1, 0);
    check_call("delete ue_err_busy while its format and enable files are open (Linux 6.1)",
               ioctl(data_fd, DIAG_IOCSDEL, "ue_err_busy"), 0);
    char text[512];
    check_call("read the open format file of the deleted event",
               read(format_fd, text, sizeof(text)), ENODEV);
    check_call("write 1 to the open enable file of the deleted event", write(enable_fd, "1", 2),
               ENODEV);
    check_call("read that enable file", read(enable_fd, text, sizeof(text)), ENODEV);
    check_call("its directory has gone: opening its format again",
               open(TRACEFS "events/user_events/ue_err_busy/format", O_RDONLY), ENOENT);
    struct user_reg_status again = seed_reg_for("ue_err_busy u64 other");
    check_call("register the name again, with other fields", ioctl(data_fd, DIAG_IOCSREG, &again), 0);
    int new_format = open(TRACEFS "events/user_events/ue_err_busy/format", O_RDONLY);
    check_call("the new event's format file opens", new_format, 0);
    check_true("and reads the new fields",
               read(new_format, text, sizeof(text) - 1) > 0 && strstr(text, "u64 other") != NULL);
    check_call("the old format file still answers ENODEV", read(format_fd, text, sizeof(text)),
               ENODEV);
    check_call("close the old format, enable and the new format files",
               close(format_fd) | close(enable_fd) | close(new_format), 0);
    check_call("ue_err_busy (new) is held by this fd: delete",
               ioctl(data_fd, DIAG_IOCSDEL, "ue_err_busy"), EBUSY);
    check_call("delete with the name in kernel memory",
               ioctl(data_fd, DIAG_IOCSDEL, KERNEL_ADDR), EFAULT);

    int enabler_fd = open(DATA_FILE, O_RDWR);
    struct user_reg reg = user_reg_for("ue_err_enabler u32 a");
    check_call("register ue_err_enabler with enable_addr",
               ioctl(enabler_fd, DIAG_IOCSREG, &reg), 0);
    check_call("close its fd", close(enabler_fd), 0);
    struct user_unreg unreg = { 0 };
    unreg.size = sizeof(unreg);
    unreg.disable_bit = reg.enable_bit;
    unreg.disable_addr = reg.enable_addr;
    check_call("delete ue_err_enabler while its enable_addr is registered",
               ioctl(data_fd, DIAG_IOCSDEL, "ue_err_enabler"), EBUSY);
    check_call("DIAG_IOCSUNREG of that enable_addr", ioctl(data_fd, DIAG_IOCSUNREG, &unreg), 0);
    check_call("ue_err_enabler went with that DIAG_IOCSUNREG: deleting it finds none",
               ioctl(data_fd, DIAG_IOCSDEL, "ue_err_enabler"), ENOENT);
    check_call("DIAG_IOCSUNREG of it again", ioctl(data_fd, DIAG_IOCSUNREG, &unreg), ENOENT);

    struct user_unreg never = unreg, small = unreg, reserved = unreg;
    never.disable_addr = (uintptr_t)&never_registered;
    small.size = 8;
    reserved.__reserved = 1;
    const struct errno_case cases[] = {
        { "DIAG_IOCSUNREG of an address never registered",
          IOCTL(data_fd, DIAG_IOCSUNREG, &never), ENOENT },
        { "DIAG_IOCSUNREG with size 8", IOCTL(data_fd, DIAG_IOCSUNREG, &small), EINVAL },
        { "DIAG_IOCSUNREG with a reserved byte set", IOCTL(data_fd, DIAG_IOCSUNREG, &reserved),
          EINVAL },
        { "unknown ioctl on user_events_data", IOCTL(data_fd, UE_IOC(3, 9), &never), ENOTTY },
        { "ioctl on fd 99", IOCTL(99, DIAG_IOCSDEL, "ue_err_busy"), EBADF },
    };
    RUN_CASES(cases);
}

/*
 * The rest of the system calls: every pointer is checked against the page tables before
 * the kernel uses it (NULL page, kernel memory, a range running into an unmapped page, a
 * read-only page the kernel would write), and the plain argument errors.
 */
static void group_syscalls(void)
{
    struct timespec too_many_ns = { 0, 1000000000 };
    int small_fd = open(TRACEFS "tracing_on", O_RDONLY); /* "1\n" or "0\n" */
    printf("# system calls\n");
    const struct errno_case cases[] = {
        { "write(1, NULL, 0)", SYS_write, { 1, 0, 0 }, 0 },
        { "writev(1, NULL, 0)", SYS_writev, { 1, 0, 0 }, 0 },
        { "read(fd, NULL, 0)", SYS_read, { status_fd, 0, 0 }, 0 },
        { "read of a 2-byte file asking 4096 bytes into 16 before an unmapped page", SYS_read,
          { small_fd, (long)(edge - 16), 4096 }, 0 },
        { "write(1, 0x1000, 5)", SYS_write, { 1, UNMAPPED_ADDR, 5 }, EFAULT },
        { "write(1, 0xc0100000, 5)", SYS_write, { 1, KERNEL_ADDR, 5 }, EFAULT },
        { "write from a buffer running into an unmapped page", SYS_write,
          { 1, (long)(edge - 2), 5 }, EFAULT },
        { "read into the read-only status page", SYS_read,
          { status_fd, (long)(uintptr_t)status_page, 16 }, EFAULT },
        { "open with the path in kernel memory", SYS_open, { KERNEL_ADDR, O_RDONLY }, EFAULT },
        { "open of a missing file", SYS_open, { (long)TRACEFS "ue_errors_missing", O_RDONLY },
          ENOENT },
        { "close(99)", SYS_close, { 99 }, EBADF },
        { "system call 999", 999, { 0 }, ENOSYS },
        { "mmap of length 0", SYS_mmap2, { 0, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 },
          EINVAL },
        { "munmap of a misaligned address", SYS_munmap,
          { (long)(edge - USER_PAGE_SIZE + 1), USER_PAGE_SIZE }, EINVAL },
        { "munmap of a length that wraps when rounded up", SYS_munmap,
          { (long)(edge - USER_PAGE_SIZE), (long)0xfffff001 }, EINVAL },
        { "mmap of the status page at page offset 0x100000 (4 GiB: no wrap to 0)", SYS_mmap2,
          { 0, USER_PAGE_SIZE, PROT_READ, MAP_SHARED, status_fd, 0x100000 }, EINVAL },
        { "mmap whose page offset wraps (0xffffffff)", SYS_mmap2,
          { 0, 2 * USER_PAGE_SIZE, PROT_READ, MAP_SHARED, status_fd, (long)0xffffffff },
          EOVERFLOW },
        { "MAP_SHARED_VALIDATE with a flag the file does not support (MAP_SYNC)", SYS_mmap2,
          { 0, USER_PAGE_SIZE, PROT_READ, MAP_SHARED | MAP_PRIVATE | 0x80000, status_fd, 0 },
          EOPNOTSUPP },
        { "mmap of 3 GiB", SYS_mmap2,
          { 0, (long)0xc0000000, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 }, ENOMEM },
        { "writev of no vectors to user_events_data", SYS_writev, { data_fd, 0, 0 }, 0 },
        { "nanosleep with req at 0x1000", SYS_nanosleep, { UNMAPPED_ADDR, 0 }, EFAULT },
        { "nanosleep with tv_nsec 1000000000", SYS_nanosleep, { (long)&too_many_ns, 0 },
          EINVAL },
    };
    RUN_CASES(cases);
    close(small_fd);

    /* Outside the table: should the kernel map it after all, it must go again. */
    void *p = mmap(0, USER_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, status_fd, 0);
    check_call("writable MAP_SHARED mapping of user_events_status opened O_RDONLY",
               (long)(uintptr_t)p, EACCES);
    if (p != MAP_FAILED)
        munmap(p, USER_PAGE_SIZE);
}

/* Checks the whole text of a tracefs file. */
static void expect_text(const char *what, const char *path, const char *want)
{
    char text[256];
    int fd = open(path, O_RDONLY), len = 0, n = 0;
    while (fd >= 0 && len < (int)sizeof(text) - 1 &&
           (n = read(fd, text + len, sizeof(text) - 1 - len)) > 0)
        len += n;
    text[len] = '\0';
    if (fd >= 0)
        close(fd);
    if (!check_true(what, fd >= 0 && n >= 0 && strcmp(text, want) == 0))
        printf("#   got \"%s\", want \"%s\"\n", text, want);
}

/*
 * O_TRUNC empties a file once, at open(): set_event disables every event, dynamic_events
 * deletes every event (or fails with EBUSY, deleting none, while one is in use). The
 * writes through that descriptor then all add, as on Linux.
 */
static void group_truncate(void)
{
    printf("# O_TRUNC\n");
    check_call("open dynamic_events O_TRUNC while events are in use",
               open(TRACEFS "dynamic_events", O_WRONLY | O_TRUNC), EBUSY);
    int fd = open(TRACEFS "set_event", O_WRONLY | O_TRUNC);
    check_call("open set_event O_TRUNC", fd, 0);
    const char *seed = "user_events:ue_err_seed\n", *loc = "user_events:ue_err_loc\n";
    check_number("write ue_err_seed to it", write(fd, seed, strlen(seed)), strlen(seed));
    check_number("write ue_err_loc to it", write(fd, loc, strlen(loc)), strlen(loc));
    close(fd);
    expect_text("set_event has both", TRACEFS "set_event",
                "user_events:ue_err_seed\nuser_events:ue_err_loc\n");
    fd = open(TRACEFS "set_event", O_WRONLY | O_TRUNC);
    check_call("open set_event O_TRUNC again, and close it", close(fd), 0);
    expect_text("set_event is empty", TRACEFS "set_event", "");
}

/* The child of group_race's first case: registers ue_err_race on its own fd, enables it,
 * tells the parent (one byte on ready), and writes it `writes` times; exits 0 if every
 * write was taken whole, 1 otherwise. */
static void race_writer(int ready, int writes)
{
    int fd = open(DATA_FILE, O_RDWR);
    struct user_reg_status reg = seed_reg_for("ue_err_race u32 a");
    if (fd < 0 || ioctl(fd, DIAG_IOCSREG, &reg) != 0 ||
        write_file(TRACEFS "events/user_events/ue_err_race/enable", "1\n") != 0)
        _exit(1);
    write(ready, "r", 1);
    uint32_t a = 0;
    struct iovec io[2] = { { &reg.write_index, 4 }, { &a, sizeof(a) } };
    for (a = 0; a < (uint32_t)writes; a++)
        if (writev(fd, io, 2) != 8)
            _exit(1);
    _exit(0);
}

/* The child of group_race's second case: opens ue_err_gone's enable file, tells the parent,
 * waits for its go (after the parent deleted the event and registered the name again),
 * then writes 1 to the file it holds: exits 0 if that is ENODEV twice and a read too.
 * parent_fd is closed first. */
static void race_holder(int ready, int go, int parent_fd)
{
    close(parent_fd); /* the parent's registering fd, which the fork shares, holds the event */
    int enable_fd = open(TRACEFS "events/user_events/ue_err_gone/enable", O_RDWR);
    if (enable_fd < 0)
        _exit(1);
    write(ready, "r", 1);
    char c;
    if (read(go, &c, 1) != 1)
        _exit(1);
    char text[8];
    bool gone = write(enable_fd, "1", 2) == -1 && errno == ENODEV &&
                write(enable_fd, "1\n", 2) == -1 && errno == ENODEV &&
                read(enable_fd, text, sizeof(text)) == -1 && errno == ENODEV;
    _exit(gone ? 0 : 1);
}

/* The exit status of child, or -1. */
static int child_status(pid_t child)
{
    int status;
    if (waitpid(child, &status, 0) != child)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * Deletes racing another process. A process writing the event holds it through the fd it
 * registered on: every delete while it runs is EBUSY, and no write of it fails (the timer
 * switches between the two). A process holding the event's enable file does not hold the
 * event: the delete goes ahead, the name can be registered again, and the old file's
 * writes (ENODEV) reach neither the old event nor the new one. A process killed while it
 * holds such a file frees it at its exit.
 */
static void group_race(void)
{
    printf("# deletes racing another process\n");
    int ready[2], go[2];
    check_call("pipe", pipe(ready), 0);
    pid_t child = fork();
    if (child == 0)
        race_writer(ready[1], 20000);
    check_call("fork a writer of ue_err_race", child, 0);
    char c;
    check_call("it registered and enabled ue_err_race", read(ready[0], &c, 1), 0);
    int fd = open(DATA_FILE, O_RDWR);
    long tries = 0, busy = 0;
    int status = 0;
    pid_t got;
    while ((got = waitpid(child, &status, WNOHANG)) == 0) {
        tries++;
        busy += ioctl(fd, DIAG_IOCSDEL, "ue_err_race") == -1 && errno == EBUSY;
    }
    printf("# %ld deletes tried while the writer ran\n", tries);
    check_true("some deletes were tried while it wrote", tries > 0);
    check_number("every one of them was EBUSY", busy, tries);
    check_true("every one of its 20000 writes was taken (exit status 0)",
               got == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    check_call("the writer has exited: still enabled, ue_err_race is held",
               ioctl(fd, DIAG_IOCSDEL, "ue_err_race"), EBUSY);
    check_call("disable it", write_file(TRACEFS "events/user_events/ue_err_race/enable", "0\n"), 0);
    check_call("then the delete works", ioctl(fd, DIAG_IOCSDEL, "ue_err_race"), 0);

    struct user_reg_status gone = seed_reg_for("ue_err_gone u32 a");
    check_call("register ue_err_gone", ioctl(fd, DIAG_IOCSREG, &gone), 0);
    check_call("pipes", pipe(go) | pipe(ready), 0);
    child = fork();
    if (child == 0)
        race_holder(ready[1], go[0], fd);
    check_call("fork a holder of ue_err_gone's enable file", child, 0);
    check_call("it opened the enable file", read(ready[0], &c, 1), 0);
    check_call("close the fd that registered ue_err_gone", close(fd), 0);
    fd = open(DATA_FILE, O_RDWR);
    check_call("delete ue_err_gone while the other process holds its enable file",
               ioctl(fd, DIAG_IOCSDEL, "ue_err_gone"), 0);
    check_call("register ue_err_gone again", ioctl(fd, DIAG_IOCSREG, &gone), 0);
    check_call("let the holder write 1 to its old enable file", write(go[1], "g", 1), 0);
    check_number("its writes and read were ENODEV (exit status)", child_status(child), 0);
    expect_text("the new ue_err_gone stayed disabled", TRACEFS "events/user_events/ue_err_gone/enable",
                "0\n");

    check_call("pipe", pipe(ready), 0);
    child = fork();
    if (child == 0)
        race_holder(ready[1], go[0], fd); /* killed before it is told to go */
    check_call("fork another holder", child, 0);
    check_call("it opened the new enable file", read(ready[0], &c, 1), 0);
    check_call("close the registering fd", close(fd), 0);
    fd = open(DATA_FILE, O_RDWR);
    check_call("delete the new ue_err_gone under it", ioctl(fd, DIAG_IOCSDEL, "ue_err_gone"), 0);
    check_call("kill the holder", kill(child, SIGKILL), 0);
    check_number("it died of SIGKILL", child_status(child), 128 + SIGKILL);
    check_call("deleting ue_err_gone again finds none", ioctl(fd, DIAG_IOCSDEL, "ue_err_gone"),
               ENOENT);
    close(fd);
    close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
}

/*
 * Leaves the kernel as the run found it: the enable_addr registrations go first (each
 * holds its event, as an open fd does), then the fd that registered the rest, then every
 * event. A delete that fails with EBUSY here means the kernel kept a reference it should
 * have dropped.
 */
static void cleanup(void)
{
    printf("# cleanup\n");
    for (unsigned n = 0; n < enable_bits_used; n++) {
        struct user_unreg unreg = { 0 };
        unreg.size = sizeof(unreg);
        unreg.disable_bit = (uint8_t)(n % 32);
        unreg.disable_addr = (uintptr_t)&enable_words[n / 32];
        ioctl(data_fd, DIAG_IOCSUNREG, &unreg); /* ENOENT for most: not checked */
    }
    check_call("close the user_events_data fd", close(data_fd), 0);
    data_fd = -1;
    int fd = open(DATA_FILE, O_RDWR);
    check_call("open user_events_data for the deletes", fd, 0);
    for (unsigned i = 0; i < ARRAY_SIZE(event_names); i++)
        delete_at_end(fd, event_names[i]);
    for (unsigned i = 0; i < leaked_count; i++)
        delete_at_end(fd, leaked[i]);
    close(fd);
}

/*
 * After the cleanup no user event of this program exists (the script checks there are no
 * others). Deleting the last event of the user_events system removes events/user_events,
 * unless a program has a file of it open: then the directory stays, its enable file still
 * reads, and the next registration finds it. Here the deletes are the automatic ones of a
 * closing fd.
 */
static void group_last_event(void)
{
    printf("# the system's last event\n");
    int fd = open(DATA_FILE, O_RDWR);
    struct user_reg reg = user_reg_for("ue_err_last u32 a"); /* goes with its last reference */
    struct user_unreg unreg = { 0 };
    unreg.size = sizeof(unreg);
    unreg.disable_bit = reg.enable_bit;
    unreg.disable_addr = reg.enable_addr;
    check_call("register ue_err_last", ioctl(fd, DIAG_IOCSREG, &reg), 0);
    int enable_fd = open(TRACEFS "events/user_events/enable", O_RDONLY);
    check_call("open events/user_events/enable", enable_fd, 0);
    check_call("DIAG_IOCSUNREG its enable bit", ioctl(fd, DIAG_IOCSUNREG, &unreg), 0);
    check_call("close the fd that registered it: ue_err_last goes", close(fd), 0);
    fd = open(DATA_FILE, O_RDWR);
    check_call("deleting ue_err_last finds none", ioctl(fd, DIAG_IOCSDEL, "ue_err_last"), ENOENT);
    char text[8];
    check_call("read events/user_events/enable after that", read(enable_fd, text, sizeof(text)), 0);
    check_call("register ue_err_last again", ioctl(fd, DIAG_IOCSREG, &reg), 0);
    check_call("DIAG_IOCSUNREG it again", ioctl(fd, DIAG_IOCSUNREG, &unreg), 0);
    check_call("close events/user_events/enable", close(enable_fd), 0);
    check_call("close that fd too", close(fd), 0);
    check_call("events/user_events went with its last event",
               open(TRACEFS "events/user_events/enable", O_RDONLY), ENOENT);
}

/*
 * Linux 6.6+'s lifetime: an event registered with USER_EVENT_REG_PERSIST stays after its
 * last reference and can then be deleted; the flag counts only for the registration that
 * creates the event; being enabled holds an event as an fd does, so disabling it (once the
 * enable file is closed) is what deletes it.
 */
static void group_lifetime(void)
{
    printf("# lifetime: USER_EVENT_REG_PERSIST and the last reference\n");
    int fd = open(DATA_FILE, O_RDWR);
    struct user_reg keep = user_reg_for("ue_err_persist u32 a");
    keep.flags = USER_EVENT_REG_PERSIST;
    check_call("register ue_err_persist with USER_EVENT_REG_PERSIST",
               ioctl(fd, DIAG_IOCSREG, &keep), 0);
    struct user_unreg unreg = { 0 };
    unreg.size = sizeof(unreg);
    unreg.disable_bit = keep.enable_bit;
    unreg.disable_addr = keep.enable_addr;
    check_call("DIAG_IOCSUNREG its enable bit", ioctl(fd, DIAG_IOCSUNREG, &unreg), 0);
    check_call("close the fd that registered it", close(fd), 0);
    check_call("ue_err_persist is still there: its enable file takes 0",
               write_file(TRACEFS "events/user_events/ue_err_persist/enable", "0\n"), 0);
    fd = open(DATA_FILE, O_RDWR);
    check_call("and, unused, it can be deleted", ioctl(fd, DIAG_IOCSDEL, "ue_err_persist"), 0);

    int other = open(DATA_FILE, O_RDWR);
    struct user_reg plain = user_reg_for("ue_err_shared u32 a");
    struct user_reg late = user_reg_for("ue_err_shared u32 a");
    late.flags = USER_EVENT_REG_PERSIST;
    check_call("register ue_err_shared without the flag", ioctl(other, DIAG_IOCSREG, &plain), 0);
    check_call("register it again with PERSIST on another fd", ioctl(fd, DIAG_IOCSREG, &late), 0);
    unreg.disable_bit = late.enable_bit;
    unreg.disable_addr = late.enable_addr;
    check_call("DIAG_IOCSUNREG that enable bit", ioctl(fd, DIAG_IOCSUNREG, &unreg), 0);
    unreg.disable_bit = plain.enable_bit;
    unreg.disable_addr = plain.enable_addr;
    check_call("and the first one's", ioctl(other, DIAG_IOCSUNREG, &unreg), 0);
    check_call("close both fds", close(other) | close(fd), 0);
    fd = open(DATA_FILE, O_RDWR);
    check_call("the flag did not make the existing event persistent: it is gone",
               ioctl(fd, DIAG_IOCSDEL, "ue_err_shared"), ENOENT);

    struct user_reg_status held = seed_reg_for("ue_err_held u32 a");
    check_call("register ue_err_held", ioctl(fd, DIAG_IOCSREG, &held), 0);
    check_call("enable it", write_file(TRACEFS "events/user_events/ue_err_held/enable", "1\n"), 0);
    check_call("close the fd that registered it", close(fd), 0);
    fd = open(DATA_FILE, O_RDWR);
    check_call("enabled, it is still held: delete", ioctl(fd, DIAG_IOCSDEL, "ue_err_held"), EBUSY);
    check_call("disable it", write_file(TRACEFS "events/user_events/ue_err_held/enable", "0\n"), 0);
    check_call("disabled, the pre-6.4 structure's event stays until deleted: delete",
               ioctl(fd, DIAG_IOCSDEL, "ue_err_held"), 0);

    struct user_reg held64 = user_reg_for("ue_err_held64 u32 a");
    check_call("register ue_err_held64 with struct user_reg", ioctl(fd, DIAG_IOCSREG, &held64), 0);
    int enable_fd = open(TRACEFS "events/user_events/ue_err_held64/enable", O_RDWR);
    check_call("open its enable file", enable_fd, 0);
    check_call("enable it", write(enable_fd, "1\n", 2), 0);
    unreg.disable_bit = held64.enable_bit;
    unreg.disable_addr = held64.enable_addr;
    check_call("DIAG_IOCSUNREG its enable bit", ioctl(fd, DIAG_IOCSUNREG, &unreg), 0);
    check_call("close the fd that registered it", close(fd), 0);
    fd = open(DATA_FILE, O_RDWR);
    check_call("enabled, ue_err_held64 is held: delete", ioctl(fd, DIAG_IOCSDEL, "ue_err_held64"),
               EBUSY);
    check_call("disable it through the open enable file: its last reference goes",
               write(enable_fd, "0\n", 2), 0);
    check_call("the enable file still open, ue_err_held64 is gone: delete",
               ioctl(fd, DIAG_IOCSDEL, "ue_err_held64"), ENOENT);
    check_call("the open enable file answers ENODEV", write(enable_fd, "1\n", 2), ENODEV);
    check_call("close it", close(enable_fd), 0);
    close(fd);
}

/*
 * The limit (user_events_max=N on the kernel command line): N events may exist, and the
 * registration of an (N+1)-th, counting the events that already existed, fails with
 * EMFILE. A name that exists is not a new event, so registering it again still works, and
 * an event going makes room for exactly one more. full0 gets an fd of its own, so that
 * it can be deleted once that fd is closed (the pre-6.4 structure's events stay until
 * deleted, as on Linux 6.1); the rest are deleted after the other fd's close.
 */
static void group_full(int max)
{
    printf("# event limit: user_events_max=%d\n", max);
    int present = active_events();
    check_true("read Active: from user_events_status", present >= 0);
    int first_fd = open(DATA_FILE, O_RDWR), rest_fd = open(DATA_FILE, O_RDWR);
    check_call("open user_events_data for full0", first_fd, 0);
    check_call("open user_events_data for the others", rest_fd, 0);

    char command[32];
    int made = 0, err = 0;
    uint32_t full0_index = 0;
    while (made <= max) { /* the bound only stops a kernel without a limit */
        snprintf(command, sizeof(command), "full%d u32 n", made);
        struct user_reg_status reg = seed_reg_for(command);
        if (ioctl(made == 0 ? first_fd : rest_fd, DIAG_IOCSREG, &reg) < 0) {
            err = errno;
            break;
        }
        if (made == 0)
            full0_index = reg.write_index;
        made++;
    }
    check_errno("register until one fails", err, EMFILE);
    /* user_events_max=N lets N events exist: the one refused is number N + 1. */
    printf("# %d events were present, %d registered before the refusal\n", present, made);
    check_number("the failing registration is number N + 1, counting present ones",
                 present + made + 1, max + 1);

    struct user_reg_status again = seed_reg_for("full0 u32 n");
    check_call("register full0 again at the limit", ioctl(first_fd, DIAG_IOCSREG, &again), 0);
    check_number("same write_index for full0", again.write_index, full0_index);
    check_call("close full0's fd", close(first_fd), 0);
    check_call("full0 (pre-6.4 structure) stayed: delete it", ioctl(rest_fd, DIAG_IOCSDEL, "full0"),
               0);
    snprintf(command, sizeof(command), "full%d u32 n", made);
    struct user_reg_status one_more = seed_reg_for(command);
    check_call("one more event fits after the delete", ioctl(rest_fd, DIAG_IOCSREG, &one_more), 0);
    snprintf(command, sizeof(command), "full%d u32 n", made + 1);
    struct user_reg_status past = seed_reg_for(command);
    check_call("and the next one does not", ioctl(rest_fd, DIAG_IOCSREG, &past), EMFILE);

    /* Closing the fd that holds full1 .. full(made) leaves them (Linux 6.1's lifetime);
     * deleting them makes the table as it was. */
    check_call("close the other fd", close(rest_fd), 0);
    check_number("the pre-6.4 structure's events stay after the close: Active:", active_events(),
                 present + made);
    int fd = open(DATA_FILE, O_RDWR);
    int deleted = 0;
    for (int i = 1; i <= made; i++) {
        snprintf(command, sizeof(command), "full%d", i);
        deleted += ioctl(fd, DIAG_IOCSDEL, command) == 0;
    }
    close(fd);
    check_number("each of them can be deleted", deleted, made);
    check_number("then Active: is as many events as before", active_events(), present);
}

/* A wrong command line: say how it goes and stop (status 2). */
static void usage(void)
{
    printf("usage: ue_errors [full N]\n");
    exit(2);
}

/* Runs the groups in order (the writes need ue_err_seed from the pre-6.4 ABI group), or only
 * the limit, then the summary line. */
int main(int argc, char **argv)
{
    int max = -1;
    if (argc == 3 && strcmp(argv[1], "full") == 0) {
        char *end;
        long n = strtol(argv[2], &end, 10);
        if (*argv[2] == '\0' || *end != '\0' || n < 1 || n > 1000000)
            usage();
        max = (int)n;
    } else if (argc != 1) {
        usage();
    }

    if (!setup()) {
        printf("Bail out! ue_errors: setup failed\n");
    } else if (max > 0) {
        group_full(max);
    } else {
        group_struct_size();
        group_reg_fields();
        group_reg_pointers();
        group_seed_abi();
        group_grammar();
        group_writes();
        group_linux_32bit();
        group_data_loc();
        group_oversize();
        group_delete();
        group_lifetime();
        group_syscalls();
        group_truncate();
        group_race();
        cleanup();
        group_last_event();
    }
    return check_summary("ue_errors");
}
