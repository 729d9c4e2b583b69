/* test_shell_parse.c - unit tests for kernel/shell/shell_parse.c. */
#include "unit.h"

#include "kernel/shell/shell_parse.h"

static struct shell_line sl;

/* Parses line into sl and returns the error, or "ok". */
static const char *parse(const char *line)
{
    const char *error = shell_parse(line, &sl);
    return error ? error : "ok";
}

/*
 * sl's commands as "[w1][w2]...", each with " > target" or " >> target", joined by " ; ";
 * "(broken)" when an argv is not NULL-terminated, a pointer leaves storage, or a command
 * past sl.count has words, so that one CHECK_EQ_STR checks everything.
 */
static const char *words(void)
{
    static char text[16384];
    const char *storage_end = sl.storage + sizeof sl.storage;
    size_t n = 0;

    text[0] = '\0';
    if (sl.count < 0 || sl.count > SHELL_MAX_COMMANDS)
        return "(broken)";
    for (int c = 0; c < SHELL_MAX_COMMANDS; c++) {
        const struct shell_words *w = &sl.cmd[c];
        if (c >= sl.count) {
            if (w->argc != 0 || w->argv[0] != NULL || w->redirect != NULL)
                return "(broken)";
            continue;
        }
        if (w->argc <= 0 || w->argc > SHELL_MAX_ARGS || w->argv[w->argc] != NULL)
            return "(broken)";
        if (c > 0)
            n += (size_t)snprintf(text + n, sizeof text - n, " ; ");
        for (int i = 0; i < w->argc; i++) {
            if (w->argv[i] < sl.storage || w->argv[i] >= storage_end)
                return "(broken)";
            n += (size_t)snprintf(text + n, sizeof text - n, "[%s]", w->argv[i]);
        }
        if (w->redirect != NULL) {
            if (w->redirect < sl.storage || w->redirect >= storage_end)
                return "(broken)";
            n += (size_t)snprintf(text + n, sizeof text - n, " %s %s", w->append ? ">>" : ">",
                                  w->redirect);
        }
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
    static char line[8192];
    memcpy(line, "echo ", 5);
    memset(line + 5, 'x', length - 5);
    line[length] = '\0';
    return line;
}

TEST(empty_line_has_no_words)
{
    CHECK_EQ_STR(parse(""), "ok");
    CHECK_EQ_INT(sl.cmd[0].argc, 0);
    CHECK(sl.cmd[0].argv[0] == NULL);
    CHECK(sl.cmd[0].redirect == NULL);
}

TEST(blank_line_has_no_words)
{
    CHECK_EQ_STR(parse("  \t \t"), "ok");
    CHECK_EQ_INT(sl.cmd[0].argc, 0);
    CHECK_EQ_STR(words(), "");
}

TEST(splits_on_spaces_and_tabs)
{
    CHECK_EQ_STR(parse("cat trace"), "ok");
    CHECK_EQ_INT(sl.cmd[0].argc, 2);
    CHECK_EQ_STR(words(), "[cat][trace]");
    CHECK_EQ_STR(parse("  echo \t a\tb  \t"), "ok");
    CHECK_EQ_INT(sl.cmd[0].argc, 3);
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
    CHECK_EQ_INT(sl.cmd[0].argc, 4);
    CHECK_EQ_STR(sl.cmd[0].argv[1], "");
    CHECK_EQ_STR(sl.cmd[0].argv[2], "");
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
    CHECK(!sl.cmd[0].append);
    CHECK_EQ_STR(parse("echo \"X is up\" > trace_marker"), "ok");
    CHECK_EQ_STR(words(), "[echo][X is up] > trace_marker");
    CHECK_EQ_STR(parse("echo 1 >> set_ftrace_filter"), "ok");
    CHECK_EQ_STR(words(), "[echo][1] >> set_ftrace_filter");
    CHECK(sl.cmd[0].append);
}

TEST(redirect_may_be_glued_to_words)
{
    CHECK_EQ_STR(parse("echo a>b"), "ok");
    CHECK_EQ_INT(sl.cmd[0].argc, 2);
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
    CHECK(sl.cmd[0].redirect == NULL);
    CHECK_EQ_STR(parse("echo \">>\" a\\>b"), "ok");
    CHECK_EQ_STR(words(), "[echo][>>][a>b]");
    CHECK(sl.cmd[0].redirect == NULL);
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
    CHECK_EQ_INT(sl.cmd[0].argc, 0);
    CHECK(sl.cmd[0].argv[0] == NULL);
    CHECK_EQ_STR(parse("#"), "ok");
    CHECK_EQ_INT(sl.cmd[0].argc, 0);
    CHECK_EQ_STR(parse(" \t# echo a > b"), "ok");
    CHECK_EQ_INT(sl.cmd[0].argc, 0);
    CHECK(sl.cmd[0].redirect == NULL);
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

TEST(thirty_two_words_fit)
{
    CHECK_EQ_STR(parse(numbered_words(32)), "ok");
    CHECK_EQ_INT(sl.cmd[0].argc, 32);
    CHECK_EQ_STR(sl.cmd[0].argv[0], "w0");
    CHECK_EQ_STR(sl.cmd[0].argv[31], "w31");
    CHECK(sl.cmd[0].argv[32] == NULL);
}

TEST(thirty_three_words_are_too_many)
{
    CHECK_EQ_STR(parse(numbered_words(33)), "too many words (at most 32 a command)");
    char line[256] = "";
    for (int i = 0; i < 33; i++)
        strcat(line, "'' ");
    CHECK_EQ_STR(parse(line), "too many words (at most 32 a command)");
}

TEST(the_word_limit_is_per_command)
{
    char line[1024];
    snprintf(line, sizeof line, "%s; %s", numbered_words(32), numbered_words(32));
    CHECK_EQ_STR(parse(line), "ok");
    CHECK_EQ_INT(sl.count, 2);
    CHECK_EQ_INT(sl.cmd[1].argc, 32);
}

TEST(redirect_target_is_not_counted_as_a_word)
{
    char line[512];
    snprintf(line, sizeof line, "%s > out", numbered_words(32));
    CHECK_EQ_STR(parse(line), "ok");
    CHECK_EQ_INT(sl.cmd[0].argc, 32);
    CHECK_EQ_STR(sl.cmd[0].redirect, "out");
    CHECK(sl.cmd[0].argv[32] == NULL);
}

TEST(line_of_4096_characters_fits)
{
    const char *line = echo_line_of_length(4096);
    CHECK_EQ_INT(strlen(line), 4096);
    CHECK_EQ_STR(parse(line), "ok");
    CHECK_EQ_INT(sl.cmd[0].argc, 2);
    CHECK_EQ_INT(strlen(sl.cmd[0].argv[1]), 4091);
}

TEST(line_of_4097_characters_is_too_long)
{
    CHECK_EQ_STR(parse(echo_line_of_length(4097)), "line too long (at most 4096 characters)");
    CHECK_EQ_STR(parse(echo_line_of_length(6000)), "line too long (at most 4096 characters)");
    CHECK_EQ_INT(sl.count, 0);
}

TEST(full_line_of_one_letter_words_fits_storage)
{
    /* "a;a;a;...": 2048 commands would be too many, so 31 commands of 32 one-letter words
     * each and a last word padding the line to 4096: the storage bound (2 bytes a word
     * byte) is reached by one-letter words. */
    static char line[SHELL_LINE_MAX + 1];
    size_t n = 0;
    for (int c = 0; c < 31; c++) {
        for (int i = 0; i < 32; i++) {
            line[n++] = (char)('a' + i % 26);
            line[n++] = i == 31 ? ';' : ' ';
        }
    }
    while (n < SHELL_LINE_MAX - 5)
        line[n++] = 'z';
    memcpy(line + n, " >> f", 6);
    CHECK_EQ_INT(strlen(line), 4096);
    CHECK_EQ_STR(parse(line), "ok");
    CHECK_EQ_INT(sl.count, 32);
    CHECK_EQ_STR(sl.cmd[30].argv[31], "f");
    CHECK_EQ_INT(sl.cmd[31].argc, 1);
    CHECK_EQ_INT(strlen(sl.cmd[31].argv[0]), 4096 - 31 * 64 - 5);
    CHECK_EQ_STR(sl.cmd[31].redirect, "f");
    CHECK(sl.cmd[31].append);
}

TEST(semicolon_separates_commands)
{
    CHECK_EQ_STR(parse("echo a; echo b"), "ok");
    CHECK_EQ_INT(sl.count, 2);
    CHECK_EQ_STR(words(), "[echo][a] ; [echo][b]");
    CHECK_EQ_STR(parse("echo a;echo b;cat trace"), "ok");
    CHECK_EQ_STR(words(), "[echo][a] ; [echo][b] ; [cat][trace]");
    CHECK_EQ_STR(parse("echo 1 > tracing_on; cat trace >> /dev/ttyS1"), "ok");
    CHECK_EQ_STR(words(), "[echo][1] > tracing_on ; [cat][trace] >> /dev/ttyS1");
    CHECK_EQ_STR(parse("echo a>b;echo c"), "ok");
    CHECK_EQ_STR(words(), "[echo][a] > b ; [echo][c]");
}

TEST(a_line_may_end_with_a_semicolon)
{
    CHECK_EQ_STR(parse("echo a;"), "ok");
    CHECK_EQ_INT(sl.count, 1);
    CHECK_EQ_STR(parse("echo a ;  # done"), "ok");
    CHECK_EQ_STR(words(), "[echo][a]");
}

TEST(empty_command_before_semicolon_is_an_error)
{
    CHECK_EQ_STR(parse(";"), "empty command before ';'");
    CHECK_EQ_STR(parse(" ; echo a"), "empty command before ';'");
    CHECK_EQ_STR(parse("echo a;; echo b"), "empty command before ';'");
    CHECK_EQ_STR(parse("> f; echo b"), "redirection without a command");
    CHECK_EQ_INT(sl.count, 0);
}

TEST(quoted_or_escaped_semicolon_is_text)
{
    CHECK_EQ_STR(parse("echo 'a;b' \"c;d\" e\\;f"), "ok");
    CHECK_EQ_STR(words(), "[echo][a;b][c;d][e;f]");
    CHECK_EQ_STR(parse("echo 'u:dyn_test u32 a;char[8] b' >> dynamic_events"), "ok");
    CHECK_EQ_STR(words(), "[echo][u:dyn_test u32 a;char[8] b] >> dynamic_events");
}

TEST(a_comment_hides_a_semicolon)
{
    CHECK_EQ_STR(parse("echo a # ; echo b"), "ok");
    CHECK_EQ_STR(words(), "[echo][a]");
}

TEST(an_error_anywhere_runs_nothing)
{
    CHECK_EQ_STR(parse("echo a; echo 'b"), "unterminated quote");
    CHECK_EQ_INT(sl.count, 0);
    CHECK_EQ_STR(words(), "");
    CHECK_EQ_STR(parse("echo a; echo b | cat"), "pipes (|) are not supported; use '>' to a file");
    CHECK_EQ_INT(sl.count, 0);
}

TEST(thirty_two_commands_fit_and_thirty_three_do_not)
{
    char line[512] = "";
    for (int i = 0; i < 32; i++)
        strcat(line, "ls;");
    CHECK_EQ_STR(parse(line), "ok");
    CHECK_EQ_INT(sl.count, 32);
    strcat(line, "  # still 32");
    CHECK_EQ_STR(parse(line), "ok");
    CHECK_EQ_INT(sl.count, 32);
    strcpy(line + 32 * 3, "ls");
    CHECK_EQ_STR(parse(line), "too many commands (at most 32 a line)");
    strcpy(line + 32 * 3, ";");
    CHECK_EQ_STR(parse(line), "too many commands (at most 32 a line)");
}

TEST(pipes_are_refused_not_taken_literally)
{
    CHECK_EQ_STR(parse("echo a | cat"), "pipes (|) are not supported; use '>' to a file");
    CHECK_EQ_STR(parse("echo a|cat"), "pipes (|) are not supported; use '>' to a file");
    CHECK_EQ_STR(parse("echo a || echo b"), "'||' is not supported; use ';' between commands");
    CHECK_EQ_STR(parse("|"), "pipes (|) are not supported; use '>' to a file");
    CHECK_EQ_STR(parse("echo 'a|b' \"|\" \\|"), "ok");
    CHECK_EQ_STR(words(), "[echo][a|b][|][|]");
}

TEST(other_sh_operators_are_refused)
{
    CHECK_EQ_STR(parse("echo a && echo b"), "'&&' is not supported; use ';' between commands");
    CHECK_EQ_STR(parse("cat < trace"), "input redirection (<) is not supported");
    CHECK_EQ_STR(parse("echo `ls`"), "command substitution `...` is not supported");
    CHECK_EQ_STR(parse("echo \"`ls`\""), "command substitution `...` is not supported");
    CHECK_EQ_STR(parse("echo $(ls)"), "command substitution $(...) is not supported");
    CHECK_EQ_STR(parse("echo 'a<b' '`' \\< \"\\`\""), "ok");
    CHECK_EQ_STR(words(), "[echo][a<b][`][<][`]");
}

TEST(variables_are_refused_not_taken_literally)
{
    static const char *const refused[] = {
        "echo $HOME",   "echo $HOME; echo b", "echo x$y",  "echo ${HOME}", "echo $?",
        "echo $1",      "echo $$",            "echo \"$HOME\"", "echo a > $f", "echo $_x",
        "echo \"a ${b}\"",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        CHECK_EQ_STR(parse(refused[i]), "variables ($NAME) are not supported; quote a literal '$'");
}

TEST(a_dollar_sh_would_not_expand_is_text)
{
    CHECK_EQ_STR(parse("echo $ a$ '$HOME' \\$HOME \"\\$x\" $/ \"$\""), "ok");
    CHECK_EQ_STR(words(), "[echo][$][a$][$HOME][$HOME][$x][$/][$]");
    CHECK_EQ_STR(parse("echo 'p:myprobe do_sys_open $arg1' >> kprobe_events"), "ok");
    CHECK_EQ_STR(words(), "[echo][p:myprobe do_sys_open $arg1] >> kprobe_events");
}

TEST(ampersand_ends_the_line_as_a_word)
{
    CHECK_EQ_STR(parse("run spin &"), "ok");
    CHECK_EQ_STR(words(), "[run][spin][&]");
    CHECK(sl.cmd[0].background);
    CHECK_EQ_STR(parse("run spin&"), "ok");
    CHECK_EQ_STR(words(), "[run][spin][&]");
    CHECK_EQ_STR(parse("run spin > /dev/null & # bg"), "ok");
    CHECK_EQ_STR(words(), "[run][spin][&] > /dev/null");
    CHECK_EQ_STR(parse("echo a; run spin &"), "ok");
    CHECK_EQ_STR(words(), "[echo][a] ; [run][spin][&]");
    CHECK_EQ_STR(parse("echo '&' a\\&b"), "ok");
    CHECK_EQ_STR(words(), "[echo][&][a&b]");
    CHECK(!sl.cmd[0].background);
}

TEST(ampersand_elsewhere_is_refused)
{
    CHECK_EQ_STR(parse("run a & run b"), "'&' may only end the line (run PROGRAM ... &)");
    CHECK_EQ_STR(parse("run a &; echo b"), "'&' may only end the line (run PROGRAM ... &)");
    CHECK_EQ_STR(parse("&"), "'&' without a command");
}

TEST(words_point_into_storage_in_order)
{
    CHECK_EQ_STR(parse("a 'bb' \"c\"c > d"), "ok");
    CHECK(sl.cmd[0].argv[0] == sl.storage);
    CHECK(sl.cmd[0].argv[1] == sl.cmd[0].argv[0] + 2);
    CHECK(sl.cmd[0].argv[2] == sl.cmd[0].argv[1] + 3);
    CHECK(sl.cmd[0].redirect == sl.cmd[0].argv[2] + 3);
    CHECK_EQ_STR(words(), "[a][bb][cc] > d");
}

TEST(error_leaves_an_empty_line)
{
    CHECK_EQ_STR(parse("echo a >> b"), "ok");
    CHECK_EQ_STR(parse("echo a >> b c"), "words after the redirection target");
    CHECK_EQ_INT(sl.cmd[0].argc, 0);
    CHECK(sl.cmd[0].argv[0] == NULL);
    CHECK(sl.cmd[0].argv[1] == NULL);
    CHECK(sl.cmd[0].redirect == NULL);
    CHECK(!sl.cmd[0].append);
}

TEST(reused_struct_keeps_nothing_from_before)
{
    CHECK_EQ_STR(parse("a b c >> d"), "ok");
    CHECK_EQ_STR(parse("x"), "ok");
    CHECK_EQ_INT(sl.cmd[0].argc, 1);
    CHECK(sl.cmd[0].argv[1] == NULL);
    CHECK(sl.cmd[0].argv[2] == NULL);
    CHECK(sl.cmd[0].redirect == NULL);
    CHECK(!sl.cmd[0].append);
    CHECK_EQ_STR(words(), "[x]");
}

TEST(error_messages_are_short_single_lines)
{
    static const char *const bad[] = {
        "'", "a\\", "a >", "a >>", "a > b > c", "a > b c", "> b", "\x01", "\xff", ";",
        "a | b", "a || b", "a && b", "a < b", "`a`", "$(a)", "$a", "a & b", "&",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *error = parse(bad[i]);
        CHECK(strcmp(error, "ok") != 0);
        CHECK(strchr(error, '\n') == NULL);
        CHECK(strlen(error) < 60);
    }
}
