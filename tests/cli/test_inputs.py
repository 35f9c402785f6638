#!/usr/bin/env python3
"""Flows, inputs and messages (issue 29): --launches with every format, options of other
commands, case-insensitive suggestions for variants, chips and metric sets, metrics --device
without a GPU. Every refusal: its exit status, one line on stderr, nothing on stdout."""
import json
import os
import re
import shutil
import subprocess
import tempfile

import tap
from gpuprof import BIN, has_gpu, run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
EXEC = os.path.join(FIXTURES, "exec-copy.json")
REDUCE = os.path.join(FIXTURES, "reduce-default.json")
TRANSPOSE = os.path.join(FIXTURES, "transpose-4096.json")
SLOWER = os.path.join(ROOT, "tests", "golden", "inputs", "reduce-slower.json")
NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}


def refused(args, status, message, env=None):
    """gpuprof ARGS exits `status` with one line on stderr holding `message`, nothing on
    stdout."""
    rc, out, err = run(*args, env=env or NO_GPU)
    lines = err.strip().splitlines()
    return tap.ok(rc == status and out == "" and len(lines) == 1 and
                  lines[0].startswith("gpuprof: ") and message in lines[0],
                  "%s: exit %d, one line: %s" % (" ".join(args), status, message),
                  "rc=%d stderr=%r stdout=%r" % (rc, err, out[:200]))


def test_launches_with_every_format():
    """The README's `exec --launches --json --output=prof.json -- ./my_app` parses: JSON and
    CSV hold every launch whatever is asked (the run itself is the GPU suite's); --output=-
    puts them on standard output."""
    for fmt in ("--json", "--csv"):
        rc, out, err = run("exec", "--launches", fmt, "--output=-", "--", "true", env=NO_GPU)
        tap.ok(rc == 3 and out == "" and "no usable CUDA device" in err,
               "exec --launches %s is accepted (stops at the missing GPU: exit 3)" % fmt, err)
    rc, text, err = run("report", EXEC, "--launches")
    tap.ok(rc == 0 and "profiled" in text and "copyCoalesced" in text and not err,
           "report of an exec report --launches: a row per launch", err)
    outputs = {}
    rc1, plain, _ = run("report", EXEC, "--json")
    rc2, outputs["--json"], err = run("report", EXEC, "--json", "--launches")
    tap.ok(rc1 == 0 and rc2 == 0 and plain == outputs["--json"] and plain,
           "report --json --launches is report --json (every launch either way)", err)
    rc, per_launch, err = run("report", EXEC, "--csv", "--launches")
    tap.ok(rc == 0 and per_launch.startswith("kind,source,pid,id,kernel,"),
           "report --csv --launches: a CSV row per launch", err)
    doc = json.loads(outputs["--json"]) if outputs["--json"] else {}
    tap.ok(len(doc.get("exec", {}).get("launches", [])) >= 1,
           "the exec JSON lists its launches")
    refused(["report", EXEC, "--launches", "--html"], 2, "--launches does not apply to --html")
    refused(["report", REDUCE, "--launches"], 2, "--launches applies to exec reports only")
    _, help_text, _ = run("exec", "--help")
    tap.ok("JSON always holds every launch" in " ".join(help_text.split()),
           "exec --help says what --launches means for JSON and CSV")


def test_options_of_other_commands():
    """An option of another command is not read as an abbreviation of this one's."""
    refused(["report", REDUCE, "--metrics=none"], 2,
            "option '--metrics' does not apply to 'report' (see 'gpuprof report --help')")
    refused(["compare", REDUCE, REDUCE, "--metrics=none"], 2,
            "option '--metrics' does not apply to 'compare'")
    refused(["list", "--block=5"], 2, "option '--block' does not apply to 'list'")
    refused(["reduce", "--pad=1"], 2, "option '--pad' does not apply to 'reduce'")
    refused(["exec", "--html", "true"], 2, "option '--html' does not apply to 'exec'")
    rc, out, err = run("report", REDUCE, "--metrics-d")
    tap.ok(rc == 0 and "Kernel: " in out, "a prefix that names no option still abbreviates", err)


def test_suggestions():
    cases = [
        (["reduce", "--variant=SHFL"], "unknown variant 'SHFL' for reduce; did you mean 'shfl'?"),
        (["transpose", "--variant=Naive"], "did you mean 'naive'?"),
        (["REDUCE"], "unknown command 'REDUCE'; did you mean 'reduce'?"),
        (["reduce", "--BLOCK=32"], "did you mean '--block'?"),
        (["metrics", "--chip=gh100"], "unknown chip 'gh100'; did you mean 'GH100'?"),
        (["metrics", "--chip=H100"], "unknown chip 'H100'; did you mean 'GH100'?"),
        (["metrics", "--chip=h200"], "did you mean 'GH100'?"),
        (["metrics", "--chip=A100"], "did you mean 'GA100'?"),
        (["metrics", "--chip=RTX 4090"], "did you mean 'AD102'?"),
        (["metrics", "--chip=ad102"], "did you mean 'AD102'?"),
        (["reduce", "--metrics=al"], "unknown metric or group 'al'; did you mean 'all'?"),
        (["reduce", "--metrics=Default"], "did you mean 'default'?"),
        (["exec", "--metrics=nnoe", "true"], "did you mean 'none'?"),
        (["reduce", "--metrics=GLD_EFFICIENCY"], "did you mean 'gld_efficiency'?"),
        (["exec", "--replay=ROTATE", "true"], "did you mean 'rotate'?"),
    ]
    for args, message in cases:
        refused(args, 2, message)
    rc, out, err = run("metrics", "--chip=NOPE100")
    tap.ok(rc == 2 and out == "" and "unknown chip 'NOPE100'" in err and "did you mean" not in err,
           "a chip name nothing resembles is left to CUPTI, which refuses it", err)


def test_metrics_device_without_gpu():
    gpu, _ = has_gpu()
    if gpu:
        tap.skip("metrics --device=0 without a GPU: exit 3", "a GPU is present")
        return
    for args in (["metrics", "--device=0"], ["metrics", "--device=0", "--json"],
                 ["metrics", "--device=3"]):
        refused(args, 3, "no usable CUDA device or driver")
    rc, out, err = run("metrics")
    tap.ok(rc == 0 and "gld_efficiency" in out and "warning" in err,
           "metrics without --device and without a GPU: the catalogue and a warning", err)


def test_compare_nothing_in_common():
    for fmt in ([], ["--json"], ["--csv"], ["--html"]):
        refused(["compare", REDUCE, TRANSPOSE] + fmt, 2,
                "%s and %s have nothing in common (12 only in the first, 5 only in the second"
                % (REDUCE, TRANSPOSE))
    refused(["compare", EXEC, os.path.join(ROOT, "tests", "golden", "inputs",
                                           "exec-synthetic.json")], 2,
            "kernels match by name, grid and block): nothing to compare")
    rc, out, err = run("compare", REDUCE, SLOWER)
    tap.ok(rc == 1 and "REGRESSION" in out, "a regression still exits 1", err)
    rc, out, err = run("compare", REDUCE, REDUCE)
    tap.ok(rc == 0 and "matched" in out, "the same report twice exits 0", err)


def readme_compare_script():
    """The README's CI example from its `gpuprof compare` line on."""
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    for block in re.findall(r"```sh\n(.*?)```", readme, re.S):
        at = block.find("gpuprof compare base.json new.json")
        if at >= 0:
            return block[at:]
    return None


def test_readme_compare_example():
    """The README's compare example tells a regression (1) from trouble (2)."""
    script = readme_compare_script()
    if not tap.ok(script is not None, "the README has the compare example"):
        return
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(os.path.abspath(BIN), os.path.join(tmp, "gpuprof"))
        env = dict(os.environ, PATH=tmp + os.pathsep + os.environ.get("PATH", ""))
        for new, status, said in ((REDUCE, 0, "nothing got slower"),
                                  (SLOWER, 1, "reduce got slower"),
                                  (TRANSPOSE, 2, "compare failed (exit 2)"),
                                  (None, 2, "compare failed (exit 2)")):
            shutil.copy(REDUCE, os.path.join(tmp, "base.json"))
            target = os.path.join(tmp, "new.json")
            if os.path.exists(target):
                os.remove(target)
            if new:
                shutil.copy(new, target)
            p = subprocess.run(["sh", "-c", script], cwd=tmp, env=env, capture_output=True,
                               text=True)
            tap.ok(p.returncode == status and said in p.stdout,
                   "README compare example, new report %s: exit %d, says '%s'"
                   % (os.path.basename(new) if new else "missing", status, said),
                   p.stdout + p.stderr)


def test_exec_output_checked_first():
    """exec --output is checked before the program starts (and before the GPU is looked
    for): exit 2, one line, nothing on stdout, no mark left by the program."""
    with tempfile.TemporaryDirectory() as tmp:
        mark = os.path.join(tmp, "ran")
        plain = os.path.join(tmp, "plain")
        open(plain, "w").close()
        cases = [("/nonexistent/dir/p.json", "--output: the folder /nonexistent/dir does not exist"),
                 (tmp, "--output: %s is a directory" % tmp),
                 (tmp + "/", "is a directory"),
                 (os.path.join(plain, "p.json"), "--output: %s is not a folder" % plain),
                 ("/sys/gpuprof-p.json", "--output: cannot write in /sys: "),
                 ("/nonexistent/%q{GPUPROF_TEST_RANK}/p.json",
                  "the folder /nonexistent/5 does not exist")]
        for output, message in cases:
            refused(["exec", "--output=" + output, "--", "sh", "-c", "touch " + mark], 2,
                    message, env=dict(NO_GPU, GPUPROF_TEST_RANK="5"))
            tap.ok(not os.path.exists(mark), "... and the program did not start")
        if os.geteuid() != 0:
            locked = os.path.join(tmp, "locked")
            os.mkdir(locked, 0o555)
            refused(["exec", "--output=" + os.path.join(locked, "p.json"), "true"], 2,
                    "--output: cannot write in %s: Permission denied" % locked)
        else:
            tap.skip("exec --output in a folder without write permission", "root writes anyway")
        rc, out, err = run("exec", "--output=" + os.path.join(tmp, "p.json"), "true", env=NO_GPU)
        tap.ok(rc == 3 and os.listdir(tmp) == ["plain"],
               "a writable --output passes the check and leaves no probe behind", err)


def main():
    test_launches_with_every_format()
    test_options_of_other_commands()
    test_suggestions()
    test_metrics_device_without_gpu()
    test_compare_nothing_in_common()
    test_readme_compare_example()
    test_exec_output_checked_first()
    tap.done()


if __name__ == "__main__":
    main()
