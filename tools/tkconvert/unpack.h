/*
 * unpack.h - writes a capture out as an unpacked capture (tracedat.h's layout): each FILE
 * frame at ROOT/sys/kernel/tracing/PATH (or ROOT/PATH for an absolute path) and each CPU's
 * pages appended as ROOT/sys/kernel/tracing/per_cpu/cpuN/trace_pipe_raw.
 *
 * Paths come from the capture and are hostile: "..", ".", empty components, control
 * characters and over-long paths are refused, and every directory is opened without
 * following symbolic links, so nothing is written outside ROOT.
 */
#ifndef TOOLS_TKCONVERT_UNPACK_H
#define TOOLS_TKCONVERT_UNPACK_H

#include <stddef.h>
#include <stdio.h>

#include "tools/tkconvert/capture.h"

#define UNPACK_TRACEFS "sys/kernel/tracing/"
#define UNPACK_PATH_MAX 1024u

/* The path under ROOT where the capture's path goes, in out. Returns 0, or -1 with the
 * reason in out when the path is refused. Portable: tests/unit/test_tk_unpack.c. */
int unpack_path(const char *capture_path, char *out, size_t outlen);
/* 0 when root is missing or an empty directory; -1 with err set when it holds anything:
 * --unpack refuses such a DIR, whose files of an older capture (a format, a per_cpu/cpuN)
 * trace-cmd restore would read with this capture's. */
int unpack_root_unused(const char *root, char *err, size_t errlen);
/* Writes c under root (created if missing). A refused or unwritable file is reported on
 * warn and skipped. Returns the number of files written, or -1 with err set when root
 * cannot be made. */
int unpack_capture(const struct capture *c, const char *root, FILE *warn, char *err, size_t errlen);

#endif
