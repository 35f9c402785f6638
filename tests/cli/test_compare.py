#!/usr/bin/env python3
"""gpuprof report A B (merged reports) and gpuprof compare BASE NEW, on reports derived from
the recorded fixtures: matching, noise-aware significance, the threshold, unmatched results,
different GPUs, exit statuses (0 nothing slower, 1 a regression, 2 trouble), long kernel
names of exec reports, and bad input."""
import copy
import csv
import html
import io
import os
import re
import tempfile

import tap
from gpuprof import run, run_json
from reports import Files, load
from schema import validate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
REDUCE = os.path.join(FIXTURES, "reduce-default.json")
TRANSPOSE = os.path.join(FIXTURES, "transpose-4096.json")
EXEC = os.path.join(FIXTURES, "exec-copy.json")


def with_noise(doc, noise):
    for r in doc["results"]:
        r["timing"]["noise_pct"] = noise
    return doc


def slower(doc, index, factor):
    doc = copy.deepcopy(doc)
    doc["results"][index]["timing"]["median_ms"] *= factor
    return doc


def rows_by_verdict(doc):
    out = {}
    for row in doc["rows"]:
        out.setdefault(row["verdict"], []).append(row)
    return out


def test_merge(files):
    a, b = REDUCE, TRANSPOSE
    n_a, n_b = len(load(a)["results"]), len(load(b)["results"])
    rc, out, err = run("report", a, b)
    tap.ok(rc == 0 and "report of 2 files" in out and "[1] %s" % a in out and
           "[2] %s" % b in out, "report A B: one view naming both files", err)
    rows = [l for l in out.splitlines() if l.startswith(("neighbored ", "copy "))]
    tap.ok(rows and all(" [1] " in l for l in rows if l.startswith("neighbored ")) and
           all(" [2] " in l for l in rows if l.startswith("copy ")) and
           "different GPUs" not in out,
           "same GPU and version: each row still tagged with its file's number (issue 37)", out)
    rc, doc, err = run_json("report", a, b, "--json")
    good, why = validate(doc, "gpuprof-report-v1.schema.json") if doc else (False, err)
    tap.ok(rc == 0 and good, "report A B --json is a valid report", why)
    tap.ok(doc and [s["file"] for s in doc["sources"]] == [a, b] and
           [r["source"] for r in doc["results"]] == [0] * n_a + [1] * n_b,
           "merged JSON: sources in order, each result's source index")
    merged = files.write(doc)
    rc, again, err = run_json("report", merged, "--json")
    tap.ok(rc == 0 and again == doc, "a merged report reads back to the same document", err)
    rc, out, _ = run("report", a, b, "--csv")
    table = list(csv.DictReader(io.StringIO(out)))
    tap.ok(rc == 0 and len(table) == n_a + n_b and table[-1]["source"] == b and
           table[0]["source"] == a, "report A B --csv: a source column with each row's file")
    other = load(b)
    other["device"]["name"] = "NVIDIA H200"
    other_path = files.write(other)
    rc, out, _ = run("report", a, other_path)
    tap.ok(rc == 0 and "different GPUs or gpuprof versions" in out and " [2]" in out and
           "NVIDIA H200" in out, "different GPUs: the header says so, rows carry [file]")
    rc, out, _ = run("report", a, other_path, "--csv")
    table = list(csv.DictReader(io.StringIO(out)))
    tap.ok(table[-1]["device"] == "NVIDIA H200" and table[0]["device"] != "NVIDIA H200",
           "merged CSV: each row's own GPU")
    rc, _, err = run("report", a, "/nonexistent.json")
    tap.ok(rc == 1 and "/nonexistent.json" in err, "report A MISSING: exit 1, names the file",
           err)


def test_compare_identical(files):
    base = files.write(with_noise(load(REDUCE), 1.0))
    rc, doc, err = run_json("compare", base, base, "--json")
    good, why = validate(doc, "gpuprof-compare-v1.schema.json") if doc else (False, err)
    tap.ok(rc == 0 and good, "compare A A --json: exit 0, valid against the schema", why)
    n = len(load(REDUCE)["results"])
    tap.ok(doc and doc["summary"] == {"same": n, "faster": 0, "slower": 0, "only_base": 0,
                                      "only_new": 0},
           "two identical files: every result matched, nothing flagged")
    rc, out, _ = run("compare", base, base)
    tap.ok(rc == 0 and "%d matched: 0 slower, 0 faster" % n in out and "REGRESSION" not in out,
           "compare A A (text): the summary line")


def test_significance(files):
    base_doc = with_noise(load(REDUCE), 1.0)
    base = files.write(base_doc)
    far = files.write(slower(base_doc, 2, 1.20))
    rc, doc, _ = run_json("compare", base, far, "--json")
    v = rows_by_verdict(doc or {"rows": []})
    tap.ok(rc == 1 and len(v.get("slower", [])) == 1 and
           v["slower"][0]["key"]["variant"] == base_doc["results"][2]["variant"] and
           abs(v["slower"][0]["change_pct"] - 20.0) < 1e-6,
           "20 % slower with 1 % noise: flagged slower, exit 1")
    rc, out, _ = run("compare", base, far)
    tap.ok(rc == 1 and "REGRESSION: 1 result significantly slower" in out,
           "text says REGRESSION")
    rc, doc, _ = run_json("compare", base, far, "--json", "--threshold=25")
    tap.ok(rc == 0 and doc["summary"]["slower"] == 0, "--threshold=25: a 20 % change is not "
                                                      "significant, exit 0")
    noisy_base = files.write(with_noise(copy.deepcopy(base_doc), 30.0))
    rc, doc, _ = run_json("compare", noisy_base, far, "--json")
    row = [r for r in doc["rows"] if r["key"]["variant"] == base_doc["results"][2]["variant"]]
    tap.ok(rc == 0 and row and row[0]["verdict"] == "same" and row[0]["bound_pct"] == 30.0,
           "a 20 % change inside the base's 30 % noise is not flagged")
    noisy_new = with_noise(slower(base_doc, 2, 1.20), 30.0)
    rc, doc, _ = run_json("compare", base, files.write(noisy_new), "--json")
    tap.ok(rc == 0 and doc["summary"]["slower"] == 0,
           "nor one inside the new run's noise")
    faster = files.write(slower(base_doc, 0, 0.5))
    rc, doc, _ = run_json("compare", base, faster, "--json")
    tap.ok(rc == 0 and doc["summary"]["faster"] == 1 and doc["summary"]["slower"] == 0,
           "twice as fast: flagged faster, exit 0")
    small = files.write(slower(base_doc, 1, 1.03))
    rc, doc, _ = run_json("compare", base, small, "--json")
    tap.ok(rc == 0 and doc["summary"]["slower"] == 0, "3 % slower, under the 5 % default "
                                                      "threshold: not flagged")


def test_unmatched_and_devices(files):
    base_doc = with_noise(load(REDUCE), 1.0)
    base = files.write(base_doc)
    fewer = copy.deepcopy(base_doc)
    gone = fewer["results"].pop(0)
    extra = copy.deepcopy(fewer["results"][0])
    extra["launch"]["block"] = [128, 1, 1]
    fewer["results"].append(extra)
    rc, doc, _ = run_json("compare", base, files.write(fewer), "--json")
    s = doc["summary"] if doc else {}
    only_base = [r for r in doc["rows"] if r["verdict"] == "only-base"] if doc else []
    tap.ok(rc == 0 and s.get("only_base") == 1 and s.get("only_new") == 1 and
           only_base[0]["key"]["variant"] == gone["variant"] and only_base[0]["new"] is None,
           "a result in one report only is listed, on its side, and is no regression")
    rc, out, _ = run("compare", base, files.write(fewer))
    tap.ok("only-base" in out and "only-new" in out and "block=128x1x1" in out,
           "text lists both unmatched results")
    other = copy.deepcopy(base_doc)
    other["device"]["name"] = "NVIDIA H200"
    rc, doc, _ = run_json("compare", base, files.write(other), "--json")
    tap.ok(rc == 0 and doc["same_device"] is False and doc["new"]["device"] == "NVIDIA H200",
           "different GPUs: compared, and the JSON says so")
    rc, out, _ = run("compare", base, files.write(other))
    tap.ok("different GPUs" in out.split("\n\n")[0], "different GPUs: the text header says so")
    empty = copy.deepcopy(base_doc)
    empty["results"] = []
    rc, out, err = run("compare", base, files.write(empty), "--json")
    tap.ok(rc == 2 and out == "" and len(err.strip().splitlines()) == 1 and
           "nothing in common (%d only in the first, 0 only in the second"
           % len(base_doc["results"]) in err,
           "an empty results list: nothing in common, exit 2 and one line", err)


def test_csv(files):
    base_doc = with_noise(load(REDUCE), 1.0)
    base = files.write(base_doc)
    rc, out, _ = run("compare", base, files.write(slower(base_doc, 2, 1.2)), "--csv")
    table = list(csv.DictReader(io.StringIO(out)))
    tap.ok(rc == 1 and len(table) == len(base_doc["results"]) and
           sum(r["verdict"] == "slower" for r in table) == 1 and
           "base_gld_efficiency" in table[0] and "new_gld_efficiency" in table[0],
           "compare --csv: a row per result, both sides of every metric")
    rc, out, _ = run("compare", base, base, "--csv", "--no-header")
    tap.ok(rc == 0 and len(out.splitlines()) == len(base_doc["results"]),
           "compare --csv --no-header: rows only")


def exec_doc(names, slow=None):
    """exec-copy.json with one launch of each kernel named; `slow`'s twice as long."""
    doc = load(EXEC)
    launch = doc["exec"]["launches"][0]
    doc["exec"]["launches"] = []
    for i, name in enumerate(names):
        one = dict(copy.deepcopy(launch), id=i + 1, kernel=name, mangled=None)
        if name == slow:
            one["duration_ms"] *= 2
        doc["exec"]["launches"].append(one)
    return doc


def test_long_kernel_names(files):
    start = ("void cub::CUB_200200_900_NS::DeviceReduceSingleTileKernel<cub::CUB_200200_900_NS::"
             "DeviceReducePolicy<float, unsigned int, cub::CUB_200200_900_NS::Sum>::Policy600, "
             "float *, float *, unsigned int, cub::CUB_200200_900_NS::Sum, float, float, ")
    a = start + "cuda::std::__4::identity>(float *, float *, unsigned int, float)"
    b = start + "cub::CUB_200200_900_NS::detail::square>(float *, float *, unsigned int, float)"
    assert len(start) >= 200 and len(a) > 250
    base = files.write(exec_doc([a, b]))
    new = files.write(exec_doc([a, b], slow=b))
    rc, doc, err = run_json("compare", base, new, "--json")
    keys = [r["key"]["kernel"] for r in doc["rows"]] if doc else []
    verdicts = [r["verdict"] for r in doc["rows"]] if doc else []
    tap.ok(rc == 1 and keys == [a, b] and verdicts == ["same", "slower"],
           "exec kernels sharing their first %d characters: kept apart, keyed in full"
           % len(start), err)
    label = "cub::CUB_200200_900_NS::DeviceReduceSingleTileKernel<\u2026%s>"
    rc, out, _ = run("compare", base, new, "--wide")
    rows = [line for line in out.splitlines() if line.startswith(("same", "slower"))]
    tap.ok(rc == 1 and len(rows) == 2 and rows[0].startswith("same") and
           rows[0].endswith("  #1 grid=65536x1x1 block=256x1x1 " + label % "identity") and
           rows[1].startswith("slower") and
           rows[1].endswith("  #2 grid=65536x1x1 block=256x1x1 " + label % "square"),
           "text --wide: each row labels its kernel (the argument that tells the two apart), "
           "after its number and shape", out)
    rc, out, _ = run("compare", base, new)
    rows = [line for line in out.splitlines() if line.startswith(("same", "slower"))]
    names = [r.split(" block=256x1x1 ", 1)[-1] for r in rows]
    tap.ok(rc == 1 and len(rows) == 2 and all(len(r) <= 120 for r in rows) and
           all(n.startswith("cub::") and "\u2026" in n for n in names) and names[0] != names[1],
           "text: each row's kernel cut to 120 columns, the two told apart", out)
    rc, out, _ = run("compare", base, new, "--csv")
    table = list(csv.DictReader(io.StringIO(out)))
    tap.ok(rc == 1 and [r["result"] for r in table] ==
           [n + " grid=65536x1x1 block=256x1x1" for n in (a, b)],
           "csv: the result column names each kernel in full")
    rc, page, _ = run("compare", base, new, "--html")
    cells = re.findall(r'<td class="wrap">([^<]*) grid=65536x1x1 block=256x1x1</td>', page)
    # a label longer than a line is on two (tspans)
    labels = [(t, html.unescape(re.sub(r"<[^>]*>", "", shown))) for t, shown in
              re.findall(r'<text class="label"[^>]*><title>([^<]*)</title>(.*?)</text>', page)]
    tap.ok(rc == 1 and cells == ["#1 " + html.escape(a), "#2 " + html.escape(b)],
           "html: the table names each kernel in full, after its number", cells)
    tap.ok([t for t, _ in labels] ==
           ["#%d %s grid=65536x1x1 block=256x1x1" % (i + 1, html.escape(n))
            for i, n in enumerate((a, b))] and
           [shown for _, shown in labels] == ["#1 " + label % "identity", "#2 " + label % "square"],
           "html: the chart's labels are #N and the labels, its tooltips name them in full",
           labels)


def test_bad_input(files):
    base = files.write(with_noise(load(REDUCE), 1.0))
    cases = [
        (("compare", base), "needs BASE NEW", "one file"),
        (("compare", base, "/nonexistent.json"), "/nonexistent.json", "a missing file"),
        (("compare", base, files.write({"hello": 1})), "not a gpuprof report",
         "a JSON file that is not a report"),
        (("compare", base, files.write(dict(load(REDUCE), schema_version=2))),
         "schema_version 2 is not supported", "a report of another schema version"),
        (("compare", base, base, "--threshold=0"), "--threshold", "a zero threshold"),
        (("compare", base, base, "--threshold=abc"), "--threshold", "a threshold not a number"),
        (("compare", base, base, base), "", "three files"),
        (("compare", base, base, "--json", "--csv"), "cannot be combined", "--json --csv"),
    ]
    for args, message, name in cases:
        rc, out, err = run(*args)
        tap.ok(rc == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1,
               "compare with %s: exit 2, one line" % name, err)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        files = Files(tmp)
        test_merge(files)
        test_compare_identical(files)
        test_significance(files)
        test_unmatched_and_devices(files)
        test_csv(files)
        test_long_kernel_names(files)
        test_bad_input(files)
    tap.done()


if __name__ == "__main__":
    main()
