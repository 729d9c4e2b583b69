/*
 * task_internal.h - the task structure and the life of a task, for the kernel's own use
 * (the scheduler, system calls, the loader, the shell). Other subsystems use
 * kernel/proc/task.h, which hides struct task.
 */
#ifndef KERNEL_PROC_TASK_INTERNAL_H
#define KERNEL_PROC_TASK_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/arch.h"
#include "kernel/lib/deadline_heap.h"
#include "kernel/lib/wait_table.h"
#include "kernel/proc/cred.h"
#include "kernel/proc/signal.h"
#include "kernel/proc/task.h"

#define TASK_FILES_MAX 32
#define TASK_CWD_MAX 256 /* FS_PATH_MAX: the longest path the file tree takes */
#define KERNEL_STACK_PAGES 4 /* 16 KiB, the lowest page of which is an unmapped guard */

enum task_state {
    TASK_RUNNABLE, /* running, or waiting for the CPU */
    TASK_SLEEPING, /* in sleep_on() */
    TASK_ZOMBIE,   /* exited; its parent has not collected the status yet */
};

struct file;
struct addr_space;
struct program;

/* task.syscall_nr when the registers are not a system call's (after sigreturn). */
#define NO_SYSCALL 0xffffffffu

struct task {
    int pid;
    char name[TASK_NAME_MAX];
    enum task_state state;
    uint32_t saved_esp;       /* kernel stack pointer while switched out */
    uintptr_t kstack;         /* lowest address of its kernel stack (0: the boot stack) */
    struct addr_space *as;    /* NULL for kernel threads */
    struct file *files[TASK_FILES_MAX];
    uint32_t fd_cloexec;      /* bit n set: descriptor n is closed by execve (FD_CLOEXEC) */
    void (*thread_fn)(void *arg); /* kernel threads: what they run */
    void *thread_arg;
    void *graph_stack;        /* function_graph's return stack for this task */
    struct arch_task arch;    /* the machine's own per-task state (kernel/arch.h) */

    struct wait_link wait;    /* wait.chan: what it sleeps on (0: nothing anyone wakes);
                               * in the scheduler's wait table while it sleeps on it,
                               * unless the sleep is direct (wait_hashed false) */
    bool wait_hashed;         /* wait is in the wait table (a sleep_on, not a direct one) */
    struct deadline_timer sleep_timer; /* its sleep's timeout, queued while one runs */
    int wake_reason;          /* sleep_on()'s result */
    bool killed;              /* exits at its next return to user mode or sleep */
    bool detached;            /* nobody will wait for it: freed as soon as it is dead */
    int exit_status;          /* 0-255 for exit(), 128+signal-like number when killed */
    char exit_reason[48];     /* "killed: page fault" ... for the shell's report */
    uint64_t start_ns;
    uint64_t cpu_cycles;      /* CPU time it used up to its last switch out, in cycles
                               * (sched.c; time_span_ns converts) */
    uint32_t syscalls;        /* system calls made, for ps */
    struct cred cred;         /* its user and group ids (kernel/proc/cred.h); root's: all 0 */
    struct sigstate sig;      /* signal actions, blocked mask, alternate stack (signal.h) */
    /* Files and the terminal (issue 16): plain values, so that fork copies them as they are. */
    char cwd[TASK_CWD_MAX];   /* the current directory's absolute path; "": the root */
    uint32_t umask;           /* the bits open/mkdir take away from a new file's mode */

    /* Processes (issue 16): kernel/proc/fork.c, wait.c, task_signal.c. */
    struct task *parent;      /* who collects it with wait4; the shell for `run` */
    int pgid, sid;            /* process group and session (setpgid, setsid) */
    int term_signal;          /* the signal it died of (0: it exited) */
    bool core_dumped;         /* with term_signal: the default action was "core" */
    int wait_status;          /* Linux's wait status once a zombie: code << 8, or signal
                               * number | 0x80 for core */
    int kill_signal;          /* with killed: the signal it is to die of */
    int kill_code;            /* and its siginfo code (SI_USER, SI_KERNEL, ...) */
    const struct program *program; /* the program it runs (/proc/self/exe); NULL: none */
    struct task *vfork_parent; /* vfork: the parent, asleep until this task execs or exits
                               * (with CLONE_VM, as is the parent's: borrowed, not freed) */
    uint32_t clear_child_tid; /* set_tid_address: zeroed (as a futex word) at exit */
    uint32_t robust_list, robust_list_len; /* set_robust_list, kept for get_robust_list */
    struct deadline_timer alarm; /* ITIMER_REAL: alarm.at is the next expiry while queued
                               * (sched_alarm_set; task_alarm_at reads it) */
    uint64_t alarm_interval_ns; /* its reload value (0: one shot) */
    int exit_signal;          /* what the parent gets at its death (clone's CSIGNAL) */
    bool vfork_done;          /* a vfork parent: its child has exec'd or exited */
    bool announce_exit;       /* `run ... &`: the console hears how it ended */
    uint32_t syscall_nr;      /* the system call it is in (SA_RESTART restarts it), or
                               * NO_SYSCALL after sigreturn: nothing to restart */

    /* Scheduling on N CPUs (kernel/proc/sched.c), under the kernel lock. */
    unsigned cpu;             /* the CPU it runs on, waits for, or ran on last */
    uint32_t cpus_allowed;    /* bit n: it may run on CPU n (sched_setaffinity) */
    bool on_rq;               /* waiting on cpu's run queue */
    struct task *rq_prev, *rq_next; /* its neighbours there */

    struct task *next;        /* all tasks, in creation order (task_list) */
};

/* The task running now on this CPU (also task_current()): each CPU's own slot. On an
 * application processor it is that CPU's idle task (swapper/N, pid 0), which runs its
 * idle loop and the work smp_run_on hands it. */
extern struct task *cpu_current[];
#define current (cpu_current[arch_cpu_id()])

/* Turns the boot context into the first task (pid 1, the shell) and creates the idle task
 * (pid 0), which runs background work when no other task can run. */
void tasks_init(void);

/* Starts a kernel thread running fn(arg). Returns it, or NULL when out of memory. */
struct task *task_create_kernel(const char *name, void (*fn)(void *), void *arg);

/* The limits on tasks (Linux's kernel.threads-max) and on the processes of one real user
 * other than root (Linux's default RLIMIT_NPROC): spawning past either is -EAGAIN. */
uint32_t task_limit(void);
uint32_t task_user_limit(void);

/* Creates a user process from an ELF image with the given argument strings, with the
 * current task's credentials; it starts running when the scheduler picks it. 0 with *out set, or -errno (-ENOEXEC for a bad
 * image, -ENOMEM, -E2BIG for arguments that do not fit, -EAGAIN past task_limit() or, for a
 * user other than root, task_user_limit()). */
int process_spawn(const char *name, const void *elf, uint32_t elf_len, int argc,
                  char *const argv[], struct task **out);
/* The same, with credentials cred instead of the current task's (`run -u`): the process
 * never runs with any other. */
int process_spawn_as(const char *name, const void *elf, uint32_t elf_len, int argc,
                     char *const argv[], char *const envp[], const struct cred *cred,
                     struct task **out);
/* A new process is within task_limit() and, for a user other than root, task_user_limit():
 * 0 or -EAGAIN. */
int task_check_limits(const struct cred *cred);

/* Gives t a new name (at most TASK_NAME_MAX - 1 characters kept) and tells the rename
 * function (task.h's task_on_rename). */
void task_rename(struct task *t, const char *name);

/* Runs the exec hooks (task.h's task_on_exec) for t, whose memory is about to be replaced. */
void task_exec_hooks_run(struct task *t);
/* Runs the fork function (task.h's task_on_fork) for a child with a copy of parent's
 * memory: 0, or its -errno (it undid its part). */
int task_fork_hook_run(struct task *parent, struct task *child);
/* The shell (pid 1): the parent of `run`'s processes and of every orphan. */
struct task *task_shell(void);
/* Closes every open file of t. */
void task_close_files(struct task *t);
/* A new task structure named name, with the next pid and a guarded kernel stack, create
 * hooks run; not yet on the task list (so it cannot run). NULL without memory. */
struct task *task_alloc(const char *name);
/* Puts t at the end of the task list and hands it to the scheduler: from now on it runs. */
void task_list_add(struct task *t);
/* Gives back a dead task's kernel stack and structure and takes it off the list. */
void task_free(struct task *t);

/* kernel/proc/fork.c: a copy of the current process (fork, vfork, clone), see there. */
int process_fork(uint32_t flags, uint32_t user_esp, uint32_t parent_tid, uint32_t child_tid);
/* kernel/proc/execve.c: execve(path, argv, envp) of user pointers: 0 (the current
 * process runs the new program when it returns to ring 3), or -errno with nothing
 * changed. */
int process_execve(uint32_t path, uint32_t argv, uint32_t envp);
/* kernel/proc/wait.c: the exit path's bookkeeping, with interrupts off. Lets a vfork
 * parent go on (t exec'd or exited); hands t's children to the shell, freeing dead ones;
 * tells t's parent (SIGCHLD, wakes wait4), or frees t at once when nobody will wait. */
void task_vfork_release(struct task *t);
void task_orphan_children(struct task *t);
void task_notify_parent(struct task *t);
/* wait4's search: 0 with *status (Linux's encoding) and the child's pid in *pid, or
 * -ECHILD, -EINTR, or 0 with *pid 0 for WNOHANG when nothing has changed. */
int process_wait(int pid, int options, int *status, int *child_pid, uint64_t *child_cpu_ns);

/* Ends the current task with status (kept for task_wait). Never returns. */
void task_exit(int status) __attribute__((noreturn));
/* Ends the current task killed by signal sig (with the core flag for core = true): its
 * wait status says so, the shell's report too. Never returns. */
void task_exit_signal(int sig, bool core) __attribute__((noreturn));

/* Waits until t has exited, or timeout_ns passed (0: no timeout); on exit frees it and
 * returns 0 with its status in *status. -ETIMEDOUT, or -EINTR when the caller is killed. */
int task_wait(struct task *t, int *status, char *reason, uint64_t timeout_ns);

/* Asks t to end, killed by signal sig: at its next return to user mode, or at once if it
 * is sleeping. reason (NULL: the signal's description) is what the shell reports. */
void task_kill(struct task *t, int sig, int code, const char *reason);

/* The living (not yet collected) task with this pid, or NULL. */
struct task *task_find(int pid);
/* The task list, in creation order: the shell (pid 1), the idle task (pid 0, made just
 * after it), then every other task as it was created, so pids 2, 3, ... rise along it.
 * `ps` lists it so and the scheduler takes turns along it. */
struct task *task_list(void);

/* CPU 0's idle task, on the task list (ps shows it); the other CPUs' idle tasks
 * (tasks_init_cpu_idle) are on no list. sched_is_idle_task() tells any of them. */
extern struct task *idle_task;
/* Creates CPU cpu's idle task (swapper/cpu, pid 0) and makes it that CPU's current. */
void tasks_init_cpu_idle(unsigned cpu);

/* Called by the scheduler right after each switch: frees a detached task that just died. */
void task_finish_switch(struct task *prev);

/* The arch layer: prepares a new task's kernel stack so that the first switch to it
 * starts a kernel thread (task_thread_main) or enters ring 3 at entry with stack user_esp. */
void arch_task_init_kernel(struct task *t);
void arch_task_init_user(struct task *t, uint32_t entry, uint32_t user_esp);
/* fork: child's kernel stack returns to ring 3 from a copy of the current task's trap
 * frame with EAX 0 (and ESP user_esp unless 0); its TLS descriptors and x87 registers are
 * copies of the current task's. */
void arch_task_init_fork(struct task *child, uint32_t user_esp);
/* execve: the current task t starts afresh at entry with stack user_esp when it returns to
 * ring 3 (every register cleared, the user segments); its TLS descriptors and x87
 * registers are dropped. Interrupts off. */
void arch_task_exec_reset(struct task *t, uint32_t entry, uint32_t user_esp);
/* Switches registers and stacks from prev to next (and the CPU's ring-0 stack, page
 * directory and TSS fields to next's). Interrupts off (sched.c's switch_to, its one
 * caller): the page directory's change relies on it (vm_switch_to). */
void arch_switch_to(struct task *prev, struct task *next);
/* A kernel thread's first code: runs t->thread_fn and exits. */
void task_thread_main(void) __attribute__((noreturn));

/* The time (time_ns) t's ITIMER_REAL timer fires next, 0 when it is disarmed. */
static inline uint64_t task_alarm_at(const struct task *t)
{
    return deadline_timer_queued(&t->alarm) ? t->alarm.at : 0;
}

/* sched.h's sched_can_switch_to, inline here where the task's fields are: the IPC fast
 * path asks it on every call. */
static inline bool sched_can_switch_to(const struct task *t)
{
    unsigned me = arch_cpu_id();
    return t->state == TASK_SLEEPING && t->cpu == me && ((t->cpus_allowed >> me) & 1);
}

#endif
