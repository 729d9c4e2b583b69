/* test_shell_parse.c - unit tests for kernel/shell_parse.c. */
#include "unit.h"

#include "kernel/shell_parse.h"

static struct shell_line sl;

/* Parses line into sl and returns the error, or "ok". */
static const char *parse(const char *line)
{
    const char *error = shell_parse(line, &sl);
    return error ? error : "ok";
}

/*
 * sl's words as "[w1][w2]...", plus " > target" or " >> target"; "(broken)" when argv is not
 * NULL-terminated or a pointer leaves storage, so that one CHECK_EQ_STR checks everything.
 */
static const char *words(void)
{
    static char text[1024];
    const char *storage_end = sl.storage + sizeof sl.storage;
    size_t n = 0;

    if (sl.argc < 0 || sl.argc > SHELL_MAX_ARGS || sl.argv[sl.argc] != NULL)
        return "(broken)";
    text[0] = '\0';
    for (int i = 0; i < sl.argc; i++) {
        if (sl.argv[i] < sl.storage || sl.argv[i] >= storage_end)
            return "(broken)";
        n += (size_t)snprintf(text + n, sizeof text - n, "[%s]", sl.argv[i]);
    }
    if (sl.redirect != NULL) {
        if (sl.redirect < sl.storage || sl.redirect >= storage_end)
            return "(broken)";
        snprintf(text + n, sizeof text - n, " %s %s", sl.append ? ">>" : ">", sl.redirect);
    }
    return text;
}

/* A line of count words "w0 w1 ...", in a static buffer. */
static const char *numbered_words(int count)
{
    static char line[512];
    size_t n = 0;

    line[0] = '\0';
    for (int i = 0; i < count; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, "%sw%d", i ? " " : "", i);
    return line;
}

/* A line "echo xxx...x" exactly length characters long (length >= 6). */
static const char *echo_line_of_length(size_t length)
{
    static char line[1024];
    memcpy(line, "echo ", 5);
    memset(line + 5, 'x', length - 5);
    line[length] = '\0';
    return line;
}

TEST(empty_line_has_no_words)
{
    CHECK_EQ_STR(parse(""), "ok");
    CHECK_EQ_INT(sl.argc, 0);
    CHECK(sl.argv[0] == NULL);
    CHECK(sl.redirect == NULL);
}

TEST(blank_line_has_no_words)
{
    CHECK_EQ_STR(parse("  \t \t"), "ok");
    CHECK_EQ_INT(sl.argc, 0);
    CHECK_EQ_STR(words(), "");
}

TEST(splits_on_spaces_and_tabs)
{
    CHECK_EQ_STR(parse("cat trace"), "ok");
    CHECK_EQ_INT(sl.argc, 2);
    CHECK_EQ_STR(words(), "[cat][trace]");
    CHECK_EQ_STR(parse("  echo \t a\tb  \t"), "ok");
    CHECK_EQ_INT(sl.argc, 3);
    CHECK_EQ_STR(words(), "[echo][a][b]");
}

TEST(single_quotes_are_literal)
{
    CHECK_EQ_STR(parse("echo 'a \"b\" \\c # > >>'"), "ok");
    CHECK_EQ_STR(words(), "[echo][a \"b\" \\c # > >>]");
}

TEST(double_quotes_take_two_escapes)
{
    CHECK_EQ_STR(parse("echo \"say \\\"hi\\\" \\\\ \\n 'q' # >\""), "ok");
    CHECK_EQ_STR(words(), "[echo][say \"hi\" \\ \\n 'q' # >]");
}

TEST(quotes_glue_to_the_word_around_them)
{
    CHECK_EQ_STR(parse("a\"b c\"'d e'f"), "ok");
    CHECK_EQ_STR(words(), "[ab cd ef]");
}

TEST(empty_quotes_make_an_empty_word)
{
    CHECK_EQ_STR(parse("echo \"\" '' x"), "ok");
    CHECK_EQ_INT(sl.argc, 4);
    CHECK_EQ_STR(sl.argv[1], "");
    CHECK_EQ_STR(sl.argv[2], "");
    CHECK_EQ_STR(words(), "[echo][][][x]");
}

TEST(backslash_escapes_the_next_character)
{
    CHECK_EQ_STR(parse("echo a\\ b \\> \\# \\' \\\" \\\\ \\\tt"), "ok");
    CHECK_EQ_STR(words(), "[echo][a b][>][#]['][\"][\\][\tt]");
}

TEST(backslash_at_end_of_line_is_an_error)
{
    CHECK_EQ_STR(parse("echo a\\"), "backslash at end of line");
}

TEST(unterminated_quotes_are_errors)
{
    CHECK_EQ_STR(parse("echo 'abc"), "unterminated quote");
    CHECK_EQ_STR(parse("echo \"abc"), "unterminated quote");
    CHECK_EQ_STR(parse("echo \"abc\\\""), "unterminated quote");
    CHECK_EQ_STR(parse("echo '"), "unterminated quote");
    CHECK_EQ_STR(parse("echo a > 'file"), "unterminated quote");
}

TEST(tracefs_examples_from_the_header)
{
    CHECK_EQ_STR(parse("echo mmiotrace > current_tracer"), "ok");
    CHECK_EQ_STR(words(), "[echo][mmiotrace] > current_tracer");
    CHECK(!sl.append);
    CHECK_EQ_STR(parse("echo \"X is up\" > trace_marker"), "ok");
    CHECK_EQ_STR(words(), "[echo][X is up] > trace_marker");
    CHECK_EQ_STR(parse("echo 1 >> set_ftrace_filter"), "ok");
    CHECK_EQ_STR(words(), "[echo][1] >> set_ftrace_filter");
    CHECK(sl.append);
}

TEST(redirect_may_be_glued_to_words)
{
    CHECK_EQ_STR(parse("echo a>b"), "ok");
    CHECK_EQ_INT(sl.argc, 2);
    CHECK_EQ_STR(words(), "[echo][a] > b");
    CHECK_EQ_STR(parse("echo a>>b"), "ok");
    CHECK_EQ_STR(words(), "[echo][a] >> b");
    CHECK_EQ_STR(parse("echo a >b"), "ok");
    CHECK_EQ_STR(words(), "[echo][a] > b");
    CHECK_EQ_STR(parse("echo a>\tb\t"), "ok");
    CHECK_EQ_STR(words(), "[echo][a] > b");
    CHECK_EQ_STR(parse("echo \"a b\">'c d'"), "ok");
    CHECK_EQ_STR(words(), "[echo][a b] > c d");
}

TEST(redirect_target_may_be_quoted_or_escaped)
{
    CHECK_EQ_STR(parse("echo x > \"my file\""), "ok");
    CHECK_EQ_STR(words(), "[echo][x] > my file");
    CHECK_EQ_STR(parse("echo x >> a\\>b"), "ok");
    CHECK_EQ_STR(words(), "[echo][x] >> a>b");
    CHECK_EQ_STR(parse("echo x > '#notes'"), "ok");
    CHECK_EQ_STR(words(), "[echo][x] > #notes");
}

TEST(quoted_or_escaped_angle_bracket_is_a_word)
{
    CHECK_EQ_STR(parse("echo '>'"), "ok");
    CHECK_EQ_STR(words(), "[echo][>]");
    CHECK(sl.redirect == NULL);
    CHECK_EQ_STR(parse("echo \">>\" a\\>b"), "ok");
    CHECK_EQ_STR(words(), "[echo][>>][a>b]");
    CHECK(sl.redirect == NULL);
}

TEST(missing_file_name_after_redirect)
{
    CHECK_EQ_STR(parse("echo a >"), "missing file name after '>'");
    CHECK_EQ_STR(parse("echo a>"), "missing file name after '>'");
    CHECK_EQ_STR(parse("echo a > \t"), "missing file name after '>'");
    CHECK_EQ_STR(parse("echo a >>"), "missing file name after '>>'");
    CHECK_EQ_STR(parse("echo a > # comment"), "missing file name after '>'");
    CHECK_EQ_STR(parse("echo a >#b"), "missing file name after '>'");
    CHECK_EQ_STR(parse("echo a > > b"), "missing file name after '>'");
    CHECK_EQ_STR(parse("echo a >>> b"), "missing file name after '>>'");
    CHECK_EQ_STR(parse("echo a > \"\""), "missing file name after '>'");
    CHECK_EQ_STR(parse("echo a >> ''"), "missing file name after '>>'");
}

TEST(only_one_redirection_is_allowed)
{
    CHECK_EQ_STR(parse("echo a > b > c"), "only one redirection is allowed");
    CHECK_EQ_STR(parse("echo a > b >> c"), "only one redirection is allowed");
    CHECK_EQ_STR(parse("echo a>b>c"), "only one redirection is allowed");
}

TEST(redirect_target_must_be_the_last_word)
{
    CHECK_EQ_STR(parse("echo a > b c"), "words after the redirection target");
    CHECK_EQ_STR(parse("echo a >> b ''"), "words after the redirection target");
    CHECK_EQ_STR(parse("echo > b a"), "words after the redirection target");
}

TEST(redirect_needs_a_command)
{
    CHECK_EQ_STR(parse("> file"), "redirection without a command");
    CHECK_EQ_STR(parse("  >>file # c"), "redirection without a command");
}

TEST(comment_line_has_no_words)
{
    CHECK_EQ_STR(parse("# comment"), "ok");
    CHECK_EQ_INT(sl.argc, 0);
    CHECK(sl.argv[0] == NULL);
    CHECK_EQ_STR(parse("#"), "ok");
    CHECK_EQ_INT(sl.argc, 0);
    CHECK_EQ_STR(parse(" \t# echo a > b"), "ok");
    CHECK_EQ_INT(sl.argc, 0);
    CHECK(sl.redirect == NULL);
}

TEST(comment_after_words)
{
    CHECK_EQ_STR(parse("echo a # c"), "ok");
    CHECK_EQ_STR(words(), "[echo][a]");
    CHECK_EQ_STR(parse("echo a\t#c > d"), "ok");
    CHECK_EQ_STR(words(), "[echo][a]");
    CHECK_EQ_STR(parse("echo a > b # c d"), "ok");
    CHECK_EQ_STR(words(), "[echo][a] > b");
}

TEST(comment_text_is_not_parsed)
{
    CHECK_EQ_STR(parse("echo a # don't \"worry\\"), "ok");
    CHECK_EQ_STR(words(), "[echo][a]");
}

TEST(hash_inside_a_word_is_literal)
{
    CHECK_EQ_STR(parse("echo a#b"), "ok");
    CHECK_EQ_STR(words(), "[echo][a#b]");
    CHECK_EQ_STR(parse("echo '#x' \\#y \"\"#z a#"), "ok");
    CHECK_EQ_STR(words(), "[echo][#x][#y][#z][a#]");
    CHECK_EQ_STR(parse("echo x > b#c"), "ok");
    CHECK_EQ_STR(words(), "[echo][x] > b#c");
}

TEST(control_characters_are_errors)
{
    CHECK_EQ_STR(parse("echo\x01"), "control character in line");
    CHECK_EQ_STR(parse("echo a\r"), "control character in line");
    CHECK_EQ_STR(parse("echo a\n"), "control character in line");
    CHECK_EQ_STR(parse("\x1b[A"), "control character in line");
    CHECK_EQ_STR(parse("echo \x7f"), "control character in line");
    CHECK_EQ_STR(parse("echo '\x08'"), "control character in line");
    CHECK_EQ_STR(parse("# even in a comment \x02"), "control character in line");
}

TEST(non_ascii_bytes_are_errors)
{
    CHECK_EQ_STR(parse("echo caf\xc3\xa9"), "non-ascii character in line");
    CHECK_EQ_STR(parse("\x80"), "non-ascii character in line");
    CHECK_EQ_STR(parse("echo '\xff'"), "non-ascii character in line");
}

TEST(sixteen_words_fit)
{
    CHECK_EQ_STR(parse(numbered_words(16)), "ok");
    CHECK_EQ_INT(sl.argc, 16);
    CHECK_EQ_STR(sl.argv[0], "w0");
    CHECK_EQ_STR(sl.argv[15], "w15");
    CHECK(sl.argv[16] == NULL);
}

TEST(seventeen_words_are_too_many)
{
    CHECK_EQ_STR(parse(numbered_words(17)), "too many words (at most 16)");
    CHECK_EQ_STR(parse("'' '' '' '' '' '' '' '' '' '' '' '' '' '' '' '' ''"),
                 "too many words (at most 16)");
}

TEST(redirect_target_is_not_counted_as_a_word)
{
    char line[512];
    snprintf(line, sizeof line, "%s > out", numbered_words(16));
    CHECK_EQ_STR(parse(line), "ok");
    CHECK_EQ_INT(sl.argc, 16);
    CHECK_EQ_STR(sl.redirect, "out");
    CHECK(sl.argv[16] == NULL);
}

TEST(line_of_256_characters_fits)
{
    const char *line = echo_line_of_length(256);
    CHECK_EQ_INT(strlen(line), 256);
    CHECK_EQ_STR(parse(line), "ok");
    CHECK_EQ_INT(sl.argc, 2);
    CHECK_EQ_INT(strlen(sl.argv[1]), 251);
}

TEST(line_of_257_characters_is_too_long)
{
    CHECK_EQ_STR(parse(echo_line_of_length(257)), "line too long (at most 256 characters)");
    CHECK_EQ_STR(parse(echo_line_of_length(1000)), "line too long (at most 256 characters)");
}

TEST(full_line_with_every_word_and_a_redirect_fits_storage)
{
    /* 15 one-letter words, a 16th word padding the line to 256, then " >> f". */
    char line[SHELL_LINE_MAX + 1];
    size_t n = 0;
    for (int i = 0; i < 15; i++) {
        line[n++] = (char)('a' + i);
        line[n++] = ' ';
    }
    while (n < SHELL_LINE_MAX - 5)
        line[n++] = 'z';
    memcpy(line + n, " >> f", 6);
    CHECK_EQ_INT(strlen(line), 256);
    CHECK_EQ_STR(parse(line), "ok");
    CHECK_EQ_INT(sl.argc, 16);
    CHECK_EQ_STR(sl.argv[14], "o");
    CHECK_EQ_INT(strlen(sl.argv[15]), 256 - 30 - 5);
    CHECK_EQ_STR(sl.redirect, "f");
    CHECK(sl.append);
}

TEST(words_point_into_storage_in_order)
{
    CHECK_EQ_STR(parse("a 'bb' \"c\"c > d"), "ok");
    CHECK(sl.argv[0] == sl.storage);
    CHECK(sl.argv[1] == sl.argv[0] + 2);
    CHECK(sl.argv[2] == sl.argv[1] + 3);
    CHECK(sl.redirect == sl.argv[2] + 3);
    CHECK_EQ_STR(words(), "[a][bb][cc] > d");
}

TEST(error_leaves_an_empty_line)
{
    CHECK_EQ_STR(parse("echo a >> b"), "ok");
    CHECK_EQ_STR(parse("echo a >> b c"), "words after the redirection target");
    CHECK_EQ_INT(sl.argc, 0);
    CHECK(sl.argv[0] == NULL);
    CHECK(sl.argv[1] == NULL);
    CHECK(sl.redirect == NULL);
    CHECK(!sl.append);
}

TEST(reused_struct_keeps_nothing_from_before)
{
    CHECK_EQ_STR(parse("a b c >> d"), "ok");
    CHECK_EQ_STR(parse("x"), "ok");
    CHECK_EQ_INT(sl.argc, 1);
    CHECK(sl.argv[1] == NULL);
    CHECK(sl.argv[2] == NULL);
    CHECK(sl.redirect == NULL);
    CHECK(!sl.append);
    CHECK_EQ_STR(words(), "[x]");
}

TEST(error_messages_are_short_single_lines)
{
    static const char *const bad[] = {
        "'", "a\\", "a >", "a >>", "a > b > c", "a > b c", "> b", "\x01", "\xff",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *error = parse(bad[i]);
        CHECK(strcmp(error, "ok") != 0);
        CHECK(strchr(error, '\n') == NULL);
        CHECK(strlen(error) < 60);
    }
}
