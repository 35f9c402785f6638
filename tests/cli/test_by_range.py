#!/usr/bin/env python3
"""--by-range (issue 48): exec's launches by NVTX range, on the PyTorch recording
tests/fixtures/exec-torch-nvtx.json (emit_nvtx under a manual step range).

- The tree agrees with the same tree worked out here from the launches: each label's
  emit_nvtx per-call parts (seq, op_id, sizes) folded out, a node per path prefix counting
  every launch within it (its time, its distinct kernels), the launches in no range one node;
  a parent's time is at least its children's, the outermost shares sum to 100 %.
- Text is an indented tree within 120 columns; CSV a row per node with its path and depth;
  JSON's exec.ranges is schema-valid, the same nodes, and reads back (the round trip writes
  the same document); HTML a well-formed page with the table; Markdown tables of one column
  count per row.
- A report without a range, a kernel command's report, exec without --nvtx, and --by-range
  with --launches are usage errors (exit 2) that say what to do."""
import csv
import io
import os
import re
import tempfile

import tap
import test_html
import test_markdown
from gpuprof import run, run_json
from schema import validate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "exec-torch-nvtx.json")
NO_RANGES = os.path.join(ROOT, "tests", "fixtures", "exec-torch.json")
PER_CALL = re.compile(r", (?:seq = \d+|op_id = \d+|sizes = \[.*?\])(?=, |$)")


def fold(path):
    return "/".join(PER_CALL.sub("", label) for label in path.split("/"))


def expected_tree(doc):
    """{path: (calls, time, kernels)} from the launches, every launch timed here."""
    nodes = {}
    for l in doc["exec"]["launches"]:
        parts = fold(l["range"]).split("/") if l.get("range") else ["(no range)"]
        for depth in range(len(parts)):
            calls, ms, kernels = nodes.get("/".join(parts[:depth + 1]), (0, 0.0, set()))
            kernels.add(l["kernel"])
            nodes["/".join(parts[:depth + 1])] = (calls + 1, ms + l["duration_ms"], kernels)
    return {p: (c, ms, len(k)) for p, (c, ms, k) in nodes.items()}


def check_json(doc):
    ranges = doc["exec"].get("ranges", [])
    valid, errors = validate(doc, "gpuprof-report-v1.schema.json")
    tap.ok(valid and ranges, "json: exec.ranges present and schema-valid", errors)
    tap.ok(all(l.get("duration_ms") is not None for l in doc["exec"]["launches"]),
           "fixture: every launch timed (the expected times need no estimate)")
    want = expected_tree(doc)
    got = {r["path"]: (r["calls"], r["total_ms"], r["kernels"]) for r in ranges}
    tap.ok(set(got) == set(want), "json: a node per folded path prefix",
           sorted(set(got) ^ set(want))[:5])
    bad = [p for p in want if p in got and (got[p][0] != want[p][0] or got[p][2] != want[p][2]
                                            or abs(got[p][1] - want[p][1]) > 1e-9)]
    tap.ok(not bad, "json: each node's calls, time and kernels are its launches'", bad[:5])
    tap.ok(not any(re.search(r", (seq|op_id) = ", r["path"]) for r in ranges),
           "json: no per-call part left in a path")
    return ranges


# Each range metric and its inputs (numerator, denominator), as the catalogue derives it.
RANGE_METRICS = {
    "gld_transactions_per_request": ("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                     "smsp__sass_inst_executed_op_global_ld.sum", 1.0),
    "gst_transactions_per_request": ("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum",
                                     "smsp__sass_inst_executed_op_global_st.sum", 1.0),
    "gld_efficiency": ("smsp__sass_data_bytes_mem_global_op_ld.sum",
                       "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum", 100.0 / 32),
    "gst_efficiency": ("smsp__sass_data_bytes_mem_global_op_st.sum",
                       "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum", 100.0 / 32),
}


def check_metrics(doc, ranges):
    """Each node's sectors per request and efficiencies: its launches' counters summed, then
    divided (weighted by the counters), not a mean of the launches' values."""
    sums = {}
    for l in doc["exec"]["launches"]:
        parts = fold(l["range"]).split("/") if l.get("range") else ["(no range)"]
        for key, (num, den, scale) in RANGE_METRICS.items():
            inputs = (l.get("metrics") or {}).get(key, {}).get("inputs", {})
            if inputs.get(num) is None or inputs.get(den) is None:  # null: not collected
                continue
            for depth in range(len(parts)):
                n, d = sums.get(("/".join(parts[:depth + 1]), key), (0.0, 0.0))
                sums[("/".join(parts[:depth + 1]), key)] = (n + inputs[num], d + inputs[den])
    bad, checked, unequal = [], 0, 0
    for r in ranges:
        for key, (num, den, scale) in RANGE_METRICS.items():
            n, d = sums.get((r["path"], key), (0.0, 0.0))
            want = scale * n / d if d else None
            if (want is None) != (key not in r) or (want is not None and
                                                   abs(r[key] - want) > 1e-9 * max(1, want)):
                bad.append((r["path"], key, r.get(key), want))
            checked += want is not None
    # The weighting matters: the range "step"'s loads are not the mean of its launches'.
    step = next(r for r in ranges if r["path"] == "step")
    values = [l["metrics"]["gld_transactions_per_request"]["value"]
              for l in doc["exec"]["launches"] if (l.get("range") or "").startswith("step")
              and l.get("metrics", {}).get("gld_transactions_per_request", {}).get("value")
              is not None]
    unequal = abs(sum(values) / len(values) - step["gld_transactions_per_request"]) > 0.01
    tap.ok(not bad and checked > 40 and unequal,
           "json: each range's sectors per request and efficiencies from its launches' summed "
           "counters (%d values; step's loads %.2f against a mean of launches %.2f)"
           % (checked, step["gld_transactions_per_request"], sum(values) / len(values)),
           bad[:5])
    rc, text, _ = run("report", FIXTURE, "--by-range")
    rc2, wide, _ = run("report", FIXTURE, "--by-range", "--wide")
    rc3, md, _ = run("report", FIXTURE, "--by-range", "--markdown")
    tap.ok(rc == rc2 == rc3 == 0 and "gld/req" not in text and "--wide adds" in text and
           "gld/req" in wide and "10.73" in wide and "gld/req" in md,
           "text: the metrics' columns with --wide and in Markdown, a line saying so without")


def check_tree(ranges):
    by_path = {r["path"]: r for r in ranges}
    short = []
    for r in ranges:
        children = [c for c in ranges if c["depth"] == r["depth"] + 1 and
                    c["path"].startswith(r["path"] + "/")]
        if r["total_ms"] + 1e-9 < sum(c["total_ms"] for c in children):
            short.append(r["path"])
    tap.ok(not short, "tree: a parent's time is at least the sum of its children's", short[:5])
    tops = sum(r["time_percent"] for r in ranges if r["depth"] == 0)
    tap.ok(abs(tops - 100.0) < 0.01, "tree: the outermost shares sum to 100 %% (%.4f)" % tops)
    parents_first = all(r["depth"] == 0 or r["path"].rsplit("/", 1)[0] in
                        {p["path"] for p in ranges[:i]} for i, r in enumerate(ranges))
    tap.ok(parents_first, "tree: each node after its parent")
    tap.ok("(no range)" in by_path and by_path["(no range)"]["depth"] == 0,
           "tree: the launches in no range are one outermost node")
    for r in ranges:
        sibs = [s["total_ms"] for s in ranges if s["depth"] == r["depth"] and
                s["path"].rsplit("/", 1)[0] == r["path"].rsplit("/", 1)[0] and "/" in r["path"]]
        if sibs != sorted(sibs, reverse=True):
            tap.ok(False, "tree: siblings the most time first (%s)" % r["path"])
            return
    tap.ok(True, "tree: siblings the most time first")


def check_text(ranges):
    rc, out, err = run("report", FIXTURE, "--by-range")
    lines = out.split("\n")
    tap.ok(rc == 0 and max(len(l) for l in lines) <= 120, "text: exit 0, within 120 columns",
           err)
    head = [i for i, l in enumerate(lines) if l.startswith("%kernels")]
    rows = lines[head[0] + 1:head[0] + 1 + len(ranges)] if head else []
    column = lines[head[0]].rindex("range") if head else 0
    indents = [len(l[column:]) - len(l[column:].lstrip(" ")) for l in rows]
    tap.ok(len(rows) == len(ranges) and
           indents == [2 * r["depth"] for r in ranges],
           "text: a row per node, indented two columns per level", indents[:10])
    rc, wide, err = run("report", FIXTURE, "--by-range", "--wide")
    tap.ok(rc == 0 and "autograd::engine::evaluate_function: NativeLayerNormBackward0" in wide,
           "text --wide: labels whole", err)


def check_csv(ranges):
    rc, out, err = run("report", FIXTURE, "--by-range", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    tap.ok(rc == 0 and [r["path"] for r in rows] == [r["path"] for r in ranges] and
           [int(r["depth"]) for r in rows] == [r["depth"] for r in ranges],
           "csv: a row per node, its path and depth, in the tree's order", err)
    rc, out, err = run("report", FIXTURE, "--by-range", "--csv", "--csv-columns=path,calls")
    tap.ok(rc == 0 and out.split("\n")[0] == "path,calls", "csv: --csv-columns chooses", err)


def check_round_trip(doc):
    with tempfile.TemporaryDirectory() as tmp:
        saved = os.path.join(tmp, "r.json")
        with open(saved, "w") as f:
            f.write(run("report", FIXTURE, "--json")[1])
        rc, again, err = run_json("report", saved, "--json")
        tap.ok(rc == 0 and again == doc, "json: read back, written the same", err)
        _, a, _ = run("report", saved, "--by-range")
        _, b, _ = run("report", FIXTURE, "--by-range")
        tap.ok(a == b, "json: read back, the same text")
        broken = os.path.join(tmp, "broken.json")
        with open(FIXTURE) as f:
            text = f.read().replace('"ranges":\t[{', '"ranges":\t[7, {', 1)
        with open(broken, "w") as f:
            f.write(text)
        rc, _, err = run("report", broken)
        tap.ok(rc != 0 and "ranges" in err, "json: a range that is not an object is refused",
               err)


def check_html_markdown():
    rc, page, err = run("report", FIXTURE, "--by-range", "--html")
    test_html.static_checks("html --by-range", rc, page, err)
    tap.ok("<h2>Ranges</h2>" in page and 'title="step/forward/aten::linear/aten::addmm"' in page,
           "html: the ranges table, each range's path on hover")
    rc, md, err = run("report", FIXTURE, "--by-range", "--markdown")
    found, problems = test_markdown.tables(md)
    tap.ok(rc == 0 and found and not problems,
           "markdown: every row has its header's column count", problems[:5])
    tap.ok(any(h[-1] == "range" for h, _ in found), "markdown: the ranges table")


def check_usage():
    cases = [(("report", NO_RANGES, "--by-range"), "exec --nvtx"),
             (("report", os.path.join(ROOT, "tests", "fixtures", "reduce-default.json"),
               "--by-range"), "not an exec report"),
             (("exec", "--by-range", "true"), "add --nvtx"),
             (("report", FIXTURE, "--by-range", "--launches"), "choose one")]
    for args, words in cases:
        rc, out, err = run(*args, env={"CUDA_VISIBLE_DEVICES": ""})
        tap.ok(rc == 2 and not out and words in err and err.count("\n") == 1,
               "usage error: %s" % " ".join(os.path.basename(a) for a in args), err)
    rc, _, err = run("report", NO_RANGES, "--by-range")
    tap.ok("exec-torch.json" in err, "usage error: names the file", err)


def main():
    rc, doc, err = run_json("report", FIXTURE, "--json")
    if not tap.ok(rc == 0 and doc, "report --json of the fixture", err):
        return tap.done()
    ranges = check_json(doc)
    check_metrics(doc, ranges)
    check_tree(ranges)
    check_text(ranges)
    check_csv(ranges)
    check_round_trip(doc)
    check_html_markdown()
    check_usage()
    return tap.done()


if __name__ == "__main__":
    main()
