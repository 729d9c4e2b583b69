/* fuzz_trace_pid_list.c - trace_pid_list_parse on arbitrary bytes: never reads outside the
 * input, and what it accepts is consistent: the count matches the bits, every listed pid
 * is below TRACE_PID_MAX, and each blank-separated word of an accepted text is listed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/parse.h"
#include "trace/core/trace_pid_list.h"

static struct trace_pid_list list;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trace_pid_list_clear(&list);
    if (trace_pid_list_parse(&list, (const char *)data, size) != 0)
        return 0;
    uint32_t count = 0;
    for (int32_t p = trace_pid_list_next(&list, 0); p >= 0; p = trace_pid_list_next(&list, p + 1)) {
        if (p >= TRACE_PID_MAX || !trace_pid_list_has(&list, p))
            abort();
        count++;
    }
    if (count != list.count)
        abort();
    /* Accepted: every word is a pid, so a text with a word has at least one pid listed. */
    for (size_t i = 0; i < size; i++)
        if (!is_space((char)data[i]) && list.count == 0)
            abort();
    return 0;
}
