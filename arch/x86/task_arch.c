/*
 * task_arch.c - the x86 half of tasks: building a new task's first kernel stack, and
 * switching stacks, address spaces, the TSS's ring-0 stack and the FPU between tasks.
 */
#include "arch/x86/fpu.h"
#include "arch/x86/gdt.h"
#include "arch/x86/ioport.h"
#include "arch/x86/paging.h"
#include "arch/x86/trap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/proc/task_internal.h"
#include "kernel/lib/string.h"
#include "kernel/mm/vm.h"

extern void context_switch(uint32_t *save_esp, uint32_t next_esp);
extern void task_enter_user(void);
extern void task_enter_kernel(void);

/* What context_switch pops for a task that never ran: four preserved registers (zero) and
 * the address it "returns" to. */
struct switch_frame {
    uint32_t edi, esi, ebx, ebp;
    uint32_t ret;
};

static uint32_t kstack_top(const struct task *t)
{
    return (uint32_t)(t->kstack + KERNEL_STACK_PAGES * PAGE_SIZE);
}

void arch_task_init_kernel(struct task *t)
{
    struct switch_frame *sf = (struct switch_frame *)(kstack_top(t) - sizeof *sf);
    memset(sf, 0, sizeof *sf);
    sf->ret = (uint32_t)(uintptr_t)task_enter_kernel;
    t->saved_esp = (uint32_t)(uintptr_t)sf;
}

/* A trap frame that enters ring 3 at entry with stack user_esp, every register zero. */
static void fresh_user_frame(struct trap_frame *tf, uint32_t entry, uint32_t user_esp)
{
    memset(tf, 0, sizeof *tf);
    tf->ds = tf->es = tf->fs = tf->gs = SEL_USER_DATA;
    tf->cs = SEL_USER_CODE;
    tf->user_ss = SEL_USER_DATA;
    tf->eip = entry;
    tf->user_esp = user_esp;
    tf->eflags = 0x202; /* interrupts on (IF) and the always-one bit */
}

void arch_task_init_user(struct task *t, uint32_t entry, uint32_t user_esp)
{
    struct trap_frame *tf = (struct trap_frame *)(kstack_top(t) - sizeof *tf);
    fresh_user_frame(tf, entry, user_esp);
    struct switch_frame *sf = (struct switch_frame *)tf - 1;
    memset(sf, 0, sizeof *sf);
    sf->ret = (uint32_t)(uintptr_t)task_enter_user;
    t->saved_esp = (uint32_t)(uintptr_t)sf;
}

void arch_task_init_fork(struct task *child, uint32_t user_esp)
{
    const struct trap_frame *parent =
        (const struct trap_frame *)(kstack_top(current) - sizeof *parent);
    struct trap_frame *tf = (struct trap_frame *)(kstack_top(child) - sizeof *tf);
    *tf = *parent;
    tf->eax = 0; /* fork's result in the child */
    if (user_esp)
        tf->user_esp = user_esp;
    struct switch_frame *sf = (struct switch_frame *)tf - 1;
    memset(sf, 0, sizeof *sf);
    sf->ret = (uint32_t)(uintptr_t)task_enter_user;
    child->saved_esp = (uint32_t)(uintptr_t)sf;
    memcpy(child->arch.tls, current->arch.tls, sizeof child->arch.tls);
    fpu_copy_state(child);
    ioport_fork(child);
}

void arch_task_exec_reset(struct task *t, uint32_t entry, uint32_t user_esp)
{
    memset(t->arch.tls, 0, sizeof t->arch.tls);
    gdt_load_tls(t->arch.tls);
    fresh_user_frame((struct trap_frame *)(kstack_top(t) - sizeof(struct trap_frame)), entry,
                     user_esp);
    fpu_forget(t);
}

/* Whether a and b have the same TLS descriptors. */
static bool same_tls(const struct task *a, const struct task *b)
{
    return a->arch.tls[0] == b->arch.tls[0] && a->arch.tls[1] == b->arch.tls[1] &&
           a->arch.tls[2] == b->arch.tls[2];
}

void arch_switch_to(struct task *prev, struct task *next)
{
    /* An interrupt from ring 3 lands on the top of next's kernel stack. */
    if (next->kstack)
        main_tss.esp0 = kstack_top(next);
    /* The GDT's TLS slots hold a running process's own descriptors (set_thread_area and
     * execve write them there too), so from a process with the same ones (most often
     * none: programs without threads) there is nothing to load. */
    if (next->as && !(prev->as && same_tls(prev, next)))
        gdt_load_tls(next->arch.tls);
    vm_switch_to(next->as); /* interrupts are off for every switch (sched.c) */
    /* The TSS allows ring 3 some port only while a task that has ports runs: between two
     * tasks without any (nearly every switch) there is nothing to change. */
    if (__builtin_expect(prev->arch.io_ports | next->arch.io_ports, 0))
        ioport_switch_to(next);
    fpu_switch(prev, next);
    context_switch(&prev->saved_esp, next->saved_esp);
}

void arch_kstack_guard(uintptr_t kstack, bool on)
{
    if (on)
        paging_set_pte(kstack, 0, 0);
    else
        paging_set_pte(kstack, virt_to_phys((void *)kstack), PTE_PRESENT | PTE_WRITE);
}
