/* test_tk_trace_model.c - a capture decoded by the converter (tools/tkconvert/
 * trace_model.c): records of both CPUs merged by timestamp (ties: CPU, then page order),
 * lost-events marks where the pages' missed flags are, the first format of a repeated id
 * kept, records of unknown types and bad format files left out with a message. */
#include "unit.h"

#include <stdlib.h>

#include "tests/unit/tk_capture_build.h"
#include "tools/tkconvert/trace_model.h"
#include "trace/core/raw_page.h"

#define COMMON                                                                               \
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                  \
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                  \
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"          \
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char user_test[] = "name: test\nID: 330\nformat:\n" COMMON
                                "\tfield:u32 count;\toffset:8;\tsize:4;\tsigned:0;\n";
static const char other_330[] = "name: other\nID: 330\nformat:\n" COMMON;

static struct ring_records rr;
static uint64_t last_ts;

/* Starts the records of an EVENTS frame whose first record is at time. */
static void frame_start(uint64_t time)
{
    rr.len = 0;
    last_ts = time;
}

/* A record of type id by pid with count at ts (cycles, and ns with cb_clock_ns's clock). */
static void add(uint64_t ts, uint16_t id, int32_t pid, uint32_t count)
{
    uint8_t rec[12] = {0};
    memcpy(rec, &id, 2);
    memcpy(rec + 4, &pid, 4);
    memcpy(rec + 8, &count, 4);
    rr_event(&rr, ts - last_ts, rec, sizeof rec);
    last_ts = ts;
}

static struct capture_buf two_cpus(void)
{
    struct capture_buf b = {0};
    cb_start(&b, 2);
    cb_clock_ns(&b);
    cb_file(&b, "events/user_events/test/format", user_test);
    cb_file(&b, "events/user_events/other/format", other_330);
    cb_file(&b, "events/bad/broken/format", "name: broken\nID: 4\n\tfield:int;\n");
    cb_file(&b, "saved_cmdlines", "7 sh\n");
    frame_start(100);
    add(100, 330, 7, 1);
    add(300, 330, 7, 3);
    add(300, 330, 7, 4); /* same time: stays after its predecessor */
    add(310, 999, 7, 0); /* no format: left out */
    cb_events(&b, 0, 100, 0, 0, rr.bytes, rr.len);
    frame_start(300);
    add(300, 330, 9, 5); /* a tie with cpu0's: after them */
    add(400, 330, 9, 6);
    cb_events(&b, 1, 300, 0, 0, rr.bytes, rr.len);
    frame_start(50);
    add(50, 330, 9, 2); /* cpu1's clock behind: merged by time; the loss starts a page */
    cb_events(&b, 1, 50, 0, 12, rr.bytes, rr.len);
    return b;
}

TEST(records_merge_across_cpus_by_time_with_lost_marks)
{
    struct capture_buf b = two_cpus();
    struct capture c;
    struct tk_trace t;
    char err[160];
    CHECK_EQ_INT(capture_read(&c, b.bytes, b.len, 0, err, sizeof err), 0);
    FILE *warn = tmpfile();
    CHECK_EQ_INT(tk_trace_load(&t, &c, warn, err, sizeof err), 0);
    CHECK_EQ_INT(t.nr_formats, 1);
    CHECK_EQ_STR(t.formats[0].name, "test");
    CHECK(tk_trace_by_id(&t, 330) == &t.formats[0]);
    CHECK(tk_trace_by_id(&t, 4) == NULL);
    /* lost(12)@50 cpu1, 2@50 cpu1, 1@100, 3@300, 4@300, 5@300 cpu1, 6@400 */
    static const uint32_t counts[] = {0, 2, 1, 3, 4, 5, 6};
    static const uint64_t times[] = {50, 50, 100, 300, 300, 300, 400};
    CHECK_EQ_INT(t.nr_records, 7);
    for (size_t i = 0; i < t.nr_records && i < 7; i++) {
        const struct tk_record *r = &t.records[i];
        CHECK_EQ_INT(r->ts, times[i]);
        if (i == 0) {
            CHECK(r->kind == TK_RECORD_LOST);
            CHECK_EQ_INT(r->lost, 12);
            CHECK_EQ_INT(r->cpu, 1);
            CHECK_EQ_INT(r->page, 1); /* the page whose missed flag it is */
            continue;
        }
        uint32_t count;
        memcpy(&count, r->data + 8, 4);
        CHECK_EQ_INT(count, counts[i]);
        CHECK_EQ_INT(r->pid, count >= 5 || count == 2 ? 9 : 7);
    }
    CHECK_EQ_INT(t.cpu[0].events, 3);
    CHECK_EQ_INT(t.cpu[0].unknown_records, 1);
    CHECK_EQ_INT(t.cpu[1].events, 3);
    CHECK_EQ_INT(t.cpu[1].lost, 12);
    CHECK_EQ_INT(t.nr_cpu_records[1], 4); /* 2 events; the lost mark and 1 event */
    CHECK(t.pages[1] && t.pages[1][1].whole && t.pages[1][1].stamp == 50);
    CHECK_EQ_STR(tk_comms_lookup(&t.comms, 7), "sh");

    char messages[2048] = "";
    rewind(warn);
    messages[fread(messages, 1, sizeof messages - 1, warn)] = '\0';
    CHECK(strstr(messages, "events/user_events/other/format: an ID another format has") != NULL);
    CHECK(strstr(messages, "events/bad/broken/format: line 3: a field line that does not parse") != NULL);
    CHECK(strstr(messages, "cpu0: 1 records of a type no format file describes") != NULL);
    fclose(warn);
    tk_trace_free(&t);
    capture_free(&c);
    free(b.bytes);
}
