/* test_trigger_parse.c - lines written to an event's trigger file, taken apart as Linux's
 * trace_events_trigger.c does: command, count, enable_event's target, the filter after
 * "if", removal with '!', and the refusals (each -EINVAL with a message and a position
 * inside the text). */
#include "unit.h"

#include "kernel/lib/errno.h"
#include "trace/events/trigger_parse.h"

static struct trigger_spec spec;
static struct trigger_error err;

static int parse(const char *text)
{
    err = (struct trigger_error){ 0 };
    return trigger_parse(text, strlen(text), &spec, &err);
}

static int same(const char *p, size_t n, const char *want)
{
    return p && strlen(want) == n && strncmp(p, want, n) == 0;
}

TEST(plain_commands_are_unlimited_without_filter)
{
    CHECK_EQ_INT(parse("traceoff\n"), 0);
    CHECK_EQ_INT(spec.kind, TRIGGER_TRACEOFF);
    CHECK_EQ_INT(spec.count, TRIGGER_UNLIMITED);
    CHECK(!spec.remove);
    CHECK(spec.filter == NULL);
    CHECK_EQ_INT(parse("  stacktrace  "), 0);
    CHECK_EQ_INT(spec.kind, TRIGGER_STACKTRACE);
    CHECK_EQ_INT(parse("snapshot"), 0);
    CHECK_EQ_INT(spec.kind, TRIGGER_SNAPSHOT);
}

TEST(count_and_filter_as_linux_writes_them)
{
    CHECK_EQ_INT(parse("traceoff:1 if status == 0"), 0);
    CHECK_EQ_INT(spec.kind, TRIGGER_TRACEOFF);
    CHECK_EQ_INT(spec.count, 1);
    CHECK(same(spec.filter, spec.filter_len, "status == 0"));
    CHECK_EQ_INT(parse("traceon:0x10"), 0);
    CHECK_EQ_INT(spec.count, 16);
    CHECK_EQ_INT(parse("traceon:010"), 0);
    CHECK_EQ_INT(spec.count, 8);
    CHECK_EQ_INT(parse("traceon:5:junk"), 0); /* Linux ignores what follows a second ':' */
    CHECK_EQ_INT(spec.count, 5);
    CHECK_EQ_INT(parse("traceon if fd == 1"), 0);
    CHECK_EQ_INT(spec.count, TRIGGER_UNLIMITED);
    CHECK(same(spec.filter, spec.filter_len, "fd == 1"));
    CHECK_EQ_INT(parse("traceon:if\tfd == 1 "), 0);
    CHECK(same(spec.filter, spec.filter_len, "fd == 1"));
}

TEST(enable_event_takes_a_target_and_a_count)
{
    CHECK_EQ_INT(parse("enable_event:syscalls:sys_enter_read:2 if fd == 0"), 0);
    CHECK_EQ_INT(spec.kind, TRIGGER_ENABLE_EVENT);
    CHECK(same(spec.system, spec.system_len, "syscalls"));
    CHECK(same(spec.event, spec.event_len, "sys_enter_read"));
    CHECK_EQ_INT(spec.count, 2);
    CHECK(same(spec.filter, spec.filter_len, "fd == 0"));
    CHECK_EQ_INT(parse("disable_event:sched:sched_switch"), 0);
    CHECK_EQ_INT(spec.kind, TRIGGER_DISABLE_EVENT);
    CHECK_EQ_INT(spec.count, TRIGGER_UNLIMITED);
}

TEST(bang_removes_and_ignores_the_count)
{
    CHECK_EQ_INT(parse("!traceoff:junk"), -EINVAL); /* not a number, not "if": refused */
    CHECK_EQ_INT(parse("!traceoff:1"), 0);
    CHECK(spec.remove);
    CHECK_EQ_INT(parse("!enable_event:a:b:zz"), 0);
    CHECK(spec.remove);
}

TEST(refusals_point_into_the_text)
{
    const char *bad[] = { "", "   ", "bogus", "traceoff:x", "traceoff:1 when x", "traceoff if",
                          "traceoff:99999999999", "enable_event", "enable_event:sys",
                          "enable_event::ev", "enable_event:sys:", "enable_event:a:b:c",
                          "traceon:-1", "!", "traceon extra" };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ_INT(parse(bad[i]), -EINVAL);
        CHECK(err.message != NULL);
        CHECK(err.pos <= strlen(bad[i]));
    }
    CHECK_EQ_INT(parse("bogus"), -EINVAL);
    CHECK(strcmp(err.message, "Unknown trigger command") == 0);
    CHECK_EQ_INT(parse("traceoff:1 when x"), -EINVAL);
    CHECK_EQ_INT(err.pos, 11);
}

TEST(kinds_have_linux_types_and_post_flags)
{
    CHECK_EQ_INT(trigger_kind_type(TRIGGER_TRACEON), trigger_kind_type(TRIGGER_TRACEOFF));
    CHECK_EQ_INT(trigger_kind_type(TRIGGER_ENABLE_EVENT), trigger_kind_type(TRIGGER_DISABLE_EVENT));
    CHECK(trigger_kind_type(TRIGGER_SNAPSHOT) != trigger_kind_type(TRIGGER_STACKTRACE));
    CHECK(trigger_kind_is_post(TRIGGER_TRACEOFF));
    CHECK(trigger_kind_is_post(TRIGGER_STACKTRACE));
    CHECK(!trigger_kind_is_post(TRIGGER_TRACEON));
    CHECK(!trigger_kind_is_post(TRIGGER_SNAPSHOT));
}

TEST(too_long_is_refused)
{
    static char text[TRIGGER_MAX_TEXT + 10];
    memset(text, ' ', sizeof text - 1);
    memcpy(text, "traceon if ", 11);
    memset(text + 11, 'a', sizeof text - 12);
    CHECK_EQ_INT(trigger_parse(text, sizeof text - 1, &spec, &err), -EINVAL);
}

TEST(hist_takes_its_spec_and_a_filter)
{
    CHECK_EQ_INT(parse("hist:keys=id.syscall:vals=hitcount if id != 4"), 0);
    CHECK_EQ_INT(spec.kind, TRIGGER_HIST);
    CHECK(same(spec.param, spec.param_len, "keys=id.syscall:vals=hitcount"));
    CHECK(same(spec.filter, spec.filter_len, "id != 4"));
    CHECK_EQ_INT(spec.count, TRIGGER_UNLIMITED);
    CHECK(trigger_kind_needs_record(TRIGGER_HIST));
    CHECK(!trigger_kind_is_post(TRIGGER_HIST));
    CHECK_EQ_INT(parse("!hist:keys=id"), 0);
    CHECK(spec.remove);
    CHECK_EQ_INT(parse("hist"), -EINVAL);
    CHECK_EQ_INT(parse("hist keys=id"), -EINVAL);
}
