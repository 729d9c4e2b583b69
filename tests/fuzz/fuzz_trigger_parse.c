/* fuzz_trigger_parse.c - arbitrary writes to an event's trigger file: parsing never reads
 * outside the text; a refusal is -EINVAL with a message and a position inside the text; an
 * accepted line's parts all lie inside the text, and its count is unlimited or in range. */
#include <stdint.h>
#include <stdlib.h>

#include "kernel/lib/errno.h"
#include "trace/events/trigger_parse.h"

static void check_inside(const char *p, size_t n, const uint8_t *data, size_t size)
{
    if (p && ((const uint8_t *)p < data || (const uint8_t *)p + n > data + size))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct trigger_spec spec;
    struct trigger_error err = { 0 };
    int r = trigger_parse((const char *)data, size, &spec, &err);
    if (r != 0) {
        if (r != -EINVAL || !err.message || err.pos > size)
            abort();
        return 0;
    }
    if (spec.kind >= TRIGGER_KINDS || !trigger_kind_name(spec.kind))
        abort();
    if (spec.count != TRIGGER_UNLIMITED && (spec.count < 0 || spec.count > TRIGGER_MAX_COUNT))
        abort();
    check_inside(spec.filter, spec.filter_len, data, size);
    check_inside(spec.system, spec.system_len, data, size);
    check_inside(spec.event, spec.event_len, data, size);
    if ((spec.kind == TRIGGER_ENABLE_EVENT || spec.kind == TRIGGER_DISABLE_EVENT) &&
        (!spec.system_len || !spec.event_len))
        abort();
    return 0;
}
