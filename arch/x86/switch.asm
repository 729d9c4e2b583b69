; switch.asm - moving the CPU from one task's kernel stack to another's.
;
; void context_switch(uint32_t *save_esp, uint32_t next_esp)
; Pushes the registers the C calling convention says a callee must preserve, stores ESP in
; *save_esp, loads next_esp, pops that task's preserved registers and returns on its stack:
; into the context_switch call it made when it was switched out, or, for a task that never
; ran, into the entry its stack was prepared with (task_arch.c).

bits 32
section .text

global context_switch
context_switch:
    mov eax, [esp + 4]          ; save_esp
    mov edx, [esp + 8]          ; next_esp
    push ebp
    push ebx
    push esi
    push edi
    mov [eax], esp
    mov esp, edx
    pop edi
    pop esi
    pop ebx
    pop ebp
    ret

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
