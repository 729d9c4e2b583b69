/*
 * irq_events.h - irq/irq_handler_entry and irq_handler_exit with Linux 6.1's fields and
 * print formats (include/trace/events/irq.h), recorded around each PIC line's handler
 * (arch/x86/trap.c); the name is the one /proc/interrupts shows for the line.
 * Each costs one load and a branch while off (tracepoint.h).
 */
#ifndef TRACE_EVENTS_IRQ_EVENTS_H
#define TRACE_EVENTS_IRQ_EVENTS_H

#include <stdbool.h>

#include "trace/events/tracepoint.h"

extern struct trace_event_call event_irq_handler_entry, event_irq_handler_exit;

void record_irq_handler_entry(int irq, const char *name);
void record_irq_handler_exit(int irq, bool handled);

/* The handler of line irq (called name) is about to run. */
static inline void trace_irq_handler_entry(int irq, const char *name)
{
    if (tracepoint_enabled(event_irq_handler_entry))
        record_irq_handler_entry(irq, name);
}

/* The handler of line irq returned; handled is false when the line had none. */
static inline void trace_irq_handler_exit(int irq, bool handled)
{
    if (tracepoint_enabled(event_irq_handler_exit))
        record_irq_handler_exit(irq, handled);
}

#endif
