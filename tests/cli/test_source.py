#!/usr/bin/env python3
"""--source and --sass without a GPU (issue 36): the options' help, their usage errors before
any run, and the per-line view of a saved report (tests/fixtures/reduce-source.json, recorded on
an H100): the text lists each kernel's lines that move memory, the worst first, with the line's
text when the file is readable; --sass adds the instructions; JSON reads back whole; CSV has
one row per line; a malformed view is refused with its path."""
import copy
import csv
import io
import os
import re
import tempfile

import tap
from gpuprof import has_gpu, run, run_json
from reports import Files, load

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = os.path.join(ROOT, "tests", "fixtures", "reduce-source.json")
NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}


def test_help_and_usage():
    rc, out, _ = run("transpose", "--help")
    tap.ok(rc == 0 and re.search(r"^  --source ", out, re.M) and re.search(r"^  --sass ", out, re.M),
           "transpose --help: --source and --sass", out)
    cases = [(["transpose", "--sass"], "--sass shows the instructions of --source's lines: add "
                                       "--source"),
             (["transpose", "--source", "--sass", "--json"], "--sass applies to text and Markdown output"),
             (["report", SOURCE, "--sass", "--csv"], "--sass applies to text and Markdown output"),
             (["exec", "--sass", "--", "true"], "--sass shows the instructions of --source's "
                                                 "or --stalls' lines: add one of them"),
             (["exec", "--source", "--sass", "--json", "--output=-", "--", "true"],
              "--sass applies to text and Markdown output"),
             (["report", SOURCE, "--source", "--csv", "--csv-columns=family"],
              "--csv-columns does not apply to --source's CSV")]
    for args, message in cases:
        rc, out, err = run(*args, env=NO_GPU)
        tap.ok(rc == 2 and not out and message in err and len(err.strip().splitlines()) == 1,
               "%s: usage error, one line, exit 2" % " ".join(args[:4]), (rc, err))
    rc, out, _ = run("exec", "--help")
    tap.ok(rc == 0 and re.search(r"^  --source ", out, re.M) and re.search(r"^  --sass ", out, re.M),
           "exec --help: --source and --sass", out)
    gpu, _ = has_gpu()
    if gpu:
        tap.skip("transpose --source and exec --source without a GPU: exit 3", "a GPU is present")
        return
    for args in (["transpose", "--source"], ["exec", "--source", "--sass", "--", "true"]):
        rc, out, err = run(*args, env=NO_GPU)
        tap.ok(rc == 3 and "no usable CUDA device" in err,
               "%s: accepted, then exit 3 without a GPU" % " ".join(args[:3]), err)


def test_text():
    rc, out, err = run("report", SOURCE)
    part = out.split("where memory moves, by source line", 1)
    tap.ok(rc == 0 and len(part) == 2, "report: the per-line view follows the tables", err)
    view = part[1] if len(part) == 2 else ""
    neighbored = view.split("reduceNeighbored", 1)[-1]
    first = re.search(r"^(\S+:\d+)\s.*$", neighbored, re.M)
    tap.ok(first and first.group(1) == "reduce.cu:44" and "100.0%" in first.group(0),
           "report: reduceNeighbored's worst line first (reduce.cu:44, all of its excess)",
           neighbored[:800])
    text_shown = os.path.exists(os.path.join(ROOT, "kernels", "reduce.cu")) and \
        load(SOURCE)["results"][0]["source_lines"][0]["lines"][0]["file"].startswith(ROOT)
    if text_shown:
        tap.ok("idata[tid] += idata[tid + stride];" in view,
               "report: the line's text under it, read from the file", view[:800])
    else:
        tap.skip("the line's text under it", "the recorded paths are not this checkout's")
    tap.ok("+0x" not in view, "report: no instruction rows without --sass")
    rc, out, err = run("report", SOURCE, "--sass")
    tap.ok(rc == 0 and re.search(r"^  \+0x[0-9a-f]{4} global load ", out, re.M) and
           re.search(r"^  \+0x[0-9a-f]{4} global store ", out, re.M),
           "report --sass: each line's load and store instructions under it", out[-2000:])
    tap.ok(rc == 0 and "kernel reduceNeighbored: " in out,
           "report: the kernel named by its label (the short style)")
    rc, out, err = run("report", SOURCE, "--sass", "--kernel-name=full")
    tap.ok(rc == 0 and "kernel void <unnamed>::reduceNeighbored<int>(int *, int *, unsigned" in
           " ".join(out.split()) or "reduceNeighbored<int>" in out,
           "report --kernel-name=full: the kernel named demangled, never cut to nothing")


def test_json_and_csv():
    rc, doc, err = run_json("report", SOURCE, "--json")
    fixture = load(SOURCE)
    tap.ok(rc == 0 and doc and [r.get("source_lines") for r in doc["results"]] ==
           [r.get("source_lines") for r in fixture["results"]],
           "report --json: every line and instruction reads back", err)
    rc, out, err = run("report", SOURCE, "--csv", "--source")
    rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
    lines = [(r, k, l) for r in fixture["results"] for k in r.get("source_lines") or []
             for l in k["lines"]]
    tap.ok(rc == 0 and len(rows) == len(lines) and lines and
           all(row["kernel"] == k["kernel"] and int(row["sectors"]) == l["sectors"] and
               int(row["ideal_sectors"]) == l["ideal_sectors"] and row["variant"] == r["variant"]
               for row, (r, k, l) in zip(rows, lines)),
           "report --csv --source: a row per line, the counts of JSON's", (err, out[:500]))
    rc, plain, err = run("report", SOURCE, "--csv")
    tap.ok(rc == 0 and plain.startswith("family,variant,type,") and "kernel,file,line" not in plain,
           "report --csv without --source: the results' CSV as before", plain[:200])
    rc, html, err = run("report", SOURCE, "--html")
    hot = re.findall(r'<tr style="background: rgba\(214, 39, 40, ([0-9.]+)\)"><td>(\d+)</td>', html)
    tap.ok(rc == 0 and "Where memory moves, by source line" in html and
           ("0.60", "44") in hot and any(h == "0.00" for h, _ in hot),
           "report --html: the lines in a heat colour, reduce.cu:44 the hottest, lines without "
           "waste white", hot)
    with tempfile.TemporaryDirectory() as tmp:
        files = Files(tmp)
        bad = copy.deepcopy(fixture)
        bad["results"][0]["source_lines"][0]["lines"][0]["excess_sectors"] += 1
        rc, out, err = run("report", files.write(bad))
        tap.ok(rc != 0 and "source_lines[0].lines[0].excess_sectors" in err,
               "report: an excess that is not sectors minus ideal is refused, with its path", err)
        bad = copy.deepcopy(fixture)
        bad["results"][0]["source_lines"][0]["instructions"][0]["line"] = 999
        rc, out, err = run("report", files.write(bad))
        tap.ok(rc != 0 and "instructions[0].line" in err,
               "report: an instruction of no line is refused, with its path", err)


def main():
    test_help_and_usage()
    test_text()
    test_json_and_csv()
    tap.done()


if __name__ == "__main__":
    main()
