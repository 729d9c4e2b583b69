; kretprobe_entry.asm - where a function with a return probe returns to (Linux's
; kretprobe_trampoline): its return address was replaced by this one at its entry
; (trace/kprobes/kprobe_events.c). The return popped the slot that held it, so the slot is
; at [esp - 4] on arrival; the trampoline puts the real return address back into that very
; slot and returns through it, so the stack is exactly as a plain return would leave it.
; eax and edx (the return value) and ecx are kept; the C side (kretprobe_arch_return,
; arch/x86/kprobe_arch.c) keeps the callee-saved registers as C does.

bits 32
section .text

extern kretprobe_arch_return

global kretprobe_trampoline
kretprobe_trampoline:
    sub esp, 4                      ; back over the slot: it will hold the real address
    push eax
    push edx
    push ecx
    push eax                        ; the return value
    lea ecx, [esp + 16]
    push ecx                        ; the slot
    call kretprobe_arch_return
    add esp, 8
    mov [esp + 12], eax             ; the real return address, into the slot
    pop ecx
    pop edx
    pop eax
    ret
