/*
 * tls.c - thread-local storage segments as Linux i386 gives them (arch/x86/kernel/tls.c):
 * every process has three GDT descriptors of its own, slots 6..8 (selectors 0x33, 0x3b,
 * 0x43), which set_thread_area fills from a struct user_desc and get_thread_area reads
 * back. glibc and musl point %gs at one of them for their thread pointer.
 *
 * A program can describe only a present 32-bit ring-3 data segment (or an empty slot):
 * the descriptor's DPL and S bit are the kernel's, never the program's, and code, 16-bit
 * and not-present segments are refused with EINVAL as Linux refuses them. The slots are
 * loaded at every switch to a user process (arch_switch_to), kept across fork, cleared by
 * execve.
 */
#include "arch/x86/gdt.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/task_internal.h"
#include "kernel/syscall/syscall_handlers.h"
#include "uapi/user_desc.h"

/* Linux's LDT_empty: the documented way to ask for "no segment". */
static bool desc_empty(const struct user_desc *u)
{
    return u->base_addr == 0 && u->limit == 0 && u->contents == 0 && u->read_exec_only == 1 &&
           u->seg_32bit == 0 && u->limit_in_pages == 0 && u->seg_not_present == 1 &&
           u->useable == 0;
}

/* Linux's LDT_zero: everything zero but the entry number, which programs also use to
 * clear a slot. */
static bool desc_zero(const struct user_desc *u)
{
    return u->base_addr == 0 && u->limit == 0 && u->contents == 0 && u->read_exec_only == 0 &&
           u->seg_32bit == 0 && u->limit_in_pages == 0 && u->seg_not_present == 0 &&
           u->useable == 0;
}

/* Linux's tls_desc_okay: only empty slots and present 32-bit data segments. */
static bool desc_allowed(const struct user_desc *u)
{
    if (desc_empty(u) || desc_zero(u))
        return true;
    return u->seg_32bit && u->contents <= 1 && !u->seg_not_present;
}

/* The GDT descriptor for u (Linux's fill_ldt): always S=1 (code/data), DPL 3, accessed. */
static uint64_t desc_encode(const struct user_desc *u)
{
    if (desc_empty(u) || desc_zero(u))
        return 0;
    uint32_t type = 1u | ((u->read_exec_only ^ 1u) << 1) | (u->contents << 2);
    uint64_t d = u->limit & 0xffffu;
    d |= (uint64_t)(u->base_addr & 0xffffffu) << 16;
    d |= (uint64_t)type << 40;
    d |= (uint64_t)1 << 44;                 /* S: code or data */
    d |= (uint64_t)3 << 45;                 /* DPL 3 */
    d |= (uint64_t)(u->seg_not_present ^ 1u) << 47;
    d |= (uint64_t)((u->limit >> 16) & 0xfu) << 48;
    d |= (uint64_t)u->useable << 52;
    d |= (uint64_t)u->seg_32bit << 54;
    d |= (uint64_t)u->limit_in_pages << 55;
    d |= (uint64_t)(u->base_addr >> 24) << 56;
    return d;
}

/* The user_desc a descriptor reads back as (Linux's fill_user_desc). */
static void desc_decode(uint64_t d, unsigned idx, struct user_desc *u)
{
    memset(u, 0, sizeof *u);
    u->entry_number = idx;
    u->base_addr = (uint32_t)((d >> 16) & 0xffffffu) | (uint32_t)(d >> 56) << 24;
    u->limit = (uint32_t)(d & 0xffffu) | (uint32_t)((d >> 48) & 0xfu) << 16;
    uint32_t type = (uint32_t)(d >> 40) & 0xfu;
    u->seg_32bit = (d >> 54) & 1;
    u->contents = type >> 2;
    u->read_exec_only = !(type & 2);
    u->limit_in_pages = (d >> 55) & 1;
    u->seg_not_present = !((d >> 47) & 1);
    u->useable = (d >> 52) & 1;
}

/* set_thread_area(u_info): Linux's order of checks (EFAULT, EINVAL for the descriptor, ESRCH
 * when -1 finds no free slot, EFAULT writing the slot back, EINVAL for the slot). */
SYSCALL_HANDLER(set_thread_area)
{
    struct user_desc u;
    if (copy_from_user(&u, a[0], sizeof u))
        return -EFAULT;
    if (!desc_allowed(&u))
        return -EINVAL;
    unsigned idx = u.entry_number;
    if (idx == (unsigned)-1) {
        for (idx = GDT_TLS_FIRST; idx < GDT_TLS_FIRST + GDT_TLS_ENTRIES; idx++)
            if (current->arch.tls[idx - GDT_TLS_FIRST] == 0)
                break;
        if (idx == GDT_TLS_FIRST + GDT_TLS_ENTRIES)
            return -ESRCH;
        if (copy_to_user(a[0], &idx, sizeof idx))
            return -EFAULT;
    }
    if (idx < GDT_TLS_FIRST || idx >= GDT_TLS_FIRST + GDT_TLS_ENTRIES)
        return -EINVAL;
    unsigned long flags = arch_irq_save();
    uint64_t *tls = current->arch.tls;
    tls[idx - GDT_TLS_FIRST] = desc_encode(&u);
    current->arch.tls_used = (tls[0] | tls[1] | tls[2]) != 0;
    gdt_load_tls(tls); /* the return to ring 3 reloads the selectors */
    arch_irq_restore(flags);
    return 0;
}

/* get_thread_area(u_info): the slot named by u_info->entry_number, read back. */
SYSCALL_HANDLER(get_thread_area)
{
    unsigned idx;
    if (copy_from_user(&idx, a[0], sizeof idx))
        return -EFAULT;
    if (idx < GDT_TLS_FIRST || idx >= GDT_TLS_FIRST + GDT_TLS_ENTRIES)
        return -EINVAL;
    struct user_desc u;
    desc_decode(current->arch.tls[idx - GDT_TLS_FIRST], idx, &u);
    return copy_to_user(a[0], &u, sizeof u) ? -EFAULT : 0;
}
