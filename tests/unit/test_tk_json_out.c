/* test_tk_json_out.c - the converter's trace.json writer (tools/tkconvert/json_out.c) on
 * records built here: a hostile run of function_graph entries and exits that close nothing
 * converts in linear time, open calls bounded by TK_JSON_MAX_OPEN; and the idle task gets
 * a track per CPU, so its slices on two CPUs do not share one. */
#include "unit.h"

#include <stdlib.h>

#include "tools/tkconvert/json_out.h"

#define COMMON                                                                               \
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                  \
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                  \
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"          \
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* The guest's funcgraph_entry (id 5) and funcgraph_exit (id 6). */
static const char entry_format[] = "name: funcgraph_entry\nID: 5\nformat:\n" COMMON
    "\tfield:unsigned long func;\toffset:8;\tsize:4;\tsigned:0;\n"
    "\tfield:int depth;\toffset:12;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned long long calltime;\toffset:16;\tsize:8;\tsigned:0;\n";
static const char exit_format[] = "name: funcgraph_exit\nID: 6\nformat:\n" COMMON
    "\tfield:unsigned long func;\toffset:8;\tsize:4;\tsigned:0;\n"
    "\tfield:int depth;\toffset:12;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned long long calltime;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long long rettime;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned int overrun;\toffset:32;\tsize:4;\tsigned:0;\n";

#define RECORD_BYTES 36

/* A trace of nr records (filled by the test) with the two formats. */
static void make_trace(struct tk_trace *t, size_t nr, unsigned nr_cpus, uint8_t **data)
{
    char err[160];
    memset(t, 0, sizeof *t);
    t->formats = calloc(2, sizeof *t->formats);
    CHECK(t->formats != NULL);
    CHECK_EQ_INT(tk_format_parse(&t->formats[0], "ftrace", entry_format, strlen(entry_format), err, sizeof err), 0);
    CHECK_EQ_INT(tk_format_parse(&t->formats[1], "ftrace", exit_format, strlen(exit_format), err, sizeof err), 0);
    t->nr_formats = 2;
    t->records = calloc(nr, sizeof *t->records);
    *data = calloc(nr, RECORD_BYTES);
    CHECK(t->records && *data);
    t->nr_records = nr;
    t->nr_cpus = nr_cpus;
}

/* Record i: a funcgraph entry (exit: false) or exit of depth on cpu by pid at ts. */
static void set_record(struct tk_trace *t, uint8_t *data, size_t i, bool exit, uint32_t cpu,
                       int32_t pid, int32_t depth, uint64_t ts)
{
    uint8_t *rec = data + i * RECORD_BYTES;
    uint16_t type = exit ? 6 : 5;
    uint32_t func = 0xc0100000;
    memcpy(rec, &type, 2);
    memcpy(rec + 4, &pid, 4);
    memcpy(rec + 8, &func, 4);
    memcpy(rec + 12, &depth, 4);
    memcpy(rec + 16, exit ? &(uint64_t){ts - 50} : &ts, 8);
    memcpy(rec + 24, &ts, 8);
    t->records[i] = (struct tk_record){.ts = ts, .cpu = cpu, .seq = (uint32_t)i,
                                       .kind = TK_RECORD_EVENT, .format = &t->formats[exit],
                                       .data = rec, .length = exit ? 36 : 24, .pid = pid};
}

static void free_trace(struct tk_trace *t, uint8_t *data)
{
    for (size_t i = 0; i < t->nr_formats; i++)
        tk_format_free(&t->formats[i]);
    free(t->formats);
    free(t->records);
    free(data);
}

/* Occurrences of what in text (by hand: ASan's strstr measures the whole text each call). */
static size_t count(const char *text, const char *what)
{
    size_t n = 0, k = strlen(what);
    for (const char *p = text; *p; p++)
        if (*p == *what && strncmp(p, what, k) == 0)
            n++;
    return n;
}

/* The JSON written of t, NUL-terminated. */
static char *write_json(const struct tk_trace *t)
{
    FILE *out = tmpfile();
    CHECK(out != NULL);
    CHECK_EQ_INT(tk_json_write(t, out), 0);
    long len = ftell(out);
    char *json = malloc((size_t)len + 1);
    rewind(out);
    CHECK(json && fread(json, 1, (size_t)len, out) == (size_t)len);
    json[len] = '\0';
    fclose(out);
    return json;
}

/* 200000 nested entries, then 200000 exits of depths no entry had: only TK_JSON_MAX_OPEN
 * calls stay open, so each exit searches at most that many, not the 200000 (which took
 * minutes: the counts below show the bound, no clock is read). */
TEST(entries_then_unmatched_exits_convert_in_linear_time)
{
    enum { N = 200000 };
    struct tk_trace t;
    uint8_t *data;
    make_trace(&t, 2 * N, 1, &data);
    for (size_t i = 0; i < N; i++)
        set_record(&t, data, i, false, 0, 5, (int32_t)i, 1000 + i);
    for (size_t i = 0; i < N; i++)
        set_record(&t, data, N + i, true, 0, 5, (int32_t)(N + i), 1000 + N + i);
    char *json = write_json(&t);
    CHECK_EQ_INT(count(json, "\"ph\":\"B\""), TK_JSON_MAX_OPEN); /* open at the end */
    CHECK_EQ_INT(count(json, "\"ph\":\"X\""), 0);
    CHECK_EQ_INT(count(json, "\"ph\":\"i\""), 2 * N - TK_JSON_MAX_OPEN);
    free(json);
    free_trace(&t, data);
}

/* The idle task (pid 0) of CPUs 0 and 1 runs a call each, overlapping in time: two tracks,
 * "<idle>/0" and "<idle>/1", one slice on each. */
TEST(idle_task_gets_a_track_per_cpu)
{
    struct tk_trace t;
    uint8_t *data;
    make_trace(&t, 4, 2, &data);
    set_record(&t, data, 0, false, 0, 0, 0, 100);
    set_record(&t, data, 1, false, 1, 0, 0, 150);
    set_record(&t, data, 2, true, 0, 0, 0, 200);
    set_record(&t, data, 3, true, 1, 0, 0, 250);
    char *json = write_json(&t);
    CHECK(strstr(json, "\"ph\":\"X\",\"ts\":0.100,\"pid\":0,\"tid\":1000000000,\"dur\":0.100") != NULL);
    CHECK(strstr(json, "\"ph\":\"X\",\"ts\":0.150,\"pid\":0,\"tid\":1000000001,\"dur\":0.100") != NULL);
    CHECK(strstr(json, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":1000000001,"
                       "\"args\":{\"name\":\"<idle>/1\"}}") != NULL);
    CHECK(strstr(json, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":1000000000,"
                       "\"args\":{\"name\":\"<idle>/0\"}}") != NULL);
    free(json);
    free_trace(&t, data);
}
