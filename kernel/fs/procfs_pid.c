/*
 * procfs_pid.c - /proc/self and /proc/PID: each task's directory, as Linux's procfs has
 * them, with the few entries static programs use (issue 16):
 *
 *   /proc/self          a symbolic link to the reader's own PID (Linux's "self")
 *   /proc/PID/exe       a symbolic link to the program's file, /bin/NAME (ENOENT for
 *                       kernel threads, as on Linux); busybox re-runs itself through it,
 *                       and the link still names /bin/busybox afterwards (Linux's
 *                       mm->exe_file), while the task's name (comm) becomes "exe"
 *   /proc/PID/status    Name, Umask, State, Tgid, Pid, Uid and Gid lines, as Linux's,
 *                       and for a process VmLck (its locked memory, issue 23)
 *   /proc/PID/stat      the 52 fields of Linux's fs/proc/array.c in its order, for ps and
 *                       top (busybox reads state, ppid, pgrp, session, times, vsize, rss)
 *   /proc/PID/cmdline   the argument strings as the loader placed them, NUL after each
 *                       (empty for a kernel thread or a zombie, as on Linux)
 *   /proc/PID/comm      the task's name and a newline
 *   /proc/PID/mounts    the file systems (kernel/fs/mounts.c); /proc/mounts links to
 *                       self/mounts, as on Linux
 *   /proc/PID/pagemap   each virtual page's frame and state, in Linux's binary layout
 *                       (kernel/fs/procfs_pagemap.c, issue 23)
 *
 * A task's directory is made with the task (a create hook) and removed when it is freed;
 * its files find the task by pid when read, so one kept open after the task is gone says
 * ESRCH, and a directory still open then is left in place until the next task is made
 * after it was closed (or reused, should the pid be).
 */
#include "kernel/fs/fs_tree.h"
#include "kernel/fs/mounts.h"
#include "kernel/fs/procfs.h"
#include "kernel/init.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/programs.h"
#include "kernel/proc/sched.h"
#include "kernel/proc/task_internal.h"
#include "kernel/time.h"

/* The pid a /proc/PID entry was made for. */
static int pid_of_node(const struct fs_node *n) { return (int)(uintptr_t)n->data; }

/* The living task with the entry's pid, or NULL. */
static struct task *task_of_node(const struct fs_node *n)
{
    struct task *t = task_find(pid_of_node(n));
    return t && t->state != TASK_ZOMBIE ? t : 0;
}

static int self_readlink(struct fs_node *link, char *buf, size_t size)
{
    (void)link;
    return ksnprintf(buf, size, "%d", current->pid);
}

/* The program's file, not the task's name: after an execve of /proc/self/exe the name is
 * "exe" but the file is still /bin/busybox (Linux's mm->exe_file). */
static int exe_readlink(struct fs_node *link, char *buf, size_t size)
{
    struct task *t = task_of_node(link);
    if (!t || !t->as || !t->program)
        return -ENOENT;
    int n = ksnprintf(buf, size, "/bin/%s", t->program->name);
    return n < (int)size ? n : -ENAMETOOLONG;
}

/* The task with the entry's pid, zombies included (stat and comm show them, as Linux's
 * "Z" lines in ps), or NULL once it was collected. */
static struct task *task_or_zombie_of_node(const struct fs_node *n) { return task_find(pid_of_node(n)); }

/* Nanoseconds as Linux's clock_t in stat: USER_HZ (100) ticks. */
static uint32_t ns_to_clock_t(uint64_t ns) { return (uint32_t)(ns / (1000000000u / 100u)); }

/* The low word of a signal set, as stat prints it (Linux masks bit 31 off). */
static uint32_t sigset_word(kernel_sigset_t set) { return (uint32_t)set & 0x7fffffffu; }

/* Linux's do_task_stat. The kernel does not split CPU time into user and system time, so
 * all of it is utime; fault counts, tty and the code/stack addresses it does not keep are
 * 0, as Linux prints them to a reader without ptrace rights. */
static int read_stat(struct fs_node *f, struct fs_writer *out)
{
    struct task *t = task_or_zombie_of_node(f->parent);
    if (!t)
        return -ESRCH;
    char state = t->state == TASK_ZOMBIE ? 'Z' : t->state == TASK_SLEEPING ? 'S' : 'R';
    uint32_t ignored = 0, caught = 0;
    for (int sig = 1; sig < 32; sig++) {
        uint32_t handler = t->sig.action[sig - 1].handler;
        if (handler == SIG_IGN)
            ignored |= 1u << (sig - 1);
        else if (handler != SIG_DFL)
            caught |= 1u << (sig - 1);
    }
    struct vm_layout none = { 0 }, *mm = t->as ? vm_layout(t->as) : &none;
    uint32_t pages = t->as ? vm_owned_pages(t->as) : 0;
    int ppid = t->parent ? t->parent->pid : 0;
    fs_printf(out, "%d (%s) %c %d %d %d 0 -1 0 0 0 0 0 %u 0 0 0 20 0 1 0 %u %u %u 4294967295 ",
              t->pid, t->name, state, ppid, t->pgid, t->sid, ns_to_clock_t(time_span_ns(t->cpu_cycles)),
              ns_to_clock_t(t->start_ns), pages * PAGE_SIZE, pages);
    fs_printf(out, "0 0 0 0 0 %u %u %u %u 0 0 0 %d %u 0 0 0 0 0 0 0 %u %u %u %u %u %d\n",
              sigset_word(t->sig.pending), sigset_word(t->sig.blocked), ignored, caught,
              t->exit_signal, task_cpu(t), mm->start_brk, mm->arg_start, mm->arg_end, mm->env_start,
              mm->env_end, t->state == TASK_ZOMBIE ? t->wait_status : 0);
    return 0;
}

/* The argument strings, read from the process's own memory (through the kernel's direct
 * map, so a page the program unmapped ends the text). The kernel is not preempted here,
 * so the task cannot go away while its pages are read. */
static int read_cmdline(struct fs_node *f, struct fs_writer *out)
{
    struct task *t = task_of_node(f->parent);
    if (!t)
        return -ESRCH;
    if (!t->as)
        return 0;
    const struct vm_layout *mm = vm_layout(t->as);
    for (uint32_t va = mm->arg_start; va < mm->arg_end;) {
        uint32_t page_end = (va | (PAGE_SIZE - 1)) + 1;
        uint32_t n = (page_end < mm->arg_end ? page_end : mm->arg_end) - va;
        if (!(vm_rights(t->as, va) & VM_READ))
            break;
        char text[PAGE_SIZE / 4]; /* copied out: emit may sleep (a pipe), a mapping may not */
        uint32_t got = n < sizeof text ? n : (uint32_t)sizeof text;
        char *p = vm_kmap(t->as, va);
        if (!p)
            break;
        memcpy(text, p, got);
        vm_kunmap(p);
        out->emit(out, text, got);
        va += got;
    }
    return 0;
}

static int read_comm(struct fs_node *f, struct fs_writer *out)
{
    struct task *t = task_or_zombie_of_node(f->parent);
    if (!t)
        return -ESRCH;
    fs_printf(out, "%s\n", t->name);
    return 0;
}

static const char *state_letter(const struct task *t)
{
    if (t->state == TASK_SLEEPING)
        return "S (sleeping)";
    return t->state == TASK_ZOMBIE ? "Z (zombie)" : "R (running)";
}

/* Linux's Cpus_allowed (a hex mask) and Cpus_allowed_list (ranges: "0-1,3"). */
static void print_cpus_allowed(struct fs_writer *out, uint32_t mask)
{
    fs_printf(out, "Cpus_allowed:\t%x\nCpus_allowed_list:\t", mask);
    const char *sep = "";
    for (unsigned cpu = 0; cpu < 32; cpu++) {
        if (!((mask >> cpu) & 1))
            continue;
        unsigned last = cpu;
        while (last + 1 < 32 && ((mask >> (last + 1)) & 1))
            last++;
        if (last == cpu)
            fs_printf(out, "%s%u", sep, cpu);
        else
            fs_printf(out, "%s%u-%u", sep, cpu, last);
        sep = ",";
        cpu = last;
    }
    fs_puts(out, "\n");
}

static int read_status(struct fs_node *f, struct fs_writer *out)
{
    struct task *t = task_of_node(f->parent);
    if (!t)
        return -ESRCH;
    const struct cred *c = &t->cred;
    fs_printf(out, "Name:\t%s\nUmask:\t%04o\nState:\t%s\nTgid:\t%d\nPid:\t%d\n", t->name,
              t->umask, state_letter(t), t->pid, t->pid);
    fs_printf(out, "Uid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\n", c->uid, c->euid, c->suid,
              c->euid, c->gid, c->egid, c->sgid, c->egid);
    if (t->as) /* Linux's task_mem line, in kB as it prints it (a kernel thread has none) */
        fs_printf(out, "VmLck:\t%8u kB\n", vm_locked_pages(t->as) * (PAGE_SIZE / 1024));
    print_cpus_allowed(out, sched_getaffinity(t));
    return 0;
}

static const struct fs_file_ops self_ops = { .readlink = self_readlink };
static const struct fs_file_ops exe_ops = { .readlink = exe_readlink };
static const struct fs_file_ops status_ops = { .read = read_status };
static const struct fs_file_ops stat_ops = { .read = read_stat };
static const struct fs_file_ops cmdline_ops = { .read = read_cmdline };
static const struct fs_file_ops comm_ops = { .read = read_comm };
static const struct fs_file_ops mounts_ops = { .read = mounts_read };

static int mounts_link_readlink(struct fs_node *link, char *buf, size_t size)
{
    (void)link;
    return ksnprintf(buf, size, "self/mounts");
}
static const struct fs_file_ops mounts_link_ops = { .readlink = mounts_link_readlink };

/* The /proc directory, made by procfs.c's initcall (same level, earlier in link order)
 * or here. */
static struct fs_node *proc_dir(void) { return fs_mkdir_path("proc"); }

/* Removes a task's directory and its entries unless a program has any of it open. */
static void remove_pid_dir(struct fs_node *dir)
{
    if (fs_in_use(dir))
        return;
    while (dir->children)
        if (fs_remove(dir->children) != 0)
            return;
    fs_remove(dir);
}

/* Removes the directories of tasks that are gone and that were still open when their task
 * was freed: so they are never more than the directories programs hold open. */
static void sweep_stale_dirs(struct fs_node *proc)
{
    struct fs_node *n = proc->children;
    while (n) {
        struct fs_node *next = n->next;
        if (fs_is_dir(n) && n->name[0] >= '0' && n->name[0] <= '9' &&
            !task_find(pid_of_node(n)))
            remove_pid_dir(n);
        n = next;
    }
}

/* Makes /proc/PID for t (or takes over one left from an earlier task with its pid). No
 * directory is no reason to refuse a task: the hook always succeeds. The CPUs' idle tasks
 * (pid 0, swapper/N) get none, as on Linux. */
static int pid_dir_create(struct task *t)
{
    if (t->pid == 0)
        return 0;
    char name[16];
    ksnprintf(name, sizeof name, "%d", t->pid);
    struct fs_node *proc = proc_dir();
    sweep_stale_dirs(proc);
    int err;
    struct fs_node *dir = fs_resolve(proc, name, NULL, FS_NOFOLLOW, &err);
    if (!dir)
        dir = fs_set_mode(fs_mkdir(proc, name), 0555, t->cred.euid, t->cred.egid);
    if (!dir || !fs_is_dir(dir))
        return 0;
    dir->data = (void *)(uintptr_t)t->pid;
    struct fs_node *exe = fs_symlink(dir, "exe", &exe_ops, dir->data);
    (void)exe;
    fs_set_mode(fs_create(dir, "status", &status_ops, dir->data), 0444, 0, 0);
    fs_set_mode(fs_create(dir, "stat", &stat_ops, dir->data), 0444, 0, 0);
    fs_set_mode(fs_create(dir, "cmdline", &cmdline_ops, dir->data), 0444, 0, 0);
    fs_set_mode(fs_create(dir, "comm", &comm_ops, dir->data), 0444, 0, 0);
    fs_set_mode(fs_create(dir, "mounts", &mounts_ops, dir->data), 0444, 0, 0);
    procfs_pagemap_create(dir);
    return 0;
}

/* Removes the directory of a freed task, unless a program still has part of it open. */
static void pid_dir_release(struct task *t)
{
    char name[16];
    ksnprintf(name, sizeof name, "%d", t->pid);
    int err;
    struct fs_node *dir = fs_resolve(proc_dir(), name, NULL, FS_NOFOLLOW, &err);
    if (dir && fs_is_dir(dir))
        remove_pid_dir(dir);
}

static struct task_create_hook pid_dir_hook = { .create = pid_dir_create,
                                                .release = pid_dir_release };

static void procfs_pid_init(void)
{
    fs_symlink(proc_dir(), "self", &self_ops, 0);
    fs_symlink(proc_dir(), "mounts", &mounts_link_ops, 0);
    task_on_create(&pid_dir_hook);
}
INITCALL(fs, procfs_pid_init);
