/* test_tk_trace_meta.c - kallsyms and saved_cmdlines as the converter reads them
 * (tools/tkconvert/trace_meta.c): addresses to the function holding them, pids to comms,
 * bad lines counted and skipped. */
#include "unit.h"

#include "tools/tkconvert/trace_meta.h"

TEST(addresses_name_the_function_holding_them)
{
    static const char text[] = "c0100100 T do_work\nc0100000 T kmain\nnot a line\nc0100200 t helper\n";
    struct tk_symbols s;
    CHECK_EQ_INT(tk_symbols_parse(&s, text, strlen(text)), 0);
    CHECK_EQ_INT(s.n, 3);
    CHECK_EQ_INT(s.bad_lines, 1);
    CHECK(tk_symbols_lookup(&s, 0xbfffffff) == NULL);
    CHECK_EQ_STR(tk_symbols_lookup(&s, 0xc0100000), "kmain");
    CHECK_EQ_STR(tk_symbols_lookup(&s, 0xc01000ff), "kmain");
    CHECK_EQ_STR(tk_symbols_lookup(&s, 0xc0100104), "do_work");
    CHECK_EQ_STR(tk_symbols_lookup(&s, 0xc0100234), "helper");
    CHECK(tk_symbols_lookup(&s, 0xc0100200 + (1u << 20)) == NULL);
    tk_symbols_free(&s);
}

TEST(pids_name_their_programs)
{
    static const char text[] = "1 init\n7 sh\n9 \n-3 bad\n7 busybox\n12 my prog";
    struct tk_comms c;
    CHECK_EQ_INT(tk_comms_parse(&c, text, strlen(text)), 0);
    CHECK_EQ_INT(c.n, 3);
    CHECK_EQ_INT(c.bad_lines, 2);
    CHECK_EQ_STR(tk_comms_lookup(&c, 1), "init");
    CHECK_EQ_STR(tk_comms_lookup(&c, 7), "busybox"); /* the later line */
    CHECK_EQ_STR(tk_comms_lookup(&c, 12), "my prog");
    CHECK(tk_comms_lookup(&c, 2) == NULL);
    tk_comms_free(&c);
}
