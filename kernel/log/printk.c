/*
 * printk.c - kernel messages to the console and the kernel log.
 */
#include "kernel/log/printk.h"

#include <stdbool.h>

#include "kernel/lib/format.h"
#include "kernel/log/klog.h"
#include "kernel/spinlock.h"
#include "kernel/lib/symbols.h"
#include "kernel/time.h"

#define PRINTK_MAX 512

static void (*console_write)(const char *text, size_t len);
static struct spinlock printk_lock = SPINLOCK_INIT("printk");
static bool emergency;

void printk_set_console(void (*write)(const char *, size_t)) { console_write = write; }

void printk_enter_emergency(void) { emergency = true; }

void vprintk(const char *fmt, va_list ap)
{
    char text[PRINTK_MAX];
    int n = kvsnprintf(text, sizeof text, fmt, ap);
    size_t len = (size_t)n < sizeof text ? (size_t)n : sizeof text - 1;

    unsigned long flags = 0;
    if (!emergency)
        flags = spin_lock_irqsave(&printk_lock);
    klog_write(text, len, time_ns());
    if (console_write)
        console_write(text, len);
    if (!emergency)
        spin_unlock_irqrestore(&printk_lock, flags);
}

void printk(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintk(fmt, ap);
    va_end(ap);
}

void print_symbol(uintptr_t addr)
{
    uint32_t offset, size;
    const char *name = symbol_lookup(kernel_symbols(), (uint32_t)addr, &offset, &size);
    if (name)
        printk("%s+%#x/%#x", name, offset, size);
    else
        printk("%#x", (unsigned)addr);
}

void print_call_site(uintptr_t addr)
{
    printk("  [<%08x>] ", (unsigned)addr);
    print_symbol(addr);
    printk("\n");
}
