/* qemu_run.c - starts QEMU for tracekern and decides whether the run passed.
 *
 * Every test, `make run` and `make trace` boot the kernel through this
 * program, so that the QEMU command line lives in one place and every run
 * ends the same way: with a timeout, a console log and one exit status.
 *
 * The guest ends a run by writing a value v to the isa-debug-exit port 0xf4;
 * QEMU then exits with status (v << 1) | 1:
 *     0x10 -> 33  pass, or a clean poweroff (the default --expect-exit)
 *     0x11 -> 35  fail, or a kernel panic
 * QEMU exits with 1 on its own errors (bad option, missing kernel file).
 *
 * In the normal (captured) mode COM1 is a pair of pipes owned by this
 * program: everything the guest prints is read by a poll loop, copied to
 * the --console file and to our stdout, and watched for the shell prompt so
 * that --send-on-prompt can type commands into the guest (and for any text,
 * so that --send-on-output can type keys while a command runs).  With
 * --interactive COM1 is the user's terminal instead, multiplexed with the
 * QEMU monitor (Ctrl-A x quits, Ctrl-A c switches to the monitor).
 *
 * With --monitor-dump the QEMU monitor listens on a Unix socket of ours:
 * when the guest prints the --dump-on line, the guest is stopped, its
 * physical memory saved to the file (pmemsave, or dump-guest-memory for a
 * name ending in .elf) and QEMU told to quit, which it does with status 0.
 * That is how tests look at the memory of a kernel that hung on purpose.
 *
 * Exit status: 0 when QEMU exited with an expected status, 1 on any other
 * ending (wrong status, killed by a signal, timeout, interrupted), 2 on a
 * usage error.  On failure one line on stderr says why; with --quiet the
 * last console lines are shown there too, so a failing test explains itself.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_QEMU "qemu-system-i386"
#define DEFAULT_PROMPT "tracekern> "
#define DEFAULT_TIMEOUT_S 60
#define DEFAULT_EXPECTED_STATUS 33
#define KILL_GRACE_MS 2000        /* between SIGTERM and SIGKILL */
#define FAILURE_CONSOLE_LINES 40  /* console lines shown on a --quiet failure */
#define HISTORY_KEEP (64 * 1024)  /* console bytes kept for that report */
#define READ_CHUNK 4096
#define LINE_KEEP 512             /* console line length compared with --dump-on */

struct options {
    const char *kernel;
    const char *iso;
    const char *append;
    const char *initrd;
    const char *devices;          /* space-separated -device names */
    const char *console_path;
    const char *com2_path;
    const char *qemu_trace_path;
    const char *dump_path;        /* --monitor-dump FILE */
    const char *dump_on;          /* the console line that triggers it */
    const char *prompt;
    long smp;
    long memory_mb;
    long timeout_s;               /* 0 = no timeout */
    int *expected_statuses;
    size_t expected_count;
    struct input *inputs;         /* --send-on-prompt and --send-on-output, in order */
    size_t input_count;
    bool interactive;
    bool icount;
    bool gdb;
    bool quiet;
    bool print_command;
    char **extra_args;            /* everything after "--" */
    int extra_count;
};

/* Something to type into the guest once the console has printed trigger. */
struct input {
    const char *trigger;          /* the prompt, or a --send-on-output string */
    const char *text;
    bool enter;                   /* followed by "\r" (--send-on-prompt) */
};

/* A growing NULL-terminated argv for execvp. */
struct arglist {
    char **items;
    size_t count;
    size_t capacity;
};

/* The running QEMU and our ends of its COM1 pipes. */
struct qemu {
    pid_t pid;
    int to_guest;                 /* QEMU's stdin; -1 when interactive */
    int from_guest;               /* QEMU's stdout; -1 when interactive or at EOF */
    bool reaped;
    int wait_status;              /* valid once reaped */
};

/* Recognises the next input's trigger however the guest's output is split
 * into reads; it only looks at output printed since the previous input. */
struct trigger_watch {
    size_t capacity;              /* the longest trigger */
    char *recent;                 /* the last `filled` console bytes, at most capacity */
    size_t filled;
};

/* Where captured console output goes, and what is typed back. */
struct console {
    int file_fd;                  /* --console file, or -1 */
    bool echo;                    /* copy to our stdout */
    struct trigger_watch watch;
    const struct input *inputs;
    size_t input_count;
    size_t next_input;
    char *history;                /* the latest console bytes, for failure reports */
    size_t history_length;
    const char *dump_on;          /* --dump-on line, NULL once seen (or not given) */
    char line[LINE_KEEP];         /* the console line being printed */
    size_t line_length;
    bool dumped;                  /* the monitor was told to save the memory */
};

enum ending { QEMU_EXITED, QEMU_TIMED_OUT, QEMU_INTERRUPTED };

/* Written by the signal handlers; the pipe wakes the poll loop. */
static volatile sig_atomic_t stop_signal;
static int wake_pipe[2] = { -1, -1 };

/* --monitor-dump: the monitor's socket (in a directory of its own) and the
 * command that saves the memory. */
static char monitor_dir[] = "/tmp/qemu_run.XXXXXX";
static char monitor_path[sizeof monitor_dir + 16];
static char dump_command[PATH_MAX + 64];

/* Prints the command line summary and exits with the usage status 2. */
static void usage(void)
{
    fputs("usage: qemu_run (--kernel ELF | --iso ISO) [options] [-- qemu args...]\n"
          "  --append STR           kernel command line (--kernel only)\n"
          "  --initrd STR           multiboot modules, \"a args,b\" (--kernel only)\n"
          "  --devices \"A B\"        add -device A -device B\n"
          "  --smp N                CPUs (default 1)\n"
          "  --memory MB            RAM (default 128)\n"
          "  --console FILE         save COM1 output to FILE\n"
          "  --com2 FILE            COM2 output to FILE (default discarded)\n"
          "  --timeout S            kill QEMU after S seconds, 0 = never (default 60)\n"
          "  --expect-exit N        QEMU status meaning success (default 33; repeatable)\n"
          "  --send-on-prompt TEXT  type TEXT and Enter at the next prompt (repeatable)\n"
          "  --send-on-output STR TEXT  type TEXT as is (no Enter) once the console has\n"
          "                         printed STR; inputs of both kinds go in order\n"
          "  --prompt STR           prompt to wait for (default \"tracekern> \")\n"
          "  --interactive          COM1 and monitor on this terminal (Ctrl-A x quits)\n"
          "  --icount               deterministic instruction counting\n"
          "  --qemu-trace FILE      log device register accesses to FILE\n"
          "  --monitor-dump FILE    save guest memory to FILE (.elf: an ELF core) when the\n"
          "                         guest prints the --dump-on line, then quit QEMU\n"
          "  --dump-on LINE         the console line that triggers --monitor-dump\n"
          "  --gdb                  wait for gdb on :1234 (no timeout)\n"
          "  --quiet                do not echo COM1; show its tail on failure\n"
          "  --print-command        show the QEMU command line on stderr\n"
          "environment: QEMU overrides the binary (default " DEFAULT_QEMU ")\n",
          stderr);
    exit(2);
}

/* Reports a specific usage mistake, then the summary. */
static void usage_error(const char *message, const char *detail)
{
    fprintf(stderr, "qemu_run: %s%s\n", message, detail);
    usage();
}

/* Returns the value following option argv[*index], consuming it. */
static const char *take_value(int argc, char **argv, int *index)
{
    if (*index + 1 >= argc)
        usage_error("missing value for ", argv[*index]);
    *index += 1;
    return argv[*index];
}

/* Parses a whole decimal number in [min, max]; anything else is a usage error. */
static long parse_number(const char *option, const char *text, long min, long max)
{
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < min || value > max) {
        fprintf(stderr, "qemu_run: bad number \"%s\" for %s\n", text, option);
        usage();
    }
    return value;
}

/* Fills *opt from argv, applying defaults; exits with 2 on any mistake. */
static void parse_options(int argc, char **argv, struct options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->prompt = DEFAULT_PROMPT;
    opt->smp = 1;
    opt->memory_mb = 128;
    opt->timeout_s = -1;
    /* No option can repeat more often than there are arguments. */
    opt->expected_statuses = calloc((size_t)argc, sizeof *opt->expected_statuses);
    opt->inputs = calloc((size_t)argc, sizeof *opt->inputs);
    if (opt->expected_statuses == NULL || opt->inputs == NULL) {
        perror("qemu_run");
        exit(1);
    }

    int i;
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        } else if (strcmp(arg, "--kernel") == 0) {
            opt->kernel = take_value(argc, argv, &i);
        } else if (strcmp(arg, "--iso") == 0) {
            opt->iso = take_value(argc, argv, &i);
        } else if (strcmp(arg, "--append") == 0) {
            opt->append = take_value(argc, argv, &i);
        } else if (strcmp(arg, "--initrd") == 0) {
            opt->initrd = take_value(argc, argv, &i);
        } else if (strcmp(arg, "--devices") == 0) {
            opt->devices = take_value(argc, argv, &i);
        } else if (strcmp(arg, "--smp") == 0) {
            opt->smp = parse_number(arg, take_value(argc, argv, &i), 1, 255);
        } else if (strcmp(arg, "--memory") == 0) {
            opt->memory_mb = parse_number(arg, take_value(argc, argv, &i), 1, 4095);
        } else if (strcmp(arg, "--console") == 0) {
            opt->console_path = take_value(argc, argv, &i);
        } else if (strcmp(arg, "--com2") == 0) {
            opt->com2_path = take_value(argc, argv, &i);
        } else if (strcmp(arg, "--timeout") == 0) {
            opt->timeout_s = parse_number(arg, take_value(argc, argv, &i), 0, INT_MAX / 1000);
        } else if (strcmp(arg, "--expect-exit") == 0) {
            opt->expected_statuses[opt->expected_count++] =
                (int)parse_number(arg, take_value(argc, argv, &i), 0, 255);
        } else if (strcmp(arg, "--send-on-prompt") == 0) {
            opt->inputs[opt->input_count++] =
                (struct input){ NULL, take_value(argc, argv, &i), true };
        } else if (strcmp(arg, "--send-on-output") == 0) {
            const char *trigger = take_value(argc, argv, &i);
            if (trigger[0] == '\0')
                usage_error("--send-on-output needs a non-empty STR", "");
            opt->inputs[opt->input_count++] =
                (struct input){ trigger, take_value(argc, argv, &i), false };
        } else if (strcmp(arg, "--prompt") == 0) {
            opt->prompt = take_value(argc, argv, &i);
        } else if (strcmp(arg, "--qemu-trace") == 0) {
            opt->qemu_trace_path = take_value(argc, argv, &i);
        } else if (strcmp(arg, "--monitor-dump") == 0) {
            opt->dump_path = take_value(argc, argv, &i);
        } else if (strcmp(arg, "--dump-on") == 0) {
            opt->dump_on = take_value(argc, argv, &i);
        } else if (strcmp(arg, "--interactive") == 0) {
            opt->interactive = true;
        } else if (strcmp(arg, "--icount") == 0) {
            opt->icount = true;
        } else if (strcmp(arg, "--gdb") == 0) {
            opt->gdb = true;
        } else if (strcmp(arg, "--quiet") == 0) {
            opt->quiet = true;
        } else if (strcmp(arg, "--print-command") == 0) {
            opt->print_command = true;
        } else {
            usage_error("unknown argument ", arg);
        }
    }
    opt->extra_args = argv + i;
    opt->extra_count = argc - i;

    if ((opt->kernel == NULL) == (opt->iso == NULL))
        usage_error("give exactly one of --kernel and --iso", "");
    if (opt->iso != NULL && (opt->append != NULL || opt->initrd != NULL))
        usage_error("--append and --initrd need --kernel", "");
    if (opt->prompt[0] == '\0')
        usage_error("--prompt must not be empty", "");
    for (size_t k = 0; k < opt->input_count; k++)
        if (opt->inputs[k].trigger == NULL)
            opt->inputs[k].trigger = opt->prompt;
    if ((opt->dump_path == NULL) != (opt->dump_on == NULL) || (opt->dump_path && opt->interactive))
        usage_error("--monitor-dump needs --dump-on, and no --interactive", "");
    /* The monitor reads the file name as a quoted string. */
    if (opt->dump_path && (opt->dump_path[strcspn(opt->dump_path, "\"\\\n")] != '\0' ||
                           strlen(opt->dump_path) >= PATH_MAX))
        usage_error("--monitor-dump needs a file name without quotes or backslashes: ",
                    opt->dump_path);
    if (opt->expected_count == 0)
        opt->expected_statuses[opt->expected_count++] = DEFAULT_EXPECTED_STATUS;
    /* Someone at a terminal or in gdb must not be cut off, unless they asked. */
    if (opt->timeout_s < 0)
        opt->timeout_s = (opt->interactive || opt->gdb) ? 0 : DEFAULT_TIMEOUT_S;
}

/* Appends a copy of text to list, keeping the list NULL-terminated. */
static void arg_push(struct arglist *list, const char *text)
{
    if (list->count + 2 > list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 32;
        char **items = realloc(list->items, capacity * sizeof *items);
        if (items == NULL) {
            perror("qemu_run");
            exit(1);
        }
        list->items = items;
        list->capacity = capacity;
    }
    char *copy = strdup(text);
    if (copy == NULL) {
        perror("qemu_run");
        exit(1);
    }
    list->items[list->count++] = copy;
    list->items[list->count] = NULL;
}

/* Appends an option and its value as two arguments. */
static void arg_push_pair(struct arglist *list, const char *option, const char *value)
{
    arg_push(list, option);
    arg_push(list, value);
}

/* Returns a new string "prefix" "value"; exits when memory runs out. */
static char *join(const char *prefix, const char *value)
{
    size_t length = strlen(prefix) + strlen(value) + 1;
    char *joined = malloc(length);
    if (joined == NULL) {
        perror("qemu_run");
        exit(1);
    }
    snprintf(joined, length, "%s%s", prefix, value);
    return joined;
}

/* Appends "-device NAME" for each space-separated name in devices. */
static void push_devices(struct arglist *cmd, const char *devices)
{
    const char *p = devices;
    for (;;) {
        p += strspn(p, " \t");
        size_t length = strcspn(p, " \t");
        if (length == 0)
            break;
        char *name = strndup(p, length);
        if (name == NULL) {
            perror("qemu_run");
            exit(1);
        }
        arg_push_pair(cmd, "-device", name);
        free(name);
        p += length;
    }
}

/* Builds the complete QEMU argv that the options describe. */
static void build_qemu_command(const struct options *opt, struct arglist *cmd)
{
    char number[32];
    const char *qemu = getenv("QEMU");

    arg_push(cmd, qemu != NULL && qemu[0] != '\0' ? qemu : DEFAULT_QEMU);
    arg_push(cmd, "-no-reboot");
    arg_push_pair(cmd, "-display", "none");
    snprintf(number, sizeof number, "%ld", opt->memory_mb);
    arg_push_pair(cmd, "-m", number);
    snprintf(number, sizeof number, "%ld", opt->smp);
    arg_push_pair(cmd, "-smp", number);

    if (opt->kernel != NULL) {
        arg_push_pair(cmd, "-kernel", opt->kernel);
        if (opt->append != NULL)
            arg_push_pair(cmd, "-append", opt->append);
        if (opt->initrd != NULL)
            arg_push_pair(cmd, "-initrd", opt->initrd);
    } else {
        arg_push_pair(cmd, "-cdrom", opt->iso);
        arg_push_pair(cmd, "-boot", "d");
    }

    /* COM1 first, then COM2: QEMU numbers serial ports in -serial order. */
    if (opt->interactive) {
        arg_push_pair(cmd, "-chardev", "stdio,id=con,mux=on,signal=off");
        arg_push_pair(cmd, "-serial", "chardev:con");
        arg_push_pair(cmd, "-mon", "chardev=con");
    } else {
        arg_push_pair(cmd, "-chardev", "stdio,id=con,signal=off");
        arg_push_pair(cmd, "-serial", "chardev:con");
        if (opt->dump_path != NULL) {
            char *monitor = join("unix:", monitor_path);
            char *with_flags = join(monitor, ",server=on,wait=off");
            arg_push_pair(cmd, "-monitor", with_flags);
            free(with_flags);
            free(monitor);
        } else {
            arg_push_pair(cmd, "-monitor", "none");
        }
    }
    if (opt->com2_path != NULL) {
        char *com2 = join("file:", opt->com2_path);
        arg_push_pair(cmd, "-serial", com2);
        free(com2);
    } else {
        arg_push_pair(cmd, "-serial", "null");
    }

    arg_push_pair(cmd, "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04");
    if (opt->devices != NULL)
        push_devices(cmd, opt->devices);
    if (opt->icount)
        arg_push_pair(cmd, "-icount", "shift=0,sleep=off");
    if (opt->qemu_trace_path != NULL) {
        arg_push_pair(cmd, "-trace", "memory_region_ops_read");
        arg_push_pair(cmd, "-trace", "memory_region_ops_write");
        arg_push_pair(cmd, "-D", opt->qemu_trace_path);
    }
    if (opt->gdb) {
        arg_push(cmd, "-s");
        arg_push(cmd, "-S");
    }
    for (int i = 0; i < opt->extra_count; i++)
        arg_push(cmd, opt->extra_args[i]);
}

/* Prints the command on stderr so that it can be pasted into a shell. */
static void print_command(const struct arglist *cmd)
{
    static const char plain[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./,:=@%+-";
    for (size_t i = 0; i < cmd->count; i++) {
        const char *arg = cmd->items[i];
        fputs(i == 0 ? "" : " ", stderr);
        if (arg[0] != '\0' && strspn(arg, plain) == strlen(arg)) {
            fputs(arg, stderr);
            continue;
        }
        fputc('\'', stderr);
        for (const char *c = arg; *c != '\0'; c++) {
            if (*c == '\'')
                fputs("'\\''", stderr);
            else
                fputc(*c, stderr);
        }
        fputc('\'', stderr);
    }
    fputc('\n', stderr);
}

/* Writes all of buf despite partial writes and EINTR; returns 0, or -1 with errno. */
static int write_all(int fd, const char *buf, size_t length)
{
    while (length > 0) {
        ssize_t n = write(fd, buf, length);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        buf += n;
        length -= (size_t)n;
    }
    return 0;
}

/* Milliseconds on a clock that never jumps. */
static long long now_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Keeps fd out of QEMU: only the descriptors it is given should reach it. */
static void close_on_exec(int fd)
{
    if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
        perror("qemu_run: fcntl");
        exit(1);
    }
}

/* Makes reads and writes on fd return EAGAIN instead of waiting. */
static void make_nonblocking(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        perror("qemu_run: fcntl");
        exit(1);
    }
}

/* Records the signal and wakes the poll loop; async-signal-safe. */
static void on_signal(int signo)
{
    int saved_errno = errno;
    if (signo != SIGCHLD)
        stop_signal = signo;
    char byte = 0;
    ssize_t ignored = write(wake_pipe[1], &byte, 1);  /* a full pipe is awake already */
    (void)ignored;
    errno = saved_errno;
}

/* Routes SIGINT, SIGTERM and SIGCHLD into the poll loop, and turns a write
 * to a dead QEMU into EPIPE instead of killing us. */
static void install_signal_handlers(void)
{
    if (pipe(wake_pipe) < 0) {
        perror("qemu_run: pipe");
        exit(1);
    }
    for (int i = 0; i < 2; i++) {
        close_on_exec(wake_pipe[i]);
        make_nonblocking(wake_pipe[i]);
    }

    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_handler = on_signal;
    action.sa_flags = SA_NOCLDSTOP;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGCHLD, &action, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* In the child: installs fd as descriptor target, kept open across exec. */
static void hand_to_qemu(int fd, int target)
{
    if (dup2(fd, target) < 0 || fcntl(target, F_SETFD, 0) < 0) {
        perror("qemu_run: dup2");
        _exit(127);
    }
}

/* Forks and execs QEMU.  When capturing, QEMU's stdin and stdout become
 * pipes whose other ends are returned in q; otherwise it shares ours. */
static void start_qemu(char **argv, bool capture, struct qemu *q)
{
    int stdin_pipe[2] = { -1, -1 };
    int stdout_pipe[2] = { -1, -1 };

    if (capture) {
        if (pipe(stdin_pipe) < 0 || pipe(stdout_pipe) < 0) {
            perror("qemu_run: pipe");
            exit(1);
        }
        for (int i = 0; i < 2; i++) {
            close_on_exec(stdin_pipe[i]);
            close_on_exec(stdout_pipe[i]);
        }
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("qemu_run: fork");
        exit(1);
    }
    if (pid == 0) {
        /* An ignored signal stays ignored across exec; QEMU must see SIGPIPE. */
        signal(SIGPIPE, SIG_DFL);
        if (capture) {
            hand_to_qemu(stdin_pipe[0], STDIN_FILENO);
            hand_to_qemu(stdout_pipe[1], STDOUT_FILENO);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "qemu_run: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }

    q->pid = pid;
    q->reaped = false;
    q->wait_status = 0;
    q->to_guest = -1;
    q->from_guest = -1;
    if (capture) {
        close(stdin_pipe[0]);
        close(stdout_pipe[1]);
        q->to_guest = stdin_pipe[1];
        q->from_guest = stdout_pipe[0];
        make_nonblocking(q->from_guest);
    }
}

/* Collects QEMU's exit status if it has ended; returns whether it has. */
static bool reap_if_exited(struct qemu *q)
{
    while (!q->reaped) {
        pid_t pid = waitpid(q->pid, &q->wait_status, WNOHANG);
        if (pid == q->pid)
            q->reaped = true;
        else if (pid == 0 || errno != EINTR)
            break;
    }
    return q->reaped;
}

/* Ends QEMU for certain: SIGTERM, then SIGKILL if it lingers; always reaps. */
static void stop_qemu(struct qemu *q)
{
    if (reap_if_exited(q))
        return;
    kill(q->pid, SIGTERM);
    long long give_up = now_ms() + KILL_GRACE_MS;
    while (!reap_if_exited(q) && now_ms() < give_up) {
        struct timespec pause = { 0, 20 * 1000000L };
        nanosleep(&pause, NULL);
    }
    if (q->reaped)
        return;
    kill(q->pid, SIGKILL);
    while (waitpid(q->pid, &q->wait_status, 0) < 0 && errno == EINTR)
        ;
    q->reaped = true;
}

/* Feeds one console byte to the watch; true when it completes trigger. */
static bool trigger_seen(struct trigger_watch *watch, const char *trigger, char byte)
{
    if (watch->filled == watch->capacity) {
        memmove(watch->recent, watch->recent + 1, watch->capacity - 1);
        watch->filled--;
    }
    watch->recent[watch->filled++] = byte;
    size_t length = strlen(trigger);
    return watch->filled >= length &&
           memcmp(watch->recent + watch->filled - length, trigger, length) == 0;
}

/* Keeps at least the last HISTORY_KEEP console bytes for the failure
 * report; length is at most READ_CHUNK, far below HISTORY_KEEP. */
static void remember(struct console *con, const char *bytes, size_t length)
{
    if (con->history_length + length > 2 * HISTORY_KEEP) {
        memmove(con->history, con->history + con->history_length - HISTORY_KEEP,
                HISTORY_KEEP);
        con->history_length = HISTORY_KEEP;
    }
    memcpy(con->history + con->history_length, bytes, length);
    con->history_length += length;
}

/* Types the next queued input, followed by Enter ("\r") if it was given by
 * --send-on-prompt, and starts watching for the next one's trigger in what
 * follows. The write may block: typed text is far smaller than a pipe buffer. */
static void send_next_input(struct console *con, struct qemu *q)
{
    const struct input *in = &con->inputs[con->next_input++];
    con->watch.filled = 0;
    /* EPIPE means QEMU is gone; the main loop will notice and report that. */
    if (write_all(q->to_guest, in->text, strlen(in->text)) == 0 && in->enter)
        write_all(q->to_guest, "\r", 1);
}

/* Prepares --monitor-dump: a private directory for the monitor's socket, the
 * command that saves the memory (the name quoted, or the monitor would read a
 * leading '/' as a division), and no older file by the dump's name. Exits if
 * the directory cannot be made. */
static void prepare_monitor_dump(const struct options *opt)
{
    if (mkdtemp(monitor_dir) == NULL) {
        perror("qemu_run: mkdtemp");
        exit(1);
    }
    unlink(opt->dump_path);
    snprintf(monitor_path, sizeof monitor_path, "%s/monitor", monitor_dir);
    size_t length = strlen(opt->dump_path);
    if (length > 4 && strcmp(opt->dump_path + length - 4, ".elf") == 0)
        snprintf(dump_command, sizeof dump_command, "stop\ndump-guest-memory \"%s\"\nquit\n",
                 opt->dump_path);
    else
        snprintf(dump_command, sizeof dump_command, "stop\npmemsave 0 %lld \"%s\"\nquit\n",
                 (long long)opt->memory_mb << 20, opt->dump_path);
}

/* Removes the monitor's socket and its directory. */
static void remove_monitor_dump(void)
{
    unlink(monitor_path);
    rmdir(monitor_dir);
}

/* Asks the monitor to stop the guest, save its memory and quit; QEMU's
 * exit then ends the run. Returns false if the monitor cannot be reached. */
static bool request_dump(void)
{
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    snprintf(address.sun_path, sizeof address.sun_path, "%s", monitor_path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) < 0 ||
        write_all(fd, dump_command, strlen(dump_command)) < 0) {
        perror("qemu_run: QEMU monitor");
        if (fd >= 0)
            close(fd);
        return false;
    }
    /* Left open: closing could end the session before QEMU has read it all. */
    return true;
}

/* Follows the console line by line; the --dump-on line requests the dump. */
static void watch_for_dump(struct console *con, struct qemu *q, char byte)
{
    if (byte != '\n') {
        if (con->line_length < LINE_KEEP - 1)
            con->line[con->line_length++] = byte;
        return;
    }
    con->line[con->line_length] = '\0';
    con->line_length = 0;
    if (con->dump_on && strcmp(con->line, con->dump_on) == 0) {
        con->dump_on = NULL;
        con->dumped = request_dump();
        if (!con->dumped)
            kill(q->pid, SIGTERM);  /* no dump: the run is over, and failed */
    }
}

/* Handles a chunk of guest output: drops '\r', saves, echoes, answers prompts. */
static void take_output(struct console *con, struct qemu *q, const char *raw, size_t length)
{
    char clean[READ_CHUNK];
    size_t clean_length = 0;
    for (size_t i = 0; i < length; i++) {
        if (raw[i] != '\r')
            clean[clean_length++] = raw[i];
    }

    if (con->file_fd >= 0 && write_all(con->file_fd, clean, clean_length) < 0) {
        perror("qemu_run: writing console file");
        close(con->file_fd);
        con->file_fd = -1;
    }
    if (con->echo && write_all(STDOUT_FILENO, clean, clean_length) < 0)
        con->echo = false;  /* our reader went away; the run itself goes on */
    remember(con, clean, clean_length);

    for (size_t i = 0; i < clean_length; i++) {
        if (con->next_input < con->input_count &&
            trigger_seen(&con->watch, con->inputs[con->next_input].trigger, clean[i]))
            send_next_input(con, q);
        watch_for_dump(con, q, clean[i]);
    }
}

/* Reads what QEMU has printed; returns false once its stdout is closed. */
static bool read_output(struct console *con, struct qemu *q)
{
    char buf[READ_CHUNK];
    for (;;) {
        ssize_t n = read(q->from_guest, buf, sizeof buf);
        if (n > 0) {
            take_output(con, q, buf, (size_t)n);
            return true;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return true;
        if (n < 0)
            perror("qemu_run: reading console");
        close(q->from_guest);
        q->from_guest = -1;
        return false;
    }
}

/* Reads output that QEMU wrote before exiting, without waiting for more
 * (a process QEMU left behind could keep the pipe open). */
static void drain_output(struct console *con, struct qemu *q)
{
    while (q->from_guest >= 0) {
        struct pollfd ready = { .fd = q->from_guest, .events = POLLIN };
        if (poll(&ready, 1, 0) <= 0 || !read_output(con, q))
            break;
    }
}

/* Empties the wake pipe; its bytes only mean "look at the flags again". */
static void drain_wake_pipe(void)
{
    char buf[64];
    while (read(wake_pipe[0], buf, sizeof buf) > 0)
        ;
}

/* Runs the poll loop until QEMU exits, the timeout passes or we are told
 * to stop.  On return QEMU has been reaped. */
static enum ending supervise(struct qemu *q, struct console *con, long timeout_s)
{
    long long deadline = timeout_s > 0 ? now_ms() + timeout_s * 1000LL : -1;

    for (;;) {
        int wait_ms = -1;
        if (deadline >= 0) {
            long long left = deadline - now_ms();
            wait_ms = left > 0 ? (int)left : 0;
        }
        struct pollfd fds[2] = {
            { .fd = wake_pipe[0], .events = POLLIN },
            { .fd = q->from_guest, .events = POLLIN },  /* ignored when -1 */
        };
        if (poll(fds, 2, wait_ms) < 0 && errno != EINTR) {
            perror("qemu_run: poll");
            stop_qemu(q);
            exit(1);
        }
        drain_wake_pipe();

        if (stop_signal != 0) {
            stop_qemu(q);
            return QEMU_INTERRUPTED;
        }
        if (q->from_guest >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            read_output(con, q);
        if (reap_if_exited(q)) {
            drain_output(con, q);
            return QEMU_EXITED;
        }
        if (deadline >= 0 && now_ms() >= deadline) {
            stop_qemu(q);
            return QEMU_TIMED_OUT;
        }
    }
}

/* Prepares the console capture; exits if the --console file cannot be made. */
static void open_console(const struct options *opt, struct console *con)
{
    memset(con, 0, sizeof *con);
    con->file_fd = -1;
    con->echo = !opt->quiet;
    con->inputs = opt->inputs;
    con->input_count = opt->input_count;
    con->dump_on = opt->dump_on;
    con->watch.capacity = 1;
    for (size_t k = 0; k < opt->input_count; k++)
        if (strlen(opt->inputs[k].trigger) > con->watch.capacity)
            con->watch.capacity = strlen(opt->inputs[k].trigger);
    con->watch.recent = malloc(con->watch.capacity);
    con->history = malloc(2 * HISTORY_KEEP);
    if (con->watch.recent == NULL || con->history == NULL) {
        perror("qemu_run");
        exit(1);
    }
    if (opt->console_path != NULL) {
        con->file_fd = open(opt->console_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (con->file_fd < 0) {
            fprintf(stderr, "qemu_run: cannot create %s: %s\n",
                    opt->console_path, strerror(errno));
            exit(1);
        }
    }
}

/* Ends the echoed console with a newline, so that whatever is printed
 * next (our report, the shell prompt) starts on a line of its own. */
static void finish_echo(const struct console *con)
{
    if (con->echo && con->history_length > 0 &&
        con->history[con->history_length - 1] != '\n')
        write_all(STDOUT_FILENO, "\n", 1);
}

/* Shows the last FAILURE_CONSOLE_LINES lines of the console on stderr. */
static void print_console_tail(const struct console *con)
{
    const char *text = con->history;
    size_t end = con->history_length;
    size_t start = end;
    int lines = 0;

    if (end == 0)
        return;
    /* A final newline ends the last line; it does not start another. */
    if (text[start - 1] == '\n')
        start--;
    while (start > 0 && !(text[start - 1] == '\n' && ++lines == FAILURE_CONSOLE_LINES))
        start--;
    fprintf(stderr, "qemu_run: last %d console lines:\n", FAILURE_CONSOLE_LINES);
    fwrite(text + start, 1, end - start, stderr);
    if (text[end - 1] != '\n')
        fputc('\n', stderr);
}

/* Whether QEMU's exit status is one the caller declared a success. */
static bool status_expected(const struct options *opt, int status)
{
    for (size_t i = 0; i < opt->expected_count; i++) {
        if (opt->expected_statuses[i] == status)
            return true;
    }
    return false;
}

/* Turns the way the run ended into our exit status, explaining failures. */
static int report(const struct options *opt, enum ending ending,
                  const struct qemu *q, const struct console *con)
{
    int status = q->wait_status;
    bool dump_missing = opt->dump_path != NULL &&
                        (!con->dumped || access(opt->dump_path, F_OK) != 0);
    if (ending == QEMU_EXITED && WIFEXITED(status) &&
        status_expected(opt, WEXITSTATUS(status)) && !dump_missing)
        return 0;

    if (opt->quiet && !opt->interactive)
        print_console_tail(con);
    if (dump_missing) {
        fprintf(stderr, "qemu_run: no memory dump in %s: the guest did not print \"%s\", or "
                "the monitor did not save it\n", opt->dump_path, opt->dump_on);
    } else if (ending == QEMU_TIMED_OUT) {
        fprintf(stderr, "qemu_run: timeout after %ld s\n", opt->timeout_s);
    } else if (ending == QEMU_INTERRUPTED) {
        fprintf(stderr, "qemu_run: stopped by signal %d\n", (int)stop_signal);
    } else if (WIFSIGNALED(status)) {
        fprintf(stderr, "qemu_run: QEMU killed by signal %d\n", WTERMSIG(status));
    } else {
        fprintf(stderr, "qemu_run: QEMU exited with status %d (expected",
                WEXITSTATUS(status));
        for (size_t i = 0; i < opt->expected_count; i++)
            fprintf(stderr, "%s %d", i == 0 ? "" : " or", opt->expected_statuses[i]);
        fputs(")\n", stderr);
    }
    return 1;
}

int main(int argc, char **argv)
{
    struct options opt;
    struct arglist cmd = { 0 };
    struct console con;
    struct qemu q;

    parse_options(argc, argv, &opt);
    if (opt.dump_path != NULL)
        prepare_monitor_dump(&opt);
    build_qemu_command(&opt, &cmd);
    if (opt.print_command)
        print_command(&cmd);

    /* Interactive runs leave COM1 on the terminal: nothing to capture. */
    bool capture = !opt.interactive;
    if (capture)
        open_console(&opt, &con);
    install_signal_handlers();
    start_qemu(cmd.items, capture, &q);

    enum ending ending = supervise(&q, capture ? &con : NULL, opt.timeout_s);
    if (opt.dump_path != NULL)
        remove_monitor_dump();
    if (capture)
        finish_echo(&con);
    return report(&opt, ending, &q, capture ? &con : NULL);
}
