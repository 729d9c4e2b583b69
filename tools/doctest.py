#!/usr/bin/env python3
"""doctest.py - runs the console sessions of README.md and docs/*.md and checks their output.

A documented session is a fenced block whose info string is `console`:

    ```console
    tracekern> echo "X is up" > trace_marker
    tracekern> cat trace
    # tracer: nop
    ...
              <idle>-0       [000] .....     …: tracing_mark_write: X is up
    ```

- A line starting with "tracekern> " is typed at the prompt; the lines after it, up to the
  next such line, are what the command prints.
- A line that is just "..." stands for any number of lines (none included).
- "…" (one character, U+2026) inside a line stands for any text within that line: the
  values that vary from run to run (timestamps, addresses, cycle counts).
- Runs of blanks compare equal to one blank, and leading and trailing blanks are ignored.
- What a background program prints can reach the console just before or just after the next
  prompt; the block shows it after the command it came during (usually a `sleep`), and
  either place matches. Text printed inside the echo of a typed line counts as that
  command's first output, as a person sees it.
- Lines before a block's first prompt are what the boot printed before the first prompt;
  only the first block of a boot may have them.

A block whose info string is `com2` shows lines the boot so far sent to the host on COM2
(`build/com2.txt` under `make run`): they must appear there in order, "..." and "…" as above.

Every block of a chapter runs, in order, on one boot of the kernel (`poweroff` ends a boot:
the next block starts a new one). HTML comments, invisible on a rendered page, steer this:

    <!-- boot: iso append="ftrace=function" devices="edu" -->
        the blocks after it run on a new boot with these options (iso: through GRUB, as
        `make run` does; the default is -kernel with every user program as a module and the
        devices edu and pci-testdev, as `make run` has them);
    <!-- boot: programs="build/busybox/busybox" -->
        more programs, each /bin/NAME beside the built-in ones, as `make run PROGRAMS=...`
        gives them (not with iso); a file under build/ is made first (`make -s FILE`);
    <!-- not run: REASON -->
        right before a fenced block that shows a session (it has "tracekern> " lines) but is
        not a `console` block: the reason it cannot run (it crashes the kernel on purpose,
        types control keys, shows a boot with other options). A session block with neither
        is an error, so no session can escape the test by accident.

Usage:
    doctest.py [--show] [--logs DIR] [--qemu-run P] [--kernel P] [--iso P] [--programs LIST] FILE...
prints one TAP line per block ("ok - README.md:120 block, 5 commands"); a failure names the
file and line of the first expected line that did not match, and shows what came instead.
With --show the console of each boot is copied to stdout as it runs (`make tour`).
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

PROMPT = "tracekern> "
SKIP_LINES = "..."
ANY_TEXT = "\u2026"
ANSI_ESCAPE = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[()][0-9A-Za-z]|[=>])")
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*(.*)$")
BOOT_COMMENT = re.compile(r"^\s*<!--\s*boot:(.*?)-->\s*$")
NOT_RUN_COMMENT = re.compile(r"^\s*<!--\s*not run:(.*?)-->\s*$")
DEFAULT_DEVICES = "edu pci-testdev"


class DocError(Exception):
    """A mistake in how a chapter marks its sessions: FILE:LINE: what is wrong."""


class Step:
    """One typed command and the lines the block says it prints.

    expected holds (line number in the file, pattern) pairs; a pattern is SKIP_LINES or a
    compiled regular expression for one normalised output line."""

    def __init__(self, command, line):
        self.command = command
        self.line = line
        self.expected = []


class Block:
    """One ```console block: the boot output it expects (if first in its boot) and its steps."""

    def __init__(self, path, line):
        self.path = path
        self.line = line
        self.boot_expected = []
        self.steps = []
        self.com2_expected = []     # for a com2 block: the (line, pattern) pairs it shows


class Boot:
    """The blocks that run, in order, on one boot, and how that boot is made."""

    def __init__(self, options):
        self.options = options
        self.blocks = []


def normalise(text):
    """Collapses runs of blanks to one space and trims both ends, so alignment never fails."""
    return " ".join(text.split())


def line_pattern(text):
    """The pattern one expected output line stands for: "..." or a regex where … is any text."""
    if text.strip() == SKIP_LINES:
        return SKIP_LINES
    parts = normalise(text).split(ANY_TEXT)
    return re.compile(".*".join(re.escape(part) for part in parts))


def parse_boot_options(text, path, line):
    """Reads a <!-- boot: ... --> comment: iso, append="...", devices="...", programs="..."."""
    options = {"iso": False, "append": "", "devices": DEFAULT_DEVICES, "programs": []}
    for word in shlex.split(text):
        key, sep, value = word.partition("=")
        if key == "iso" and not sep:
            options["iso"] = True
        elif key in ("append", "devices") and sep:
            options[key] = value
        elif key == "programs" and sep:
            options["programs"] = value.split()
        else:
            raise DocError(f"{path}:{line}: unknown boot option '{word}' "
                           "(iso, append=, devices=, programs=)")
    if options["iso"] and options["programs"]:
        raise DocError(f"{path}:{line}: programs= needs a -kernel boot (the ISO's modules are fixed)")
    return options


def parse_console_block(path, first_line, lines):
    """Turns the lines of one ```console block (numbered from first_line) into a Block."""
    block = Block(path, first_line - 1)
    for number, text in enumerate(lines, first_line):
        if text.startswith(PROMPT):
            block.steps.append(Step(text[len(PROMPT):], number))
        elif text.rstrip() == PROMPT.rstrip():
            block.steps.append(Step("", number))
        elif block.steps:
            block.steps[-1].expected.append((number, line_pattern(text)))
        else:
            block.boot_expected.append((number, line_pattern(text)))
    if not block.steps:
        raise DocError(f"{path}:{block.line}: a console block without a '{PROMPT}' line")
    return block


def parse_chapter(path, text):
    """Splits a markdown file into the boots its console blocks run on, checking the markers."""
    lines = text.split("\n")
    default = parse_boot_options("", path, 0)
    boots = [Boot(default)]
    pending_not_run = None        # (line, reason) of a not-run comment awaiting its block
    i = 0
    while i < len(lines):
        number = i + 1
        boot = BOOT_COMMENT.match(lines[i])
        not_run = NOT_RUN_COMMENT.match(lines[i])
        fence = FENCE.match(lines[i])
        if boot:
            default = parse_boot_options(boot.group(1), path, number)
            boots.append(Boot(default))
        elif not_run:
            if not not_run.group(1).strip():
                raise DocError(f"{path}:{number}: '<!-- not run: -->' needs a reason")
            pending_not_run = number
        elif fence:
            indent, marker, info = fence.groups()
            end = i + 1
            while end < len(lines) and not (lines[end].strip().startswith(marker)
                                            and lines[end].strip().strip(marker[0]) == ""):
                end += 1
            body = [line[len(indent):] if line.startswith(indent) else line.lstrip()
                    for line in lines[i + 1:end]]
            is_session = any(line.startswith(PROMPT) or line.rstrip() == PROMPT.rstrip()
                             for line in body)
            if info.split()[:1] == ["com2"]:
                block = Block(path, number)
                block.com2_expected = ([(number, SKIP_LINES)] +
                                       [(n, line_pattern(t)) for n, t in enumerate(body, number + 1)] +
                                       [(end + 1, SKIP_LINES)])
                boots[-1].blocks.append(block)
            elif info.split()[:1] == ["console"]:
                if pending_not_run is not None:
                    raise DocError(f"{path}:{pending_not_run}: 'not run' before a console block")
                block = parse_console_block(path, number + 1, body)
                if block.boot_expected and boots[-1].blocks:
                    raise DocError(f"{path}:{number}: boot output expected, but the block is not "
                                   "the first of its boot (add a <!-- boot: --> comment)")
                boots[-1].blocks.append(block)
                if any(normalise(step.command) == "poweroff" for step in block.steps):
                    boots.append(Boot(default))
            elif is_session and pending_not_run is None:
                raise DocError(f"{path}:{number}: a session block that is not ```console and has "
                               "no '<!-- not run: REASON -->' right before it")
            pending_not_run = None
            i = end
        elif lines[i].strip() and pending_not_run is not None:
            raise DocError(f"{path}:{pending_not_run}: 'not run' comment not right before a block")
        i += 1
    return [boot for boot in boots if boot.blocks]


def match_lines(patterns, lines):
    """Matches output lines against (line number, pattern) pairs.

    Returns None when they match, else (expected line number or None, actual line or None):
    the furthest expected line that could not be matched and what stood in its place."""
    count = len(patterns)

    def closure(states):
        todo = list(states)
        while todo:
            position = todo.pop()
            if position < count and patterns[position][1] == SKIP_LINES and position + 1 not in states:
                states.add(position + 1)
                todo.append(position + 1)
        return states

    states = closure({0})
    for line in lines:
        text = normalise(line)
        following = set()
        for position in states:
            if position == count:
                continue
            pattern = patterns[position][1]
            if pattern == SKIP_LINES:
                following.add(position)
            elif pattern.fullmatch(text):
                following.add(position + 1)
        if not following:
            furthest = max(states)
            return (patterns[furthest][0] if furthest < count else None, line)
        states = closure(following)
    if count in states:
        return None
    furthest = max(states)
    return (patterns[furthest][0], None)


def split_transcript(console):
    """Cuts a console log into the boot's output and one (typed line, output lines) per prompt."""
    text = ANSI_ESCAPE.sub("", console).replace("\r", "").replace("\x07", "")
    boot_output, steps = [], []
    for line in text.split("\n"):
        if line.startswith(PROMPT) or line == PROMPT.rstrip():
            steps.append((line[len(PROMPT):], []))
        elif steps:
            steps[-1][1].append(line)
        else:
            boot_output.append(line)
    if steps and steps[-1][1] and steps[-1][1][-1] == "":
        steps[-1][1].pop()
    return boot_output, steps


ECHO_SPLITS_MAX = 8  # lines of other text an echo may be broken by


def split_echo(command, lines):
    """Finds command's echo in lines broken by other text: each line is a piece of the echo
    followed by a line of other text, until a line that is the rest of the echo. Returns
    (the other text's lines, how many lines the echo took) or None."""
    def search(rest, position, early):
        if position >= len(lines) or position > ECHO_SPLITS_MAX:
            return None
        line = lines[position]
        if position > 0 and line.rstrip() == rest.rstrip():
            return early, position + 1
        for length in range(len(rest), -1, -1):   # the longest piece of echo first
            if line.startswith(rest[:length]) and line[length:].strip():
                found = search(rest[length:], position + 1, early + [line[length:]])
                if found:
                    return found
            elif position == 0 and line.startswith(rest[:length]) and length == len(line):
                found = search(rest[length:], position + 1, early)  # prompt line: echo only
                if found:
                    return found
        return None
    return search(command, 0, [])


def attach_early_output(steps, commands):
    """Puts text printed between a prompt and the end of what was typed into that command.

    A background program or a job notice can print while the prompt waits for input, or
    between two characters of the echo (once or more), so the console shows
    "tracekern> sl[4] spin: killed" and "eep 1" on the next line, or "tracekern> pong: 6",
    "s[3] pong: exited" and "leep 1". A person sees that text before the command's output;
    so does the block: it is taken out of the echo and put first in the command's output."""
    for index, command in enumerate(commands[:len(steps)]):
        typed, output = steps[index]
        if normalise(typed) == normalise(command):
            continue
        lines = [typed] + output
        found = split_echo(command, lines)
        if found:
            early, used = found
            steps[index] = (command, early + lines[used:])
    return steps


def describe(path, failure, command):
    """One line naming where a block and what the kernel printed part ways."""
    expected_line, actual = failure
    got = "the end of its output" if actual is None else f"'{actual}'"
    if expected_line is None:
        return f"{path}: after `{command}`: unexpected extra line {got}"
    return f"{path}:{expected_line}: after `{command}`: expected line not matched, got {got}"


def check_boot(boot, boot_output, steps, com2_lines):
    """Compares each block of a boot with its part of the transcript: (block, problem) list."""
    attach_early_output(steps, [step.command for block in boot.blocks for step in block.steps])
    results = []
    start = 0
    for block in boot.blocks:
        problem = None
        position = start
        start += len(block.steps)   # the next block's steps, whatever happens to this one
        if block.com2_expected:
            failure = match_lines(block.com2_expected, com2_lines)
            if failure:
                problem = (f"{block.path}:{failure[0]}: COM2 does not have this line "
                           "(after the lines above it)")
        if block.boot_expected:
            failure = match_lines(block.boot_expected, boot_output)
            if failure:
                problem = describe(block.path, failure, "boot")
        for step in block.steps:
            if problem:
                break
            if position >= len(steps):
                problem = f"{block.path}:{step.line}: `{step.command}` never got a prompt"
                break
            typed, output = steps[position]
            position += 1
            if normalise(typed) != normalise(step.command):
                problem = (f"{block.path}:{step.line}: typed `{step.command}` but the console "
                           f"shows `{typed}` at that prompt")
                break
            failure = match_lines(step.expected, output)
            for moved in range(1, len(output) + 1):
                if not failure or position >= len(steps):
                    break
                # A background program's lines can come just before the next prompt instead
                # of just after it: they may count for the next command, and must match there.
                if match_lines(step.expected, output[:-moved]) is None:
                    typed_next, output_next = steps[position]
                    steps[position] = (typed_next, output[-moved:] + output_next)
                    failure = None
            if failure:
                shown = "\n".join(f"| {line}" for line in output[:30])
                problem = describe(block.path, failure, step.command) + "\n" + shown
        results.append((block, problem))
    return results


def qemu_command(boot, args, console, com2):
    """The qemu_run command line that boots as the chapter asks and types every command."""
    options = boot.options
    command = [args.qemu_run, "--timeout", str(args.timeout), "--console", console, "--com2", com2]
    if options["iso"]:
        command += ["--iso", args.iso]
    else:
        modules = ",".join(m for m in [args.programs] + options["programs"] if m)
        command += ["--kernel", args.kernel, "--initrd", modules, "--append", options["append"]]
    command += ["--devices", options["devices"]]
    typed = [step.command for block in boot.blocks for step in block.steps]
    for line in typed:
        command += ["--send-on-prompt", line]
    if not typed or normalise(typed[-1]) != "poweroff":
        command += ["--send-on-prompt", "poweroff"]
    if not args.show:
        command.append("--quiet")
    return command


def make_programs(programs):
    """Makes the boot's programs that live under build/ (`make -s FILE`, as the boot scripts'
    "# programs:" lines are made); None, or why a program is missing."""
    for program in programs:
        if program.startswith("build/"):
            made = subprocess.run(["make", "-s", "--no-print-directory", program],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if made.returncode != 0:
                return f"make {program} failed: {made.stdout.strip().splitlines()[-1:]}"
        if not os.path.isfile(program):
            return f"program {program} does not exist"
    return None


def run_chapter(path, args, report):
    """Boots once per boot of the chapter, types its blocks and reports one TAP line per block."""
    with open(path, encoding="utf-8") as handle:
        boots = parse_chapter(path, handle.read())
    name = os.path.basename(path).replace(".md", "")
    for index, boot in enumerate(boots):
        console = os.path.join(args.logs, f"doc_{name}_{index}.log")
        com2 = os.path.join(args.logs, f"doc_{name}_{index}.com2")
        stdout = None if args.show else subprocess.DEVNULL
        problem = make_programs(boot.options["programs"])
        if problem:
            for block in boot.blocks:
                report(f"{block.path}:{block.line} block, {len(block.steps)} commands", problem)
            continue
        status = subprocess.run(qemu_command(boot, args, console, com2), stdout=stdout,
                                stderr=subprocess.PIPE, text=True).returncode
        try:
            with open(console, encoding="utf-8", errors="replace") as handle:
                boot_output, steps = split_transcript(handle.read())
        except OSError:
            boot_output, steps = [], []
        try:
            with open(com2, encoding="utf-8", errors="replace") as handle:
                com2_lines = handle.read().replace("\r", "").split("\n")
        except OSError:
            com2_lines = []
        for block, problem in check_boot(boot, boot_output, steps, com2_lines):
            if problem is None and status != 0:
                problem = f"{path}:{block.line}: qemu_run exited with {status} (see {console})"
            if block.com2_expected:
                title = f"{block.path}:{block.line} COM2 block, {len(block.com2_expected) - 2} lines"
            else:
                title = f"{block.path}:{block.line} block, {len(block.steps)} commands"
            report(title, problem)


def main():
    parser = argparse.ArgumentParser(description="Run the console sessions of markdown files.")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--qemu-run", default="build/tools/qemu_run")
    parser.add_argument("--kernel", default="build/tracekern.elf")
    parser.add_argument("--iso", default="build/tracekern.iso")
    parser.add_argument("--programs", default="")
    parser.add_argument("--logs", default="build/test-logs")
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("--show", action="store_true", help="copy each boot's console to stdout")
    args = parser.parse_args()
    os.makedirs(args.logs, exist_ok=True)
    failures = 0

    def report(title, problem):
        nonlocal failures
        if problem is None:
            print(f"ok - {title}", flush=True)
        else:
            failures += 1
            details = "\n".join(f"#   {line}" for line in problem.split("\n"))
            print(f"not ok - {title}\n{details}", flush=True)

    for path in args.files:
        try:
            run_chapter(path, args, report)
        except DocError as error:
            report(f"{path}: its sessions are marked as doctest.py reads them", str(error))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
