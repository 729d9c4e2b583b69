; multiboot.asm - the first bytes of the kernel image and the first instructions it runs.
;
; A multiboot v1 loader (GRUB, or QEMU's -kernel) scans the first 8 KiB of the file for the
; header below, loads the ELF segments at their physical addresses (p_paddr, from 1 MiB),
; and jumps to the physical entry point (e_entry: boot_entry, see linker.ld) in 32-bit
; protected mode with paging off, EAX = 0x2BADB002 and EBX = the multiboot info.
; linker.ld puts .multiboot first so that the header is always inside those 8 KiB.
;
; The kernel is linked at KERNEL_BASE + its physical address (the higher half, as Linux
; i386: docs/memory.md). The loader's jump lands in boot/boot_entry.asm, which turns paging
; on and comes to _start below, in the higher half.

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
; The directory paging starts with (boot/boot_entry.asm fills it), until paging_init.
global boot_page_directory
boot_page_directory:
    resb 4096
global boot_stack_guard, boot_stack_bottom, boot_stack_top
boot_stack_guard:
    resb 4096
boot_stack_bottom:
    resb BOOT_STACK_SIZE
boot_stack_top:

section .text
global _start
extern kmain
_start:                         ; the kernel's first instruction in the higher half
    mov esp, boot_stack_top
    xor ebp, ebp                ; a zero frame pointer ends every backtrace
    push ebx                    ; struct multiboot_info * (physical: read via phys_to_virt)
    push esi                    ; loader's magic
    call kmain
    cli                         ; kmain does not return; stay put if it ever does
    hlt
    jmp $ - 1
