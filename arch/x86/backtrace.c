/*
 * backtrace.c - walks the chain of saved frame pointers to show who called whom.
 *
 * The kernel is built with frame pointers: every function starts with push ebp; mov ebp,
 * esp, so [ebp] is the caller's ebp and [ebp+4] the return address into the caller. The
 * walk checks every frame before reading it (mapped, aligned, moving up the stack), so it
 * can run on a corrupt stack during a crash without faulting again.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/paging.h"
#include "kernel/arch.h"
#include "kernel/log/printk.h"

#define MAX_FRAMES 24

/* True when an 8-byte frame record at fp can be read without a fault. */
static bool frame_readable(uintptr_t fp)
{
    return fp && !(fp & 3) && paging_is_mapped(fp) && paging_is_mapped(fp + 7);
}

/* The return address stored in a frame, or the real one if function_graph replaced it
 * with its return trampoline (the k-th such frame from the top is the k-th entry of its
 * return stack: hijacked_seen counts them). */
static uintptr_t frame_return(uintptr_t fp, int *hijacked_seen)
{
    uintptr_t ret = ((uintptr_t *)fp)[1];
    if (ret != (uintptr_t)return_to_handler || !ftrace_graph_unwinder)
        return ret;
    uintptr_t real = ftrace_graph_unwinder->real_return((*hijacked_seen)++);
    return real ? real : ret;
}

int arch_save_stack_trace(uintptr_t fp, uint32_t *out, int max)
{
    int n = 0, hijacked = 0;
    while (n < max && frame_readable(fp)) {
        uintptr_t caller_fp = ((uintptr_t *)fp)[0];
        uintptr_t ret = frame_return(fp, &hijacked);
        if (!ret)
            break;
        out[n++] = (uint32_t)ret;
        if (caller_fp <= fp)
            break;
        fp = caller_fp;
    }
    return n;
}

void arch_backtrace(uintptr_t fp)
{
    if (!fp)
        fp = *(uintptr_t *)read_ebp(); /* skip arch_backtrace's own frame */
    int shown = 0;
    uint32_t skipped = 0, repeats = 0;
    uintptr_t previous = 0;
    int hijacked = 0;
    while (frame_readable(fp)) {
        uintptr_t caller_fp = ((uintptr_t *)fp)[0];
        uintptr_t return_address = frame_return(fp, &hijacked);
        if (!return_address)
            break;
        if (return_address == previous) {
            repeats++; /* recursion: one line per run of identical frames */
        } else {
            if (repeats)
                printk("  ... the frame above repeats %u more times\n", repeats);
            repeats = 0;
            if (shown < MAX_FRAMES) {
                print_call_site(return_address);
                shown++;
            } else {
                skipped++;
            }
        }
        previous = return_address;
        if (caller_fp <= fp) /* frames must go up the stack, or the chain is broken */
            break;
        fp = caller_fp;
    }
    if (repeats)
        printk("  ... the frame above repeats %u more times\n", repeats);
    if (skipped)
        printk("  ... %u more frames\n", skipped);
}
