/*
 * trace_commands.c - console commands of the tracing core.
 *
 *   markers COUNT [TEXT]   writes COUNT markers "TEXT 0" ... "TEXT COUNT-1" as fast as it
 *                          can: a load to size the buffer with (is anything lost at this
 *                          rate and size?) and the tests' way to overflow it on purpose.
 *                          ^C stops it (it checks before every marker).
 */
#include "kernel/errno.h"
#include "kernel/format.h"
#include "kernel/parse.h"
#include "kernel/sched.h"
#include "kernel/shell.h"
#include "kernel/string.h"
#include "trace/trace.h"

static int cmd_markers(int argc, char **argv, struct fs_writer *out)
{
    if (argc < 2 || argc > 3)
        return SHELL_USAGE;
    uint64_t count;
    if (parse_uint(argv[1], strlen(argv[1]), &count) || count > 100000000)
        return SHELL_USAGE;
    const char *text = argc == 3 ? argv[2] : "marker";
    char line[TRACE_MARKER_MAX];
    for (uint64_t i = 0; i < count; i++) {
        if (shell_interrupted()) {
            fs_printf(out, "markers: wrote %llu of %llu\n", (unsigned long long)i,
                      (unsigned long long)count);
            return -EINTR;
        }
        cond_resched();
        int n = ksnprintf(line, sizeof line, "%s %llu", text, (unsigned long long)i);
        trace_marker_write(line, (uint32_t)(n < (int)sizeof line ? n : (int)sizeof line - 1));
    }
    fs_printf(out, "markers: wrote %llu\n", (unsigned long long)count);
    return 0;
}
SHELL_COMMAND("markers", "markers COUNT [TEXT]", "write COUNT trace markers \"TEXT i\" (a load for the buffer)", cmd_markers);

