/*
 * fork.c - a new process as a copy of the current one: fork, vfork and clone (the forms
 * of clone that make a process, not a thread).
 *
 * The child gets a copy of everything per-task: the address space (kernel/mm/vm.h's
 * vm_clone: private pages copied, MAP_SHARED anonymous pages shared), every descriptor (a
 * reference on each struct file) and its close-on-exec bit, the credentials, the signal
 * actions, mask and alternate stack (nothing pending), the TLS descriptors and x87
 * registers, the name, the program, the process group and session, and user_events' enable
 * bits (task.h's task_on_fork: the child's copy of each word keeps following its event, as
 * on Linux 6.4+). It returns 0 from the same system call, on the same user stack unless
 * clone gave another. Not copied, as on Linux: pending signals, the interval timer, the
 * robust list.
 *
 * vfork, and clone(CLONE_VM | CLONE_VFORK) as glibc's posix_spawn and system use it: the
 * child runs on the parent's address space, which it borrows (it never frees it), and
 * the parent sleeps until the child execs or exits. That sleep is not ended by signals or
 * by a kill (the child is using its memory); the child can always be killed. The enable
 * bits in that memory stay the parent's and keep being kept (Linux's tasks sharing an mm
 * share its user_event_mm); the child's exec or exit leaves them alone.
 */
#include "kernel/arch.h"
#include "kernel/fs/file.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/sched.h"
#include "kernel/proc/task_internal.h"
#include "kernel/trace_hooks.h"

/* Linux's clone flags (uapi/linux/sched.h). */
#define CSIGNAL 0x000000ffu
#define CLONE_VM 0x00000100u
#define CLONE_FS 0x00000200u
#define CLONE_FILES 0x00000400u
#define CLONE_SIGHAND 0x00000800u
#define CLONE_VFORK 0x00004000u
#define CLONE_THREAD 0x00010000u
#define CLONE_NEWNS 0x00020000u
#define CLONE_SYSVSEM 0x00040000u
#define CLONE_PARENT_SETTID 0x00100000u
#define CLONE_CHILD_CLEARTID 0x00200000u
#define CLONE_DETACHED 0x00400000u
#define CLONE_UNTRACED 0x00800000u
#define CLONE_CHILD_SETTID 0x01000000u
#define CLONE_IO 0x80000000u

/* What this kernel does: a new process, possibly a vfork one. Everything else (threads,
 * shared descriptor tables or signal handlers, namespaces, CLONE_SETTLS, CLONE_PARENT,
 * pidfds, ptrace) is refused with EINVAL. CLONE_SYSVSEM, CLONE_DETACHED, CLONE_UNTRACED
 * and CLONE_IO change nothing here and are accepted, as Linux accepts them. */
#define CLONE_SUPPORTED                                                                    \
    (CSIGNAL | CLONE_VM | CLONE_VFORK | CLONE_SYSVSEM | CLONE_PARENT_SETTID |               \
     CLONE_CHILD_CLEARTID | CLONE_DETACHED | CLONE_UNTRACED | CLONE_CHILD_SETTID | CLONE_IO)

/* Linux's copy_process checks of flag combinations (EINVAL); an exit signal that is no
 * signal (clone3's check: legacy clone on Linux would take it and send nothing); then what
 * is not done here: CLONE_VM without CLONE_VFORK would be a thread. */
static int check_clone_flags(uint32_t flags)
{
    if ((flags & (CLONE_NEWNS | CLONE_FS)) == (CLONE_NEWNS | CLONE_FS))
        return -EINVAL;
    if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
        return -EINVAL;
    if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
        return -EINVAL;
    if ((flags & CSIGNAL) > NSIG_LINUX)
        return -EINVAL;
    if ((flags & ~CLONE_SUPPORTED) || ((flags & CLONE_VM) && !(flags & CLONE_VFORK)))
        return -EINVAL;
    return 0;
}

/* Writes the child's pid to user address addr of space as (CLONE_CHILD_SETTID), if it is a
 * writable aligned word there; as Linux, a bad address is not an error. */
static void write_tid(struct addr_space *as, uint32_t addr, int pid)
{
    if ((addr & 3) || !(vm_rights(as, addr) & VM_WRITE))
        return;
    int32_t *word = vm_kmap(as, addr);
    *word = pid;
    vm_kunmap(word);
}

/* Copies the per-task state of the current process into child (see the file comment).
 * Every per-task field a process has belongs here. */
static void copy_task_state(struct task *child, uint32_t flags)
{
    struct task *parent = current;
    child->cred = parent->cred;
    sigstate_fork(&child->sig, &parent->sig);
    child->parent = parent;
    child->pgid = parent->pgid;
    child->sid = parent->sid;
    child->program = parent->program;
    child->exit_signal = (int)(flags & CSIGNAL);
    for (int fd = 0; fd < TASK_FILES_MAX; fd++)
        child->files[fd] = parent->files[fd] ? file_get(parent->files[fd]) : 0;
    child->fd_cloexec = parent->fd_cloexec;
    strlcpy(child->cwd, parent->cwd, sizeof child->cwd);
    child->umask = parent->umask;
}

int process_fork(uint32_t flags, uint32_t user_esp, uint32_t parent_tid, uint32_t child_tid)
{
    int err = check_clone_flags(flags);
    if (err)
        return err;
    /* Killed already (a kill from another CPU while this task ran in ring 3 comes before
     * its next entry): no child, which the kill would have missed, as Linux's copy_process
     * refuses with a fatal signal pending. The task dies on its way back to ring 3. */
    if (current->killed)
        return -EINTR;
    err = task_check_limits(&current->cred);
    if (err)
        return err;
    /* Killed while it waited for the kernel lock to enter this call (a kill of its whole
     * group, run on another CPU meanwhile): the child would be made after the kill went
     * round the group, and live on in it unkilled. As Linux's copy_process (its
     * fatal_signal_pending check), no child then; the caller dies on its way out. The
     * kernel lock is held from here to the child's task_list_add, so no kill falls
     * between this test and the child joining the list. */
    if (current->killed)
        return -EINTR;
    struct task *child = task_alloc(current->name);
    if (!child)
        return -ENOMEM;
    bool vfork = flags & CLONE_VFORK, share_vm = flags & CLONE_VM;
    child->as = share_vm ? current->as : vm_clone(current->as);
    if (!child->as) {
        task_free(child);
        return -ENOMEM;
    }
    /* A copied space gets copies of what is kept about the parent's (Linux's
     * user_event_mm_dup); a shared one already has it, as Linux's shared mm does. */
    err = share_vm ? 0 : task_fork_hook_run(current, child);
    if (err) {
        vm_destroy(child->as);
        task_free(child);
        return err;
    }
    copy_task_state(child, flags);
    if (vfork)
        child->vfork_parent = current; /* with CLONE_VM its space is borrowed, not freed */
    if (flags & CLONE_CHILD_CLEARTID)
        child->clear_child_tid = child_tid;
    arch_task_init_fork(child, user_esp);
    int pid = child->pid;
    if (flags & CLONE_CHILD_SETTID)
        write_tid(child->as, child_tid, pid);
    if (flags & CLONE_PARENT_SETTID)
        write_tid(current->as, parent_tid, pid);

    trace_sched_process_fork(current, child);
    unsigned long irq = arch_irq_save();
    current->vfork_done = !vfork;
    task_list_add(child);
    while (!current->vfork_done)
        sleep_on_uninterruptible(&current->vfork_done);
    arch_irq_restore(irq);
    return pid;
}
