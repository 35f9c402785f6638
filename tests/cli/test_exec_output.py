#!/usr/bin/env python3
"""Where exec's report goes (issue 37), without a GPU: standard output is the program's, so
`exec --json` and `--csv` need --output=FILE (--output=- still writes there); --output
refuses a regular file that exists unless -f/--force, and writes devices and FIFOs in place.
Every refusal comes before the program starts (it would leave a mark) and leaves the file as
it was; what passes the checks stops at the missing GPU (exit 3)."""
import os
import tempfile

import tap
from gpuprof import run

NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}


def refused(args, message, label):
    """exec ARGS: exit 2, one line on stderr holding message, nothing on stdout."""
    rc, out, err = run("exec", *args, env=NO_GPU)
    lines = err.strip().splitlines()
    return tap.ok(rc == 2 and out == "" and len(lines) == 1 and message in lines[0],
                  label, "rc=%d stderr=%r stdout=%r" % (rc, err, out[:200]))


def passes(args, label):
    """exec ARGS gets past every check: it stops where the GPU is looked for."""
    rc, out, err = run("exec", *args, env=NO_GPU)
    return tap.ok(rc == 3 and out == "" and "no usable CUDA device" in err, label,
                  "rc=%d stderr=%r" % (rc, err))


def test_stdout_is_the_programs(tmp):
    mark = os.path.join(tmp, "ran")
    program = ["--", "sh", "-c", "touch " + mark]
    for fmt in ("--json", "--csv"):
        refused([fmt] + program, "exec %s needs --output=FILE" % fmt,
                "exec %s without --output: a usage error naming --output=FILE" % fmt)
        tap.ok(not os.path.exists(mark), "... and the program did not start")
        passes([fmt, "--output=-", "true"], "exec %s --output=-: standard output asked for" % fmt)
    passes(["--output=-", "true"], "exec --output=- (text) is accepted")
    passes(["true"], "exec without --output (text) still writes standard output")
    rc, out, _ = run("exec", "--help")
    tap.ok("standard output for '-'" in " ".join(out.split()),
           "exec --help says what --output=- does")


def test_existing_file(tmp):
    mark = os.path.join(tmp, "ran")
    old = os.path.join(tmp, "old.json")
    with open(old, "w") as f:
        f.write("yesterday\n")
    link = os.path.join(tmp, "link.json")
    os.symlink(old, link)
    program = ["--", "sh", "-c", "touch " + mark]
    for path in (old, link):
        refused(["--json", "--output=" + path] + program,
                "--output: %s exists (--force replaces it)" % path,
                "exec --output=%s (an existing file): refused, naming --force"
                % os.path.basename(path))
        tap.ok(not os.path.exists(mark) and open(old).read() == "yesterday\n",
               "... the program did not start, the file is as it was")
    pattern = os.path.join(tmp, "%q{GPUPROF_TEST_NAME}.json")
    rc, _, err = run("exec", "--output=" + pattern, "true",
                     env=dict(NO_GPU, GPUPROF_TEST_NAME="old"))
    tap.ok(rc == 2 and "old.json exists" in err, "the file is checked once its name is expanded",
           err)
    for force in ("--force", "-f"):
        passes([force, "--json", "--output=" + old, "true"],
               "exec %s --output=FILE: an existing file may be replaced" % force)
    passes(["--output=" + os.path.join(tmp, "new.json"), "--json", "true"],
           "a file that does not exist yet needs no --force")
    passes(["--output=/dev/null", "--csv", "true"], "/dev/null is written in place, no --force")
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    passes(["--output=" + fifo, "--json", "true"], "a FIFO is written in place, no --force")
    refused(["--force", "true"], "--force applies to --output only", "--force alone: refused")
    rc, out, err = run("reduce", "-f", env=NO_GPU)
    tap.ok(rc == 2 and "unknown option '-f' for 'reduce'" in err,
           "-f is exec's alone", err)
    rc, out, _ = run("exec", "--help")
    tap.ok("-f, --force" in out, "exec --help lists -f, --force")


def main():
    for test in (test_stdout_is_the_programs, test_existing_file):
        with tempfile.TemporaryDirectory() as tmp:
            test(tmp)
    tap.done()


if __name__ == "__main__":
    main()
