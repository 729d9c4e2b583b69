/*
 * fuzz_line_edit.c - fuzz target for kernel/shell/line_edit.c.
 *
 * Feeds the input to a fresh editor byte by byte and checks after every byte: the echo fits
 * in LINE_ECHO_MAX bytes (the echo buffer is exactly that large, so ASan also sees an
 * overflow) and holds only what a plain terminal understands; le->len stays within
 * SHELL_LINE_MAX; a finished line is NUL-terminated with strlen == le->len; a cancelled line
 * is empty, and so is a line that was too long. A Tab is answered as the shell would: an
 * odd one inserts a word (line_edit_insert), an even one lists on a new row and redraws the
 * line there (line_edit_redraw). The echo is also played on a model terminal, whose current
 * row must then show exactly the line being edited, with the cursor where the editor's
 * cursor is.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/shell/line_edit.h"

/* Aborts with a message: the fuzzer records the input as a crash. */
static void fail(const char *what)
{
    fprintf(stderr, "fuzz_line_edit: %s\n", what);
    abort();
}

/* The current row of a terminal of unlimited width; earlier rows are not kept. */
struct terminal {
    char row[4 * SHELL_LINE_MAX];
    size_t cursor;
    size_t width_used; /* row[width_used...] was never written: all blanks */
};

/* Starts a new, blank row, as after "\r\n". */
static void new_row(struct terminal *t)
{
    memset(t->row, ' ', t->width_used);
    t->cursor = 0;
    t->width_used = 0;
}

/* Plays echo on the terminal; anything but printable bytes, \b, \r, \n and \a is a bug. */
static void play(struct terminal *t, const char *echo, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = echo[i];
        if (c >= 0x20 && c <= 0x7e) {
            if (t->cursor == sizeof t->row)
                fail("echo ran past any sensible line width");
            t->row[t->cursor++] = c;
            if (t->cursor > t->width_used)
                t->width_used = t->cursor;
        } else if (c == '\b') {
            if (t->cursor == 0)
                fail("echo backs up past the start of the line");
            t->cursor--;
        } else if (c == '\r') {
            t->cursor = 0;
        } else if (c == '\n') {
            new_row(t);
        } else if (c != '\a') {
            fail("echo holds a byte a terminal would not show plainly");
        }
    }
}

/* Checks that the row shows le->line, blanks after it, and the cursor at le->cursor. */
static void check_screen(const struct terminal *t, const struct line_editor *le)
{
    if (le->cursor > le->len)
        fail("cursor beyond the end of the line");
    if (t->cursor != le->cursor || memcmp(t->row, le->line, le->len) != 0)
        fail("terminal does not show the line being edited");
    for (size_t i = le->len; i < t->width_used; i++) {
        if (t->row[i] != ' ')
            fail("terminal shows leftovers after the line");
    }
}

/* Checks the editor's state after one byte that returned event. */
static void check_editor(const struct line_editor *le, enum line_event event)
{
    if (le->len > SHELL_LINE_MAX)
        fail("line longer than SHELL_LINE_MAX");
    if (le->history_count < 0 || le->history_count > LINE_HISTORY ||
        le->history_browse < 0 || le->history_browse > le->history_count)
        fail("history state out of range");
    if (event == LINE_DONE) {
        if (memchr(le->line, '\0', sizeof le->line) == NULL)
            fail("finished line not NUL-terminated");
        if (strlen(le->line) != le->len)
            fail("finished line's length is not le->len");
    } else if (event == LINE_CANCELLED || event == LINE_TOO_LONG) {
        if (le->len != 0 || le->line[0] != '\0')
            fail("cancelled or too long line not emptied");
    } else if (event != LINE_PENDING && event != LINE_COMPLETE) {
        fail("unknown event");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct line_editor le;
    static struct terminal t;
    /* Exactly LINE_ECHO_MAX bytes, so that ASan catches a longer echo as it is written. */
    char *echo = malloc(LINE_ECHO_MAX);

    if (echo == NULL)
        return 0;
    line_edit_init(&le);
    t.width_used = sizeof t.row; /* blank all of the row, whatever the last input left */
    new_row(&t);
    for (size_t i = 0; i < size; i++) {
        size_t echo_len = 0;
        enum line_event event = line_edit_feed(&le, (char)data[i], echo, &echo_len);

        if (echo_len > LINE_ECHO_MAX)
            fail("echo longer than LINE_ECHO_MAX");
        check_editor(&le, event);
        play(&t, echo, echo_len);
        if (event == LINE_COMPLETE) {
            echo_len = 0;
            if (le.tabs_in_row % 2) {
                size_t before = le.len;
                bool fits = before + 4 <= SHELL_LINE_MAX;
                if (line_edit_insert(&le, "tab/", 4, echo, &echo_len) != fits)
                    fail("insert refused text that fits, or took text that does not");
                if (le.len != before + (fits ? 4 : 0))
                    fail("insert changed the length wrongly");
            } else {
                play(&t, "\r\n", 2);
                line_edit_redraw(&le, echo, &echo_len);
            }
            if (echo_len > LINE_ECHO_MAX)
                fail("completion echo longer than LINE_ECHO_MAX");
            play(&t, echo, echo_len);
        }
        if (event == LINE_PENDING || event == LINE_COMPLETE)
            check_screen(&t, &le);
        else if (t.cursor != 0)
            fail("finished or cancelled line does not end with \\r\\n");
    }
    free(echo);
    return 0;
}
