; multiboot.asm - the first bytes of the kernel image and the first instructions it runs.
;
; A multiboot v1 loader (GRUB, or QEMU's -kernel) scans the first 8 KiB of the file for the
; header below, loads the ELF segments at their physical addresses, and jumps to _start in
; 32-bit protected mode with paging off, EAX = 0x2BADB002 and EBX = the multiboot info.
; linker.ld puts .multiboot first so that the header is always inside those 8 KiB.

MULTIBOOT_MAGIC      equ 0x1BADB002
MULTIBOOT_PAGE_ALIGN equ 1 << 0         ; modules start on page boundaries
MULTIBOOT_MEMORY     equ 1 << 1         ; we need the memory map
MULTIBOOT_FLAGS      equ MULTIBOOT_PAGE_ALIGN | MULTIBOOT_MEMORY

section .multiboot
align 4
    dd MULTIBOOT_MAGIC
    dd MULTIBOOT_FLAGS
    dd -(MULTIBOOT_MAGIC + MULTIBOOT_FLAGS)

; The boot stack is the kernel's main stack for its whole life. The page under it is left
; unmapped by paging_init(), so running off its end faults instead of silently overwriting
; whatever lies below; that fault cannot be delivered on the same stack and becomes a double
; fault, which a task gate hands to a task with a stack of its own (arch/x86/double_fault.c).
BOOT_STACK_SIZE equ 16384

section .bss
align 4096
global boot_stack_guard, boot_stack_bottom, boot_stack_top
boot_stack_guard:
    resb 4096
boot_stack_bottom:
    resb BOOT_STACK_SIZE
boot_stack_top:

section .text
global _start
extern kmain
_start:
    cli
    cld
    mov esp, boot_stack_top
    xor ebp, ebp                ; a zero frame pointer ends every backtrace
    push ebx                    ; struct multiboot_info * (physical, identity-mapped later)
    push eax                    ; loader's magic
    call kmain
    cli                         ; kmain does not return; stay put if it ever does
    hlt
    jmp $ - 1
