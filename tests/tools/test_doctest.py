#!/usr/bin/env python3
"""test_doctest.py - unit tests of tools/doctest.py: markers, matching, transcripts.

Prints one TAP line per test ("ok - NAME" / "not ok - NAME"), as tests/run_all.sh counts them.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import doctest as doc  # noqa: E402  (tools/doctest.py, not the standard library's)

FENCE = "```"


def chapter(*lines):
    """A markdown text from lines."""
    return "\n".join(lines) + "\n"


def patterns(*lines):
    """(line number, pattern) pairs numbered from 1, as a block gives them."""
    return [(number, doc.line_pattern(text)) for number, text in enumerate(lines, 1)]


class Parsing(unittest.TestCase):
    def test_console_block_gives_commands_and_their_output(self):
        boots = doc.parse_chapter("x.md", chapter(
            "text", FENCE + "console", "tracekern> echo hi", "hi", "tracekern> ls", "dev/", FENCE))
        self.assertEqual(len(boots), 1)
        steps = boots[0].blocks[0].steps
        self.assertEqual([s.command for s in steps], ["echo hi", "ls"])
        self.assertEqual([s.line for s in steps], [3, 5])
        self.assertEqual([n for n, _ in steps[0].expected], [4])

    def test_session_block_without_marker_is_an_error_naming_its_line(self):
        with self.assertRaisesRegex(doc.DocError, r"^x\.md:2: a session block"):
            doc.parse_chapter("x.md", chapter("intro", FENCE, "tracekern> ls", FENCE))

    def test_not_run_comment_with_reason_excuses_a_block(self):
        boots = doc.parse_chapter("x.md", chapter(
            "<!-- not run: it crashes the kernel on purpose -->", FENCE, "tracekern> crash", FENCE))
        self.assertEqual(boots, [])

    def test_not_run_comment_needs_a_reason(self):
        with self.assertRaisesRegex(doc.DocError, "needs a reason"):
            doc.parse_chapter("x.md", chapter("<!-- not run: -->", FENCE, "tracekern> x", FENCE))

    def test_not_run_comment_must_be_right_before_the_block(self):
        with self.assertRaisesRegex(doc.DocError, "not right before"):
            doc.parse_chapter("x.md", chapter("<!-- not run: why -->", "words", FENCE,
                                              "tracekern> x", FENCE))

    def test_blocks_without_prompts_are_left_alone(self):
        self.assertEqual(doc.parse_chapter("x.md", chapter(FENCE + "sh", "make run", FENCE)), [])

    def test_boot_comment_and_poweroff_start_new_boots(self):
        boots = doc.parse_chapter("x.md", chapter(
            FENCE + "console", "tracekern> a", FENCE,
            '<!-- boot: iso append="ftrace=function" -->',
            FENCE + "console", "tracekern> b", "tracekern> poweroff", FENCE,
            FENCE + "console", "tracekern> c", FENCE))
        self.assertEqual([[s.command for b in boot.blocks for s in b.steps] for boot in boots],
                         [["a"], ["b", "poweroff"], ["c"]])
        self.assertFalse(boots[0].options["iso"])
        self.assertTrue(boots[1].options["iso"])
        self.assertEqual(boots[2].options["append"], "ftrace=function")

    def test_programs_boot_option_adds_modules_but_not_to_an_iso(self):
        boots = doc.parse_chapter("x.md", chapter(
            '<!-- boot: programs="build/busybox/busybox other/prog" -->',
            FENCE + "console", "tracekern> a", FENCE))
        self.assertEqual(boots[0].options["programs"], ["build/busybox/busybox", "other/prog"])
        with self.assertRaisesRegex(doc.DocError, "x.md:1: programs= needs a -kernel boot"):
            doc.parse_chapter("x.md", chapter('<!-- boot: iso programs="a" -->'))

    def test_unknown_boot_option_is_an_error(self):
        with self.assertRaisesRegex(doc.DocError, "x.md:1: unknown boot option 'smp=2'"):
            doc.parse_chapter("x.md", chapter("<!-- boot: smp=2 -->"))

    def test_boot_output_only_in_the_first_block_of_a_boot(self):
        with self.assertRaisesRegex(doc.DocError, "not the first of its boot"):
            doc.parse_chapter("x.md", chapter(FENCE + "console", "tracekern> a", FENCE,
                                              FENCE + "console", "booting", "tracekern> b", FENCE))


class Matching(unittest.TestCase):
    def test_exact_lines_match(self):
        self.assertIsNone(doc.match_lines(patterns("a", "b c"), ["a", "b c"]))

    def test_blank_runs_and_ends_do_not_matter(self):
        self.assertIsNone(doc.match_lines(patterns("  0)  1.2 us  |  f();"), ["0) 1.2 us | f();  "]))

    def test_ellipsis_character_stands_for_text_within_a_line(self):
        self.assertIsNone(doc.match_lines(patterns("clock: TSC … MHz"), ["clock: TSC 2000.1 MHz"]))
        self.assertEqual(doc.match_lines(patterns("clock: TSC … MHz"), ["clock: TSC 2000.1 GHz"]),
                         (1, "clock: TSC 2000.1 GHz"))

    def test_three_dots_line_stands_for_any_lines_even_none(self):
        self.assertIsNone(doc.match_lines(patterns("a", "...", "z"), ["a", "b", "c", "z"]))
        self.assertIsNone(doc.match_lines(patterns("a", "...", "z"), ["a", "z"]))
        self.assertIsNone(doc.match_lines(patterns("..."), []))

    def test_three_dots_backtracks_to_the_last_match(self):
        self.assertIsNone(doc.match_lines(patterns("...", "x", "y"), ["x", "q", "x", "y"]))

    def test_a_wrong_line_is_reported_with_its_line_number(self):
        self.assertEqual(doc.match_lines(patterns("a", "b", "c"), ["a", "B", "c"]), (2, "B"))

    def test_a_missing_line_reports_the_end_of_output(self):
        self.assertEqual(doc.match_lines(patterns("a", "b"), ["a"]), (2, None))

    def test_an_extra_line_is_reported(self):
        self.assertEqual(doc.match_lines(patterns("a"), ["a", "surprise"]), (None, "surprise"))

    def test_regex_characters_are_literal(self):
        self.assertEqual(doc.match_lines(patterns("a.*b"), ["axxb"]), (1, "axxb"))


class Transcripts(unittest.TestCase):
    def test_console_log_splits_at_prompts_without_escapes(self):
        boot, steps = doc.split_transcript(
            "\x1b[H\x1b[J  Booting\r\nready.\r\ntracekern> ls\r\ndev/\r\ntracekern> poweroff\r\nbye\r\n")
        self.assertEqual(boot, ["  Booting", "ready."])
        self.assertEqual(steps, [("ls", ["dev/"]), ("poweroff", ["bye"])])

    def test_output_printed_at_the_prompt_belongs_to_the_next_command(self):
        steps = [("[4] spin: killed", ["run hello", "hello"])]
        self.assertEqual(doc.attach_early_output(steps, ["run hello"]),
                         [("run hello", ["[4] spin: killed", "hello"])])

    def test_output_printed_inside_the_echo_is_taken_out_of_it(self):
        steps = [("slspin: pid 4 spinning", ["eep 0.05", "after"])]
        self.assertEqual(doc.attach_early_output(steps, ["sleep 0.05"]),
                         [("sleep 0.05", ["spin: pid 4 spinning", "after"])])

    def test_an_echo_broken_twice_by_other_output_is_put_together(self):
        steps = [("ipc_pong: 6 calls answered", ["s[3] ipc_pong: exited", "leep 0.05", "after"])]
        self.assertEqual(doc.attach_early_output(steps, ["sleep 0.05"]),
                         [("sleep 0.05", ["ipc_pong: 6 calls answered", "[3] ipc_pong: exited", "after"])])

    def test_other_output_that_starts_like_the_command_is_not_taken_for_its_echo(self):
        steps = [("sleeper: pid 4 woke", ["sleep 1", "after"])]
        self.assertEqual(doc.attach_early_output(steps, ["sleep 1"]),
                         [("sleep 1", ["sleeper: pid 4 woke", "after"])])

    def test_a_boot_whose_output_differs_fails_naming_file_and_line(self):
        boots = doc.parse_chapter("ch.md", chapter(
            FENCE + "console", "tracekern> echo hi", "hi", FENCE,
            FENCE + "console", "tracekern> echo yes", "yes", FENCE))
        results = doc.check_boot(boots[0], [], [("echo hi", ["ho"]), ("echo yes", ["yes"])], [])
        self.assertRegex(results[0][1], r"^ch\.md:3: after `echo hi`: expected line not matched, got 'ho'")
        self.assertIsNone(results[1][1])

    def test_lines_printed_before_the_next_prompt_may_count_for_the_next_command(self):
        boots = doc.parse_chapter("ch.md", chapter(
            FENCE + "console", "tracekern> run ping", "pinged", "tracekern> sleep 1", "pong done", FENCE))
        early = [("run ping", ["pinged", "pong done"]), ("sleep 1", [])]
        self.assertEqual(doc.check_boot(boots[0], [], early, [])[0][1], None)
        wrong = [("run ping", ["pinged", "pong failed"]), ("sleep 1", [])]
        self.assertRegex(doc.check_boot(boots[0], [], wrong, [])[0][1], "ch.md:5: after `sleep 1`")

    def test_a_command_that_never_got_a_prompt_fails(self):
        boots = doc.parse_chapter("ch.md", chapter(FENCE + "console", "tracekern> hang", FENCE))
        self.assertRegex(doc.check_boot(boots[0], [], [], [])[0][1], "ch.md:2: `hang` never got a prompt")

    def test_com2_block_lines_must_be_in_the_com2_capture_in_order(self):
        boots = doc.parse_chapter("ch.md", chapter(
            FENCE + "console", "tracekern> x", FENCE, FENCE + "com2", "MARK … up", "MAP …", FENCE))
        steps = [("x", [])]
        self.assertIsNone(doc.check_boot(boots[0], [], steps, ["V", "MARK 0.1 up", "MAP 1", "R"])[1][1])
        self.assertRegex(doc.check_boot(boots[0], [], steps, ["MAP 1", "MARK 0.1 up"])[1][1],
                         "ch.md:6: COM2 does not have this line")


class TapResult(unittest.TextTestResult):
    """Prints one TAP line per test case."""

    def addSuccess(self, test):
        print(f"ok - doctest: {test._testMethodName}")

    def addFailure(self, test, err):
        print(f"not ok - doctest: {test._testMethodName}")
        print("\n".join("#   " + line for line in self._exc_info_to_string(err, test).split("\n")))

    addError = addFailure


if __name__ == "__main__":
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    runner = unittest.TextTestRunner(resultclass=TapResult, stream=open(os.devnull, "w"))
    sys.exit(0 if runner.run(suite).wasSuccessful() else 1)
