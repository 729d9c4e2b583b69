; trap_entry.asm - the first instructions of every interrupt and exception.
;
; The CPU pushes EFLAGS, CS, EIP (and, coming from ring 3, ESP and SS), and for some
; exceptions an error code. Each stub makes the stack look the same for all 256 vectors
; (a zero error code where the CPU pushes none, then the vector number) and jumps to
; trap_common, which saves the rest and calls trap_dispatch(struct trap_frame *).
; The layout pushed here is struct trap_frame in arch/x86/trap.h. The system call vector
; has an entry of its own (trap_syscall), the same with one question first: a register-
; message IPC call goes to the fast path (arch/x86/ipc_regs.c), the rest to trap_dispatch.

bits 32
section .text

; uapi/syscall.h's and uapi/ipc.h's numbers the system call entry compares (ipc_regs.c
; checks at compile time that they are still these).
%define SYSCALL_VECTOR 0x80
%define SYS_TRACEKERN_IPC 0x7000
%define IPC_OP_CALL_REGS 5
%define IPC_OP_REPLY_RECV_REGS 6

%macro TRAP_STUB 1
trap_stub_%1:
%if !(%1 == 8 || (%1 >= 10 && %1 <= 14) || %1 == 17 || %1 == 21 || %1 == 29 || %1 == 30)
    push dword 0                ; no CPU error code: push one so the frame is uniform
%endif
    push dword %1
%if %1 == SYSCALL_VECTOR
    jmp trap_syscall
%else
    jmp trap_common
%endif
%endmacro


%assign vector 0
%rep 256
    TRAP_STUB vector
%assign vector vector + 1
%endrep

extern trap_dispatch
global trap_common
trap_common:
    pushad
    cld                         ; C code assumes DF=0 (gcc's rep movs/stos); ring 3 may have set it
    push ds
    push es
    push fs
    push gs
    mov ax, 0x10                ; kernel data segment
    mov ds, ax
    mov es, ax
    mov fs, ax
    mov gs, ax
    push esp                    ; argument: the struct trap_frame we just built
    call trap_dispatch
    add esp, 4
global trap_return
trap_return:
    pop gs
    pop fs
    pop es
    pop ds
    popad
    add esp, 8                  ; vector and error code
    iretd

; int 0x80: trap_common's work, and a register-message IPC call (EAX the IPC system call,
; EBX its operation) first to ipc_regs_fastpath(frame), which does it whole and returns
; true, or returns false having changed nothing. Every other call, and one the fast path
; leaves, goes to trap_dispatch as from trap_common. The compare of EAX is made before the
; kernel's selectors are loaded (AX is overwritten then; MOV leaves the flags alone).
extern ipc_regs_fastpath
trap_syscall:
    pushad
    cld
    push ds
    push es
    push fs
    push gs
    cmp eax, SYS_TRACEKERN_IPC
    mov ax, 0x10                ; kernel data segment
    mov ds, ax
    mov es, ax
    mov fs, ax
    mov gs, ax
    push esp                    ; argument: the struct trap_frame
    jne .dispatch
    cmp ebx, IPC_OP_CALL_REGS
    je .fast
    cmp ebx, IPC_OP_REPLY_RECV_REGS
    jne .dispatch
.fast:
    call ipc_regs_fastpath
    test al, al
    jz .dispatch
    add esp, 4
    jmp trap_return
.dispatch:
    call trap_dispatch
    add esp, 4
    jmp trap_return

section .rodata
global trap_stub_table
trap_stub_table:
%assign vector 0
%rep 256
    dd trap_stub_ %+ vector
%assign vector vector + 1
%endrep

; --- recovering from an expected fault (arch_call_catching_faults) ---------------------
;
; bool catch_faults_call(struct fault_catcher *catcher, void (*fn)(void *), void *arg)
; Saves the callee-saved registers and ESP in *catcher, publishes it as the CPU's armed
; catcher, and calls fn(arg). If fn returns, result 0. If fn faults, trap_dispatch
; redirects the interrupted EIP to catch_landing, which restores ESP from the catcher and
; returns 1 from catch_faults_call as if fn had returned.
section .text
extern armed_catcher            ; one slot per CPU (arch/x86/trap.c)

; reg = this CPU's number, as arch_cpu_id() (arch/x86/arch_inline.h): the limit of the
; descriptor at 0x78 (SEL_CPU_NUMBER) in this CPU's own GDT. Clobbers the flags.
%macro CPU_NUMBER 1
    push eax
    xor %1, %1
    mov eax, 0x78
    lsl %1, eax
    pop eax
%endmacro
global catch_faults_call
catch_faults_call:
    push ebp
    mov ebp, esp
    push ebx
    push esi
    push edi
    mov eax, [ebp + 8]
    mov [eax], esp              ; catcher->saved_esp
    CPU_NUMBER ecx
    mov [armed_catcher + ecx * 4], eax
    push dword [ebp + 16]
    call [ebp + 12]
    add esp, 4
    xor eax, eax
    jmp catch_done
global catch_landing
catch_landing:
    CPU_NUMBER ecx
    mov eax, [armed_catcher + ecx * 4]
    mov esp, [eax]
    mov eax, 1
catch_done:
    CPU_NUMBER ecx
    mov dword [armed_catcher + ecx * 4], 0
    pop edi
    pop esi
    pop ebx
    pop ebp
    ret
