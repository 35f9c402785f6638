#!/usr/bin/env python3
"""gpuprof exec --graph-profiling=node|graph|time (issue 27) on the command line, without a
GPU: a bad mode is a one-line usage error with a suggestion (exit 2, nothing on standard
output, the program never started); the option applies to exec only; a good mode, alone or
with --metrics=none (accepted, as --replay is), gets past the command line; --help and the
man page describe it."""
import os
import re
import tempfile

import tap
from gpuprof import BIN, has_gpu, run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXEC = os.path.join(ROOT, "tests", "fixtures", "exec-copy.json")
NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}  # a usage error must not need (or touch) a GPU
MODES = ("node", "graph", "time")


def test_help():
    rc, out, _ = run("exec", "--help")
    m = re.search(r"^  --graph-profiling=MODE (.*?)\n  --", out, re.M | re.S)
    text = " ".join(m.group(1).split()) if m else ""
    tap.ok(rc == 0 and all(mode in text for mode in MODES) and text.endswith("(default: node)"),
           "exec --help: --graph-profiling=MODE with its three modes and the default", out)


def test_bad_modes():
    with tempfile.TemporaryDirectory() as tmp:
        marker = os.path.join(tmp, "ran")
        program = ["sh", "-c", "touch " + marker]
        cases = [(["--graph-profiling=nod"], "gpuprof: invalid value 'nod' for --graph-profiling;"
                                             " did you mean 'node'? (valid: node, graph, time)"),
                 (["--graph-profiling", "grph"], "did you mean 'graph'?"),
                 (["--graph-profiling=TIME"], "did you mean 'time'?"),
                 (["--graph-profiling=everything"], "(valid: node, graph, time)"),
                 (["--graph-profiling="], "option --graph-profiling needs a value (MODE)"),
                 (["--metrics=none", "--graph-profiling=nodes"], "did you mean 'node'?")]
        for opts, message in cases:
            rc, out, err = run("exec", *(opts + ["--"] + program), env=NO_GPU)
            lines = err.strip().splitlines()
            tap.ok(rc == 2 and not out and len(lines) == 1 and message in err and
                   not os.path.exists(marker),
                   "exec %s: usage error, exit 2, one line, the program not run" % " ".join(opts),
                   "rc=%d stderr=%r stdout=%r" % (rc, err, out))


def test_graph_samples():
    """--graph-samples=N|all (issue 35): help with its default, bad values refused before any
    run, good ones accepted (exit 3 without a GPU), the man page."""
    rc, out, _ = run("exec", "--help")
    m = re.search(r"^  --graph-samples=N (.*?)\n  --", out, re.M | re.S)
    text = " ".join(m.group(1).split()) if m else ""
    tap.ok(rc == 0 and "'all'" in text and text.endswith("(default: 10)"),
           "exec --help: --graph-samples=N with 'all' and the default", text or out)
    with tempfile.TemporaryDirectory() as tmp:
        marker = os.path.join(tmp, "ran")
        program = ["sh", "-c", "touch " + marker]
        for value, message in (("-1", "invalid value '-1' for --graph-samples: expected a "
                                      "whole number"),
                               ("ten", "invalid value 'ten' for --graph-samples"),
                               ("All", "invalid value 'All' for --graph-samples"),
                               ("", "option --graph-samples needs a value (N)")):
            rc, out, err = run("exec", "--graph-samples=" + value, "--", *program, env=NO_GPU)
            tap.ok(rc == 2 and not out and len(err.strip().splitlines()) == 1 and
                   message in err and not os.path.exists(marker),
                   "exec --graph-samples=%s: usage error, exit 2, one line, not run" % value,
                   "rc=%d stderr=%r" % (rc, err))
    rc, out, err = run("report", EXEC, "--graph-samples=3", env=NO_GPU)
    tap.ok(rc == 2 and "option '--graph-samples' does not apply to 'report'" in err,
           "report --graph-samples: does not apply, exit 2", err)
    gpu, _ = has_gpu()
    if gpu:
        tap.skip("exec --graph-samples=N without a GPU: exit 3", "a GPU is present")
    else:
        for value in ("0", "1", "25", "all"):
            rc, out, err = run("exec", "--graph-samples=" + value, "--", "true", env=NO_GPU)
            tap.ok(rc == 3 and "no usable CUDA device" in err,
                   "exec --graph-samples=%s: accepted, then exit 3 without a GPU" % value, err)
    with open(os.path.join(ROOT, "man", "gpuprof.1")) as f:
        man = f.read().replace("\\-", "-")
    tap.ok(re.search(r"^\.BI --graph-samples= N$", man, re.M) is not None,
           "man page: --graph-samples=N among the options")


def test_other_commands():
    for cmd in (["report", EXEC], ["compare", EXEC, EXEC], ["reduce"], ["list"]):
        rc, out, err = run(*(cmd + ["--graph-profiling=node"]), env=NO_GPU)
        tap.ok(rc == 2 and not out and
               "option '--graph-profiling' does not apply to '%s'" % cmd[0] in err,
               "%s --graph-profiling: does not apply, exit 2" % cmd[0], err)


def test_good_modes():
    gpu, _ = has_gpu()
    if gpu:
        tap.skip("exec --graph-profiling=MODE without a GPU: exit 3", "a GPU is present")
        return
    cases = [["--graph-profiling=" + mode] for mode in MODES] + [
        ["--graph-profiling", "graph"], ["--graph-profiling=time", "--replay=rotate"],
        ["--metrics=none", "--graph-profiling=node"]]
    for opts in cases:
        rc, out, err = run("exec", *(opts + ["--", "true"]), env=NO_GPU)
        tap.ok(rc == 3 and not out and "no usable CUDA device" in err,
               "exec %s: accepted, then exit 3 without a GPU" % " ".join(opts), err)


def test_man_page():
    with open(os.path.join(ROOT, "man", "gpuprof.1")) as f:
        man = f.read().replace("\\-", "-")
    tap.ok(re.search(r"^\.BI --graph-profiling= MODE$", man, re.M) is not None,
           "man page: --graph-profiling=MODE among the options")
    tap.ok(re.search(r"^\.SS CUDA graphs$", man, re.M) is not None,
           "man page: a CUDA graphs subsection")
    tap.ok(re.search(r"\bXX\b", man) is None, "man page: no placeholder figures (XX)")


def main():
    if not tap.ok(os.path.exists(BIN), "the binary exists at %s (make builds it)" % BIN):
        tap.done()
    test_help()
    test_bad_modes()
    test_other_commands()
    test_good_modes()
    test_graph_samples()
    test_man_page()
    tap.done()


if __name__ == "__main__":
    main()
