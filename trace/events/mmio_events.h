/*
 * mmio_events.h - mmio/mmio_rw and mmio/mmio_map: the mmiotrace records (trace/mmiotrace/)
 * as events with fields, so that `filter` and `trigger` act on them like on any event:
 *
 *   echo 'addr == 0xfea00020' > events/mmio/mmio_rw/filter
 *   echo mmiotrace > current_tracer; modprobe edu      only STATUS accesses are recorded
 *
 * Each event's record is the mmiotrace record (struct mmiotrace_rw_entry,
 * mmiotrace_map_entry), byte for byte; its fields name what a device developer filters on:
 * addr (the physical address), value, width, rw, pc, map_id. Who records them:
 *  - the mmiotrace tracer, while it is current: every access to the mappings it traces,
 *    with its own record types (ftrace/mmiotrace_rw, mmiotrace_map: its log lines, raw
 *    readers and captures unchanged), whether or not the event is enabled;
 *  - otherwise the event itself, while enabled: enabling either arms the mmiotrace fault
 *    path for mappings made from then on (as selecting the tracer does; Linux also traces
 *    only mappings made while tracing), and the records carry the event's id and print as
 *    "mmio_rw: rw=R width=4 addr=0x... value=0x... pc=0x... map_id=N".
 * Either way the event's filter runs before the record takes room in the buffer
 * (trace/mmiotrace/mmiotrace.c), so a rejected access is neither recorded nor counted lost.
 */
#ifndef TRACE_EVENTS_MMIO_EVENTS_H
#define TRACE_EVENTS_MMIO_EVENTS_H

#include "trace/events/tracepoint.h"

extern struct trace_event_call event_mmio_rw, event_mmio_map;

#endif
