/*
 * trace_commands.c - console commands of the tracing core.
 *
 *   markers COUNT [TEXT]   writes COUNT markers "TEXT 0" ... "TEXT COUNT-1" as fast as it
 *                          can: a load to size the buffer with (is anything lost at this
 *                          rate and size?) and the tests' way to overflow it on purpose.
 *                          ^C stops it (it checks before every marker). Markers written
 *                          while tracing_on is 0 are not recorded, and it says so.
 */
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/parse.h"
#include "kernel/proc/sched.h"
#include "kernel/shell/shell.h"
#include "kernel/lib/string.h"
#include "trace/core/trace.h"

/* Prints what became of count markers of which not_recorded were written while tracing was
 * off; 0, or SHELL_FAILED when some were not recorded (a silent "wrote" would mislead). */
static int report_markers(struct fs_writer *out, uint64_t count, uint64_t not_recorded)
{
    if (!not_recorded) {
        fs_printf(out, "markers: wrote %llu\n", (unsigned long long)count);
        return 0;
    }
    fs_printf(out, "markers: tracing is off (tracing_on is 0): recorded %llu of %llu\n",
              (unsigned long long)(count - not_recorded), (unsigned long long)count);
    return SHELL_FAILED;
}

static int cmd_markers(int argc, char **argv, struct fs_writer *out)
{
    if (argc < 2 || argc > 3)
        return SHELL_USAGE;
    uint64_t count;
    if (parse_uint(argv[1], strlen(argv[1]), &count) || count > 100000000)
        return SHELL_USAGE;
    const char *text = argc == 3 ? argv[2] : "marker";
    char line[TRACE_MARKER_MAX];
    uint64_t not_recorded = 0; /* written while tracing was off */
    for (uint64_t i = 0; i < count; i++) {
        if (shell_interrupted()) {
            fs_printf(out, "markers: wrote %llu of %llu\n", (unsigned long long)i,
                      (unsigned long long)count);
            return -EINTR;
        }
        cond_resched();
        int n = ksnprintf(line, sizeof line, "%s %llu", text, (unsigned long long)i);
        if (!trace_enabled())
            not_recorded++;
        tracing_mark_write(line, (uint32_t)(n < (int)sizeof line ? n : (int)sizeof line - 1));
    }
    return report_markers(out, count, not_recorded);
}
SHELL_COMMAND("markers", "markers COUNT [TEXT]", "write COUNT trace markers \"TEXT i\" (a load for the buffer)", cmd_markers);

