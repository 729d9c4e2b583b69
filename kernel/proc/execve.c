/*
 * execve.c - replacing the current process's program: execve(2).
 *
 * The new address space is built completely (kernel/proc/exec.c) before anything of the
 * old process changes, so a failed execve returns to the caller with its memory, files and
 * signals as they were. After that point: descriptors marked close-on-exec are closed,
 * caught signals go back to SIG_DFL (ignored ones stay ignored), the alternate stack, the
 * TLS descriptors, the robust list and the x87 registers are dropped, the task takes the
 * program's name, a vfork parent is let go, and the old address space is freed (unless it
 * was borrowed from that parent).
 */
#include "kernel/arch.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs_task.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/exec.h"
#include "kernel/proc/programs.h"
#include "kernel/proc/task_internal.h"
#include "kernel/trace_hooks.h"

#define EXEC_PATH_MAX 4096 /* Linux's PATH_MAX: a longer name is ENAMETOOLONG */

/* The argument and environment strings, copied into the kernel: strings from the start
 * of one buffer, the pointer arrays (NULL-terminated) from its end down. The buffer is as
 * big as measure_strings found they need (at most EXEC_ARGS_MAX and two pointers). */
struct exec_strings {
    char *buf;
    uint32_t used;     /* bytes of strings */
    char **ptr_end;    /* the pointer area grows down from the end of buf */
    char **argv, **envp;
    int argc, envc;
};

/* Linux's first pass (count and strnlen_user): adds to *bytes what the NULL-terminated
 * user array at uarray (0: none) needs, each string with its NUL and its pointer, so that
 * nothing is allocated for arguments that are refused. 0, -EFAULT, or -E2BIG for a string
 * over EXEC_ARG_STRLEN_MAX or a total over EXEC_ARGS_MAX. */
static int measure_strings(uint32_t uarray, uint32_t *bytes)
{
    for (uint32_t n = 0;; n++) {
        uint32_t uptr = 0;
        if (uarray && copy_from_user(&uptr, uarray + 4u * n, 4))
            return -EFAULT;
        if (!uptr)
            return 0;
        int len = user_strnlen(uptr, EXEC_ARG_STRLEN_MAX);
        if (len < 0)
            return len;
        *bytes += (uint32_t)len + 1 + sizeof(char *);
        if (*bytes > EXEC_ARGS_MAX)
            return -E2BIG;
    }
}

/* Copies the NULL-terminated user array of string pointers at uarray (0: none) into s,
 * setting *list and *count: 0, -EFAULT, or -E2BIG when it no longer fits (the strings
 * changed since they were measured). */
static int copy_strings(struct exec_strings *s, uint32_t uarray, char ***list, int *count)
{
    int n = 0;
    char **start = s->ptr_end;
    for (;; n++) {
        uint32_t uptr = 0;
        if (uarray && copy_from_user(&uptr, uarray + 4u * (uint32_t)n, 4))
            return -EFAULT;
        /* room for this pointer (or the NULL) below the strings */
        if ((char *)(s->ptr_end - 1) < s->buf + s->used)
            return -E2BIG;
        if (!uptr)
            break;
        char *dst = s->buf + s->used;
        uint32_t room = (uint32_t)((char *)(s->ptr_end - 1) - dst);
        int len = copy_string_from_user(dst, uptr, room);
        if (len < 0)
            return len; /* -EFAULT, or -E2BIG when it does not fit */
        s->used += (uint32_t)len + 1;
        *--s->ptr_end = dst;
    }
    *--s->ptr_end = 0;
    /* In memory they are NULL, the last string, ..., the first: turned round, that is
     * argv's order with its NULL at the end. */
    for (char **lo = s->ptr_end, **hi = start - 1; lo < hi; lo++, hi--) {
        char *swap = *lo;
        *lo = *hi;
        *hi = swap;
    }
    *list = s->ptr_end;
    *count = n;
    return 0;
}

/* The program path names: /bin/NAME (any path, relative to the current directory or
 * through links, that the file tree resolves to a program's node), or /proc/self/exe, the current process's own. 0 with *out, or -ENOENT, -ENOTDIR,
 * -ENAMETOOLONG, -EACCES (a directory, no x permission, or a directory on the way not
 * searchable), -ENOEXEC (a file that is no program). */
static int find_program(const char *path, const struct program **out)
{
    if (strcmp(path, "/proc/self/exe") == 0) {
        *out = current->program;
        return *out ? 0 : -ENOENT;
    }
    int err;
    struct fs_node *node = task_resolve(path, 0, &err); /* from the cwd, links followed */
    if (!node)
        return err;
    if (fs_is_dir(node) || fs_may_open(node, &current->cred, MAY_EXEC) != 0)
        return -EACCES;
    *out = program_of_node(node);
    return *out ? 0 : -ENOEXEC;
}

/* The name a program runs under: the last component of the path it was started by (as
 * Linux's comm), cut to TASK_NAME_MAX - 1 characters. */
static void set_task_name(const char *path)
{
    const char *base = path;
    for (const char *c = path; *c; c++)
        if (*c == '/')
            base = c + 1;
    task_rename(current, base);
}

/* Everything after the point of no return (see the file comment). */
static void replace_process(struct addr_space *as, const struct program *p, const char *path,
                            uint32_t entry, uint32_t user_esp)
{
    struct task *t = current;
    trace_sched_process_exec(t, path, t->pid);
    task_exec_hooks_run(t); /* before t->as changes: they drop what points into the old one */
    for (int fd = 0; fd < TASK_FILES_MAX; fd++)
        if ((t->fd_cloexec & (1u << fd)) && t->files[fd]) {
            file_put(t->files[fd]);
            t->files[fd] = 0;
        }
    t->fd_cloexec = 0;
    sigstate_exec(&t->sig);
    if (t->clear_child_tid) {
        uint32_t zero = 0; /* Linux's mm_release, in the old memory */
        copy_to_user(t->clear_child_tid, &zero, sizeof zero);
        t->clear_child_tid = 0;
    }
    t->robust_list = t->robust_list_len = 0;
    set_task_name(path);
    t->program = p;

    unsigned long flags = arch_irq_save();
    struct addr_space *old = t->as;
    bool borrowed = t->vfork_parent && t->vfork_parent->as == old;
    task_vfork_release(t);
    t->as = as;
    vm_activate(as);
    arch_task_exec_reset(t, entry, user_esp);
    arch_irq_restore(flags);
    task_program_start_hook_run(t); /* uprobes (issue 18): the new program's probes */
    if (!borrowed)
        vm_destroy(old);
}

int process_execve(uint32_t upath, uint32_t uargv, uint32_t uenvp)
{
    char *path = kmalloc(EXEC_PATH_MAX);
    int err = path ? 0 : -ENOMEM;
    if (!err) {
        err = copy_string_from_user(path, upath, EXEC_PATH_MAX);
        err = err == -E2BIG ? -ENAMETOOLONG : err < 0 ? err : 0;
    }
    uint32_t bytes = 0;
    if (!err)
        err = measure_strings(uargv, &bytes);
    if (!err)
        err = measure_strings(uenvp, &bytes);
    /* Room for the two NULLs too; an empty buffer when there is nothing. */
    uint32_t buf_pages = (uint32_t)(PAGE_ALIGN_UP(bytes + 2 * sizeof(char *)) / PAGE_SIZE);
    uintptr_t buf = err ? 0 : page_alloc_user(buf_pages);
    if (!err && !buf)
        err = -ENOMEM;
    struct exec_strings s = { (char *)buf, 0, (char **)(buf + buf_pages * PAGE_SIZE), 0, 0, 0, 0 };
    if (!err)
        err = copy_strings(&s, uargv, &s.argv, &s.argc);
    if (!err)
        err = copy_strings(&s, uenvp, &s.envp, &s.envc);
    if (!err && s.argc == 0) {
        /* argv NULL or empty: Linux (5.18+) runs the program with argv[0] "". */
        static char *const empty_argv[] = { "", 0 };
        s.argv = (char **)empty_argv;
        s.argc = 1;
    }
    const struct program *p = 0;
    if (!err)
        err = find_program(path, &p);
    struct addr_space *as = 0;
    struct exec_start start = { 0, 0, 0 };
    if (!err) {
        const struct exec_args args = {
            .path = path, .argc = s.argc, .argv = s.argv, .envp = s.envp, .cred = &current->cred,
        };
        as = vm_create();
        err = as ? exec_load(as, p->image, p->size, &args, &start) : -ENOMEM;
        if (err && as)
            vm_destroy(as);
    }
    if (!err)
        replace_process(as, p, path, start.entry, start.user_esp);
    if (buf)
        page_free(buf, buf_pages);
    kfree(path);
    return err;
}
