/*
 * line_edit.c - console line editing, one received byte at a time.
 *
 * The editor never draws anything itself: it tells the caller what to echo, and the echo
 * uses only printable characters, "\b" (cursor left), "\r\n" and "\a", which every terminal
 * and every test harness understands. Moving right is done by printing again the character
 * the cursor passes over; inserting or deleting in the middle prints the rest of the line
 * again and backs up to the cursor.
 *
 * Keys arrive as a VT100/xterm sends them: Left/Right/Up/Down as ESC [ D/C/A/B or ESC O
 * D/C/A/B, Home as ESC [ H, ESC O H, ESC [ 1 ~ or ESC [ 7 ~, End as ESC [ F, ESC O F, ESC [ 4 ~
 * or ESC [ 8 ~, Delete as ESC [ 3 ~. A control sequence is read to its final byte (ECMA-48:
 * parameter bytes 0x30-0x3f, intermediate bytes 0x20-0x2f, a final byte 0x40-0x7e), so one
 * this editor does not know (ESC [ 1 ; 5 C, F-keys, ...) is consumed whole and types nothing.
 * An ESC followed by anything but '[' or 'O' was a stray ESC (or Alt held with a key): it is
 * dropped and the byte after it is taken as typed, as a terminal that knows no Meta keys
 * would; a control byte inside a sequence ends it and acts as itself (Enter still works).
 *
 * A line has room for SHELL_LINE_MAX bytes. Typing past that does not cut the line silently:
 * the bell rings once and the line is lost, so that Enter reports it (LINE_TOO_LONG) and
 * nothing shorter than what was typed is ever run. Tab only reports itself (LINE_COMPLETE):
 * the caller knows the names to complete from and inserts with line_edit_insert().
 *
 * le->line is NUL-terminated at all times. After LINE_DONE the finished line stays in
 * le->line until the next byte is fed, which starts a new, empty line.
 */
#include "kernel/shell/line_edit.h"

#include "kernel/lib/string.h"

#define CTRL(letter) ((letter) & 0x1f)
#define KEY_ESC 0x1b
#define KEY_DEL 0x7f
#define PARAM_MAX 9999 /* a larger parameter is kept at this: it names no key anyway */

/* Values of le->escape_state. */
enum {
    ESC_NONE,  /* not inside an escape sequence */
    ESC_START, /* got ESC */
    ESC_CSI,   /* got ESC [, parameter and intermediate bytes until a final byte */
    ESC_SS3,   /* got ESC O, the next byte is the final one */
};

/* Where echo goes: the caller's buffer and its fill level. */
struct echo {
    char *buf;
    size_t *len;
};

/* Appends n bytes of text to the echo. */
static void echo_text(struct echo *e, const char *text, size_t n)
{
    memcpy(e->buf + *e->len, text, n);
    *e->len += n;
}

/* Appends the byte c, count times, to the echo. */
static void echo_repeat(struct echo *e, char c, size_t count)
{
    memset(e->buf + *e->len, c, count);
    *e->len += count;
}

/* Empties the line (without echo); a line past its limit is forgotten too. */
static void clear_line(struct line_editor *le)
{
    le->len = 0;
    le->cursor = 0;
    le->line[0] = '\0';
    le->overflowed = false;
}

/* True when the previous byte finished a line, which the caller has consumed by now. */
static bool line_was_finished(const struct line_editor *le)
{
    return le->last_byte == '\r' || le->last_byte == '\n';
}

/* The line finished `back` Enters ago (1 = the most recent); back is 1..history_count. */
static const char *history_line(const struct line_editor *le, int back)
{
    return le->history[(le->history_next - back + LINE_HISTORY) % LINE_HISTORY];
}

/* Keeps the finished line for Up, unless it is empty or repeats the most recent line. */
static void remember_line(struct line_editor *le)
{
    if (le->len == 0)
        return;
    if (le->history_count > 0 && strcmp(history_line(le, 1), le->line) == 0)
        return;
    memcpy(le->history[le->history_next], le->line, le->len + 1);
    le->history_next = (le->history_next + 1) % LINE_HISTORY;
    if (le->history_count < LINE_HISTORY)
        le->history_count++;
}

/*
 * Shows text in place of the current line, the cursor after it: back to the start, write
 * the new text over the old, then blank what the old line had beyond it. At most
 * 3 * SHELL_LINE_MAX bytes of echo.
 */
static void replace_line(struct line_editor *le, const char *text, struct echo *e)
{
    size_t old_len = le->len;
    size_t new_len = strlen(text);

    echo_repeat(e, '\b', le->cursor);
    echo_text(e, text, new_len);
    if (old_len > new_len) {
        echo_repeat(e, ' ', old_len - new_len);
        echo_repeat(e, '\b', old_len - new_len);
    }
    memmove(le->line, text, new_len + 1);
    le->len = new_len;
    le->cursor = new_len;
}

/* Up arrow: shows the next older history line; nothing happens at the oldest one. */
static void history_older(struct line_editor *le, struct echo *e)
{
    if (le->history_browse == le->history_count)
        return;
    le->history_browse++;
    replace_line(le, history_line(le, le->history_browse), e);
}

/* Down arrow: shows the next newer history line, and after the newest an empty line. */
static void history_newer(struct line_editor *le, struct echo *e)
{
    if (le->history_browse == 0)
        return;
    le->history_browse--;
    replace_line(le, le->history_browse == 0 ? "" : history_line(le, le->history_browse), e);
}

/*
 * Redraws the line from the cursor to its end, blanks `erased` cells after it (characters
 * that were just removed) and backs up to the cursor again.
 */
static void redraw_tail(struct line_editor *le, size_t erased, struct echo *e)
{
    size_t tail = le->len - le->cursor;
    echo_text(e, le->line + le->cursor, tail);
    echo_repeat(e, ' ', erased);
    echo_repeat(e, '\b', tail + erased);
}

/* Inserts n printable characters at the cursor and echoes them (n <= room left). */
static void insert_text(struct line_editor *le, const char *text, size_t n, struct echo *e)
{
    memmove(le->line + le->cursor + n, le->line + le->cursor, le->len - le->cursor + 1);
    memcpy(le->line + le->cursor, text, n);
    le->cursor += n;
    le->len += n;
    echo_text(e, text, n);
    redraw_tail(le, 0, e);
}

/* Inserts a printable character at the cursor. On a full line, the first character too
 * many rings the bell and marks the line lost (line_edit.h); the rest are dropped. */
static void insert_char(struct line_editor *le, char c, struct echo *e)
{
    if (le->overflowed)
        return;
    if (le->len == SHELL_LINE_MAX) {
        echo_text(e, "\a", 1);
        le->overflowed = true;
        return;
    }
    insert_text(le, &c, 1, e);
}

/* Delete: removes the character under the cursor; nothing at the end of the line. */
static void delete_char(struct line_editor *le, struct echo *e)
{
    if (le->cursor == le->len)
        return;
    memmove(le->line + le->cursor, le->line + le->cursor + 1, le->len - le->cursor);
    le->len--;
    redraw_tail(le, 1, e);
}

/* Backspace: removes the character before the cursor. */
static void erase_char(struct line_editor *le, struct echo *e)
{
    if (le->cursor == 0)
        return;
    le->cursor--;
    echo_text(e, "\b", 1);
    delete_char(le, e);
}

/* Left arrow: one character back; nothing at the start. */
static void cursor_left(struct line_editor *le, struct echo *e)
{
    if (le->cursor == 0)
        return;
    le->cursor--;
    echo_text(e, "\b", 1);
}

/* Right arrow: one character on, by printing it again; nothing at the end. */
static void cursor_right(struct line_editor *le, struct echo *e)
{
    if (le->cursor == le->len)
        return;
    echo_text(e, le->line + le->cursor, 1);
    le->cursor++;
}

/* Home: to the start of the line. */
static void cursor_home(struct line_editor *le, struct echo *e)
{
    echo_repeat(e, '\b', le->cursor);
    le->cursor = 0;
}

/* End: to the end of the line, printing what it passes over. */
static void cursor_end(struct line_editor *le, struct echo *e)
{
    echo_text(e, le->line + le->cursor, le->len - le->cursor);
    le->cursor = le->len;
}

/* ^U: removes the whole line, from the screen too. */
static void erase_line(struct line_editor *le, struct echo *e)
{
    echo_repeat(e, '\b', le->cursor);
    echo_repeat(e, ' ', le->len);
    echo_repeat(e, '\b', le->len);
    clear_line(le);
}

/* Enter: moves the terminal to a new line (the cursor may be mid-line) and hands it over,
 * or for a line past its limit, throws it away and says so. */
static enum line_event finish_line(struct line_editor *le, struct echo *e)
{
    echo_text(e, "\r\n", 2);
    le->history_browse = 0;
    if (le->overflowed) {
        clear_line(le);
        return LINE_TOO_LONG;
    }
    remember_line(le);
    le->history_browse = 0;
    return LINE_DONE;
}

/* ^C: shows "^C", moves to a new line and throws the line away. */
static enum line_event cancel_line(struct line_editor *le, struct echo *e)
{
    echo_text(e, "^C\r\n", 4);
    clear_line(le);
    le->history_browse = 0;
    return LINE_CANCELLED;
}

/*
 * Acts on a finished sequence: final byte `final`, `params` parameters of which the first
 * is `first` (0 if absent). Keys with modifiers (ESC [ 1 ; 5 C), and every sequence not
 * listed in the file comment, do nothing.
 */
static void run_escape(struct line_editor *le, unsigned char final, int params, unsigned first,
                       struct echo *e)
{
    if (final == '~' && params == 1) {
        if (first == 1 || first == 7)
            cursor_home(le, e);
        else if (first == 4 || first == 8)
            cursor_end(le, e);
        else if (first == 3)
            delete_char(le, e);
        return;
    }
    if (params > 1 || (params == 1 && first != 1))
        return;
    switch (final) {
    case 'A': history_older(le, e); break;
    case 'B': history_newer(le, e); break;
    case 'C': cursor_right(le, e); break;
    case 'D': cursor_left(le, e); break;
    case 'H': cursor_home(le, e); break;
    case 'F': cursor_end(le, e); break;
    default: break;
    }
}

/* Takes a parameter or intermediate byte of ESC [ ...: counts parameters and keeps the
 * first one's value (digits before the first ';'). */
static void csi_param_byte(struct line_editor *le, unsigned char c)
{
    if (c >= '0' && c <= '9') {
        if (le->escape_params == 0)
            le->escape_params = 1;
        if (le->escape_params == 1) {
            unsigned v = le->escape_first * 10 + (c - '0');
            le->escape_first = v > PARAM_MAX ? PARAM_MAX : v;
        }
    } else if (c == ';' && le->escape_params < 255) {
        le->escape_params = le->escape_params ? le->escape_params + 1 : 2;
    } else {
        le->escape_params = 255; /* a private marker or intermediate byte: no key of ours */
    }
}

/*
 * Takes c as the next byte of an escape sequence, if one is under way. Returns false when
 * none is, when c is a control or non-ASCII byte (which ends the sequence), or when c
 * follows a lone ESC without starting a sequence: c is then an ordinary byte.
 */
static bool feed_escape(struct line_editor *le, unsigned char c, struct echo *e)
{
    int state = le->escape_state;

    if (state == ESC_NONE)
        return false;
    if (c < 0x20 || c > 0x7e) {
        le->escape_state = ESC_NONE;
        return false;
    }
    if (state == ESC_START) {
        le->escape_params = 0;
        le->escape_first = 0;
        le->escape_state = c == '[' ? ESC_CSI : c == 'O' ? ESC_SS3 : ESC_NONE;
        return le->escape_state != ESC_NONE;
    }
    if (state == ESC_CSI && c < 0x40) {
        csi_param_byte(le, c);
        return true;
    }
    le->escape_state = ESC_NONE;
    if (!le->overflowed) /* a lost line takes no editing */
        run_escape(le, c, le->escape_params, le->escape_first, e);
    return true;
}

/* Acts on a byte that is not part of an escape sequence. */
static enum line_event feed_key(struct line_editor *le, unsigned char c, struct echo *e)
{
    switch (c) {
    case '\r':
    case '\n':
        return finish_line(le, e);
    case CTRL('C'):
        return cancel_line(le, e);
    case CTRL('U'):
        erase_line(le, e);
        break;
    case '\t':
        if (!le->overflowed)
            return LINE_COMPLETE;
        break;
    case '\b':
    case KEY_DEL:
        if (!le->overflowed) /* a lost line takes no editing */
            erase_char(le, e);
        break;
    case KEY_ESC:
        le->escape_state = ESC_START;
        break;
    default:
        if (c >= 0x20 && c <= 0x7e)
            insert_char(le, (char)c, e);
        break; /* other control bytes and bytes >= 0x80 are ignored */
    }
    return LINE_PENDING;
}

/* Sets the editor to an empty line and empty history, outside any escape sequence. */
void line_edit_init(struct line_editor *le)
{
    memset(le, 0, sizeof *le); /* escape_state = ESC_NONE, which is 0 */
}

/*
 * Feeds one byte from the terminal, appending its echo (at most 3 * SHELL_LINE_MAX bytes, for
 * ^U or a history line replacing a full line) to echo[*echo_len...]. A LF right after a CR
 * is the same Enter and is ignored.
 */
enum line_event line_edit_feed(struct line_editor *le, char byte, char *echo, size_t *echo_len)
{
    struct echo e = { .buf = echo, .len = echo_len };
    unsigned char c = (unsigned char)byte;
    bool lf_after_cr = c == '\n' && le->last_byte == '\r';

    if (line_was_finished(le))
        clear_line(le);
    le->last_byte = byte;
    le->tabs_in_row = c == '\t' ? le->tabs_in_row + 1 : 0;
    if (lf_after_cr || feed_escape(le, c, &e))
        return LINE_PENDING;
    return feed_key(le, c, &e);
}

bool line_edit_insert(struct line_editor *le, const char *text, size_t n, char *echo,
                      size_t *echo_len)
{
    struct echo e = { .buf = echo, .len = echo_len };
    if (le->overflowed || n > SHELL_LINE_MAX - le->len)
        return false;
    for (size_t i = 0; i < n; i++)
        if (text[i] < 0x20 || text[i] > 0x7e)
            return false;
    insert_text(le, text, n, &e);
    return true;
}

void line_edit_redraw(const struct line_editor *le, char *echo, size_t *echo_len)
{
    struct echo e = { .buf = echo, .len = echo_len };
    echo_text(&e, le->line, le->len);
    echo_repeat(&e, '\b', le->len - le->cursor);
}
