/*
 * trace_hooks.h - where the kernel and the arch call the static kernel events (sched/,
 * irq/, exceptions/: trace/events/tracepoint.h) without knowing the tracer: one hook per
 * event, NULL while the event is off, set to the event's recorder while it is on (by the
 * event's enable op, in thread context: on one CPU a call site sees the pointer before or
 * after, both of them a valid function or NULL).
 *
 * Each trace_X() below is the call site's whole cost while the event is off: a load of the
 * hook and a branch. The hooks are defined in kernel/trace_hooks.c.
 */
#ifndef KERNEL_TRACE_HOOKS_H
#define KERNEL_TRACE_HOOKS_H

#include <stdbool.h>
#include <stdint.h>

struct task;

extern void (*trace_hook_sched_switch)(const struct task *prev, const struct task *next);
extern void (*trace_hook_sched_wakeup)(const struct task *t);
extern void (*trace_hook_sched_wakeup_new)(const struct task *t);
extern void (*trace_hook_sched_process_fork)(const struct task *parent, const struct task *child);
extern void (*trace_hook_sched_process_exec)(const struct task *t, const char *filename,
                                             int old_pid);
extern void (*trace_hook_sched_process_exit)(const struct task *t);
extern void (*trace_hook_sched_process_wait)(const struct task *waiter, int pid);
extern void (*trace_hook_sched_migrate_task)(const struct task *t, unsigned from, unsigned to);
extern void (*trace_hook_irq_handler_entry)(int irq, const char *name);
extern void (*trace_hook_irq_handler_exit)(int irq, bool handled);
extern void (*trace_hook_page_fault_user)(uint32_t address, uint32_t ip, uint32_t error_code);
extern void (*trace_hook_page_fault_kernel)(uint32_t address, uint32_t ip, uint32_t error_code);
extern void (*trace_hook_signal_generate)(int sig, int code, const struct task *t, int group,
                                          int result);
extern void (*trace_hook_signal_deliver)(int sig, int code, uint32_t sa_handler,
                                         uint32_t sa_flags);
/* issue 18, timer/ events (trace/events/timer_events.c): a timer is named by the address of
 * its state (the tick's counter, a task's sleep_timer) and its function is the code that
 * runs when it expires. */
extern void (*trace_hook_hrtimer_start)(const void *timer, uintptr_t function,
                                        uint64_t expires_ns);
extern void (*trace_hook_hrtimer_cancel)(const void *timer);
extern void (*trace_hook_hrtimer_expire_entry)(const void *timer, uintptr_t function);
extern void (*trace_hook_hrtimer_expire_exit)(const void *timer);
struct ipc_msg;
extern void (*trace_hook_ipc_send)(int ep, int sender, int receiver, const struct ipc_msg *msg);
extern void (*trace_hook_ipc_call)(int ep, int caller, int server, const struct ipc_msg *msg,
                                   uint32_t token);
extern void (*trace_hook_ipc_recv)(int ep, int sender, const struct ipc_msg *msg, uint32_t token);
extern void (*trace_hook_ipc_reply)(int ep, int caller, int server, const struct ipc_msg *msg,
                                    uint32_t token);
struct pci_device;
extern void (*trace_hook_pci_config_write)(const struct pci_device *d, uint8_t offset,
                                           uint8_t width, uint32_t value);
extern void (*trace_hook_pci_driver_bind)(const struct pci_device *d, const char *driver, int ret);
extern void (*trace_hook_pci_driver_unbind)(const struct pci_device *d, const char *driver);
/* issue 19, tlb/tlb_flush (trace/events/tlb_events.c): a TLB flush, why and how many pages
 * (TRACE_TLB_FLUSH_ALL: all of them). */
extern void (*trace_hook_tlb_flush)(int reason, unsigned long pages);
/* issue 23, mmiotrace's extension (trace/mmiotrace/mmiotrace.h), set while the mmiotrace
 * tracer records it: a driver's port access (op 1 in, 2 out; pc the instruction), a device
 * interrupt (enum trace_device_irq_op), a page's frame made known to a process. */
extern void (*trace_hook_port_io)(uint8_t op, uint8_t width, uint16_t port, uint32_t value,
                                  uint32_t pc);
extern void (*trace_hook_device_irq)(uint8_t op, uint32_t irq, uint32_t count);
extern void (*trace_hook_dma_frame)(uint64_t phys, uint32_t virt, uint32_t len);
/* A program mapped device memory (sysfs's resourceN): mmiotrace traces it (issue 23). */
extern void (*trace_hook_user_iomap)(uint32_t va, uint32_t len, uint64_t phys, uint32_t pc);

enum trace_device_irq_op {
    TRACE_DEVICE_IRQ_FIRED = 1, /* the line interrupted a CPU */
    TRACE_DEVICE_IRQ_SEEN,      /* its driver learnt of it: its handler, a uio read */
};

/* Linux's enum trace_signal_result: what signal_generate's res= says became of a signal. */
enum trace_signal_result {
    TRACE_SIGNAL_DELIVERED,
    TRACE_SIGNAL_IGNORED,
    TRACE_SIGNAL_ALREADY_PENDING,
};

/* schedule(): prev gives the CPU to next; called before current changes. */
static inline void trace_sched_switch(const struct task *prev, const struct task *next)
{
    if (trace_hook_sched_switch)
        trace_hook_sched_switch(prev, next);
}

/* A sleeping task was made runnable. */
static inline void trace_sched_wakeup(const struct task *t)
{
    if (trace_hook_sched_wakeup)
        trace_hook_sched_wakeup(t);
}

/* A new task became runnable for the first time (Linux's wake_up_new_task). */
static inline void trace_sched_wakeup_new(const struct task *t)
{
    if (trace_hook_sched_wakeup_new)
        trace_hook_sched_wakeup_new(t);
}

/* parent made child (fork, vfork, clone; and `run`, which forks and execs in one step). */
static inline void trace_sched_process_fork(const struct task *parent, const struct task *child)
{
    if (trace_hook_sched_process_fork)
        trace_hook_sched_process_fork(parent, child);
}

/* t now runs the program at filename. */
static inline void trace_sched_process_exec(const struct task *t, const char *filename,
                                            int old_pid)
{
    if (trace_hook_sched_process_exec)
        trace_hook_sched_process_exec(t, filename, old_pid);
}

/* t (the current task) begins to exit. */
static inline void trace_sched_process_exit(const struct task *t)
{
    if (trace_hook_sched_process_exit)
        trace_hook_sched_process_exit(t);
}

/* waiter begins to wait for pid (Linux's do_wait: 0 for any child). */
/* The scheduler moves t from CPU from's run queue to CPU to's. */
static inline void trace_sched_migrate_task(const struct task *t, unsigned from, unsigned to)
{
    if (trace_hook_sched_migrate_task)
        trace_hook_sched_migrate_task(t, from, to);
}

static inline void trace_sched_process_wait(const struct task *waiter, int pid)
{
    if (trace_hook_sched_process_wait)
        trace_hook_sched_process_wait(waiter, pid);
}

/* The handler of line irq (called name) is about to run. */
static inline void trace_irq_handler_entry(int irq, const char *name)
{
    if (trace_hook_irq_handler_entry)
        trace_hook_irq_handler_entry(irq, name);
}

/* The handler of line irq returned; handled is false when the line had none. */
static inline void trace_irq_handler_exit(int irq, bool handled)
{
    if (trace_hook_irq_handler_exit)
        trace_hook_irq_handler_exit(irq, handled);
}

/* sig (siginfo code) is sent to t: to its whole process (group) or to the task alone, with
 * what becomes of it (result: enum trace_signal_result). */
static inline void trace_signal_generate(int sig, int code, const struct task *t, int group,
                                         int result)
{
    if (trace_hook_signal_generate)
        trace_hook_signal_generate(sig, code, t, group, result);
}

/* The current task takes sig (siginfo code): its action is sa_handler (SIG_DFL 0, SIG_IGN
 * 1, or the handler's address) with sa_flags. */
static inline void trace_signal_deliver(int sig, int code, uint32_t sa_handler,
                                        uint32_t sa_flags)
{
    if (trace_hook_signal_deliver)
        trace_hook_signal_deliver(sig, code, sa_handler, sa_flags);
}

/* A timer was armed to run function at expires_ns (time_ns()), counted from now. */
static inline void trace_hrtimer_start(const void *timer, uintptr_t function, uint64_t expires_ns)
{
    if (trace_hook_hrtimer_start)
        trace_hook_hrtimer_start(timer, function, expires_ns);
}

/* An armed timer was taken back before it expired. */
static inline void trace_hrtimer_cancel(const void *timer)
{
    if (trace_hook_hrtimer_cancel)
        trace_hook_hrtimer_cancel(timer);
}

/* A timer expired: function runs now (the tick: every tick). */
static inline void trace_hrtimer_expire_entry(const void *timer, uintptr_t function)
{
    if (trace_hook_hrtimer_expire_entry)
        trace_hook_hrtimer_expire_entry(timer, function);
}

/* The function of an expired timer returned. */
static inline void trace_hrtimer_expire_exit(const void *timer)
{
    if (trace_hook_hrtimer_expire_exit)
        trace_hook_hrtimer_expire_exit(timer);
}

/* issue 18, ipc/ events (trace/events/ipc_events.c); the message's label and len are
 * read by the recorder, so that the call site only tests the hook. A message msg of sender
 * to endpoint ep (owned by receiver) was taken. */
static inline void trace_ipc_send(int ep, int sender, int receiver, const struct ipc_msg *msg)
{
    if (trace_hook_ipc_send)
        trace_hook_ipc_send(ep, sender, receiver, msg);
}

/* A call of caller to ep (owned by server) was taken; its reply must name token. */
static inline void trace_ipc_call(int ep, int caller, int server, const struct ipc_msg *msg,
                                  uint32_t token)
{
    if (trace_hook_ipc_call)
        trace_hook_ipc_call(ep, caller, server, msg, token);
}

/* The current task's ipc_recv on ep returns sender's message (token 0: a plain send). */
static inline void trace_ipc_recv(int ep, int sender, const struct ipc_msg *msg, uint32_t token)
{
    if (trace_hook_ipc_recv)
        trace_hook_ipc_recv(ep, sender, msg, token);
}

/* The current task (server) answered caller's call to ep (token) with the reply msg. */
static inline void trace_ipc_reply(int ep, int caller, int server, const struct ipc_msg *msg,
                                   uint32_t token)
{
    if (trace_hook_ipc_reply)
        trace_hook_ipc_reply(ep, caller, server, msg, token);
}

/* issue 18, pci/ events (trace/events/pci_events.c). A driver writes width bytes of d's
 * configuration space at offset. */
static inline void trace_pci_config_write(const struct pci_device *d, uint8_t offset,
                                          uint8_t width, uint32_t value)
{
    if (trace_hook_pci_config_write)
        trace_hook_pci_config_write(d, offset, width, value);
}

/* driver's probe of d returned ret (0: bound; else d stays without a driver). */
static inline void trace_pci_driver_bind(const struct pci_device *d, const char *driver, int ret)
{
    if (trace_hook_pci_driver_bind)
        trace_hook_pci_driver_bind(d, driver, ret);
}

/* driver was unbound from d (its remove ran). */
static inline void trace_pci_driver_unbind(const struct pci_device *d, const char *driver)
{
    if (trace_hook_pci_driver_unbind)
        trace_hook_pci_driver_unbind(d, driver);
}

/* Linux's enum tlb_flush_reason (include/linux/mm_types.h), and its TLB_FLUSH_ALL. */
enum trace_tlb_flush_reason {
    TLB_FLUSH_ON_TASK_SWITCH,
    TLB_REMOTE_SHOOTDOWN,
    TLB_LOCAL_SHOOTDOWN,
    TLB_LOCAL_MM_SHOOTDOWN,
    TLB_REMOTE_SEND_IPI,
};
#define TRACE_TLB_FLUSH_ALL (~0ul)

/* This CPU flushed pages TLB entries (reason: enum trace_tlb_flush_reason), or sends the
 * shootdown of pages to other CPUs (TLB_REMOTE_SEND_IPI). */
static inline void trace_tlb_flush(int reason, unsigned long pages)
{
    if (trace_hook_tlb_flush)
        trace_hook_tlb_flush(reason, pages);
}

/* A PCI driver's port access (drivers/pci/pci_port.h). */
static inline void trace_port_io(uint8_t op, uint8_t width, uint16_t port, uint32_t value,
                                 uint32_t pc)
{
    if (trace_hook_port_io)
        trace_hook_port_io(op, width, port, value, pc);
}

/* Interrupt line irq fired (arch), or its driver saw it, count times in all. */
static inline void trace_device_irq(enum trace_device_irq_op op, uint32_t irq, uint32_t count)
{
    if (trace_hook_device_irq)
        trace_hook_device_irq((uint8_t)op, irq, count);
}

/* The current process learnt that its page at virt is the frame phys (len bytes). */
/* The current process has mapped [phys, phys+len) of a device at va (pc: its call, or 0). */
static inline void trace_user_iomap(uint32_t va, uint32_t len, uint64_t phys, uint32_t pc)
{
    if (trace_hook_user_iomap)
        trace_hook_user_iomap(va, len, phys, pc);
}

static inline void trace_dma_frame(uint64_t phys, uint32_t virt, uint32_t len)
{
    if (trace_hook_dma_frame)
        trace_hook_dma_frame(phys, virt, len);
}

/* The page fault hook for a fault from user mode (from_user) or from the kernel, or NULL:
 * the call site reads CR2 only when it is set. */
static inline void (*trace_page_fault_hook(bool from_user))(uint32_t, uint32_t, uint32_t)
{
    return from_user ? trace_hook_page_fault_user : trace_hook_page_fault_kernel;
}

#endif
