#!/usr/bin/env python3
"""Without a GPU: exec --nvtx-include and --nvtx-exclude (ncu's NVTX filters). Each malformed
expression is a one-line usage error (exit 2) before the program runs; --help names both and
says they imply --nvtx; a report's filters (JSON exec.filters.nvtx_include, nvtx_exclude)
validate against the schema, read back in order through gpuprof report, and a bad one is
refused by the loader. The parser and matcher themselves: tests/unit/test_nvtx_filter.c."""
import json
import os
import subprocess
import tempfile

import tap
from gpuprof import run, BIN
from schema import validate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA = "gpuprof-report-v1.schema.json"

ERRORS = [
    ("--nvtx-include=", "needs a value"),
    ("--nvtx-include=regex:", "an empty expression"),
    ("--nvtx-include=A//", "an empty name"),
    ("--nvtx-exclude=A,,B", "an empty name"),
    ("--nvtx-include=A/[B/", "'[' anchors only the first name"),
    ("--nvtx-include=A]/B/", "'[' anchors only the first name"),
    ("--nvtx-include=@A/", "'@' without a domain"),
    ("--nvtx-exclude=dom@", "'@' without a range"),
    ("--nvtx-include=regex:lay(er/", "the regex 'lay(er'"),
    ("--nvtx-include=la*yer/", "'*' stands alone"),
    ("--nvtx-include=" + "a" * 256, "longer than 255 characters"),
]


def refused(args, why, what):
    with tempfile.TemporaryDirectory() as folder:
        marker = os.path.join(folder, "ran")
        rc, out, err = run("exec", *args, "--", "/bin/sh", "-c", "touch " + marker)
        ran = os.path.exists(marker)
    tap.ok(rc == 2 and why in err and err.count("\n") == 1 and not ran,
           "usage error before the program runs: %s" % what, (rc, err))


def check_errors():
    for arg, why in ERRORS:
        refused([arg], why, "%s (%s)" % (arg[:40], why))
    many = ["--nvtx-include=A%d/" % i for i in range(9)] + \
           ["--nvtx-exclude=B%d/" % i for i in range(8)]
    refused(many, "more than 16", "17 expressions")


def check_help():
    rc, out, err = run("exec", "--help")
    flat = " ".join(out.split())
    tap.ok(rc == 0 and "--nvtx-include=EXPR" in flat and "--nvtx-exclude=EXPR" in flat and
           flat.count("implies --nvtx") >= 2, "exec --help: both options, each implying --nvtx",
           err)


def report(doc, folder):
    path = os.path.join(folder, "r.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    p = subprocess.run([BIN, "report", path, "--json"], capture_output=True, text=True,
                       timeout=60)
    try:
        back = json.loads(p.stdout) if p.returncode == 0 else None
    except ValueError:
        back = None
    return p.returncode, back, p.stderr


def check_report():
    with open(os.path.join(ROOT, "tests", "fixtures", "exec-copy.json")) as f:
        doc = json.load(f)
    filters = doc["exec"]["filters"]
    filters.pop("nvtx_include", None)
    filters.pop("nvtx_exclude", None)
    with tempfile.TemporaryDirectory() as folder:
        rc, back, err = report(doc, folder)
        tap.ok(rc == 0 and back["exec"]["filters"]["nvtx_include"] == [] and
               back["exec"]["filters"]["nvtx_exclude"] == [],
               "a report without NVTX filters (an older gpuprof's) reads back with none", err)
        inc = ["train/*/step/", "regex:d.*@a\\.b,c", "[x]/"]
        exc = ["dom@warmup"]
        filters["nvtx_include"], filters["nvtx_exclude"] = inc, exc
        valid, why = validate(doc, SCHEMA)
        tap.ok(valid, "a report's NVTX filters validate", why)
        rc, back, err = report(doc, folder)
        got = back["exec"]["filters"] if back else {}
        tap.ok(rc == 0 and got.get("nvtx_include") == inc and got.get("nvtx_exclude") == exc,
               "report --json: the NVTX filters read back, in order", err)
        tap.ok(back is not None and validate(back, SCHEMA)[0],
               "the report written again validates", back and validate(back, SCHEMA)[1])
        filters["nvtx_exclude"] = ["A//"]
        rc, back, err = report(doc, folder)
        tap.ok(rc != 0 and "nvtx_exclude[0]" in err and "an empty name" in err,
               "a malformed expression in a report: refused by the loader, its place named",
               err)
        filters["nvtx_exclude"] = ["B%d/" % i for i in range(14)]
        rc, back, err = report(doc, folder)
        tap.ok(rc != 0 and "more than 16" in err,
               "17 expressions in a report: refused by the loader", err)
        filters["nvtx_exclude"] = [""]
        tap.ok(not validate(doc, SCHEMA)[0] and report(doc, folder)[0] != 0,
               "an empty expression: refused by the schema and the loader")


def main():
    check_errors()
    check_help()
    check_report()
    tap.done()


if __name__ == "__main__":
    main()
