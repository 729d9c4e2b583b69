/*
 * line_edit.c - console line editing, one received byte at a time.
 *
 * The editor never draws anything itself: it tells the caller what to echo, and the echo
 * uses only printable characters, "\b" (cursor left), "\r\n" and "\a", which every terminal
 * and every test harness understands. The cursor is always at the end of the line.
 *
 * le->line is NUL-terminated at all times. After LINE_DONE the finished line stays in
 * le->line until the next byte is fed, which starts a new, empty line.
 */
#include "kernel/line_edit.h"

#include "kernel/string.h"

#define CTRL(letter) ((letter) & 0x1f)
#define KEY_ESC 0x1b
#define KEY_DEL 0x7f

/* Values of le->escape_state. */
enum {
    ESC_NONE,  /* not inside an escape sequence */
    ESC_START, /* got ESC */
    ESC_CSI,   /* got ESC [, parameter bytes until a final byte 0x40-0x7e */
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

/* Empties the line (without echo). */
static void clear_line(struct line_editor *le)
{
    le->len = 0;
    le->line[0] = '\0';
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
 * Shows text in place of the current line: back over the old text, write the new text over
 * it, then blank what the old line had beyond it. At most 3 * SHELL_LINE_MAX bytes of echo,
 * where erasing with "\b \b" per character and then printing could take 4 * SHELL_LINE_MAX.
 */
static void replace_line(struct line_editor *le, const char *text, struct echo *e)
{
    size_t old_len = le->len;
    size_t new_len = strlen(text);

    echo_repeat(e, '\b', old_len);
    echo_text(e, text, new_len);
    if (old_len > new_len) {
        echo_repeat(e, ' ', old_len - new_len);
        echo_repeat(e, '\b', old_len - new_len);
    }
    memcpy(le->line, text, new_len + 1);
    le->len = new_len;
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

/* Adds a printable character at the end, or rings the bell when the line is full. */
static void insert_char(struct line_editor *le, char c, struct echo *e)
{
    if (le->len == SHELL_LINE_MAX) {
        echo_text(e, "\a", 1);
        return;
    }
    le->line[le->len++] = c;
    le->line[le->len] = '\0';
    echo_text(e, &c, 1);
}

/* Backspace: removes the last character from the line and from the screen. */
static void erase_char(struct line_editor *le, struct echo *e)
{
    if (le->len == 0)
        return;
    le->line[--le->len] = '\0';
    echo_text(e, "\b \b", 3);
}

/* ^U: removes the whole line, from the screen too. */
static void erase_line(struct line_editor *le, struct echo *e)
{
    for (size_t i = 0; i < le->len; i++)
        echo_text(e, "\b \b", 3);
    clear_line(le);
}

/* Enter: moves the terminal to a new line and hands the line over. */
static enum line_event finish_line(struct line_editor *le, struct echo *e)
{
    echo_text(e, "\r\n", 2);
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

/* Acts on the final byte of an escape sequence: the arrows we know, nothing for the rest. */
static void run_escape(struct line_editor *le, unsigned char final, struct echo *e)
{
    if (final == 'A')
        history_older(le, e);
    else if (final == 'B')
        history_newer(le, e);
}

/*
 * Takes c as the next byte of an escape sequence, if one is under way. Returns false when
 * none is, or when c cannot belong to one (a control or non-ASCII byte ends the sequence so
 * that, say, Enter still works after a stray ESC); c is then an ordinary byte.
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
    if (state == ESC_START && c == '[') {
        le->escape_state = ESC_CSI;
    } else if (state == ESC_START && c == 'O') {
        le->escape_state = ESC_SS3;
    } else if (state == ESC_CSI && c < 0x40) {
        /* a parameter or intermediate byte: the sequence goes on */
    } else {
        /* ESC and one byte (Alt+key), or the final byte of ESC [ ... or ESC O ... */
        le->escape_state = ESC_NONE;
        if (state != ESC_START)
            run_escape(le, c, e);
    }
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
    case '\b':
    case KEY_DEL:
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
    if (lf_after_cr || feed_escape(le, c, &e))
        return LINE_PENDING;
    return feed_key(le, c, &e);
}
