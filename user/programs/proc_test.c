/*
 * proc_test.c - processes as Linux i386 has them (issue 16), checked from a program: fork
 * trees and their exit codes, zombies reaped, fork + execve of /bin/hello and of itself
 * (through /proc/self/exe) with argv and envp checked on the far side, vfork, SIGCHLD with
 * its siginfo, kill and the default actions (terminate, core, ignore), alarm interrupting
 * pause, nanosleep's remaining time, rt_sigsuspend's mask, setitimer, process groups and
 * sessions, MAP_SHARED memory shared by fork (and private memory not), TLS through %gs.
 * One TAP-like line per check (tracekern/check.h), then "proc_test: P passed, F failed".
 *
 * Usage: proc_test            every check
 *        proc_test exec-child  what the re-executed copy runs (checks its argv, envp, TLS,
 *                              signal actions, and exits with 42)
 *        proc_test exit N      exits with status N        } for the shell's report of how
 *        proc_test raise N     sends itself signal N      } a program ended
 *        proc_test env         prints its environment, one "env: NAME=value" line each
 *        proc_test exec-hello  forks, and the child execs /bin/hello (for the trace's names)
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "uapi/syscall.h"
#include "uapi/user_desc.h"
#include <tracekern/check.h>

/* Waits for pid and returns its raw status (or -1). */
static int status_of(pid_t pid)
{
    int st = -1;
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    return st;
}

static void fork_tree(void)
{
    /* Three children, each with a child of its own; every one exits with its own code. */
    pid_t kids[3];
    for (int i = 0; i < 3; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            pid_t grandchild = fork();
            if (grandchild == 0)
                _exit(100 + i);
            int st = status_of(grandchild);
            _exit(WIFEXITED(st) && WEXITSTATUS(st) == 100 + i ? 10 + i : 99);
        }
    }
    int good = 0;
    for (int i = 2; i >= 0; i--) {
        int st = status_of(kids[i]);
        good += WIFEXITED(st) && WEXITSTATUS(st) == 10 + i;
    }
    check_number("fork tree: 3 children each collected their grandchild's code and exited with theirs", good, 3);
    check_call("no child left: waitpid(-1) -> ECHILD", waitpid(-1, 0, 0), ECHILD);
    check_call("wait for a pid that is no child -> ECHILD", waitpid(1, 0, 0), ECHILD);
    check_call("waitpid with unknown options -> EINVAL", waitpid(-1, 0, 0x100), EINVAL);

    pid_t me = getpid(), child = fork();
    if (child == 0)
        _exit(getppid() == me && gettid() == getpid() ? 0 : 1);
    check_number("the child's getppid is its parent, gettid its pid", WEXITSTATUS(status_of(child)), 0);

    child = fork();
    if (child == 0) {
        struct timespec t = { 0, 200000000 };
        nanosleep(&t, 0);
        _exit(7);
    }
    int st = 0;
    check_number("WNOHANG while the child runs -> 0", waitpid(child, &st, WNOHANG), 0);
    check_number("then the child's status: exited 7", status_of(child), 7 << 8);
}

static void fork_memory(void)
{
    static volatile int private_word = 1;
    volatile int *shared = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    check_true("mmap MAP_SHARED|MAP_ANONYMOUS", shared != MAP_FAILED);
    if (shared == MAP_FAILED)
        return;
    shared[0] = 1;
    pid_t child = fork();
    if (child == 0) {
        shared[0] = 2;
        private_word = 2;
        _exit(0);
    }
    status_of(child);
    check_number("a MAP_SHARED page written by the child is seen by the parent", shared[0], 2);
    check_number("a private page written by the child is not", private_word, 1);
    /* The child still maps the shared page while the parent unmaps it: the child's copy
     * lives on (its frame is freed only by the last one). */
    child = fork();
    if (child == 0) {
        struct timespec t = { 0, 100000000 };
        nanosleep(&t, 0);
        _exit(shared[0] == 3 ? 0 : 1);
    }
    shared[0] = 3;
    munmap((void *)shared, 4096);
    check_number("the child still reads the page the parent unmapped", WEXITSTATUS(status_of(child)), 0);
}

static void exec_checks(void)
{
    pid_t child = fork();
    if (child == 0) {
        char *argv[] = { "hello", "from", "exec", 0 };
        char *envp[] = { "A=1", 0 };
        execve("/bin/hello", argv, envp);
        _exit(127);
    }
    check_number("fork + execve /bin/hello: exited 0", status_of(child), 0);

    child = fork();
    if (child == 0) {
        char *argv[] = { "proc_test", "exec-child", "two words", 0 };
        char *envp[] = { "FIRST=1", "SECOND=two", 0 };
        struct sigaction sa = { 0 };
        sa.sa_handler = (void (*)(int))SIG_IGN;
        sigaction(SIGUSR2, &sa, 0);               /* ignored: stays ignored */
        sa.sa_handler = (void (*)(int))0x1234;    /* caught: back to SIG_DFL */
        sigaction(SIGUSR1, &sa, 0);
        execve("/proc/self/exe", argv, envp);
        _exit(127);
    }
    check_number("fork + execve /proc/self/exe: the new image saw its argv/envp/signals (42)",
                 status_of(child), 42 << 8);

    /* Failed execve leaves the caller as it was. */
    char *argv[] = { "x", 0 };
    check_call("execve of a missing file -> ENOENT", execve("/bin/no_such_program", argv, 0), ENOENT);
    check_call("execve of a directory -> EACCES", execve("/bin", argv, 0), EACCES);
    check_call("execve of a file without x -> EACCES", execve("/proc/meminfo", argv, 0), EACCES);
    check_call("execve with a bad path pointer -> EFAULT", execve((char *)16, argv, 0), EFAULT);
    check_call("execve with a bad argv pointer -> EFAULT", syscall(SYS_execve, "/bin/hello", 16, 0), EFAULT);
    char *bad_strings[] = { "ok", (char *)0xc0001000u, 0 };
    check_call("execve with a kernel string pointer -> EFAULT", execve("/bin/hello", bad_strings, 0), EFAULT);
    check_true("after the failed execves the process still runs", getpid() > 1);

    /* vfork: the child borrows the memory until it execs or exits. */
    static volatile int touched;
    touched = 0;
    child = vfork();
    if (child == 0) {
        touched = 1;
        _exit(5);
    }
    check_number("vfork: the parent resumes after the child's _exit and sees its write", touched, 1);
    check_number("vfork: the child's status", status_of(child), 5 << 8);
    child = vfork();
    if (child == 0) {
        char *hello[] = { "hello", "vforked", 0 };
        execve("/bin/hello", hello, 0);
        _exit(127);
    }
    check_number("vfork + execve /bin/hello", status_of(child), 0);
}

/* The re-executed copy: checks what execve must have given it. */
static int exec_child(int argc, char **argv)
{
    extern char **environ;
    int bad = 0;
    bad |= argc != 3 || strcmp(argv[2], "two words") != 0;
    bad |= !environ[0] || strcmp(environ[0], "FIRST=1") != 0 || !environ[1] ||
           strcmp(environ[1], "SECOND=two") != 0 || environ[2];
    struct sigaction sa;
    sigaction(SIGUSR1, 0, &sa);
    bad |= (uintptr_t)sa.sa_handler != (uintptr_t)SIG_DFL;
    sigaction(SIGUSR2, 0, &sa);
    bad |= (uintptr_t)sa.sa_handler != (uintptr_t)SIG_IGN;
    struct user_desc u = { .entry_number = 6 };
    bad |= syscall(SYS_get_thread_area, &u) != 0 || !u.seg_not_present;
    return bad ? 1 : 42;
}

static volatile int chld_pid, chld_code, chld_status, alarms, usr1s;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)uc;
    chld_pid = (int)si->si_addr, chld_code = si->si_code;
    memcpy((void *)&chld_status, si->rest + 4, 4);
}
static void on_alarm(int sig) { (void)sig; alarms++; }
static void on_usr1(int sig) { (void)sig; usr1s++; }
/* SIGALRM's handler that also leaves SIGUSR2 pending (blocked by its sa_mask till it returns). */
static void on_alarm_raise_usr2(int sig) { (void)sig; alarms++; raise(SIGUSR2); }

static void signal_checks(void)
{
    struct sigaction sa = { 0 };
    sa.sa_sigaction = on_chld;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGCHLD, &sa, 0);
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGCHLD);
    sigprocmask(SIG_BLOCK, &block, &old);
    pid_t child = fork();
    if (child == 0)
        _exit(3);
    sigsuspend(&old); /* returns once the SIGCHLD handler has run */
    check_true("SIGCHLD handler ran with si_pid = the child, CLD_EXITED, si_status 3",
               chld_pid == child && chld_code == CLD_EXITED && chld_status == 3);
    sigprocmask(SIG_SETMASK, &old, 0);
    check_number("and the zombie is still there to collect", status_of(child), 3 << 8);
    /* A wait that the child's own SIGCHLD interrupts still returns that child (Linux looks
     * at the children again before it answers EINTR). */
    child = fork();
    if (child == 0) {
        struct timespec t = { 0, 50000000 };
        nanosleep(&t, 0);
        _exit(4);
    }
    int wst = 0;
    pid_t waited = waitpid(child, &wst, 0);
    check_true("waitpid with a SIGCHLD handler returns the child, not EINTR", waited == child && wst == 4 << 8);
    sa.sa_handler = (void (*)(int))SIG_DFL, sa.sa_flags = 0;
    sigaction(SIGCHLD, &sa, 0);

    /* Default actions. */
    child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    check_call("kill(child, SIGTERM)", kill(child, SIGTERM), 0);
    int st = status_of(child);
    check_true("killed by SIGTERM: WIFSIGNALED, WTERMSIG 15, no core", WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM && !WCOREDUMP(st));
    child = fork();
    if (child == 0) {
        *(volatile int *)0x1000 = 1;
        _exit(0);
    }
    st = status_of(child);
    check_number("a page fault: status 11 | 0x80 (core)", st, SIGSEGV | 0x80);
    child = fork();
    if (child == 0) {
        raise(SIGQUIT);
        _exit(0);
    }
    check_number("raise(SIGQUIT): status 3 | 0x80", status_of(child), SIGQUIT | 0x80);
    child = fork();
    if (child == 0) {
        raise(SIGCHLD); /* default: ignored */
        raise(SIGWINCH);
        _exit(9);
    }
    check_number("SIGCHLD and SIGWINCH are ignored by default: the child exits 9", status_of(child), 9 << 8);
    child = fork();
    if (child == 0) {
        sa.sa_handler = (void (*)(int))SIG_IGN;
        sigaction(SIGTERM, &sa, 0);
        raise(SIGTERM);
        _exit(8);
    }
    check_number("an ignored SIGTERM changes nothing: exits 8", status_of(child), 8 << 8);
    check_call("kill with signal 65 -> EINVAL", kill(getpid(), 65), EINVAL);
    check_call("kill with signal 0 to itself: allowed", kill(getpid(), 0), 0);
    check_call("kill(pid that does not exist) -> ESRCH", kill(99999, 0), ESRCH);
    check_call("tgkill with a tgid not the task's -> ESRCH", syscall(SYS_tgkill, 1, getpid(), 0), ESRCH);
    check_call("tkill(0) -> EINVAL", syscall(SYS_tkill, 0, 0), EINVAL);

    /* alarm interrupts pause. */
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, 0);
    check_number("alarm(1) with none set returns 0", alarm(1), 0);
    long r = pause();
    check_true("pause returns -1 EINTR after SIGALRM's handler", r == -1 && errno == EINTR && alarms == 1);
    /* After sigreturn the registers are the interrupted code's, not a system call's: the
     * restored EAX is pause's -EINTR, and the ignored SIGUSR2 taken on the way out (no
     * handler runs) must not "restart" anything (Linux: orig_ax = -1). Restarting the
     * last call made sigreturn again, on a stack with no frame: SIGSEGV (busybox sh
     * waiting for two children at once on 4 CPUs, 1 run in 8). */
    sa.sa_handler = on_alarm_raise_usr2;
    sigaddset(&sa.sa_mask, SIGUSR2);
    sigaction(SIGALRM, &sa, 0);
    struct sigaction ignore = { .sa_handler = (void (*)(int))SIG_IGN }, usr2_was;
    sigaction(SIGUSR2, &ignore, &usr2_was);
    alarms = 0;
    struct itimerval soon = { { 0, 0 }, { 0, 50000 } };
    setitimer(ITIMER_REAL, &soon, 0);
    r = pause();
    check_true("a signal ignored right after sigreturn restarts nothing: pause -> EINTR",
               r == -1 && errno == EINTR && alarms == 1);
    sigaction(SIGUSR2, &usr2_was, 0);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, 0);
    alarm(5);
    check_number("alarm(0) returns what was left (5 s, rounded)", alarm(0), 5);
    alarm(1);
    struct timespec req = { 3, 0 }, rem = { 0, 0 };
    r = nanosleep(&req, &rem);
    check_true("nanosleep(3 s) interrupted by the alarm: EINTR, about 2 s left",
               r == -1 && errno == EINTR && rem.tv_sec >= 1 && rem.tv_sec <= 2);
    /* SA_RESTART: a wait4 the alarm interrupts is made again after the handler; without
     * it the wait answers EINTR; nanosleep answers EINTR either way (as Linux). */
    for (int restart = 1; restart >= 0; restart--) {
        sa.sa_handler = on_alarm;
        sa.sa_flags = restart ? SA_RESTART : 0;
        sigaction(SIGALRM, &sa, 0);
        pid_t slow = fork();
        if (slow == 0) {
            struct timespec t = { 1, 500000000 };
            nanosleep(&t, 0);
            _exit(6);
        }
        alarms = 0;
        alarm(1);
        int wst = 0;
        pid_t w = waitpid(slow, &wst, 0);
        if (restart)
            check_true("SA_RESTART: waitpid interrupted by SIGALRM is restarted and returns the child",
                       w == slow && wst == 6 << 8 && alarms == 1);
        else
            check_true("without SA_RESTART: waitpid interrupted by SIGALRM -> EINTR",
                       w == -1 && errno == EINTR && alarms == 1 && status_of(slow) == 6 << 8);
    }
    alarm(1);
    struct timespec long_nap = { 3, 0 };
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, 0);
    check_call("SA_RESTART: nanosleep interrupted still -> EINTR", nanosleep(&long_nap, 0), EINTR);
    sa.sa_flags = 0;
    sigaction(SIGALRM, &sa, 0);
    struct itimerval it = { { 0, 100000 }, { 0, 100000 } }, got;
    check_call("setitimer ITIMER_REAL every 0.1 s", setitimer(ITIMER_REAL, &it, 0), 0);
    alarms = 0;
    while (alarms < 3)
        pause();
    check_call("getitimer", getitimer(ITIMER_REAL, &got), 0);
    check_true("it reloads with its interval", got.it_interval.tv_usec == 100000 && got.it_value.tv_usec <= 100000);
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, 0);
    it.it_value.tv_usec = 1000000;
    check_call("setitimer with tv_usec 1000000 -> EINVAL", setitimer(ITIMER_REAL, &it, 0), EINVAL);
    check_call("setitimer ITIMER_PROF -> EINVAL (not kept)", setitimer(ITIMER_PROF, &off, 0), EINVAL);

    /* rt_sigsuspend: the mask it sets holds only while it waits. */
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, 0);
    sigemptyset(&block);
    sigaddset(&block, SIGUSR1);
    sigprocmask(SIG_BLOCK, &block, 0);
    raise(SIGUSR1);
    check_number("SIGUSR1 blocked: pending, not delivered", usr1s, 0);
    sigset_t none;
    sigemptyset(&none);
    r = sigsuspend(&none);
    sigset_t now;
    sigprocmask(SIG_BLOCK, 0, &now);
    check_true("sigsuspend ran the handler, returned EINTR, and SIGUSR1 is blocked again",
               r == -1 && errno == EINTR && usr1s == 1 && sigismember(&now, SIGUSR1));
    check_call("rt_sigsuspend with sigsetsize 4 -> EINVAL", syscall(SYS_rt_sigsuspend, &none, 4), EINVAL);
    /* A pending signal that turns out ignored when it is taken does not end the wait:
     * the call goes on (Linux restarts it when no handler runs); SIGALRM's handler then
     * ends it. */
    sigset_t usr2;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    sigprocmask(SIG_BLOCK, &usr2, 0);
    raise(SIGUSR2); /* pending: blocked, default action "terminate" */
    sa.sa_handler = (void (*)(int))SIG_IGN;
    sa.sa_flags = 0;
    sigaction(SIGUSR2, &sa, 0); /* now ignored: dropped from pending, as Linux */
    sigprocmask(SIG_UNBLOCK, &usr2, 0);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, 0);
    sigaddset(&block, SIGUSR2);
    sigprocmask(SIG_BLOCK, &usr2, 0);
    raise(SIGUSR2); /* ignored but blocked: kept pending */
    alarms = 0;
    alarm(1);
    r = sigsuspend(&none); /* unblocks it: taken, ignored, and the wait goes on */
    check_true("sigsuspend goes on past an ignored signal and ends with SIGALRM's handler",
               r == -1 && errno == EINTR && alarms == 1);
    sigprocmask(SIG_UNBLOCK, &block, 0);
}

static void group_checks(void)
{
    check_number("run makes the program its own process group", getpgrp(), getpid());
    check_number("getpgid(0) is getpgrp", getpgid(0), getpgrp());
    check_call("setsid as a group leader -> EPERM", setsid(), EPERM);
    pid_t child = fork();
    if (child == 0) {
        int ok = getpgrp() == getppid() && setsid() == getpid() && getsid(0) == getpid() &&
                 getpgrp() == getpid();
        _exit(ok ? 0 : 1);
    }
    check_number("a child (same group) can setsid: new session and group", status_of(child), 0);
    child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    check_call("setpgid(child, 0): its own group", setpgid(child, 0), 0);
    check_number("getpgid(child)", getpgid(child), child);
    check_call("kill(-child's group, SIGKILL)", kill(-child, SIGKILL), 0);
    check_number("the group's member died of SIGKILL", status_of(child), SIGKILL);
    check_call("setpgid(1, 0): not a child -> ESRCH", setpgid(1, 0), ESRCH);
    check_call("setpgid(0, -1) -> EINVAL", setpgid(0, -1), EINVAL);
    check_call("getsid(99999) -> ESRCH", getsid(99999), ESRCH);
    check_call("kill(-99999, 0): no such group -> ESRCH", kill(-99999, 0), ESRCH);
}

static volatile uint32_t tls_word = 0x5eed1234;

static uint32_t read_gs0(void)
{
    uint32_t v;
    asm volatile("movl %%gs:0, %0" : "=r"(v));
    return v;
}

static void tls_checks(void)
{
    struct user_desc u = { .entry_number = (unsigned)-1, .base_addr = (uint32_t)&tls_word,
                           .limit = 0xfffff, .seg_32bit = 1, .limit_in_pages = 1, .useable = 1 };
    check_call("set_thread_area(entry -1)", syscall(SYS_set_thread_area, &u), 0);
    check_number("it picked GDT entry 6 (Linux's first TLS slot)", u.entry_number, 6);
    uint16_t sel = (uint16_t)(u.entry_number * 8 + 3);
    asm volatile("movw %0, %%gs" : : "r"(sel));
    check_number("%gs:0 reads the TLS word through selector 0x33", read_gs0(), 0x5eed1234);
    struct user_desc back = { .entry_number = 6 };
    check_call("get_thread_area(6)", syscall(SYS_get_thread_area, &back), 0);
    check_true("it reads back base, limit and flags",
               back.base_addr == (uint32_t)&tls_word && back.limit == 0xfffff && back.seg_32bit &&
               back.limit_in_pages && back.useable && !back.seg_not_present && back.contents == 0);
    static volatile uint32_t other_word = 0x0dd;
    pid_t child = fork();
    if (child == 0) {
        /* The child keeps the parent's slot and selector, then points its own slot 6 at
         * another word: the parent must never see it (the slots switch with the task). */
        uint16_t gs;
        asm volatile("movw %%gs, %0" : "=r"(gs));
        int kept = gs == sel && read_gs0() == 0x5eed1234;
        struct user_desc mine = u;
        mine.entry_number = 6, mine.base_addr = (uint32_t)&other_word;
        syscall(SYS_set_thread_area, &mine);
        asm volatile("movw %0, %%gs" : : "r"(sel));
        other_word = 77;
        struct timespec t = { 0, 50000000 };
        nanosleep(&t, 0); /* the parent runs meanwhile */
        _exit(kept && read_gs0() == 77 ? 0 : 1);
    }
    struct timespec t = { 0, 20000000 };
    nanosleep(&t, 0);
    check_number("the parent's %gs:0 is its own while the child's slot 6 differs", read_gs0(), 0x5eed1234);
    check_number("the forked child kept %gs and its slot, then had its own", status_of(child), 0);
    /* Empty the slot while %gs holds it: the return to ring 3 makes %gs null, as Linux. */
    struct user_desc empty = { .entry_number = 6, .read_exec_only = 1, .seg_not_present = 1 };
    check_call("set_thread_area(6, empty)", syscall(SYS_set_thread_area, &empty), 0);
    uint16_t gs;
    asm volatile("movw %%gs, %0" : "=r"(gs));
    check_number("%gs is null once its slot is empty", gs, 0);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "exec-child") == 0)
        return exec_child(argc, argv);
    if (argc > 2 && strcmp(argv[1], "exit") == 0)
        return atoi(argv[2]);
    if (argc > 2 && strcmp(argv[1], "raise") == 0) {
        raise(atoi(argv[2]));
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "exec-hello") == 0) {
        pid_t child = fork();
        if (child == 0) {
            char *hello[] = { "hello", "renamed", 0 };
            execve("/bin/hello", hello, environ);
            _exit(127);
        }
        return WEXITSTATUS(status_of(child));
    }
    if (argc > 1 && strcmp(argv[1], "env") == 0) {
        extern char **environ;
        for (char **e = environ; *e; e++)
            printf("env: %s\n", *e);
        return 0;
    }
    fork_tree();
    fork_memory();
    exec_checks();
    signal_checks();
    group_checks();
    tls_checks();
    return check_summary("proc_test");
}
