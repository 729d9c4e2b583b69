/*
 * tracer_nop.c - the tracer that traces nothing by itself. With it current, the buffer
 * still takes markers (trace_marker) and events other parts of the kernel record, and the
 * trace files show them in Linux's default format.
 */
#include "kernel/init.h"
#include "trace/trace.h"

static struct tracer nop_tracer = { .name = "nop" };

/* Registers nop and brings the tracing core up: nop must exist before the first switch. */
static void tracing_setup(void)
{
    register_tracer(&nop_tracer);
    trace_init();
}
INITCALL(tracing_setup);
