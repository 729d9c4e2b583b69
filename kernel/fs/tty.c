/*
 * tty.c - the console as a terminal for programs: termios, canonical and raw reading,
 * echo, the foreground process group, and the terminal ioctls (tty.h).
 *
 * Only the foreground process group reads the terminal, and only it (or a job-control
 * shell of the terminal's session holding SIGTTOU) changes it: Linux's job control, with
 * EIO where Linux would stop a background process (check_change).
 *
 * The state below is the one terminal's; it is changed by system calls of the foreground
 * program, by `run`, and by a ^C in the console's interrupt handler, with interrupts off around what a reader tests before sleeping
 * (one CPU: see sched.h). The bytes themselves stay in the console's input queue until a
 * read takes them (kernel/shell/console.c).
 */
#include "kernel/fs/tty.h"

#include "kernel/arch.h"
#include "kernel/fs/file.h"
#include "kernel/init.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/signal.h"
#include "kernel/proc/task_internal.h"
#include "kernel/shell/console.h"
#include "uapi/fs.h"
#include "uapi/syscall.h"

#define LINE_MAX_BYTES 4096 /* n_tty's: a longer line is cut (the bell rings) */
#define CTRL_C '\003' /* the only interrupt key the console knows (VINTR) */
#define TICKS_PER_VTIME 100000000ull /* VTIME counts tenths of a second */

/* Linux's tty_std_termios, for a serial console at 38400 baud. */
static const struct termios default_termios = {
    .c_iflag = ICRNL | IXON,
    .c_oflag = OPOST | ONLCR,
    .c_cflag = B38400 | CS8 | CREAD | HUPCL | CLOCAL,
    .c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
    .c_cc = { [VINTR] = 003, [VQUIT] = 034, [VERASE] = 0177, [VKILL] = 025, [VEOF] = 004,
              [VTIME] = 0, [VMIN] = 1, [VSTART] = 021, [VSTOP] = 023, [VSUSP] = 032,
              [12] = 022, [13] = 017, [VWERASE] = 027, [VLNEXT] = 026 },
};

static struct termios termios = default_termios;
static struct winsize winsize = { .ws_row = 24, .ws_col = 80 };
static int foreground_pgrp; /* 0: the kernel's shell has the terminal */
static int terminal_sid;    /* the session `run` gave the terminal to (0: the shell's) */

/* Canonical mode: the line being typed, and the finished lines not yet read. */
static char line[LINE_MAX_BYTES];
static uint32_t line_len;
static char cooked[LINE_MAX_BYTES];
static uint32_t cooked_len, cooked_pos;
static bool eof_pending; /* VEOF at the start of a line: the next read returns 0 */

/* The echo of a ^C taken by interrupt_typed, not yet written: "^C" (ECHOCTL), "\003", or
 * NULL. It is written before the terminal's next output, or when the shell takes the
 * terminal back, never from the interrupt handler: there it could land in the middle of a
 * line the interrupted write is sending. */
static const char *volatile interrupt_echo;

/* A ^C typed while a program has the terminal with ISIG: n_tty's isig(), run at once in
 * the console's interrupt handler (interrupts off; one CPU: a lock over the terminal's state
 * when SMP comes). What was typed and not yet read is thrown away unless NOFLSH, the ^C's
 * echo is queued, and SIGINT goes to the foreground group, which wakes a sleeping reader
 * with EINTR or ends a program that does not catch it, whichever process group `run` or a
 * shell (ash's TIOCSPGRP) made the foreground. */
static void interrupt_typed(void)
{
    if (!(termios.c_lflag & NOFLSH)) {
        console_flush_input();
        line_len = cooked_len = cooked_pos = 0;
        eof_pending = false;
    }
    if (termios.c_lflag & ECHO)
        interrupt_echo = termios.c_lflag & ECHOCTL ? "^C" : "\003";
    if (foreground_pgrp)
        signal_send_pgrp(foreground_pgrp, SIGINT);
}

/* Writes the queued echo of a ^C, if there is one (process context). */
static void write_interrupt_echo(void)
{
    unsigned long flags = arch_irq_save();
    const char *echo = interrupt_echo;
    interrupt_echo = 0;
    arch_irq_restore(flags);
    if (echo)
        console_write_raw(echo, strlen(echo));
}

/* ^C is the shell's while it has the terminal, a signal from the terminal itself while a
 * program has it with ISIG and VINTR ^C, and data for the program otherwise. */
static void update_interrupt_mode(void)
{
    bool program = foreground_pgrp != 0;
    bool isig = (termios.c_lflag & ISIG) && termios.c_cc[VINTR] == CTRL_C;
    console_interrupt_is_data(program && !isig);
    console_interrupt_handler(program && isig ? interrupt_typed : 0);
}

void tty_give_terminal(int pgid, int sid)
{
    write_interrupt_echo();
    unsigned long flags = arch_irq_save();
    /* Whoever gets it, the terminal starts as Linux's defaults: what a background program
     * set meanwhile (ISIG off, say) cannot keep the next program from being ^C'd. */
    termios = default_termios;
    line_len = cooked_len = cooked_pos = 0;
    eof_pending = false;
    foreground_pgrp = pgid;
    terminal_sid = pgid ? sid : 0;
    update_interrupt_mode();
    arch_irq_restore(flags);
}

int tty_foreground_pgrp(void) { return foreground_pgrp; }

/* Whether the caller is in the foreground process group: the only one that may read what
 * is typed. While the kernel's shell has the terminal no program is. */
static bool caller_in_foreground(void)
{
    return foreground_pgrp != 0 && current->pgid == foreground_pgrp;
}

/* Linux's tty_check_change, for a kernel that cannot stop a process: a change of the
 * terminal (settings, size, flush, foreground group) by a background process is allowed
 * when it blocks or ignores SIGTTOU (a job-control shell taking the terminal back from its
 * job does so), and otherwise refused with EIO, Linux's answer when SIGTTOU cannot stop the
 * caller. A program outside the terminal's session (another `run`, another user) is never
 * exempt: on Linux the terminal would not be its controlling terminal at all. */
static int check_change(void)
{
    if (caller_in_foreground())
        return 0;
    const struct sigstate *s = &current->sig;
    bool ttou_held = (s->blocked & SIGSET_BIT(SIGTTOU)) ||
                     s->action[SIGTTOU - 1].handler == SIG_IGN;
    if (terminal_sid != 0 && current->sid == terminal_sid && ttou_held)
        return 0;
    return -EIO;
}

/* Output post-processing: "\n" as "\r\n" with OPOST|ONLCR, as n_tty. */
static void tty_output(const char *text, size_t len)
{
    write_interrupt_echo();
    if ((termios.c_oflag & (OPOST | ONLCR)) == (OPOST | ONLCR))
        console_write(text, len);
    else
        console_write_raw(text, len);
}

/* Echoes byte c as n_tty does: a control character as ^X with ECHOCTL. */
static void echo_byte(char c)
{
    if (!(termios.c_lflag & ECHO))
        return;
    unsigned char u = (unsigned char)c;
    if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f) {
        if (termios.c_lflag & ECHOCTL) {
            char ctl[2] = { '^', (char)(u ^ 0x40) };
            tty_output(ctl, 2);
            return;
        }
    }
    tty_output(&c, 1);
}

/* Erases the last byte of the line being typed, on the screen too (ECHOE). */
static void erase_one(void)
{
    if (!line_len)
        return;
    line_len--;
    if ((termios.c_lflag & (ECHO | ECHOE)) == (ECHO | ECHOE))
        tty_output("\b \b", 3);
}

/* The typed line is finished: it becomes readable. Only when nothing is left of the
 * previous one (reads take lines in order; a line waits in the queue until then). */
static void finish_line(void)
{
    memcpy(cooked, line, line_len);
    cooked_len = line_len;
    cooked_pos = 0;
    line_len = 0;
}

/* Whether c is the control character c_cc[index]; 0 there (_POSIX_VDISABLE) disables it. */
static bool is_cc(int c, int index)
{
    return termios.c_cc[index] != 0 && c == termios.c_cc[index];
}

/* Input processing of one byte (c_iflag). Returns -1 for a byte to drop. */
static int input_map(int c)
{
    if (c == '\r' && (termios.c_iflag & IGNCR))
        return -1;
    if (c == '\r' && (termios.c_iflag & ICRNL))
        return '\n';
    if (c == '\n' && (termios.c_iflag & INLCR))
        return '\r';
    return c;
}

/* Canonical mode: takes typed bytes into the line until one is finished or none is left.
 * Returns true when a line (or an end of file) is ready to read. */
static bool canonical_pump(void)
{
    while (cooked_pos == cooked_len && !eof_pending) {
        int c = console_take_byte();
        if (c < 0)
            return false;
        c = input_map(c);
        if (c < 0)
            continue;
        if (is_cc(c, VERASE)) {
            erase_one();
        } else if (is_cc(c, VKILL)) {
            while (line_len)
                erase_one();
        } else if (is_cc(c, VEOF)) {
            if (line_len == 0)
                eof_pending = true;
            else
                finish_line();
        } else if (line_len == LINE_MAX_BYTES - 1 && c != '\n') {
            console_write_raw("\a", 1);
        } else {
            line[line_len++] = (char)c;
            if (c == '\n' && !(termios.c_lflag & ECHO) && (termios.c_lflag & ECHONL))
                tty_output("\n", 1);
            else
                echo_byte((char)c);
            if (c == '\n' || is_cc(c, VEOL))
                finish_line();
        }
    }
    return true;
}

/* A canonical read: one line at most, as n_tty gives. */
static long read_canonical(struct file *f, char *buf, size_t len)
{
    for (;;) {
        if (!caller_in_foreground()) /* again after each sleep: the terminal may have moved */
            return -EIO;
        unsigned long flags = arch_irq_save();
        bool ready = canonical_pump();
        if (ready) {
            long n;
            if (cooked_pos < cooked_len) {
                uint32_t left = cooked_len - cooked_pos;
                n = left < len ? (long)left : (long)len;
                memcpy(buf, cooked + cooked_pos, (size_t)n);
                cooked_pos += (uint32_t)n;
            } else {
                eof_pending = false;
                n = 0;
            }
            arch_irq_restore(flags);
            return n;
        }
        arch_irq_restore(flags);
        if (f->flags & O_NONBLOCK)
            return -EAGAIN;
        int err = console_wait_byte(0);
        if (err == -EINTR)
            return -EINTR;
    }
}

/* A raw read (ICANON off) with n_tty's VMIN/VTIME rules: VMIN bytes at least (0: none),
 * VTIME tenths of a second to wait (for the first byte when VMIN is 0, between bytes
 * otherwise; 0: no timer). */
static long read_raw(struct file *f, char *buf, size_t len)
{
    uint32_t min = termios.c_cc[VMIN], time = termios.c_cc[VTIME];
    size_t want = min < len ? min : len;
    size_t n = 0;
    for (;;) {
        if (!caller_in_foreground()) /* again after each sleep: the terminal may have moved */
            return n ? (long)n : -EIO;
        int c;
        while (n < len && (c = console_take_byte()) >= 0) {
            c = input_map(c);
            if (c < 0)
                continue;
            buf[n++] = (char)c;
            echo_byte((char)c);
        }
        if (n >= len || (n > 0 && n >= want))
            return (long)n;
        if (min == 0 && (time == 0 || n > 0))
            return (long)n;
        if (f->flags & O_NONBLOCK)
            return n ? (long)n : -EAGAIN;
        /* The timer runs for the first byte with VMIN 0, between bytes otherwise. */
        uint64_t timeout = time && (min == 0 || n > 0) ? time * TICKS_PER_VTIME : 0;
        int err = console_wait_byte(timeout);
        if (err == -ETIMEDOUT)
            return (long)n;
        if (err == -EINTR)
            return n ? (long)n : -EINTR;
    }
}

/* A read by a process outside the foreground group is EIO, what Linux answers a background
 * read that SIGTTIN cannot stop (ignored, blocked, or an orphaned group): nothing here can
 * stop a process, and the bytes typed are the foreground program's alone. */
static long tty_read(struct file *f, void *buf, size_t len)
{
    if (!caller_in_foreground())
        return -EIO;
    if (termios.c_lflag & ICANON)
        return read_canonical(f, buf, len);
    return read_raw(f, buf, len);
}

static long tty_write(struct file *f, const void *data, size_t len)
{
    (void)f;
    tty_output(data, len);
    return (long)len;
}

/* Readable when a read would not wait. For a background process that is always so (its
 * read fails at once with EIO), and says nothing about what has been typed. */
static unsigned tty_poll(struct file *f)
{
    (void)f;
    unsigned mask = POLLOUT | POLLWRNORM;
    if (!caller_in_foreground())
        return mask | POLLIN | POLLRDNORM;
    unsigned long flags = arch_irq_save();
    bool readable = termios.c_lflag & ICANON ? canonical_pump()
                                             : console_bytes_for_program() > 0;
    arch_irq_restore(flags);
    return readable ? mask | POLLIN | POLLRDNORM : mask;
}

/* The process group and the session of t (setpgid, setsid; `run` makes each program the
 * leader of both). */
static int pgid_of(const struct task *t) { return t->pgid; }
static int sid_of(const struct task *t) { return t->sid; }

/* TIOCSPGRP, as Linux's tiocspgrp: refused to a background caller that check_change
 * refuses, and to one outside the terminal's session (both ENOTTY, as Linux answers); pgid
 * must be a process group that exists (ESRCH) in the caller's session (EPERM); negative is
 * EINVAL. The task list is walked with interrupts off (one CPU). */
static long set_pgrp(uint32_t arg)
{
    if (check_change() != 0 || current->sid != terminal_sid)
        return -ENOTTY;
    int32_t pgid;
    if (copy_from_user(&pgid, arg, sizeof pgid) != 0)
        return -EFAULT;
    if (pgid < 0)
        return -EINVAL;
    unsigned long flags = arch_irq_save();
    bool exists = false, ours = false;
    for (struct task *t = task_list(); t; t = t->next)
        if (t->as && t->state != TASK_ZOMBIE && pgid_of(t) == pgid) {
            exists = true;
            ours = ours || sid_of(t) == sid_of(current);
        }
    long err = !exists ? -ESRCH : !ours ? -EPERM : 0;
    if (!err) {
        foreground_pgrp = pgid;
        update_interrupt_mode();
    }
    arch_irq_restore(flags);
    return err;
}

/* Takes new settings (TCSETS*); TCSETSF also throws away what was typed. */
static long set_termios(uint32_t cmd, uint32_t arg)
{
    struct termios t;
    if (copy_from_user(&t, arg, sizeof t) != 0)
        return -EFAULT;
    unsigned long flags = arch_irq_save();
    bool was_canonical = termios.c_lflag & ICANON;
    termios = t;
    if (cmd == TCSETSF) {
        console_flush_input();
        line_len = cooked_len = cooked_pos = 0;
        eof_pending = false;
    } else if (was_canonical && !(t.c_lflag & ICANON) && line_len) {
        /* Leaving canonical mode: what was typed of a line becomes readable as bytes. */
        finish_line();
    }
    update_interrupt_mode();
    arch_irq_restore(flags);
    return 0;
}

static long tty_ioctl(struct file *f, uint32_t cmd, uint32_t arg)
{
    (void)f;
    switch (cmd) {
    case TCGETS:
        return copy_to_user(arg, &termios, sizeof termios);
    case TCSETS:
    case TCSETSW:
    case TCSETSF: {
        int err = check_change();
        return err ? err : set_termios(cmd, arg);
    }
    case TIOCGWINSZ:
        return copy_to_user(arg, &winsize, sizeof winsize);
    case TIOCSWINSZ: {
        int err = check_change();
        if (err)
            return err;
        struct winsize w;
        if (copy_from_user(&w, arg, sizeof w) != 0)
            return -EFAULT;
        winsize = w;
        return 0;
    }
    case TIOCGPGRP: {
        int32_t pgid = foreground_pgrp ? foreground_pgrp : pgid_of(current);
        return copy_to_user(arg, &pgid, sizeof pgid);
    }
    case TIOCSPGRP:
        return set_pgrp(arg);
    case TIOCGSID: {
        int32_t sid = sid_of(current);
        return copy_to_user(arg, &sid, sizeof sid);
    }
    case TIOCSCTTY:
    case TIOCNOTTY:
        return 0; /* the console is every program's controlling terminal already */
    case TCFLSH:
        if (check_change() != 0)
            return -EIO;
        if (arg > 2)
            return -EINVAL;
        if (arg != 1) { /* TCIFLUSH or TCIOFLUSH: input goes; output is never queued */
            unsigned long flags = arch_irq_save();
            console_flush_input();
            line_len = cooked_len = cooked_pos = 0;
            arch_irq_restore(flags);
        }
        return 0;
    case FIONREAD: {
        if (!caller_in_foreground())
            return -EIO;
        unsigned long flags = arch_irq_save();
        int32_t n = termios.c_lflag & ICANON ? (canonical_pump(), (int32_t)(cooked_len - cooked_pos))
                                             : (int32_t)console_bytes_for_program();
        arch_irq_restore(flags);
        return copy_to_user(arg, &n, sizeof n);
    }
    default:
        return -ENOTTY;
    }
}

const struct fs_file_ops tty_ops = {
    .read_data = tty_read,
    .write_data = tty_write,
    .poll = tty_poll,
    .ioctl = tty_ioctl,
    .seekless = true,
};

/* /dev/console (5:1), /dev/tty (5:0) and /dev/ttyS0 (4:64, COM1) are this terminal, with
 * the modes udev gives them. */
static void tty_init(void)
{
    struct fs_node *dev = fs_mkdir_path("dev");
    fs_set_rdev(fs_set_mode(fs_create(dev, "console", &tty_ops, 0), 0600, 0, 0), 5, 1);
    fs_set_rdev(fs_set_mode(fs_create(dev, "tty", &tty_ops, 0), 0666, 0, 0), 5, 0);
    fs_set_rdev(fs_set_mode(fs_create(dev, "ttyS0", &tty_ops, 0), 0660, 0, GID_DIALOUT), 4, 64);
}
INITCALL(fs, tty_init);
