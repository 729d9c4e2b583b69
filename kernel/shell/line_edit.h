/*
 * line_edit.h - console line editing, one received byte at a time.
 *
 * The console driver hands each byte from the terminal to line_edit_feed(); the editor keeps
 * the line, tells what to echo back to the terminal, and says when a line is finished.
 * Portable: tests/unit/test_line_edit.c and tests/fuzz/fuzz_line_edit.c.
 */
#ifndef KERNEL_SHELL_LINE_EDIT_H
#define KERNEL_SHELL_LINE_EDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/shell/shell_parse.h"

#define LINE_HISTORY 16

enum line_event {
    LINE_PENDING,   /* keep feeding */
    LINE_DONE,      /* Enter: the line is in le->line, NUL-terminated */
    LINE_CANCELLED, /* ^C: the line was thrown away */
    LINE_TOO_LONG,  /* Enter after more than SHELL_LINE_MAX bytes: thrown away, le->line empty */
    LINE_COMPLETE,  /* Tab: the caller may complete the word before the cursor
                     * (line_edit_insert); le->tabs_in_row says how many Tabs in a row */
};

struct line_editor {
    char line[SHELL_LINE_MAX + 1];
    size_t len;
    size_t cursor;       /* where typing inserts: 0..len */
    /* private state */
    char history[LINE_HISTORY][SHELL_LINE_MAX + 1];
    int history_count;   /* lines stored so far, at most LINE_HISTORY */
    int history_next;    /* slot the next finished line goes to */
    int history_browse;  /* how far back Up has gone, 0 = editing a new line */
    int escape_state;    /* where we are inside an ESC [ ... sequence */
    int escape_params;   /* parameters seen so far in it (255: a byte no key of ours has) */
    unsigned escape_first; /* the first parameter's value */
    char last_byte;      /* to treat CR LF as one Enter */
    bool overflowed;     /* a byte was typed past SHELL_LINE_MAX: the line can only be lost */
    int tabs_in_row;     /* Tabs typed one after another, this one included */
};

/* Sets the editor to an empty line and empty history. */
void line_edit_init(struct line_editor *le);

/*
 * Feeds one byte. Appends to echo[0..*echo_len) what the terminal must be sent (the caller
 * sets *echo_len = 0 before; LINE_ECHO_MAX bytes are always enough for one call).
 * Handles printable bytes (inserted at the cursor), Backspace/DEL, ^C (cancel, echoes "^C"),
 * ^U (erase line), Enter (CR, LF or CR LF), Tab (LINE_COMPLETE), and the VT100/xterm keys
 * Left/Right (move), Up/Down (history), Home, End and Delete; consumes every other escape
 * sequence whole and ignores other control bytes.
 * A byte typed into a full line rings the bell once; the line is then lost whatever follows
 * (bytes are dropped, editing keys ignored): Enter gives LINE_TOO_LONG, ^C or ^U start
 * afresh. Nothing of a line that was cut is ever handed over.
 */
#define LINE_ECHO_MAX (3 * SHELL_LINE_MAX + 16)
enum line_event line_edit_feed(struct line_editor *le, char byte, char *echo, size_t *echo_len);

/*
 * Inserts n bytes of text at the cursor as if typed (printable bytes only), appending the
 * echo as line_edit_feed does (at most 3 * SHELL_LINE_MAX bytes). False, with nothing
 * inserted, if the text does not fit or the line is past its limit.
 */
bool line_edit_insert(struct line_editor *le, const char *text, size_t n, char *echo,
                      size_t *echo_len);

/* Appends to echo the whole line and the backspaces that put the terminal's cursor back on
 * the editor's (at most 2 * SHELL_LINE_MAX bytes): after a listing, the caller prints the
 * prompt and then this. */
void line_edit_redraw(const struct line_editor *le, char *echo, size_t *echo_len);

#endif
