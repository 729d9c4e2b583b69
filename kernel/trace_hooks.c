/*
 * trace_hooks.c - the hooks of trace_hooks.h, all NULL (every event off) until a tracer
 * sets them.
 */
#include "kernel/trace_hooks.h"

void (*trace_hook_sched_switch)(const struct task *, const struct task *);
void (*trace_hook_sched_wakeup)(const struct task *);
void (*trace_hook_sched_wakeup_new)(const struct task *);
void (*trace_hook_sched_process_fork)(const struct task *, const struct task *);
void (*trace_hook_sched_process_exec)(const struct task *, const char *, int);
void (*trace_hook_sched_process_exit)(const struct task *);
void (*trace_hook_sched_process_wait)(const struct task *, int);
void (*trace_hook_sched_migrate_task)(const struct task *, unsigned, unsigned);
void (*trace_hook_irq_handler_entry)(int, const char *);
void (*trace_hook_irq_handler_exit)(int, bool);
void (*trace_hook_page_fault_user)(uint32_t, uint32_t, uint32_t);
void (*trace_hook_page_fault_kernel)(uint32_t, uint32_t, uint32_t);
void (*trace_hook_signal_generate)(int, int, const struct task *, int, int);
void (*trace_hook_signal_deliver)(int, int, uint32_t, uint32_t);
void (*trace_hook_hrtimer_start)(const void *, uintptr_t, uint64_t);
void (*trace_hook_hrtimer_cancel)(const void *);
void (*trace_hook_hrtimer_expire_entry)(const void *, uintptr_t);
void (*trace_hook_hrtimer_expire_exit)(const void *);
void (*trace_hook_ipc_send)(int, int, int, const struct ipc_msg *);
void (*trace_hook_ipc_call)(int, int, int, const struct ipc_msg *, uint32_t);
void (*trace_hook_ipc_recv)(int, int, const struct ipc_msg *, uint32_t);
void (*trace_hook_ipc_reply)(int, int, int, const struct ipc_msg *, uint32_t);
void (*trace_hook_pci_config_write)(const struct pci_device *, uint8_t, uint8_t, uint32_t);
void (*trace_hook_pci_driver_bind)(const struct pci_device *, const char *, int);
void (*trace_hook_pci_driver_unbind)(const struct pci_device *, const char *);
void (*trace_hook_tlb_flush)(int, unsigned long);
void (*trace_hook_port_io)(uint8_t, uint8_t, uint16_t, uint32_t, uint32_t);
void (*trace_hook_device_irq)(uint8_t, uint32_t, uint32_t);
void (*trace_hook_dma_frame)(uint64_t, uint32_t, uint32_t);
void (*trace_hook_user_iomap)(uint32_t, uint32_t, uint64_t, uint32_t);
