#!/usr/bin/env python3
"""On a GPU: exec --output (issue 29). The README's `exec --launches --json --output=FILE`
writes every launch; a file that cannot be written is refused before the program starts (the
program would leave a mark); a report that cannot be written after the run leaves neither a
partial file nor a temporary one; a report replaces an older one whole under --force;
--output=- writes standard output. Skips without a GPU."""
import json
import os
import subprocess
import tempfile

import tap
from gpuprof import APPS, BIN, require_gpu



def gpuprof(*args):
    p = subprocess.run([BIN] + list(args), capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def test_readme_line(tmp):
    """gpuprof exec --launches --json --output=prof.json -- ./my_app"""
    path = os.path.join(tmp, "prof.json")
    rc, out, err = gpuprof("exec", "--launches", "--json", "--output=" + path, "--",
                           os.path.join(APPS, "copy"), "both")
    doc = None
    if os.path.exists(path):
        with open(path) as f:
            doc = json.load(f)
    tap.ok(rc == 0 and doc and len(doc["exec"]["launches"]) >= 2 and
           "copyCoalesced" not in out,
           "exec --launches --json --output=FILE: every launch in the file", err)
    tap.ok(sorted(os.listdir(tmp)) == ["prof.json"], "no temporary file is left beside it",
           os.listdir(tmp))
    rc, text, err = gpuprof("report", path, "--launches")
    tap.ok(rc == 0 and text.count("copy") >= 2, "report FILE --launches: a row per launch", err)


def test_refused_before_the_program(tmp):
    mark = os.path.join(tmp, "ran")
    for output in ("/nonexistent/dir/p.json", tmp, "/sys/p.json",
                   os.path.join(tmp, "plain", "p.json")):
        if output.endswith("plain/p.json"):
            open(os.path.join(tmp, "plain"), "w").close()
        rc, out, err = gpuprof("exec", "--output=" + output, "--", "sh", "-c",
                               "touch " + mark)
        tap.ok(rc == 2 and out == "" and len(err.strip().splitlines()) == 1 and
               "--output" in err and not os.path.exists(mark),
               "exec --output=%s: exit 2, one line, the program not started" % output, err)


def test_failed_write_leaves_nothing(tmp):
    """The program removes the report's folder: the write after it fails, exit 1."""
    folder = os.path.join(tmp, "gone")
    os.mkdir(folder)
    path = os.path.join(folder, "p.json")
    rc, out, err = gpuprof("exec", "--json", "--output=" + path, "--", "sh", "-c",
                           "rm -rf " + folder)
    tap.ok(rc == 1 and "cannot write " + path in err and not os.path.exists(folder),
           "a report that cannot be written after the run: exit 1, no file", err)


def test_replaced_whole(tmp):
    path = os.path.join(tmp, "r.csv")
    with open(path, "w") as f:
        f.write("old\n")
    os.chmod(path, 0o640)
    rc, _, err = gpuprof("exec", "--csv", "--force", "--output=" + path, "--",
                         os.path.join(APPS, "copy"))
    with open(path) as f:
        text = f.read()
    tap.ok(rc == 0 and text.startswith("kind,source,") and "old" not in text and
           (os.stat(path).st_mode & 0o777) == 0o640,
           "an older report is replaced whole and keeps its mode", err)


def test_standard_output_asked_for(_tmp):
    """--output=-: the report on standard output, for a program that prints nothing there."""
    rc, out, err = gpuprof("exec", "--json", "--output=-", "--", "true")
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    tap.ok(rc == 0 and doc and doc["command"] == "exec",
           "exec --json --output=-: the report on standard output", err + out[:300])


def main():
    require_gpu("copy")
    for test in (test_readme_line, test_refused_before_the_program,
                 test_failed_write_leaves_nothing, test_replaced_whole,
                 test_standard_output_asked_for):
        with tempfile.TemporaryDirectory() as tmp:
            test(tmp)
    tap.done()


if __name__ == "__main__":
    main()
