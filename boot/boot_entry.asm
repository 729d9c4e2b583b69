; boot_entry.asm - the loader's entry point: paging on, then a jump to the higher half.
;
; The kernel is linked at KERNEL_BASE + its physical address (the higher half, as Linux
; i386: docs/memory.md), except for the multiboot header and this code (section .boot),
; which linker.ld places where they are loaded: the loader jumps here with paging off, so
; until paging is on this code uses no other symbol's address without subtracting
; KERNEL_BASE. It maps low memory with 4 MiB pages in boot_page_directory, both where it is
; (so the instruction after the one that turns paging on still runs) and at KERNEL_BASE,
; then jumps up to _start (boot/multiboot.asm). paging_init() later replaces that directory
; with the real one, which has no low mapping: from then on everything below KERNEL_BASE is
; user space. (A file of its own: NASM's DWARF line table describes one code section.)

KERNEL_BASE   equ 0xC0000000        ; kernel/mm/page_alloc.h
LOWMEM_LIMIT  equ 768 << 20         ; kernel/mm/page_alloc.h: all of it is mapped early
PDE_4M        equ 0x83              ; present, writable, 4 MiB page
CR4_PSE       equ 1 << 4
CR0_PG        equ 1 << 31

section .boot progbits alloc exec nowrite align=16
global boot_entry
extern _start, boot_page_directory
boot_entry:
    cli
    cld
    mov esi, eax                ; the loader's magic, kept for kmain (EBX is kept too)
    mov ecx, cr4
    or ecx, CR4_PSE
    mov cr4, ecx
    ; Physical [0, LOWMEM_LIMIT) at KERNEL_BASE; its first 4 MiB (this code) also at 0.
    mov edi, boot_page_directory - KERNEL_BASE
    mov dword [edi], PDE_4M
    add edi, (KERNEL_BASE >> 22) * 4
    mov eax, PDE_4M
    mov ecx, LOWMEM_LIMIT >> 22
.map_lowmem:
    mov [edi], eax
    add eax, 1 << 22
    add edi, 4
    loop .map_lowmem
    mov eax, boot_page_directory - KERNEL_BASE
    mov cr3, eax
    mov eax, cr0
    or eax, CR0_PG
    mov cr0, eax
    mov eax, _start             ; an absolute jump: into the higher half
    jmp eax

