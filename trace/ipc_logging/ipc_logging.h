/*
 * ipc_logging.h - what IPC logging's implementation (ipc_logging.c) and its tests see: the
 * kernel's logging API (kernel/log/ipc_logging.h, where the users of the service include
 * it) and the page format with its event encoder (ipc_log_page.h), which ipc_log_write
 * takes events in.
 */
#ifndef TRACE_IPC_LOGGING_IPC_LOGGING_H
#define TRACE_IPC_LOGGING_IPC_LOGGING_H

#include "kernel/log/ipc_logging.h"
#include "trace/ipc_logging/ipc_log_page.h"

#endif
