/*
 * tracer_nop.c - the tracer that traces nothing by itself. With it current, the buffer
 * still takes markers (trace_marker) and events other parts of the kernel record, and the
 * trace files show them in Linux's default format.
 */
#include "kernel/init.h"
#include "trace/core/trace.h"

static struct tracer nop_tracer = { .name = "nop" };

/* Makes nop selectable; the core starts with it (trace_init, a late initcall: after every tracer's). */
static void nop_setup(void) { register_tracer(&nop_tracer); }
INITCALL(trace, nop_setup);
