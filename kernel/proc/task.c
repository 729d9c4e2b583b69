/*
 * task.c - creating, ending and collecting tasks.
 *
 * A task is created runnable and put on the task list; the scheduler (kernel/proc/sched.c)
 * decides when it runs. A task ends with task_exit(): its files are closed, its memory
 * freed and it becomes a zombie holding only its kernel stack and exit status, until its
 * parent collects it: the shell with task_wait() (`run`), a process with wait4
 * (kernel/proc/wait.c); or, when nobody will (`run ... &`, an orphan, a child of a parent
 * that ignores SIGCHLD), at once after the switch away from it. Its own children pass to
 * the shell (pid 1) as orphans and are freed when they die.
 */
#include "kernel/proc/task_internal.h"

#include "kernel/background.h"
#include "kernel/lib/errno.h"
#include "kernel/proc/exec.h"
#include "kernel/fs/file.h"
#include "kernel/kernel_lock.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/panic.h"
#include "kernel/log/printk.h"
#include "kernel/proc/sched.h"
#include "kernel/shell/shell.h"
#include "kernel/spinlock.h"
#include "kernel/lib/string.h"
#include "kernel/time.h"
#include "kernel/mm/vm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/lib/format.h"
#include "kernel/trace_hooks.h"

static struct task *tasks;      /* every task, in creation order: 1, 0, then 2, 3, ... */
static int next_pid = 2;        /* 0 is idle, 1 the shell */
static struct task_exit_hook *exit_hooks;
static struct task_create_hook *create_hooks;
static struct task_exec_hook *exec_hooks;
static int (*fork_fn)(struct task *parent, struct task *child); /* task_on_fork's */

struct task *task_current(void) { return current; }
int task_pid(const struct task *t) { return t->pid; }
const char *task_name(const struct task *t) { return t->name; }
bool task_is_user(const struct task *t) { return t->as != 0; }
bool task_privileged(const struct task *t) { return cred_privileged(&t->cred); }
struct task *task_list(void) { return tasks; }

void task_on_exit(struct task_exit_hook *hook)
{
    hook->next = exit_hooks;
    exit_hooks = hook;
}

void task_on_exec(struct task_exec_hook *hook)
{
    hook->next = exec_hooks;
    exec_hooks = hook;
}

void task_exec_hooks_run(struct task *t)
{
    for (struct task_exec_hook *h = exec_hooks; h; h = h->next)
        h->fn(t);
}

/* uprobes (issue 18): task.h's task_on_program_start. */
static void (*program_start_fn)(struct task *t);
void task_on_program_start(void (*fn)(struct task *t)) { program_start_fn = fn; }
void task_program_start_hook_run(struct task *t)
{
    if (program_start_fn)
        program_start_fn(t);
}

void task_on_fork(int (*fn)(struct task *parent, struct task *child)) { fork_fn = fn; }

int task_fork_hook_run(struct task *parent, struct task *child)
{
    return fork_fn ? fork_fn(parent, child) : 0;
}

static void (*rename_fn)(struct task *t); /* task_on_rename's */

void task_on_rename(void (*fn)(struct task *t)) { rename_fn = fn; }

void task_rename(struct task *t, const char *name)
{
    strlcpy(t->name, name, sizeof t->name);
    if (rename_fn)
        rename_fn(t);
}

void task_on_create(struct task_create_hook *hook)
{
    hook->next = create_hooks;
    create_hooks = hook;
}

/* Runs every release hook of t, from `from` on: for a task being freed (from: the first
 * hook), or to undo the create hooks that ran before the one that failed. */
static void release_hooks(struct task *t, struct task_create_hook *from,
                          struct task_create_hook *to)
{
    for (struct task_create_hook *h = from; h != to; h = h->next)
        if (h->release)
            h->release(t);
}

/* Runs every create hook for t; 0, or the first hook's error after undoing the others. */
static int create_hooks_run(struct task *t)
{
    for (struct task_create_hook *h = create_hooks; h; h = h->next) {
        int err = h->create(t);
        if (err) {
            release_hooks(t, create_hooks, h);
            return err;
        }
    }
    return 0;
}

struct task *task_find(int pid)
{
    for (struct task *t = tasks; t; t = t->next)
        if (t->pid == pid)
            return t;
    return 0;
}

/* Adds t at the end of the task list. */
static void task_list_link(struct task *t)
{
    unsigned long flags = arch_irq_save();
    struct task **p = &tasks;
    while (*p)
        p = &(*p)->next;
    t->next = 0;
    *p = t;
    arch_irq_restore(flags);
}

void task_list_add(struct task *t)
{
    task_list_link(t);
    sched_start_task(t);
}

static void task_list_remove(struct task *t)
{
    unsigned long flags = arch_irq_save();
    for (struct task **p = &tasks; *p; p = &(*p)->next)
        if (*p == t) {
            *p = t->next;
            break;
        }
    arch_irq_restore(flags);
}

/* A task structure with a kernel stack whose lowest page is unmapped, so that a kernel stack
 * overflow faults (and ends in the double-fault task's report) instead of corrupting memory. */
struct task *task_alloc(const char *name)
{
    if (sched_task_reserve() != 0)
        return 0;
    struct task *t = kzalloc(sizeof *t);
    if (!t) {
        sched_task_release();
        return 0;
    }
    t->kstack = page_alloc(KERNEL_STACK_PAGES);
    if (!t->kstack) {
        kfree(t);
        sched_task_release();
        return 0;
    }
    arch_kstack_guard(t->kstack, true);
    strlcpy(t->name, name, sizeof t->name);
    t->pid = next_pid++;
    t->state = TASK_RUNNABLE;
    t->start_ns = time_ns();
    /* A process's child may run where its parent may; anything else anywhere (a kernel
     * thread is then limited to CPU 0: task_create_kernel). */
    struct task *creator = current;
    t->cpus_allowed = creator && creator->as ? creator->cpus_allowed : ~0u;
    t->cpu = creator ? arch_cpu_id() : 0;
    if (create_hooks_run(t) != 0) {
        arch_kstack_guard(t->kstack, false);
        page_free(t->kstack, KERNEL_STACK_PAGES);
        kfree(t);
        sched_task_release();
        return 0;
    }
    return t;
}

/* Gives back a dead task's kernel stack and structure. */
void task_free(struct task *t)
{
    task_list_remove(t);
    release_hooks(t, create_hooks, 0);
    arch_kstack_guard(t->kstack, false);
    page_free(t->kstack, KERNEL_STACK_PAGES);
    kfree(t);
    sched_task_release();
}

struct task *task_create_kernel(const char *name, void (*fn)(void *), void *arg)
{
    struct task *t = task_alloc(name);
    if (!t)
        return 0;
    t->thread_fn = fn;
    t->thread_arg = arg;
    /* Kernel threads stay on CPU 0: the shell's commands hand work to the other CPUs
     * (smp_run_on) and count on their being where that work cannot run. */
    t->cpus_allowed = 1;
    t->cpu = 0;
    arch_task_init_kernel(t);
    task_list_add(t);
    return t;
}

void task_thread_main(void)
{
    arch_irq_enable();
    current->thread_fn(current->thread_arg);
    task_exit(0);
}

/* Closes every open file of t. */
void task_close_files(struct task *t)
{
    for (int fd = 0; fd < TASK_FILES_MAX; fd++)
        if (t->files[fd]) {
            file_put(t->files[fd]);
            t->files[fd] = 0;
        }
}

int process_spawn(const char *name, const void *elf, uint32_t elf_len, int argc,
                  char *const argv[], struct task **out)
{
    char *const no_env[] = { 0 };
    return process_spawn_as(name, elf, elf_len, argc, argv, no_env, &current->cred, out);
}

/* Linux's kernel.threads-max, from the memory as Linux's set_max_threads() derives it but
 * for a whole process rather than a thread: a process that only sleeps costs about 28
 * pages here (kernel stack, page tables, its image and stack), so 1/128 of the pages lets
 * all of them take at most about a fifth of the memory, and a flood of `run ... &` stops
 * at this limit while the kernel and programs already running have the rest. At least
 * 16. */
uint32_t task_limit(void)
{
    uint32_t limit = page_alloc_total_pages() / 128;
    return limit < 16 ? 16 : limit;
}

/* Linux's default RLIMIT_NPROC (init's, half of threads-max): how many processes one real
 * user id may have. */
uint32_t task_user_limit(void) { return task_limit() / 2; }

/* Whether a new process with credentials cred stays within the limits, as Linux's
 * copy_process() checks them: every task (kernel threads and zombies included) against
 * task_limit(), then, unless the real user is root (Linux exempts it, with
 * CAP_SYS_RESOURCE), that user's tasks against task_user_limit(). 0 or -EAGAIN.
 * The list is walked with interrupts off: one CPU. */
int task_check_limits(const struct cred *cred)
{
    uint32_t all = 0, user = 0;
    unsigned long flags = arch_irq_save();
    for (struct task *t = tasks; t; t = t->next) {
        all++;
        user += t->as && t->cred.uid == cred->uid;
    }
    arch_irq_restore(flags);
    if (all >= task_limit() || (cred->uid != 0 && user >= task_user_limit()))
        return -EAGAIN;
    return 0;
}

int process_spawn_as(const char *name, const void *elf, uint32_t elf_len, int argc,
                     char *const argv[], char *const envp[], const struct cred *cred,
                     struct task **out)
{
    int limit_err = task_check_limits(cred);
    if (limit_err)
        return limit_err;
    struct task *t = task_alloc(name);
    if (!t)
        return -ENOMEM;
    t->cred = *cred;
    strlcpy(t->cwd, current->cwd, sizeof t->cwd); /* as a child of the shell */
    t->umask = current->umask;
    t->as = vm_create();
    const struct exec_args args = { .argc = argc, .argv = argv, .envp = envp, .cred = cred };
    struct exec_start start;
    int err = t->as ? exec_load(t->as, elf, elf_len, &args, &start) : -ENOMEM;
    if (err == 0)
        err = file_open_console(t->files);
    if (err) {
        task_close_files(t);
        if (t->as)
            vm_destroy(t->as);
        task_free(t);
        return err;
    }
    arch_task_init_user(t, start.entry, start.user_esp);
    t->parent = current;
    /* Its own process group and its own session, as a login's shell: no group of another
     * program (or another user's) is in its session, so it can never make one of them the
     * terminal's foreground, nor they it. */
    t->pgid = t->sid = t->pid;
    /* `run` forks and execs in one step: both events, recorded by the parent. */
    trace_sched_process_fork(current, t);
    trace_sched_process_exec(t, name, t->pid);
    task_list_add(t);
    *out = t;
    return 0;
}

/* Closes a process's files and frees its memory (unless it is a vfork child, which borrowed
 * its parent's); it keeps running on its kernel stack, in the kernel's address space. */
static void release_process_resources(struct task *t)
{
    task_close_files(t);
    unsigned long flags = arch_irq_save();
    struct addr_space *as = t->as;
    bool borrowed = t->vfork_parent && t->vfork_parent->as == as;
    t->as = 0;
    vm_activate(0);
    arch_irq_restore(flags);
    if (!borrowed)
        vm_destroy(as);
}

/* Linux's descriptions of the signals (strsignal), for the report of a death. */
static const char *signal_description(int sig)
{
    static const char *const names[] = {
        "Hangup", "Interrupt", "Quit", "Illegal instruction", "Trace/breakpoint trap",
        "Aborted", "Bus error", "Floating point exception", "Killed",
        "User defined signal 1", "Segmentation fault", "User defined signal 2",
        "Broken pipe", "Alarm clock", "Terminated", "Stack fault", "Child exited",
        "Continued", "Stopped (signal)", "Stopped", "Stopped (tty input)",
        "Stopped (tty output)", "Urgent I/O condition", "CPU time limit exceeded",
        "File size limit exceeded", "Virtual timer expired", "Profiling timer expired",
        "Window changed", "I/O possible", "Power failure", "Bad system call",
    };
    return sig >= 1 && sig <= 31 ? names[sig - 1] : "Real-time signal";
}

/* The end of every task: exit hooks, the clear_child_tid word, the vfork parent let go,
 * files and memory given back, the status recorded as Linux's wait status, the children
 * handed to the shell, the parent told (SIGCHLD, a wake-up of wait4). */
static void __attribute__((noreturn)) exit_task(int status, int sig, bool core)
{
    struct task *t = current;
    trace_sched_process_exit(t);
    for (struct task_exit_hook *h = exit_hooks; h; h = h->next)
        h->fn(t);
    if (t->as && t->clear_child_tid) {
        uint32_t zero = 0; /* as Linux's mm_release; no futex waiter can exist here */
        copy_to_user(t->clear_child_tid, &zero, sizeof zero);
    }
    if (t->as)
        release_process_resources(t);
    arch_irq_save();
    if (task_alarm_at(t))
        trace_hrtimer_cancel(&t->alarm);
    sched_alarm_set(t, 0); /* a dead task's timer never fires */
    task_vfork_release(t);
    t->exit_status = status;
    t->term_signal = sig;
    t->core_dumped = core;
    t->wait_status = sig ? sig | (core ? 0x80 : 0) : (status & 0xff) << 8;
    if (sig && !t->exit_reason[0])
        ksnprintf(t->exit_reason, sizeof t->exit_reason, "%s (signal %d%s)",
                  signal_description(sig), sig, core ? ", core dumped" : "");
    task_orphan_children(t);
    t->state = TASK_ZOMBIE;
    task_notify_parent(t);
    if (t->detached && t->announce_exit) {
        if (t->exit_reason[0])
            printk("[%d] %s: %s\n", t->pid, t->name, t->exit_reason);
        else
            printk("[%d] %s: exited with status %d\n", t->pid, t->name, status);
    }
    wake_up(t);
    schedule();
    for (;;) /* a zombie is never chosen again */
        ;
}

void task_exit(int status) { exit_task(status, 0, false); }

void task_exit_signal(int sig, bool core) { exit_task(128 + sig, sig, core); }

int task_wait(struct task *t, int *status, char *reason, uint64_t timeout_ns)
{
    trace_sched_process_wait(current, t->pid);
    unsigned long flags = arch_irq_save();
    int err = 0;
    while (t->state != TASK_ZOMBIE && err == 0)
        err = sleep_on(t, timeout_ns);
    arch_irq_restore(flags);
    if (t->state != TASK_ZOMBIE)
        return err;
    *status = t->exit_status;
    if (reason)
        strlcpy(reason, t->exit_reason, sizeof t->exit_reason);
    task_free(t);
    return 0;
}

void task_kill(struct task *t, int sig, int code, const char *reason)
{
    unsigned long flags = arch_irq_save();
    if (!t->killed && t->state != TASK_ZOMBIE) {
        t->killed = true;
        t->kill_signal = sig;
        t->kill_code = code;
        t->exit_status = 128 + sig;
        if (reason)
            strlcpy(t->exit_reason, reason, sizeof t->exit_reason);
        if (t->state == TASK_SLEEPING)
            sched_wake_task(t, -EINTR);
        else
            sched_kick(t); /* running on another CPU: it dies there now */
    }
    arch_irq_restore(flags);
}

void task_finish_switch(struct task *prev)
{
    if (prev->state == TASK_ZOMBIE && prev->detached)
        task_free(prev);
}

int task_update_user_bit(struct task *t, uint32_t addr, unsigned bit, bool set)
{
    if (!t->as || (addr & 3) || bit >= 32)
        return -EFAULT;
    unsigned long flags = arch_irq_save();
    int err = -EFAULT;
    if (vm_rights(t->as, addr) & VM_WRITE) {
        uint32_t *word = vm_kmap(t->as, addr);
        if (set)
            __atomic_or_fetch(word, 1u << bit, __ATOMIC_RELAXED);
        else
            __atomic_and_fetch(word, ~(1u << bit), __ATOMIC_RELAXED);
        vm_kunmap(word);
        err = 0;
    }
    arch_irq_restore(flags);
    return err;
}

struct task *idle_task;
static struct task boot_task; /* the shell, on the boot stack */

struct task *task_shell(void) { return &boot_task; }

/* CPU 0's idle task's loop: background work (the COM2 stream), else halt until an
 * interrupt, and whenever something became runnable, let it run. It starts holding the
 * kernel lock, as every task does after its first switch, and keeps it only while it works. */
static void idle_main(void *unused)
{
    (void)unused;
    arch_irq_save();
    kernel_unlock();
    for (;;) {
        kernel_lock(); /* interrupts are off at the top of the loop */
        arch_irq_enable();
        bool worked = background_idle();
        arch_irq_save();
        kernel_unlock();
        if (!worked && !sched_need_resched())
            arch_wait_for_interrupt(); /* sti; hlt: returns with interrupts on */
        arch_irq_save();
        sched_idle_step();
    }
}

void tasks_init(void)
{
    boot_task.pid = 1;
    boot_task.pgid = boot_task.sid = 1; /* the console's session leader */
    strlcpy(boot_task.name, "sh", sizeof boot_task.name);
    boot_task.state = TASK_RUNNABLE;
    boot_task.start_ns = time_ns();
    boot_task.umask = 022; /* as init's, and a login shell's */
    strlcpy(boot_task.cwd, SHELL_HOME, sizeof boot_task.cwd); /* the console shell's */
    boot_task.cpus_allowed = 1; /* a kernel thread (task_create_kernel) */
    if (create_hooks_run(&boot_task) != 0)
        panic("tasks: the boot task's per-task state cannot be set up");
    task_list_link(&boot_task);
    current = &boot_task;
    current_pid = 1;

    idle_task = task_alloc("swapper");
    if (!idle_task)
        panic("tasks: no memory for the idle task");
    idle_task->pid = 0; /* shown as <idle> in traces, as on Linux */
    next_pid = 2;
    idle_task->thread_fn = idle_main;
    arch_task_init_kernel(idle_task);
    task_list_link(idle_task);
    sched_set_idle(0, idle_task);
    unsigned long flags = arch_irq_save();
    kernel_lock(); /* the shell's, as every kernel thread holds it (kernel/kernel_lock.h) */
    arch_irq_restore(flags);
    for (unsigned cpu = 1; cpu < arch_cpu_count(); cpu++)
        tasks_init_cpu_idle(cpu);
}

/* An application processor's idle context, as Linux's swapper/N: pid 0 (<idle> in traces),
 * so that what it records never claims another CPU's task. It runs on the stack the CPU
 * was started with (no kernel stack of its own here), its loop is smp_ap_main, and it is
 * on no task list: only its own CPU's scheduler runs it, when nothing else waits. */
void tasks_init_cpu_idle(unsigned cpu)
{
    struct task *t = kzalloc(sizeof *t);
    if (!t)
        panic("tasks: no memory for CPU %u's idle task", cpu);
    ksnprintf(t->name, sizeof t->name, "swapper/%u", cpu);
    t->pid = 0;
    t->state = TASK_RUNNABLE;
    t->start_ns = time_ns();
    if (create_hooks_run(t) != 0)
        panic("tasks: CPU %u's idle task's per-task state cannot be set up", cpu);
    sched_set_idle(cpu, t);
    cpu_current_pid[cpu] = 0;
    __atomic_store_n(&cpu_current[cpu], t, __ATOMIC_RELEASE);
}
