"""The examples of README.md and man/gpuprof.1, read from the files at run time, and how to
run them as written (tests/cli/test_examples.py, tests/gpu/test_examples.py).

What is an example:
- README.md: each complete shell command of a ```sh block in which `gpuprof` is a word
  (other commands, such as `make test`, are listed as not examples); each output block (``` with
  no language): either its first line is `$ COMMAND` and the rest is what COMMAND prints, or
  the block shows what the last `gpuprof ...` code span of the text before it prints, or,
  with no such span since the block before, what that block's one command prints when it
  was a ```sh block of one example.
- man/gpuprof.1: each complete shell command of an .RS/.RE block of EXAMPLES in which
  `gpuprof` is a word.
Lines join into one command until bash reads them as complete (`bash -n`): a for loop over
three lines is one example. The commands of one block run in order in one folder, so a later
command reads what an earlier one wrote.

Which need a GPU: a command that runs a kernel command, `exec` or `device`, or `metrics`
without --chip (never with --help), or that reads a file (report, compare) which exists
nowhere before its block runs while an earlier command of its block needed a GPU.

How they run: `bash -c COMMAND` in a fresh folder holding tests/fixtures (a link to the
repository's), with a `gpuprof` first on PATH that runs BUILD/gpuprof and logs each
invocation's exit status and arguments (so a failure inside a loop, a pipe or before `||` is
seen), and $CUDA_HOME/bin last on PATH (ncu). The placeholders of programs are replaced by
SUBSTITUTIONS first."""
import atexit
import difflib
import os
import re
import shlex
import shutil
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(ROOT, "README.md")
MAN = os.path.join(ROOT, "man", "gpuprof.1")
CUDA_HOME = os.environ.get("CUDA_HOME", "/usr/local/cuda")

# Placeholder program (and arguments) -> a test program of BUILD/tests/apps (tests/apps/
# README.md), longest first. {apps} is that folder. The training script of the distributed
# examples is tests/apps/ddp_train.py, which torchrun runs on two GPUs.
SUBSTITUTIONS = (
    ("./my_app arg1 arg2", "{apps}/copy both 2^20 2"),
    ("./app --its-options", "{apps}/copy both 2^20 7"),
    ("./my_app", "{apps}/copy"),
    ("python3 train.py", "python3 " + os.path.join(ROOT, "tests", "apps", "ddp_train.py") + " 3"),
)

# Examples that fail today because of a known bug that another change fixes: the command as
# written (Example.key: comments dropped, on one line) -> (the reason, the stages where it
# fails: "accepted" = the command-line suite's check that a GPU example passes the parser,
# "runs" = its run). Each must fail where listed (the test says so when it passes: remove it
# here) and every entry must match an example.
EXPECTED_FAILURES = {
}

# Shell words that end a gpuprof invocation's arguments: control operators, redirections,
# the keywords of compound commands.
OPERATORS = {";", "|", "||", "&&", "&", "(", ")", "{", "}", ">", ">>", "<", ">&", "<&",
             "do", "done", "then", "else", "fi"}
# What an example may start with other than a program that runs gpuprof.
SHELL_WORDS = {"gpuprof", "for", "while", "until", "if", "case", "{", "("}


class Example:
    """One command as written, where it is, what it shows (or None), and its block."""

    def __init__(self, source, line, command, shown=None, block=None):
        self.source, self.line, self.command, self.shown = source, line, command, shown
        self.block = block if block is not None else "%s:%d" % (source, line)
        self.gpu = False

    @property
    def where(self):
        return "%s:%d" % (self.source, self.line)

    @property
    def key(self):
        """The command without its comments, on one line."""
        return " ".join(" ".join(map(uncommented, self.command.split("\n"))).split())

    def __repr__(self):
        return "%s: %s" % (self.where, self.key)


def uncommented(line):
    """A line of shell without its comment: from a # that starts a word outside quotes."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def complete(text):
    """True when bash reads text as complete commands."""
    return subprocess.run(["bash", "-n", "-c", text], capture_output=True).returncode == 0


def commands(lines, first_line):
    """[(line number, command)]: lines joined until they form a complete command."""
    found, pending, start = [], [], None
    for number, line in enumerate(lines, first_line):
        if not pending and not line.strip():
            continue
        if not pending:
            start = number
        pending.append(line)
        # a line ending in a backslash goes on, though bash -n takes it alone
        if not line.rstrip().endswith("\\") and complete("\n".join(pending)):
            found.append((start, "\n".join(pending)))
            pending = []
    if pending:
        found.append((start, "\n".join(pending)))     # incomplete: it will fail as written
    return found


def words(command):
    """The shell words and operators of a command, comments dropped."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError:
        return command.split()


def invocations(command):
    """The argument lists of each `gpuprof` in a command, as written."""
    found, current = [], None
    for w in words(command):
        if w == "gpuprof":
            current = []
            found.append(current)
        elif current is not None and w in OPERATORS:
            current = None
        elif current is not None:
            current.append(w)
    return found


def outer_program(example):
    """The program an example runs gpuprof under (ncu, ...), or None."""
    first = next(iter(words(example.command)), "")
    return None if first in SHELL_WORDS else first


def is_example(command):
    return "gpuprof" in words(command)


def readme_examples(path=README):
    """(examples, other commands) of README.md."""
    with open(path) as f:
        lines = f.read().split("\n")
    examples, others, prose = [], [], []
    previous_one = ""  # the one example of the ```sh block just before, if it had one
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if not m:
            prose.append(lines[i])
            i += 1
            continue
        lang, start = m.group(1), i + 1
        end = start
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        body = lines[start:end]
        block = "%s:%d" % (os.path.basename(path), start + 1)
        if lang in ("sh", "bash", "shell"):
            found = [(n, c) for n, c in commands(body, start + 1)]
            for number, command in found:
                if is_example(command):
                    examples.append(Example("README.md", number, command, block=block))
                else:
                    others.append("%s:%d: %s" % ("README.md", number, command))
            shown = [c for _, c in found if is_example(c)]
            previous_one = shown[0] if len(shown) == 1 and len(found) == 1 else ""
            prose = []
            i = end + 1
            continue
        elif lang in ("", "text", "console"):
            if body and body[0].startswith("$ "):
                examples.append(Example("README.md", start + 1, body[0][2:],
                                        "\n".join(body[1:]) + "\n"))
            else:
                spans = re.findall(r"`(gpuprof [^`]*)`", "\n".join(prose))
                shown_by = spans[-1] if spans else previous_one
                examples.append(Example("README.md", start + 1, shown_by,
                                        "\n".join(body) + "\n"))
        previous_one = ""
        prose = []
        i = end + 1
    return examples, others


def unroff(line):
    """A line of the man page's source as man shows it (the escapes EXAMPLES uses)."""
    for a, b in (("\\-", "-"), ("\\(aq", "'"), ("\\(dq", '"'), ("\\e", "\\"), ("\\&", "")):
        line = line.replace(a, b)
    return line


def man_examples(path=MAN):
    """(examples, other commands) of the man page's EXAMPLES."""
    with open(path) as f:
        lines = f.read().split("\n")
    examples, others, inside, block, first = [], [], False, None, 0
    for number, line in enumerate(lines, 1):
        if line.startswith(".SH"):
            inside = line.split(None, 1)[1:] == ["EXAMPLES"]
            continue
        if not inside:
            continue
        if line.startswith(".RS"):
            block, first = [], number + 1
        elif line.startswith(".RE") and block is not None:
            numbered = [(n, unroff(text)) for n, text in block]
            for start, command in commands([t for _, t in numbered], 0):
                n = numbered[start][0]
                if is_example(command):
                    examples.append(Example("man/gpuprof.1", n, command,
                                            block="man/gpuprof.1:%d" % first))
                else:
                    others.append("man/gpuprof.1:%d: %s" % (n, command))
            block = None
        elif block is not None and not line.startswith("."):
            block.append((number, line))
    return examples, others


def needs_gpu(args, families):
    """Does `gpuprof ARGS` use a GPU? Kernel commands, exec and device do; metrics does
    without --chip; --help and --version never."""
    if any(a in ("--help", "-h", "--version") for a in args):
        return False
    command = next((a for a in args if not a.startswith("-")), "")
    if command in families or command in ("exec", "device"):
        return True
    return command == "metrics" and not any(a.startswith("--chip") for a in args)


def file_arguments(args):
    """The files `gpuprof report|compare ARGS` reads."""
    command = next((a for a in args if not a.startswith("-")), "")
    if command not in ("report", "compare"):
        return []
    return [a for a in args[args.index(command) + 1:] if not a.startswith("-")]


def classify(examples, families):
    """Set each example's .gpu (see the module's comment)."""
    gpu_in_block = set()
    for e in examples:
        calls = invocations(e.command)
        e.gpu = any(needs_gpu(a, families) for a in calls)
        reads_new = any(not os.path.exists(os.path.join(ROOT, f))
                        for a in calls for f in file_arguments(a))
        if reads_new and e.block in gpu_in_block:
            e.gpu = True
        if e.gpu:
            gpu_in_block.add(e.block)


def all_examples(families):
    """(examples of README.md then of the man page, classified; other commands)."""
    readme, others = readme_examples()
    man, man_others = man_examples()
    examples = readme + man
    classify(examples, families)
    return examples, others + man_others


def substituted(command, apps):
    for placeholder, program in SUBSTITUTIONS:
        command = command.replace(placeholder, program.format(apps=apps))
    return command


WRAPPER = r"""#!/bin/sh
# gpuprof as the examples call it: BUILD/gpuprof, its exit status and arguments logged.
"$GPUPROF_REAL" "$@"
rc=$?
{ printf '%s' "$rc"; for a in "$@"; do printf '\037%s' "$a"; done; printf '\n'; } \
    >> "$GPUPROF_EXAMPLE_LOG"
exit $rc
"""


class Runner:
    """Runs examples block by block, each block in its own folder."""

    def __init__(self, build):
        self.build = os.path.abspath(build)
        self.apps = os.path.join(self.build, "tests", "apps")
        self.top = tempfile.mkdtemp(prefix="gpuprof-examples.")
        atexit.register(shutil.rmtree, self.top, True)
        self.bin = os.path.join(self.top, "bin")
        os.makedirs(self.bin)
        with open(os.path.join(self.bin, "gpuprof"), "w") as f:
            f.write(WRAPPER)
        os.chmod(os.path.join(self.bin, "gpuprof"), 0o755)
        self.folders = {}

    def folder(self, block):
        if block not in self.folders:
            path = os.path.join(self.top, "block%d" % len(self.folders))
            os.makedirs(os.path.join(path, "tests"))
            os.symlink(os.path.join(ROOT, "tests", "fixtures"),
                       os.path.join(path, "tests", "fixtures"))
            self.folders[block] = path
        return self.folders[block]

    def missing_programs(self, example):
        """The test programs an example's placeholders stand for that are not built."""
        programs = {program.format(apps=self.apps).split()[0]
                    for placeholder, program in SUBSTITUTIONS if placeholder in example.command}
        return sorted(p for p in programs if not os.path.exists(p))

    def path(self):
        """PATH for the examples: the logging gpuprof first, $CUDA_HOME/bin (ncu) last."""
        return os.pathsep.join([self.bin, os.environ.get("PATH", ""),
                                os.path.join(CUDA_HOME, "bin")])

    def run(self, example, env=None, timeout=600):
        """(shell exit status, stdout, stderr, [(gpuprof's exit status, its args)])."""
        log = os.path.join(self.top, "invocations.log")
        open(log, "w").close()
        full = dict(os.environ, GPUPROF_REAL=os.path.join(self.build, "gpuprof"),
                    GPUPROF_EXAMPLE_LOG=log, PATH=self.path())
        full.update(env or {})
        try:
            p = subprocess.run(["bash", "-c", substituted(example.command, self.apps)],
                               cwd=self.folder(example.block), capture_output=True,
                               timeout=timeout, env=full)
            rc, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            rc, out, err = "timeout after %d s" % timeout, e.stdout or b"", e.stderr or b""
        calls = []
        with open(log) as f:
            for line in f:
                status, *args = line.rstrip("\n").split("\037")
                calls.append((int(status), args))
        return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), calls

    def problems(self, example, env=None, timeout=600, compare_output=True):
        """What is wrong with an example's run, as written: [] when nothing. Every gpuprof
        it runs must exit 0 (0 or 1 where the command handles failure with ||), the command
        must exit 0, and print exactly the output shown, if any (compare_output)."""
        rc, out, err, calls = self.run(example, env, timeout)
        found = []
        if rc != 0:
            found.append("the command exited %s" % rc)
        allowed = (0, 1) if "||" in words(example.command) else (0,)
        if not calls:
            found.append("it ran no gpuprof")
        for status, args in calls:
            if status not in allowed:
                found.append("gpuprof %s exited %d" % (" ".join(args), status))
        if compare_output and example.shown is not None and out != example.shown:
            found.append("it printed other than the output shown:\n" + diff(example.shown, out))
        if found and err.strip():
            found.append("stderr: " + "\n".join(err.strip().splitlines()[-6:]))
        return found


def diff(want, got):
    return "\n".join(list(difflib.unified_diff(want.splitlines(), got.splitlines(), "shown",
                                               "printed", lineterm="", n=1))[:16])


def report(tap, example, found, stage, description):
    """One TAP line for an example's stage, held to EXPECTED_FAILURES."""
    known = EXPECTED_FAILURES.get(example.key)
    if known and stage in known[1]:
        tap.ok(bool(found), "%s: fails as known (%s)" % (description, known[0]),
               "it passes now: remove it from EXPECTED_FAILURES in tests/lib/examples.py")
        for line in "\n".join(found).splitlines()[:8]:
            print("#   " + line)
    else:
        tap.ok(not found, description, "\n".join(found))


def check_expected_failures(tap, examples):
    keys = {e.key for e in examples}
    for key in EXPECTED_FAILURES:
        tap.ok(key in keys, "expected failure still an example: %s" % key,
               "no README or man-page example reads so any more: remove it from "
               "EXPECTED_FAILURES in tests/lib/examples.py")
