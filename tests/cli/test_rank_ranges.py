#!/usr/bin/env python3
"""The rank view per NVTX range (issue 48): `gpuprof report r0.json r1.json ... --by-range`, on
the ranks tests/fixtures/ranks/make.py writes from tests/fixtures/exec-torch-nvtx.json.

- Each range path's numbers are those of each rank's own `report FILE --by-range --json`
  (exec.ranges, a path's total_ms and calls): the ranks it occurred on, their least, median
  and most time, the most calls, the slowest and fastest rank; a rank that lacks the path is
  absent (make.py's backward step is not on rank 3). The ranges make.py slowed are slowest on
  their rank (the optimizer on rank 1, aten::linear on rank 3).
- The paths are in the tree's reading order: each after its parent, siblings the most time on
  one rank first; text indents a label two spaces per level.
- JSON's ranks.ranges is schema-valid, reads back and is written the same, and renders as the
  files do in text, CSV, HTML and Markdown; the view is the same whatever the order of the
  files, and a view of some ranks merges with the others' files as the files would have.
- CSV is a row per path of the JSON's numbers; the page has the ranges' table; Markdown's
  tables have one column count per row.
- Ranks' reports without ranges: --by-range is a usage error that says so; a broken ranges
  section is refused with its JSON path."""
import copy
import csv
import io
import json
import os
import random
import tempfile

import tap
import test_html
import test_markdown
import test_ranks
from gpuprof import as_typed, run
from schema import validate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RANKS_DIR = as_typed(os.path.join(ROOT, "tests", "fixtures", "ranks"))
RANKS = (0, 1, 3)
FILES = [os.path.join(RANKS_DIR, "nvtx-rank%d.json" % r) for r in RANKS]
NO_RANGES = [os.path.join(RANKS_DIR, "rank%d.json" % r) for r in RANKS]
NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}
# make.py's uneven ranges: a path -> the rank it made slowest.
SLOWED = {"step/optimizer": 1, "step/forward/aten::linear": 3}
ABSENT_ON_3 = "step/backward"


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0


def close(a, b):
    if a is None or b is None:
        return a is b
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def own_trees():
    """{rank: {path: (calls, total_ms)}} from each rank's own report FILE --by-range --json."""
    trees = {}
    for rank, path in zip(RANKS, FILES):
        rc, out, err = run("report", path, "--by-range", "--json", env=NO_GPU)
        tap.ok(rc == 0, "report nvtx-rank%d.json --by-range --json" % rank, err)
        trees[rank] = {r["path"]: (r["calls"], r["total_ms"])
                       for r in json.loads(out)["exec"]["ranges"]}
    return trees


def expected_range(path, trees):
    on = [r for r in RANKS if path in trees[r]]
    times = {r: trees[r][path][1] for r in on if trees[r][path][1] is not None}
    return {"ranks": on, "calls_max": max(trees[r][path][0] for r in on),
            "min": min(times.values()), "median": median(times.values()),
            "max": max(times.values()),
            "slowest": min(r for r in times if times[r] == max(times.values())),
            "fastest": min(r for r in times if times[r] == min(times.values()))}


def test_numbers(view, trees):
    ranges = view["ranks"].get("ranges", [])
    valid, errors = validate(view, "gpuprof-report-v1.schema.json")
    tap.ok(valid and ranges, "json: ranks.ranges present and schema-valid", errors)
    want = set().union(*trees.values())
    got = [r["path"] for r in ranges]
    tap.ok(len(got) == len(set(got)) and set(got) == want,
           "json: a range per path of the ranks' own trees, each once",
           sorted(set(got) ^ want)[:5])
    bad = []
    for r in ranges:
        e = expected_range(r["path"], trees)
        t = r["time_ms"]
        ok = ([c["rank"] for c in r["by_rank"]] == e["ranks"] and t["ranks"] == len(e["ranks"])
              and r["calls_max"] == e["calls_max"] and close(t["min"], e["min"])
              and close(t["median"], e["median"]) and close(t["max"], e["max"])
              and r["slowest_rank"] == e["slowest"] and r["fastest_rank"] == e["fastest"]
              and all(trees[c["rank"]][r["path"]][0] == c["calls"]
                      and close(trees[c["rank"]][r["path"]][1], c["total_ms"])
                      for c in r["by_rank"]))
        if not ok:
            bad.append(r["path"])
    tap.ok(not bad, "json: each path's ranks, calls, least, median and most time, slowest and "
           "fastest rank are those of the ranks' own --by-range trees", bad[:5])
    by_path = {r["path"]: r for r in ranges}
    for path, rank in SLOWED.items():
        tap.ok(by_path[path]["slowest_rank"] == rank and
               by_path[path]["time_ms"]["max"] > 1.2 * by_path[path]["time_ms"]["median"],
               "json: %s is slowest on rank %d, as make.py made it" % (path, rank))
    tap.ok([c["rank"] for c in by_path[ABSENT_ON_3]["by_rank"]] == [0, 1],
           "json: %s occurred on ranks 0 and 1 only (rank 3 absent)" % ABSENT_ON_3)


def reading_order_problems(ranges):
    """Rows whose parent is not the nearest row above of one depth less, or siblings out of
    order (the most time on one rank first)."""
    problems, stack, last_child = [], [], {}
    for r in ranges:
        path, depth = r["path"], r["depth"]
        del stack[depth:]
        parent = stack[-1] if stack else None
        if depth != len(stack) or (parent and path.rsplit("/", 1)[0] != parent):
            problems.append(path)
        before = last_child.get(parent)
        if before and (before["time_ms"]["max"] or 0) < (r["time_ms"]["max"] or 0):
            problems.append(path)
        last_child[parent] = r
        stack.append(path)
    return problems


def test_text(view):
    ranges = view["ranks"]["ranges"]
    problems = reading_order_problems(ranges)
    tap.ok(not problems, "json: the paths in the tree's reading order", problems[:5])
    rc, text, err = run("report", *FILES, "--by-range", env=NO_GPU)
    lines = text.splitlines()
    head = next((i for i, l in enumerate(lines) if l.startswith("ranks ")), None)
    rows = lines[head + 1:head + 1 + len(ranges)] if head is not None else []
    at = lines[head].index("range") if head is not None else 0
    indents = [len(l[at:]) - len(l[at:].lstrip(" ")) for l in rows]
    tap.ok(rc == 0 and len(rows) == len(ranges) and
           indents == [2 * r["depth"] for r in ranges],
           "text: a row per path, its label indented two spaces per level", err)
    tap.ok(all(len(l) <= 120 for l in lines), "text: within 120 columns")
    tap.ok(all(r.split()[0] == "%d/3" % len(g["by_rank"]) for r, g in zip(rows, ranges)),
           "text: each row says on how many of the ranks the path occurred")


def test_csv(view):
    rc, out, err = run("report", *FILES, "--by-range", "--csv", env=NO_GPU)
    rows = list(csv.DictReader(io.StringIO(out)))
    ranges = view["ranks"]["ranges"]
    ok = rc == 0 and len(rows) == len(ranges) and all(
        row["path"] == r["path"] and int(row["depth"]) == r["depth"] and
        int(row["ranks"]) == len(r["by_rank"]) and int(row["of_ranks"]) == 3 and
        close(float(row["time_min_ms"]), r["time_ms"]["min"]) and
        close(float(row["time_median_ms"]), r["time_ms"]["median"]) and
        close(float(row["time_max_ms"]), r["time_ms"]["max"]) and
        int(row["slowest_rank"]) == r["slowest_rank"] for row, r in zip(rows, ranges))
    tap.ok(ok, "csv: a row per path, in order, of the JSON's numbers", err)


def test_html_markdown():
    rc, page, err = run("report", *FILES, "--by-range", "--html", env=NO_GPU)
    test_html.static_checks("html ranks --by-range", rc, page, err)
    tap.ok("<h2>Ranges over the ranks</h2>" in page and
           'title="step/optimizer/Optimizer.step#AdamW.step"' in page,
           "html: the ranges' table, each range's path on hover")
    rc, md, err = run("report", *FILES, "--by-range", "--markdown", env=NO_GPU)
    found, problems = test_markdown.tables(md)
    tap.ok(rc == 0 and found and not problems,
           "markdown: every row has its header's column count", problems[:5])
    tap.ok(any(h[-1] == "range" for h, _ in found), "markdown: the ranges' table")


def test_round_trip(view_text):
    test_ranks.check_order_and_round_trip(
        FILES, view_text, 48, ["--by-range"], [[], ["--csv"], ["--html"], ["--markdown"]],
        "--by-range renders", "a rank view's ranges merge with more ranks' files as the files "
        "would have merged")


def test_usage():
    rc, out, err = run("report", *NO_RANGES, "--by-range", env=NO_GPU)
    lines = [l for l in err.strip().splitlines() if not l.startswith("gpuprof: warning:")]
    tap.ok(rc == 2 and not out and len(lines) == 1 and "no rank of" in lines[0] and
           "NVTX ranges" in lines[0] and "exec --nvtx" in lines[0],
           "usage error: --by-range of ranks' reports without ranges", err)
    rc, out, err = run("report", *NO_RANGES, "--json", env=NO_GPU)
    tap.ok(rc == 0 and "ranges" not in json.loads(out)["ranks"],
           "json: a view of ranks without ranges has no ranks.ranges")


def broken(view, what, change, words):
    doc = copy.deepcopy(view)
    change(doc["ranks"]["ranges"])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "broken.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        rc, out, err = run("report", path, env=NO_GPU)
    tap.ok(rc == 1 and not out and all(w in err for w in words),
           "a broken ranks.ranges is refused: %s" % what, err)


def test_broken(view):
    n = len(view["ranks"]["ranges"])

    def twice(r):
        r.append(copy.deepcopy(r[0]))

    def unknown_rank(r):
        r[0]["by_rank"][0]["rank"] = 2

    def out_of_order(r):
        r[0]["by_rank"].reverse()

    def no_cells(r):
        r[0]["by_rank"] = []

    def no_calls(r):
        r[1]["by_rank"][0]["calls"] = 0

    for what, change, words in (
            ("a path twice", twice, ["ranks.ranges[%d].path" % n, "no other range"]),
            ("a cell of a rank the view lacks", unknown_rank,
             ["ranks.ranges[0].by_rank[0].rank", "one of the ranks"]),
            ("cells out of rank order", out_of_order, ["ranks.ranges[0].by_rank[1].rank"]),
            ("a path of no rank", no_cells, ["ranks.ranges[0].by_rank", "at least one"]),
            ("a cell of no calls", no_calls, ["ranks.ranges[1].by_rank[0].calls"])):
        broken(view, what, change, words)


def main():
    trees = own_trees()
    rc, view_text, err = run("report", *FILES, "--json", env=NO_GPU)
    tap.ok(rc == 0, "report of the three ranks' NVTX files, as JSON", err)
    view = json.loads(view_text)
    test_numbers(view, trees)
    test_text(view)
    test_csv(view)
    test_html_markdown()
    test_round_trip(view_text)
    test_usage()
    test_broken(view)
    tap.done()


if __name__ == "__main__":
    main()
