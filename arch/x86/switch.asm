; switch.asm - where a new task's first switch to it returns: its stack was prepared
; (task_arch.c, struct switch_frame) so that the stack switch (task_arch.c's switch_stacks)
; pops four zero registers and returns here.

bits 32
section .text

; A new user process's first return: finish the switch's bookkeeping in C, then leave
; through the end of the trap path, which pops the prepared trap frame and irets to ring 3.
; Like every return to ring 3 it first honours a kill (a process killed before it ever ran
; exits here, without running a single instruction of its own) and a pending reschedule.
extern sched_first_run
extern sched_return_to_user
extern trap_return
extern kernel_unlock_call
global task_enter_user
task_enter_user:
    call sched_first_run
    call sched_return_to_user
    call kernel_unlock_call     ; ring 3 holds no kernel lock (kernel/kernel_lock.h)
    jmp trap_return

; A new kernel thread's first return.
extern task_thread_main
global task_enter_kernel
task_enter_kernel:
    call sched_first_run
    call task_thread_main       ; never returns
