/* test_line_edit.c - unit tests for kernel/shell/line_edit.c. */
#include "unit.h"

#include "kernel/shell/line_edit.h"

#define UP "\x1b[A"
#define DOWN "\x1b[B"
#define RIGHT "\x1b[C"
#define LEFT "\x1b[D"
#define ERASE "\b \b"

/* An editor and everything it said: the echo, the finished lines and the last event. */
struct session {
    struct line_editor le;
    char echo[8 * SHELL_LINE_MAX]; /* all echo of the bytes typed since the last take_echo() */
    size_t echo_len;
    char lines[4 * SHELL_LINE_MAX]; /* each LINE_DONE line followed by '|', each cancel as
                                     * "^C|", each line too long as "!|" */
    size_t lines_len;
    int done;
    int cancelled;
    int too_long;
    int completions;
    enum line_event last;
    size_t largest_echo;   /* most echo one byte ever produced */
};

static struct session s;

/* Starts a fresh editor and forgets all recorded output. */
static void start(void)
{
    memset(&s, 0, sizeof s);
    line_edit_init(&s.le);
}

/* Records the finished line or the cancel that event reports. */
static void record_event(enum line_event event)
{
    const char *text = event == LINE_DONE ? s.le.line : event == LINE_TOO_LONG ? "!" : "^C";
    size_t n = strlen(text);

    s.last = event;
    if (event == LINE_PENDING)
        return;
    if (event == LINE_COMPLETE) {
        s.completions++;
        return;
    }
    if (event == LINE_DONE) {
        s.done++;
        CHECK_EQ_INT(n, s.le.len);
    } else if (event == LINE_TOO_LONG) {
        s.too_long++;
        CHECK_EQ_INT(s.le.len, 0);
        CHECK_EQ_STR(s.le.line, "");
    } else {
        s.cancelled++;
        CHECK_EQ_INT(s.le.len, 0);
    }
    CHECK(s.lines_len + n + 2 <= sizeof s.lines);
    memcpy(s.lines + s.lines_len, text, n);
    s.lines_len += n;
    s.lines[s.lines_len++] = '|';
    s.lines[s.lines_len] = '\0';
}

/* Feeds n bytes one by one, appending their echo to s.echo and checking its bound. */
static void type_bytes(const char *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char echo[LINE_ECHO_MAX];
        size_t echo_len = 0;
        enum line_event event = line_edit_feed(&s.le, bytes[i], echo, &echo_len);

        CHECK(echo_len <= LINE_ECHO_MAX);
        CHECK(s.le.len <= SHELL_LINE_MAX);
        if (echo_len > s.largest_echo)
            s.largest_echo = echo_len;
        CHECK(s.echo_len + echo_len < sizeof s.echo);
        memcpy(s.echo + s.echo_len, echo, echo_len);
        s.echo_len += echo_len;
        s.echo[s.echo_len] = '\0';
        record_event(event);
    }
}

/* Feeds a NUL-free string. */
static void type(const char *text)
{
    type_bytes(text, strlen(text));
}

/*
 * The accessors below are noinline so that GCC does not see the size of the buffers behind
 * them: it would warn that CHECK_EQ_STR's 512-byte message might truncate them.
 */

/* Returns the echo recorded so far (in a static buffer) and starts recording anew. */
__attribute__((noinline)) static const char *take_echo(void)
{
    static char taken[sizeof s.echo];
    memcpy(taken, s.echo, s.echo_len + 1);
    s.echo_len = 0;
    s.echo[0] = '\0';
    return taken;
}

/* The finished lines so far, each followed by '|' (a cancelled line shows as "^C|"). */
__attribute__((noinline)) static const char *finished_lines(void)
{
    return s.lines;
}

/* Types count copies of c. */
static void type_repeated(char c, int count)
{
    for (int i = 0; i < count; i++)
        type_bytes(&c, 1);
}

/* A string of count copies of text, in one of two static buffers (so two can be compared). */
static const char *repeated(const char *text, int count)
{
    static char buffers[2][4 * SHELL_LINE_MAX];
    static int which;
    char *out = buffers[which ^= 1];
    size_t n = strlen(text), len = 0;

    for (int i = 0; i < count; i++, len += n)
        memcpy(out + len, text, n);
    out[len] = '\0';
    return out;
}

TEST(printable_bytes_echo_themselves)
{
    start();
    type("echo A~ z!");
    CHECK_EQ_STR(take_echo(), "echo A~ z!");
    CHECK_EQ_STR(s.le.line, "echo A~ z!");
    CHECK_EQ_INT(s.le.len, 10);
    CHECK_EQ_INT(s.last, LINE_PENDING);
    CHECK_EQ_INT(s.done, 0);
}

TEST(carriage_return_finishes_the_line)
{
    start();
    type("cat trace\r");
    CHECK_EQ_STR(take_echo(), "cat trace\r\n");
    CHECK_EQ_INT(s.last, LINE_DONE);
    CHECK_EQ_STR(s.le.line, "cat trace");
    CHECK_EQ_INT(s.le.len, 9);
}

TEST(line_feed_finishes_the_line)
{
    start();
    type("ls\n");
    CHECK_EQ_STR(take_echo(), "ls\r\n");
    CHECK_EQ_INT(s.last, LINE_DONE);
    CHECK_EQ_STR(s.le.line, "ls");
}

TEST(cr_lf_is_one_enter)
{
    start();
    type("ab\r\ncd\r\n");
    CHECK_EQ_STR(take_echo(), "ab\r\ncd\r\n");
    CHECK_EQ_INT(s.done, 2);
    CHECK_EQ_STR(finished_lines(), "ab|cd|");
    CHECK_EQ_INT(s.last, LINE_PENDING);
}

TEST(two_crs_or_two_lfs_are_two_enters)
{
    start();
    type("a\r\rb\n\nc\n\r");
    CHECK_EQ_INT(s.done, 6);
    CHECK_EQ_STR(finished_lines(), "a||b||c||");
    CHECK_EQ_STR(take_echo(), "a\r\n\r\nb\r\n\r\nc\r\n\r\n");
}

TEST(lf_is_ignored_only_right_after_cr)
{
    start();
    type("a\rx\n");
    CHECK_EQ_STR(finished_lines(), "a|x|");
    start();
    type("\r\x01\n");
    CHECK_EQ_INT(s.done, 2);
}

TEST(empty_enter_gives_an_empty_line)
{
    start();
    type("\r");
    CHECK_EQ_INT(s.last, LINE_DONE);
    CHECK_EQ_STR(s.le.line, "");
    CHECK_EQ_INT(s.le.len, 0);
    CHECK_EQ_STR(take_echo(), "\r\n");
}

TEST(finished_line_stays_until_the_next_byte)
{
    start();
    type("ab\r");
    CHECK_EQ_STR(s.le.line, "ab");
    type("c");
    CHECK_EQ_STR(s.le.line, "c");
    CHECK_EQ_INT(s.le.len, 1);
    type("\r\n");
    CHECK_EQ_STR(finished_lines(), "ab|c|");
    CHECK_EQ_INT(s.le.len, 0);
    type("d\r");
    CHECK_EQ_STR(finished_lines(), "ab|c|d|");
}

TEST(backspace_and_del_erase_one_character)
{
    start();
    type("abc\b");
    CHECK_EQ_STR(take_echo(), "abc" ERASE);
    CHECK_EQ_STR(s.le.line, "ab");
    type("\x7f");
    CHECK_EQ_STR(take_echo(), ERASE);
    CHECK_EQ_STR(s.le.line, "a");
    CHECK_EQ_INT(s.le.len, 1);
    type("x\r");
    CHECK_EQ_STR(finished_lines(), "ax|");
}

TEST(backspace_on_empty_line_echoes_nothing)
{
    start();
    type("\b\x7f");
    CHECK_EQ_STR(take_echo(), "");
    CHECK_EQ_INT(s.le.len, 0);
    type("a\b\b\x7f");
    CHECK_EQ_STR(take_echo(), "a" ERASE);
}

TEST(ctrl_c_cancels_the_line)
{
    start();
    type("echo oops\x03");
    CHECK_EQ_STR(take_echo(), "echo oops^C\r\n");
    CHECK_EQ_INT(s.last, LINE_CANCELLED);
    CHECK_EQ_INT(s.le.len, 0);
    CHECK_EQ_STR(s.le.line, "");
    type("ok\r");
    CHECK_EQ_STR(finished_lines(), "^C|ok|");
}

TEST(ctrl_c_on_empty_line_still_cancels)
{
    start();
    type("\x03");
    CHECK_EQ_STR(take_echo(), "^C\r\n");
    CHECK_EQ_INT(s.last, LINE_CANCELLED);
}

TEST(cancelled_line_is_not_in_history)
{
    start();
    type("kept\rdropped\x03" UP);
    CHECK_EQ_STR(s.le.line, "kept");
    type(UP);
    CHECK_EQ_STR(s.le.line, "kept");
}

TEST(ctrl_u_erases_the_whole_line)
{
    start();
    type("abc\x15");
    CHECK_EQ_STR(take_echo(), "abc\b\b\b   \b\b\b");
    CHECK_EQ_INT(s.le.len, 0);
    CHECK_EQ_STR(s.le.line, "");
    type("\x15");
    CHECK_EQ_STR(take_echo(), "");
    type("x\r");
    CHECK_EQ_STR(finished_lines(), "x|");
}

TEST(other_control_bytes_are_ignored)
{
    start();
    type_bytes("a\0\x01\x02\x04\t\x0b\x0c\x0e\x1a\x1c\x1f" "b", 13);
    CHECK_EQ_STR(take_echo(), "ab");
    CHECK_EQ_STR(s.le.line, "ab");
    CHECK_EQ_INT(s.last, LINE_PENDING);
}

TEST(non_ascii_bytes_are_ignored)
{
    start();
    type("caf\xc3\xa9 \x80\xff!");
    CHECK_EQ_STR(take_echo(), "caf !");
    CHECK_EQ_STR(s.le.line, "caf !");
}

TEST(line_of_4096_characters_is_accepted)
{
    start();
    type_repeated('x', SHELL_LINE_MAX);
    CHECK_EQ_STR(take_echo(), repeated("x", SHELL_LINE_MAX));
    type("\r");
    CHECK_EQ_INT(s.le.len, SHELL_LINE_MAX);
    CHECK_EQ_STR(s.le.line, repeated("x", SHELL_LINE_MAX));
}

TEST(a_line_past_the_limit_rings_once_and_is_never_handed_over)
{
    start();
    type_repeated('x', SHELL_LINE_MAX);
    take_echo();
    type("yz");
    CHECK_EQ_STR(take_echo(), "\a"); /* one bell, not one per byte */
    type_repeated('w', 2000);
    CHECK_EQ_STR(take_echo(), "");
    /* editing a lost line does nothing: what was dropped cannot come back */
    type("\bq" LEFT UP);
    CHECK_EQ_STR(take_echo(), "");
    type("\r");
    CHECK_EQ_STR(take_echo(), "\r\n");
    CHECK_EQ_INT(s.last, LINE_TOO_LONG);
    CHECK_EQ_INT(s.done, 0);
    CHECK_EQ_STR(finished_lines(), "!|");
    /* the next line is a fresh one, and the lost line is not in the history */
    type("ok\r" UP UP);
    CHECK_EQ_STR(finished_lines(), "!|ok|");
    CHECK_EQ_STR(s.le.line, "ok");
}

TEST(ctrl_c_or_ctrl_u_forget_a_line_past_the_limit)
{
    start();
    type_repeated('x', SHELL_LINE_MAX + 1);
    type("\x03" "echo a\r");
    CHECK_EQ_STR(finished_lines(), "^C|echo a|");
    type_repeated('x', SHELL_LINE_MAX + 5);
    type("\x15" "echo b\r");
    CHECK_EQ_STR(finished_lines(), "^C|echo a|echo b|");
    CHECK_EQ_INT(s.too_long, 0);
}

TEST(pasted_long_line_with_crlf_is_too_long_once)
{
    start();
    type_repeated('x', SHELL_LINE_MAX + 100);
    type("\r\n");
    CHECK_EQ_INT(s.too_long, 1);
    CHECK_EQ_INT(s.done, 0);
}

TEST(tab_asks_for_completion_and_counts_tabs_in_a_row)
{
    start();
    type("ec\t");
    CHECK_EQ_INT(s.last, LINE_COMPLETE);
    CHECK_EQ_INT(s.le.tabs_in_row, 1);
    CHECK_EQ_STR(take_echo(), "ec");
    CHECK_EQ_STR(s.le.line, "ec");
    type("\t");
    CHECK_EQ_INT(s.le.tabs_in_row, 2);
    type("h\t");
    CHECK_EQ_INT(s.le.tabs_in_row, 1);
    CHECK_EQ_INT(s.completions, 3);
    type_repeated('x', SHELL_LINE_MAX); /* past the limit: no completion */
    type("\t");
    CHECK_EQ_INT(s.completions, 3);
}

TEST(insert_puts_text_at_the_cursor_with_its_echo)
{
    char echo[LINE_ECHO_MAX];
    size_t n = 0;
    start();
    type("cat tr" LEFT LEFT);
    take_echo();
    CHECK(line_edit_insert(&s.le, "/x", 2, echo, &n));
    echo[n] = '\0';
    CHECK_EQ_STR(echo, "/xtr\b\b");
    CHECK_EQ_STR(s.le.line, "cat /xtr");
    CHECK_EQ_INT(s.le.cursor, 6);
    n = 0;
    CHECK(!line_edit_insert(&s.le, "a\tb", 3, echo, &n));
    CHECK(!line_edit_insert(&s.le, "\x1b[A", 4, echo, &n));
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_STR(s.le.line, "cat /xtr");
}

TEST(insert_refuses_what_does_not_fit)
{
    char echo[LINE_ECHO_MAX];
    size_t n = 0;
    start();
    type_repeated('x', SHELL_LINE_MAX - 2);
    CHECK(!line_edit_insert(&s.le, "abc", 3, echo, &n));
    CHECK_EQ_INT(s.le.len, SHELL_LINE_MAX - 2);
    CHECK(line_edit_insert(&s.le, "ab", 2, echo, &n));
    CHECK_EQ_INT(s.le.len, SHELL_LINE_MAX);
}

TEST(redraw_shows_the_line_and_puts_the_cursor_back)
{
    char echo[LINE_ECHO_MAX];
    size_t n = 0;
    start();
    type("echo abc" LEFT LEFT);
    line_edit_redraw(&s.le, echo, &n);
    echo[n] = '\0';
    CHECK_EQ_STR(echo, "echo abc\b\b");
}

TEST(csi_sequences_are_swallowed)
{
    start();
    type("a\x1b[Cb\x1b[3~c\x1b[1;5Dd\x1b[?25he");
    CHECK_EQ_STR(take_echo(), "abcde");
    CHECK_EQ_STR(s.le.line, "abcde");
}

TEST(ss3_function_keys_are_swallowed)
{
    start();
    type("a\x1bOPb\x1bOSc");
    CHECK_EQ_STR(take_echo(), "abc");
    CHECK_EQ_STR(s.le.line, "abc");
}

TEST(a_lone_esc_before_a_key_drops_only_the_esc)
{
    /* The report: ESC then "echo" ran "cho". */
    start();
    type("\x1b" "echo hi\r");
    CHECK_EQ_STR(finished_lines(), "echo hi|");
    CHECK_EQ_STR(take_echo(), "echo hi\r\n");
    type("a\x1bxb\x1b" "7c\x1b \x1b~d");
    CHECK_EQ_STR(s.le.line, "axb7c ~d");
}

TEST(control_byte_ends_an_escape_sequence)
{
    start();
    type("ab\x1b\r");
    CHECK_EQ_INT(s.last, LINE_DONE);
    CHECK_EQ_STR(s.le.line, "ab");
    type("cd\x1b[1;\r");
    CHECK_EQ_INT(s.last, LINE_DONE);
    CHECK_EQ_STR(s.le.line, "cd");
    type("ef\x1bO\x7fg");
    CHECK_EQ_STR(s.le.line, "eg");
    type("\x1b\x1b[Ah");
    CHECK_EQ_STR(s.le.line, "cdh");
    CHECK_EQ_STR(take_echo(), "ab\r\ncd\r\nef" ERASE "g\b\bcdh");
}

TEST(escape_state_survives_between_calls)
{
    start();
    type("a\r");
    type("\x1b");
    type("[");
    type("A");
    CHECK_EQ_STR(s.le.line, "a");
}

TEST(up_arrow_recalls_older_lines)
{
    start();
    type("one\rtwo\r");
    take_echo();
    type(UP);
    CHECK_EQ_STR(take_echo(), "two");
    CHECK_EQ_STR(s.le.line, "two");
    CHECK_EQ_INT(s.le.len, 3);
    type(UP);
    CHECK_EQ_STR(take_echo(), "\b\b\bone");
    CHECK_EQ_STR(s.le.line, "one");
    type(UP);
    CHECK_EQ_STR(take_echo(), "");
    CHECK_EQ_STR(s.le.line, "one");
}

TEST(down_arrow_goes_back_to_an_empty_line)
{
    start();
    type("one\rtwo\r" UP UP);
    take_echo();
    type(DOWN);
    CHECK_EQ_STR(take_echo(), "\b\b\btwo");
    CHECK_EQ_STR(s.le.line, "two");
    type(DOWN);
    CHECK_EQ_STR(take_echo(), "\b\b\b   \b\b\b");
    CHECK_EQ_STR(s.le.line, "");
    CHECK_EQ_INT(s.le.len, 0);
    type(DOWN);
    CHECK_EQ_STR(take_echo(), "");
}

TEST(ss3_arrows_work_too)
{
    start();
    type("one\rtwo\r\x1bOA\x1bOA");
    CHECK_EQ_STR(s.le.line, "one");
    type("\x1bOB");
    CHECK_EQ_STR(s.le.line, "two");
}

TEST(up_replaces_a_longer_typed_line)
{
    start();
    type("ab\rhello");
    take_echo();
    type(UP);
    CHECK_EQ_STR(take_echo(), "\b\b\b\b\bab   \b\b\b");
    CHECK_EQ_STR(s.le.line, "ab");
    CHECK_EQ_INT(s.le.len, 2);
}

TEST(arrows_with_empty_history_do_nothing)
{
    start();
    type("abc" UP DOWN);
    CHECK_EQ_STR(take_echo(), "abc");
    CHECK_EQ_STR(s.le.line, "abc");
}

TEST(editing_a_recalled_line_keeps_history_intact)
{
    start();
    type("abc\r" UP "\bd\r");
    CHECK_EQ_STR(finished_lines(), "abc|abd|");
    type(UP);
    CHECK_EQ_STR(s.le.line, "abd");
    type(UP);
    CHECK_EQ_STR(s.le.line, "abc");
}

TEST(history_skips_empty_and_repeated_lines)
{
    start();
    type("x\r\r  \rx\rx\r" UP);
    CHECK_EQ_STR(s.le.line, "x");
    type(UP);
    CHECK_EQ_STR(s.le.line, "  ");
    type(UP);
    CHECK_EQ_STR(s.le.line, "x");
    type(UP);
    CHECK_EQ_STR(s.le.line, "x");
    CHECK_EQ_STR(finished_lines(), "x||  |x|x|");
}

TEST(enter_restarts_history_at_the_newest_line)
{
    start();
    type("a\rb\rc\r" UP UP UP "\r");
    CHECK_EQ_STR(s.le.line, "a");
    type(UP);
    CHECK_EQ_STR(s.le.line, "a");
    type(UP);
    CHECK_EQ_STR(s.le.line, "c");
}

TEST(ctrl_c_restarts_history_at_the_newest_line)
{
    start();
    type("a\rb\r" UP UP "\x03" UP);
    CHECK_EQ_STR(s.le.line, "b");
}

TEST(history_keeps_the_last_sixteen_lines)
{
    char line[16];
    start();
    for (int i = 0; i < LINE_HISTORY + 4; i++) {
        snprintf(line, sizeof line, "l%d\r", i);
        type(line);
    }
    for (int i = LINE_HISTORY + 3; i >= 4; i--) {
        type(UP);
        snprintf(line, sizeof line, "l%d", i);
        CHECK_EQ_STR(s.le.line, line);
    }
    type(UP);
    CHECK_EQ_STR(s.le.line, "l4");
    type(DOWN);
    CHECK_EQ_STR(s.le.line, "l5");
}

TEST(ctrl_u_of_a_full_line_fits_the_echo_limit)
{
    start();
    type_repeated('x', SHELL_LINE_MAX);
    take_echo();
    type("\x15");
    static char expected[4 * SHELL_LINE_MAX];
    snprintf(expected, sizeof expected, "%s%s", repeated("\b", SHELL_LINE_MAX),
             repeated(" ", SHELL_LINE_MAX));
    strcat(expected, repeated("\b", SHELL_LINE_MAX));
    CHECK(strcmp(take_echo(), expected) == 0);
    CHECK_EQ_INT(s.largest_echo, 3 * SHELL_LINE_MAX);
}

TEST(history_swaps_of_full_lines_fit_the_echo_limit)
{
    static char expected[4 * SHELL_LINE_MAX];
    start();
    type_repeated('a', SHELL_LINE_MAX);
    type("\r");
    type_repeated('b', SHELL_LINE_MAX);
    take_echo();
    type(UP);
    snprintf(expected, sizeof expected, "%s%s", repeated("\b", SHELL_LINE_MAX),
             repeated("a", SHELL_LINE_MAX));
    CHECK(strcmp(take_echo(), expected) == 0);
    /* Up to a short line, fill it to SHELL_LINE_MAX characters, then Down to the empty line. */
    start();
    type("s\r" UP);
    type_repeated('t', SHELL_LINE_MAX - 1);
    take_echo();
    type(DOWN);
    snprintf(expected, sizeof expected, "%s%s", repeated("\b", SHELL_LINE_MAX),
             repeated(" ", SHELL_LINE_MAX));
    strcat(expected, repeated("\b", SHELL_LINE_MAX));
    CHECK(strcmp(take_echo(), expected) == 0);
    CHECK_EQ_INT(s.largest_echo, 3 * SHELL_LINE_MAX);
    CHECK(s.largest_echo <= LINE_ECHO_MAX);
}

TEST(echo_is_appended_after_what_the_caller_has)
{
    struct line_editor le;
    char echo[LINE_ECHO_MAX + 2] = "AB";
    size_t echo_len = 2;

    line_edit_init(&le);
    CHECK_EQ_INT(line_edit_feed(&le, 'c', echo, &echo_len), LINE_PENDING);
    CHECK_EQ_INT(echo_len, 3);
    CHECK(memcmp(echo, "ABc", 3) == 0);
}

TEST(init_forgets_history_and_escape_state)
{
    start();
    type("old\r\x1b[");
    line_edit_init(&s.le);
    type("A" UP);
    CHECK_EQ_STR(s.le.line, "A");
    CHECK_EQ_INT(s.le.len, 1);
}

/* --- the cursor: Left/Right, inserting and deleting in the middle, Home/End ------------ */

TEST(left_and_right_move_the_cursor)
{
    start();
    type("abc" LEFT LEFT);
    CHECK_EQ_STR(take_echo(), "abc\b\b");
    CHECK_EQ_INT(s.le.cursor, 1);
    type(RIGHT);
    CHECK_EQ_STR(take_echo(), "b"); /* moving right prints the character passed over */
    CHECK_EQ_INT(s.le.cursor, 2);
    type(RIGHT RIGHT);
    CHECK_EQ_STR(take_echo(), "c");
    CHECK_EQ_INT(s.le.cursor, 3);
    type(LEFT LEFT LEFT LEFT);
    CHECK_EQ_STR(take_echo(), "\b\b\b");
    CHECK_EQ_INT(s.le.cursor, 0);
    CHECK_EQ_STR(s.le.line, "abc");
}

TEST(typing_inserts_at_the_cursor_and_redraws_the_rest)
{
    start();
    type("ac" LEFT);
    take_echo();
    type("b");
    CHECK_EQ_STR(take_echo(), "bc\b");
    CHECK_EQ_STR(s.le.line, "abc");
    CHECK_EQ_INT(s.le.cursor, 2);
    type("\r");
    CHECK_EQ_STR(finished_lines(), "abc|");
}

TEST(backspace_in_the_middle_closes_the_gap)
{
    start();
    type("abcd" LEFT LEFT);
    take_echo();
    type("\x7f");
    CHECK_EQ_STR(take_echo(), "\bcd \b\b\b");
    CHECK_EQ_STR(s.le.line, "acd");
    CHECK_EQ_INT(s.le.cursor, 1);
}

TEST(delete_removes_the_character_under_the_cursor)
{
    start();
    type("abcd" LEFT LEFT LEFT);
    take_echo();
    type("\x1b[3~");
    CHECK_EQ_STR(take_echo(), "cd \b\b\b");
    CHECK_EQ_STR(s.le.line, "acd");
    CHECK_EQ_INT(s.le.cursor, 1);
    type(RIGHT RIGHT "\x1b[3~");
    CHECK_EQ_STR(take_echo(), "cd"); /* at the end: nothing to delete */
    CHECK_EQ_STR(s.le.line, "acd");
}

TEST(home_and_end_in_all_their_spellings)
{
    static const char *const home[] = { "\x1b[H", "\x1bOH", "\x1b[1~", "\x1b[7~" };
    static const char *const end[] = { "\x1b[F", "\x1bOF", "\x1b[4~", "\x1b[8~" };
    for (int i = 0; i < 4; i++) {
        start();
        type("abc");
        take_echo();
        type(home[i]);
        CHECK_EQ_STR(take_echo(), "\b\b\b");
        CHECK_EQ_INT(s.le.cursor, 0);
        type("x");
        CHECK_EQ_STR(s.le.line, "xabc");
        take_echo();
        type(end[i]);
        CHECK_EQ_STR(take_echo(), "abc");
        CHECK_EQ_INT(s.le.cursor, 4);
    }
}

TEST(unknown_sequences_are_consumed_whole)
{
    /* Ctrl+Right, Insert, Page Up, F5, a private mode, a huge parameter: nothing typed. */
    start();
    type("ab" LEFT);
    take_echo();
    type("\x1b[1;5C\x1b[2~\x1b[5~\x1b[15~\x1b[?25h\x1b[99999999999~\x1b[1;2H\x1b[ q");
    CHECK_EQ_STR(take_echo(), "");
    CHECK_EQ_STR(s.le.line, "ab");
    CHECK_EQ_INT(s.le.cursor, 1);
    type("\x1b[1C"); /* a parameter of 1 is the plain key */
    CHECK_EQ_INT(s.le.cursor, 2);
}

TEST(enter_in_the_middle_takes_the_whole_line)
{
    start();
    type("echo hi" LEFT LEFT LEFT "\r");
    CHECK_EQ_STR(finished_lines(), "echo hi|");
    CHECK_EQ_STR(take_echo(), "echo hi\b\b\b\r\n");
}

TEST(history_from_the_middle_of_a_line)
{
    start();
    type("one\rtwo-long" LEFT LEFT LEFT LEFT);
    take_echo();
    type(UP);
    /* back 4 to the start, "one", blank the 5 cells left over, back over them */
    CHECK_EQ_STR(take_echo(), "\b\b\b\bone     \b\b\b\b\b");
    CHECK_EQ_STR(s.le.line, "one");
    CHECK_EQ_INT(s.le.cursor, 3);
}

TEST(ctrl_u_from_the_middle_erases_everything)
{
    start();
    type("abcd" LEFT LEFT);
    take_echo();
    type("\x15");
    CHECK_EQ_STR(take_echo(), "\b\b    \b\b\b\b");
    CHECK_EQ_INT(s.le.len, 0);
    CHECK_EQ_INT(s.le.cursor, 0);
}

TEST(a_full_line_is_lost_wherever_the_cursor_is)
{
    start();
    type_repeated('x', SHELL_LINE_MAX);
    type(LEFT "y");
    CHECK_EQ_INT(s.le.len, SHELL_LINE_MAX);
    CHECK(strchr(s.le.line, 'y') == NULL);
    type("\r");
    CHECK_EQ_INT(s.too_long, 1);
    /* inserting near the start of an almost full line stays within the echo limit */
    type_repeated('x', SHELL_LINE_MAX - 1);
    type("\x1b[H" "z");
    CHECK(s.largest_echo <= LINE_ECHO_MAX);
    CHECK_EQ_INT(s.le.line[0], 'z');
    CHECK_EQ_INT(s.le.len, SHELL_LINE_MAX);
}
