/*
 * procfs_pid.c - /proc/self and /proc/PID: each task's directory, as Linux's procfs has
 * them, with the few entries static programs use (issue 16):
 *
 *   /proc/self          a symbolic link to the reader's own PID (Linux's "self")
 *   /proc/PID/exe       a symbolic link to the program's file, /bin/NAME (ENOENT for
 *                       kernel threads, as on Linux); busybox re-runs itself through it
 *   /proc/PID/status    Name, Umask, State, Tgid, Pid, Uid and Gid lines, as Linux's
 *
 * A task's directory is made with the task (a create hook) and removed when it is freed;
 * its files find the task by pid when read, so one kept open after the task is gone says
 * ESRCH, and a directory still open then is left in place until the next task is made
 * after it was closed (or reused, should the pid be).
 */
#include "kernel/fs/fs_tree.h"
#include "kernel/init.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/proc/task_internal.h"

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

static int exe_readlink(struct fs_node *link, char *buf, size_t size)
{
    struct task *t = task_of_node(link);
    if (!t || !t->as)
        return -ENOENT;
    int n = ksnprintf(buf, size, "/bin/%s", t->name);
    return n < (int)size ? n : -ENAMETOOLONG;
}

static const char *state_letter(const struct task *t)
{
    if (t->state == TASK_SLEEPING)
        return "S (sleeping)";
    return t->state == TASK_ZOMBIE ? "Z (zombie)" : "R (running)";
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
    return 0;
}

static const struct fs_file_ops self_ops = { .readlink = self_readlink };
static const struct fs_file_ops exe_ops = { .readlink = exe_readlink };
static const struct fs_file_ops status_ops = { .read = read_status };

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
 * directory is no reason to refuse a task: the hook always succeeds. */
static int pid_dir_create(struct task *t)
{
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
    task_on_create(&pid_dir_hook);
}
INITCALL(fs, procfs_pid_init);
