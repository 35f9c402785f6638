#!/usr/bin/env python3
"""`report` and `compare` given a JSON file that is no report (issue 37): gpuprof's other JSON
documents (compare, list, device and metrics --json) are named as what they are; a report
after lines of a program's output (exec --json without --output, as gpuprof wrote it before)
keeps the parse error's position and adds the likely cause. Exit 1 as for any unreadable
report (compare: 2), one line, nothing on standard output."""
import json
import os
import tempfile

import tap
from gpuprof import run
from reports import Files, load

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REDUCE = os.path.join(ROOT, "tests", "fixtures", "reduce-default.json")
SLOWER = os.path.join(ROOT, "tests", "golden", "inputs", "reduce-slower.json")
NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}
HINT = "was it written by 'gpuprof exec --json' without --output?"


def one_line_error(args, status, pieces, label):
    """gpuprof ARGS: exit status, nothing on stdout, one line on stderr holding every piece."""
    rc, out, err = run(*args, env=NO_GPU)
    lines = err.strip().splitlines()
    return tap.ok(rc == status and out == "" and len(lines) == 1 and
                  all(p in lines[0] for p in pieces), label,
                  "rc=%d stderr=%r stdout=%r" % (rc, err, out[:200]))


def device_document():
    """`device --json` as src/render/json.c writes it (it needs a GPU to be made here)."""
    tool = load(REDUCE)["tool"]
    return {"schema_version": 1, "tool": tool, "devices": [load(REDUCE)["device"]]}


def documents(files):
    """{command: path} of each other document gpuprof writes as JSON."""
    made = {}
    for command, args in (("list", ["list"]), ("metrics", ["metrics", "--chip=GH100"]),
                          ("compare", ["compare", REDUCE, SLOWER])):
        rc, out, err = run(*(args + ["--json"]), env=NO_GPU)
        tap.ok(rc in (0, 1) and out.startswith("{"), "%s --json writes a document" % command,
               err)
        made[command] = files.write(out, command + ".json")
    made["device"] = files.write(device_document(), "device.json")
    return made


def test_other_documents(files):
    for command, path in documents(files).items():
        said = "%s is a 'gpuprof %s --json' document, not a report" % (path, command)
        one_line_error(["report", path], 1, [said, "kernel commands and exec"],
                       "report of a %s --json document: exit 1, says what it is" % command)
        one_line_error(["compare", path, REDUCE], 2, [said],
                       "compare of a %s --json document: exit 2, says what it is" % command)
    newer = dict(load(REDUCE), families=[], devices=[], metrics={}, threshold_pct=5)
    rc, out, err = run("report", files.write(newer, "newer.json"), env=NO_GPU)
    tap.ok(rc == 0 and "reduce" in out,
           "a report with those keys besides its command line (a newer gpuprof's) still reads",
           err)
    one_line_error(["report", files.write({"schema_version": 1, "hello": 1}, "hello.json")], 1,
                   ["hello.json: tool: missing"],
                   "a document of none of those keys: the first key it lacks, as before")


def test_text_before_the_document(files):
    with open(REDUCE) as f:
        report = f.read()
    path = files.write("copy: ok\nchecksum 42\n" + report, "mixed.json")
    one_line_error(["report", path], 1,
                   ["%s: not valid JSON (line 1, column 1)" % path,
                    "text precedes the JSON document, which begins on line 3", HINT],
                   "a program's lines before the report: the position, and the likely cause")
    one_line_error(["compare", REDUCE, path], 2, ["begins on line 3", HINT],
                   "compare says the same (exit 2)")
    path = files.write("42\n" + report, "number.json")
    one_line_error(["report", path], 1,
                   ["text after the JSON document (line 2, column 1)", "begins on line 2", HINT],
                   "a line that is JSON itself before the report: the same cause")
    for label, text in (("broken JSON", '{"a": '), ("text alone", "hello\nworld\n"),
                        ("text before broken JSON", "hello\n{\"a\": \n")):
        path = files.write(text, "broken.json")
        rc, out, err = run("report", path, env=NO_GPU)
        tap.ok(rc == 1 and "not valid JSON" in err and "precedes" not in err,
               "%s: no such hint" % label, err)


def main():
    for test in (test_other_documents, test_text_before_the_document):
        with tempfile.TemporaryDirectory() as tmp:
            test(Files(tmp))
    tap.done()


if __name__ == "__main__":
    main()
