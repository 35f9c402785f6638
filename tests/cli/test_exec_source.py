#!/usr/bin/env python3
"""exec --source without a GPU (issue 36, exec half): the option reaches the parser, and the
per-line views of a saved exec report (tests/fixtures/exec-source.json, the records of
tests/fixtures/records/source as exec writes them) render: text (each kernel's worst lines first
under its #N and the launch patched, --sass the instructions, then the kernels without lines
and why), CSV (a row per line), JSON (read back whole, merged with each view's file) and HTML;
a report without views says nothing of them, one of --source without a view says why each
profiled kernel has none; malformed views are refused with their JSON path."""
import copy
import csv
import io
import os
import re
import shutil
import tempfile

import tap
from gpuprof import has_gpu, run, run_json
from reports import Files, load

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
SOURCE = os.path.join(FIXTURES, "exec-source.json")
PLAIN = os.path.join(FIXTURES, "exec-copy.json")
NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}


def test_command_line():
    with tempfile.TemporaryDirectory() as tmp:
        out_file = os.path.join(tmp, "lines.csv")
        rc, out, err = run("exec", "--source", "--csv", "--csv-columns=kind",
                           "--output=" + out_file, "--", "true", env=NO_GPU)
        tap.ok(rc == 2 and "--csv-columns does not apply to --source's CSV" in err,
               "exec --source --csv --csv-columns: usage error", err)
        gpu, _ = has_gpu()
        if gpu:
            tap.skip("exec --source --csv without a GPU: exit 3", "a GPU is present")
            return
        rc, out, err = run("exec", "--source", "--csv", "--output=" + out_file, "--", "true",
                           env=NO_GPU)
        tap.ok(rc == 3 and "no usable CUDA device" in err and not os.path.exists(out_file),
               "exec --source --csv --output: accepted, then exit 3 without a GPU", err)


def views_with_lines(doc):
    return [v for v in doc["exec"]["source_lines"] if v["launch"] is not None]


def test_text():
    rc, out, err = run("report", SOURCE)
    part = out.split("where memory moves, by source line", 1)
    tap.ok(rc == 0 and len(part) == 2, "report: the per-line view follows the rest", err)
    view = part[1] if len(part) == 2 else ""
    heading = re.search(r"^#1 copyStrided \(process 690, launch 2 of the kernel, id 2\): 1179648 "
                        r"global\s+sectors, 917504 \(77\.8%\) over the ideal$", view, re.M)
    tap.ok(heading is not None, "report: the kernel's #N, name and the launch patched (the "
           "kernel's second in its process, id 2)", view[:1500])
    first = re.search(r"^(\S+:\d+)\s.*$", view.split("#1 copyStrided", 1)[-1], re.M)
    tap.ok(first and first.group(1) == "copy.cu:22" and "100.0%" in first.group(0),
           "report: copyStrided's worst line first (copy.cu:22, all of its excess)", view[:1500])
    tap.ok("+0x0060" not in view and "+0x0010 global store" in view,
           "report: no instruction rows without --sass; a kernel without line information "
           "by its instructions' offsets")
    tap.ok(re.search(r"^#3 scaleOnce: no lines: no patched launch: it was launched too few times",
                     view, re.M) and
           re.search(r"^#4 jitKernel: no lines in process 690: CUPTI could not patch", view, re.M),
           "report: the kernels without lines, in #N order, and why", view[-800:])
    rc, out, err = run("report", SOURCE, "--sass")
    tap.ok(rc == 0 and re.search(r"^copy\.cu:22 .*\n  \+0x0060 global load .*\n  \+0x0070 global "
                                 r"store ", out, re.M),
           "report --sass: the line's load and store under it", out[-2500:])
    rc, out, err = run("report", PLAIN)
    tap.ok(rc == 0 and "where memory moves" not in out and "no lines" not in out,
           "report of exec without --source: nothing of the view", err)
    doc = dict(load(PLAIN))
    doc["exec"] = dict(doc["exec"], source_lines=[])
    with tempfile.TemporaryDirectory() as tmp:
        rc, out, err = run("report", Files(tmp).write(doc))
    profiled = [k for k in doc["exec"]["kernels"] if k["profiled"]]
    tap.ok(rc == 0 and len(re.findall(r"^#\d+ .*: no lines: no patched launch", out, re.M)) ==
           len(profiled) and profiled,
           "report of exec --source without a view: each profiled kernel says why", out[-1500:])


def test_csv_and_json():
    fixture = load(SOURCE)
    rc, out, err = run("report", SOURCE, "--csv", "--source")
    rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
    lines = [(v, l) for v in views_with_lines(fixture) for l in v["lines"]]
    numbers = {k["kernel"]: k["number"] for k in fixture["exec"]["kernels"]}
    tap.ok(rc == 0 and len(rows) == len(lines) == 7 and
           all(row["mangled"] == v["kernel"] and int(row["pid"]) == v["pid"] and
               int(row["launch"]) == v["launch"] and int(row["sectors"]) == l["sectors"] and
               int(row["excess_sectors"]) == l["excess_sectors"] and
               int(row["kernel_id"]) == numbers[row["kernel"]] and
               row["source"] == "build/tests/apps/strided"
               for row, (v, l) in zip(rows, lines)),
           "report --csv --source: a row per line, numbered and placed as JSON's", (err, out[:600]))
    tap.ok(rc == 0 and rows and rows[4]["file"] == "" and rows[4]["line"] == "" and
           rows[4]["pc"] == "0",
           "report --csv --source: an instruction without line information by its pc")
    rc, doc, err = run_json("report", SOURCE, "--json")
    tap.ok(rc == 0 and doc and doc["exec"]["source_lines"] == fixture["exec"]["source_lines"],
           "report --json: every view reads back", err)
    with tempfile.TemporaryDirectory() as tmp:  # a copy: one file twice is refused
        again = os.path.join(tmp, "again.json")
        shutil.copyfile(SOURCE, again)
        rc, doc, err = run_json("report", SOURCE, again, "--json")
    views = doc["exec"]["source_lines"] if rc == 0 and doc else []
    tap.ok(len(views) == 6 and [v["source"] for v in views] == [0, 0, 0, 1, 1, 1],
           "report A A' --json (A' a copy of A): each file's views, with their file's index",
           err)
    rc, doc, err = run_json("report", PLAIN, "--json")
    tap.ok(rc == 0 and doc and "source_lines" not in doc["exec"],
           "report --json of exec without --source: no source_lines", err)
    rc, html, err = run("report", SOURCE, "--html")
    tap.ok(rc == 0 and "<h3>#1 copyStrided: process 690, launch 2 of the kernel, id 2</h3>" in html
           and "Kernels without lines" in html and
           "<li>#4 jitKernel, process 690: CUPTI could not patch" in html,
           "report --html: each view under its #N and launch, the kernels without lines", err)


def refused(files, change, path, label):
    doc = copy.deepcopy(load(SOURCE))
    change(doc["exec"]["source_lines"])
    rc, out, err = run("report", files.write(doc))
    tap.ok(rc == 1 and path in err, "report: %s is refused, with its path" % label, err)


def test_malformed():
    with tempfile.TemporaryDirectory() as tmp:
        files = Files(tmp)
        refused(files, lambda v: v[0]["lines"][2].update(excess_sectors=1),
                "exec.source_lines[0].lines[2].excess_sectors", "an excess that is not sectors "
                "minus ideal")
        refused(files, lambda v: v[0].update(launch=None), "exec.source_lines[0].launch",
                "a view with lines and no launch")
        refused(files, lambda v: v[2].update(note=""), "exec.source_lines[2].note", "an empty note")
        refused(files, lambda v: v[1].update(source=0), "exec.source_lines[1].source",
                "a file index in a report not merged")
        refused(files, lambda v: v[1].pop("pid"), "exec.source_lines[1].pid: missing", "a view without "
                "its process")
        refused(files, lambda v: v[0]["instructions"][0].update(line=4),
                "exec.source_lines[0].instructions[0].line", "an instruction of no line")


def main():
    test_command_line()
    test_text()
    test_csv_and_json()
    test_malformed()
    tap.done()


if __name__ == "__main__":
    main()
