; ap_trampoline.asm - the first instructions an application processor (AP) runs.
;
; After INIT and a startup IPI (SIPI) with vector 0x08, the AP starts in real mode at
; CS:IP = 0x0800:0000, physical 0x8000 (Intel SDM vol. 3A, 8.4.4 "MP Initialization
; Example"). The bytes from ap_trampoline_start to ap_trampoline_end are assembled into the
; kernel image but never run there: arch/x86/smp_boot.c copies them to TRAMPOLINE_PHYS
; (below 1 MiB, as a real-mode CS must be) and fills in the parameter block at the end
; before each SIPI. Every address below is therefore written as TRAMPOLINE_PHYS plus the
; label's offset from ap_trampoline_start.
;
; Step by step:
;   1. real mode: load a three-entry GDT of our own (flat ring-0 code 0x08 and data 0x10,
;      the kernel's selectors), set CR0.PE and far-jump to 32-bit code: protected mode;
;   2. load CR4 (the boot CPU's features: PSE ...), CR3 (a directory that maps this page
;      at its own address and the kernel's half as every directory does), then CR0 with
;      PG: paging is on, and the next instruction is still fetched at 0x80xx;
;   3. take the stack smp_boot.c allocated for this CPU and jump to ap_entry(cpu) at its
;      higher-half address. From there the AP loads its own GDT, the IDT and the kernel's
;      directory, and this page is no longer used.
; Compare Linux's arch/x86/realmode/rm/trampoline_32.S and head_32.S (startup_32_smp).

TRAMPOLINE_PHYS equ 0x8000      ; smp_boot.c's TRAMPOLINE_PHYS; SIPI vector = this >> 12

%define ABS(label) (TRAMPOLINE_PHYS + (label) - ap_trampoline_start)

section .rodata
global ap_trampoline_start, ap_trampoline_end, ap_trampoline_params

bits 16
ap_trampoline_start:
    cli
    cld
    mov ax, cs                  ; 0x0800: data at the same offsets as code
    mov ds, ax
    lgdt [tramp_gdtr - ap_trampoline_start]
    mov eax, cr0
    or eax, 1                   ; CR0.PE
    mov cr0, eax
    jmp dword 0x08:ABS(protected_mode)

bits 32
protected_mode:
    mov ax, 0x10
    mov ds, ax
    mov es, ax
    mov fs, ax
    mov gs, ax
    mov ss, ax
    mov ebx, ABS(ap_trampoline_params)
    mov eax, [ebx + 8]          ; cr4
    mov cr4, eax
    mov eax, [ebx + 4]          ; cr3: the AP boot directory
    mov cr3, eax
    mov eax, [ebx + 0]          ; cr0: PE, PG, WP, NE, MP as the boot CPU's (TS clear)
    mov cr0, eax
    mov esp, [ebx + 12]         ; this CPU's stack (a kernel address)
    xor ebp, ebp                ; a zero frame pointer ends every backtrace
    push dword [ebx + 20]       ; ap_entry's argument: the CPU number
    push dword 0                ; no return address: ap_entry never returns
    jmp [ebx + 16]              ; ap_entry, in the higher half

align 8
tramp_gdt:
    dq 0
    dq 0x00cf9a000000ffff       ; 0x08: ring 0 code, base 0, limit 4 GiB, 32-bit
    dq 0x00cf92000000ffff       ; 0x10: ring 0 data, base 0, limit 4 GiB
tramp_gdtr:
    dw tramp_gdtr - tramp_gdt - 1
    dd ABS(tramp_gdt)

align 4
ap_trampoline_params:           ; struct trampoline_params in smp_boot.c
    dd 0, 0, 0, 0, 0, 0         ; cr0, cr3, cr4, stack, entry, cpu
ap_trampoline_end:
