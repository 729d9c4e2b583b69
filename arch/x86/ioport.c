/*
 * ioport.c - ioperm and iopl: the port I/O a user-space driver may do from ring 3, as
 * Linux 6.1 gives it (arch/x86/kernel/ioport.c), through each CPU's TSS I/O permission
 * bitmap (arch/x86/gdt.h struct cpu_tss).
 *
 * A ring-3 in, out, ins or outs runs when EFLAGS.IOPL is 3 or when the TSS bitmap has a
 * clear bit for every port it touches; else it raises #GP, which becomes SIGSEGV
 * (SI_KERNEL, no address: arch/x86/signal_frame.c), as on Linux. IOPL stays 0 for every
 * program, so the bitmap alone decides:
 *   - ioperm(from, num, turn_on) clears (allows) or sets (denies) the bits of ports
 *     [from, from + num) in the task's own bitmap, made at the first grant: all ones, 8 KiB.
 *     Root only for granting (Linux's CAP_SYS_RAWIO: EPERM); dropping needs nothing. A
 *     range that wraps, is empty or reaches past port 0xffff is EINVAL.
 *   - iopl(level) keeps a level, 0..3 (EINVAL above): raising it is root's alone (EPERM),
 *     lowering anyone's. Level 3 gives every port through the CPU's second, all-zero
 *     bitmap; it does not give cli and sti, which Linux since 5.18 (and so 6.1) turns into
 *     no-ops with a line in the kernel log (ioport_cli_sti_fixup). Levels 1 and 2 give
 *     nothing, as Linux's emulation.
 * fork shares the bitmap with the child (a count of users; the first to change it copies
 * it) and gives it the level; execve keeps both; exit drops them. As Linux's, the bitmap
 * and level belong to a task (a thread), not to its whole process.
 *
 * The TSS is per CPU, and allows some port only while a task that has ports runs there:
 * so only a switch to or from such a task (arch_task io_ports) sets its iomap_base, to the
 * next task's bitmap, the all-ports one, or past the segment's limit (no port); a switch
 * between two tasks without ports costs one test. The task's
 * bitmap is copied into this CPU's TSS only when the copy there is not already its latest
 * version (a sequence number, new at every change, as Linux's io_bitmap_sequence): the
 * bytes up to the highest allowed port, and ones over whatever the previous copy had
 * allowed beyond that. A task that died holding ports leaves a copy that no later task's
 * switch points at. The counts and the bitmap change only under the big kernel lock
 * (system calls, fork, exit); a switch only reads the bitmap of the task it switches to,
 * which holds a reference to it.
 */
#include "arch/x86/ioport.h"

#include "arch/x86/gdt.h"
#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/init.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/log/printk.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/notrace.h"
#include "kernel/proc/task.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/syscall_handlers.h"

struct io_bitmap {
    uint32_t users;    /* tasks that have it (fork shares it) */
    uint64_t sequence; /* new at every change: a CPU's copy is current when it has this one */
    uint32_t max;      /* bytes from the start through the last with an allowed port */
    uint8_t bits[IO_BITMAP_BYTES]; /* a clear bit allows its port, as the CPU reads it */
};

/* The last sequence number given out (under the kernel lock). */
static uint64_t io_bitmap_sequence;

/* What each CPU's TSS io_bitmap holds: the version copied there, and how many bytes from
 * the start may have clear bits (the rest are all ones). */
static struct {
    uint64_t sequence;
    uint32_t max;
} tss_copy[MAX_CPUS];

/* Points this CPU's TSS at what task t may use (t running or about to run here). */
static notrace void load_ports_of(const struct task *t)
{
    unsigned cpu = arch_cpu_id();
    struct cpu_tss *c = &cpu_main_tss[cpu];
    const struct io_bitmap *bm = t->arch.io_bitmap;
    if (t->arch.iopl_emul == 3) {
        c->tss.iomap_base = TSS_IO_ALL;
    } else if (!bm) {
        c->tss.iomap_base = TSS_IO_NONE;
    } else {
        if (tss_copy[cpu].sequence != bm->sequence) {
            memcpy(c->io_bitmap, bm->bits, bm->max);
            if (tss_copy[cpu].max > bm->max)
                memset(c->io_bitmap + bm->max, 0xff, tss_copy[cpu].max - bm->max);
            tss_copy[cpu].sequence = bm->sequence;
            tss_copy[cpu].max = bm->max;
        }
        c->tss.iomap_base = TSS_IO_BITMAP;
    }
}

/* notrace: a part of context switches, as switch_to itself. */
notrace void ioport_switch_to(const struct task *next) { load_ports_of(next); }

/* Says whether t has any port now, for the switch's test; then points this CPU's TSS at
 * them (t is the task running here: its ports changed). */
static void ports_changed(struct task *t)
{
    t->arch.io_ports = t->arch.io_bitmap || t->arch.iopl_emul == 3;
    unsigned long flags = arch_irq_save();
    load_ports_of(t);
    arch_irq_restore(flags);
}

/* Gives up t's reference to its bitmap, freeing it with the last. */
static void bitmap_put(struct task *t)
{
    struct io_bitmap *bm = t->arch.io_bitmap;
    t->arch.io_bitmap = 0;
    if (bm && --bm->users == 0)
        kfree(bm);
}

void ioport_fork(struct task *child)
{
    child->arch.io_bitmap = current->arch.io_bitmap;
    if (child->arch.io_bitmap)
        child->arch.io_bitmap->users++;
    child->arch.iopl_emul = current->arch.iopl_emul;
    child->arch.io_ports = current->arch.io_ports;
    child->arch.iopl_warned = false;
}

/* Linux's io_bitmap_exit at a task's end: its ports go, and this CPU's TSS (where it runs
 * its last) allows none until the next task's switch says otherwise. */
static void ioport_exit(struct task *t)
{
    bitmap_put(t);
    t->arch.iopl_emul = 0;
    ports_changed(t);
}

static struct task_exit_hook ioport_exit_hook = { .fn = ioport_exit };
static void ioport_init(void) { task_on_exit(&ioport_exit_hook); }
INITCALL(core, ioport_init);

/* The current task's bitmap, its own to change: made (all ones) at its first grant, or
 * copied from the one it shares since fork. NULL without memory. */
static struct io_bitmap *own_bitmap(void)
{
    struct io_bitmap *bm = current->arch.io_bitmap;
    if (bm && bm->users == 1)
        return bm;
    struct io_bitmap *mine = kmalloc(sizeof *mine);
    if (!mine)
        return 0;
    if (bm) {
        memcpy(mine, bm, sizeof *mine);
        bitmap_put(current);
    } else {
        memset(mine->bits, 0xff, sizeof mine->bits);
        mine->max = 0;
    }
    mine->users = 1;
    current->arch.io_bitmap = mine;
    return mine;
}

/* Sets (deny) or clears (allow) the bits of ports [from, from + num). */
static void set_port_bits(uint8_t *bits, uint32_t from, uint32_t num, bool allow)
{
    for (uint32_t port = from; port < from + num; port++) {
        if (allow)
            bits[port / 8] &= (uint8_t)~(1u << (port % 8));
        else
            bits[port / 8] |= (uint8_t)(1u << (port % 8));
    }
}

/* Linux's ksys_ioperm, in its order of checks. */
SYSCALL_HANDLER(ioperm)
{
    uint32_t from = a[0], num = a[1];
    bool turn_on = (int32_t)a[2] != 0;
    if (from + num <= from || from + num > IO_PORTS)
        return -EINVAL;
    if (turn_on && !cred_privileged(&current->cred))
        return -EPERM;
    if (!current->arch.io_bitmap && !turn_on)
        return 0; /* nothing to take away */
    struct io_bitmap *bm = own_bitmap();
    if (!bm)
        return -ENOMEM;
    set_port_bits(bm->bits, from, num, turn_on);
    uint32_t max = IO_BITMAP_BYTES;
    while (max && bm->bits[max - 1] == 0xff)
        max--;
    if (max == 0) {
        bitmap_put(current); /* every port given back: no bitmap at all, as Linux */
    } else {
        bm->max = (max + 3) & ~3u; /* whole words, as the CPU reads two bytes at a time */
        bm->sequence = ++io_bitmap_sequence;
    }
    ports_changed(current); /* this CPU's TSS, before the return to ring 3 */
    return 0;
}

/* Linux's iopl: only its emulation of level 3 (every port), never EFLAGS.IOPL. */
SYSCALL_HANDLER(iopl)
{
    uint32_t level = a[0];
    if (level > 3)
        return -EINVAL;
    if (level == current->arch.iopl_emul)
        return 0;
    if (level > current->arch.iopl_emul && !cred_privileged(&current->cred))
        return -EPERM;
    current->arch.iopl_emul = (uint8_t)level;
    ports_changed(current);
    return 0;
}

bool ioport_cli_sti_fixup(struct trap_frame *tf)
{
    uint8_t opcode;
    if (current->arch.iopl_emul != 3 || copy_from_user(&opcode, tf->eip, 1) != 0 ||
        (opcode != 0xfa && opcode != 0xfb))
        return false;
    if (!current->arch.iopl_warned) {
        printk("traps: %s[%d] attempts to use CLI/STI, pretending it's a NOP, ip:%x\n",
               current->name, current->pid, tf->eip);
        current->arch.iopl_warned = true;
    }
    tf->eip += 1;
    return true;
}
