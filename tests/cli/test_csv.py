#!/usr/bin/env python3
"""CSV whose columns do not move (issue 29): rows of differing runs appended under one header
line up (reports derived from the fixtures as saxpy with and without --grid, with metrics
none, default and all, merged reports of several families, exec reports), --csv-columns
(chosen, unknown, empty, repeated, with --no-header, PerfWorks names), exec's rows per kernel
and per launch with their kind and source, and merged exec reports that name every program
(text, JSON, CSV; merges written before the programs were recorded still read)."""
import copy
import csv
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
SAXPY = os.path.join(FIXTURES, "saxpy-2p26-nometrics.json")
REDUCE = os.path.join(FIXTURES, "reduce-default.json")
REDUCE_BLOCKS = os.path.join(FIXTURES, "reduce-blocks.json")
TRANSPOSE = os.path.join(FIXTURES, "transpose-4096.json")
REDUCE2D_ALL = os.path.join(FIXTURES, "reduce2d-4096-all.json")
EXEC_COPY = os.path.join(FIXTURES, "exec-copy.json")
EXEC_AUTO = os.path.join(FIXTURES, "exec-auto.json")
EXEC_ROTATE = os.path.join(FIXTURES, "exec-rotate.json")


def cell(v):
    """A number as the CSV writes it (%.10g)."""
    return "%.10g" % v


def with_metrics_of(doc, source_path):
    """doc's results with the metrics (and profile) of source's first result: a run of doc's
    command under source's --metrics set."""
    source = load(source_path)
    doc = copy.deepcopy(doc)
    doc["profiler"] = source["profiler"]
    for r in doc["results"]:
        r["metrics"] = source["results"][0]["metrics"]
        r["profile"] = source["results"][0]["profile"]
    return doc


def with_grid(doc, variant, grid):
    """doc as saxpy --grid=GRID would give it for the grid-stride variant."""
    doc = copy.deepcopy(doc)
    for r in doc["results"]:
        if r["variant"] == variant:
            r["params"] = dict(r["params"], grid=grid)
    return doc


def csv_of(*args):
    rc, out, err = run(*args)
    return rc, out, err, list(csv.reader(io.StringIO(out)))


def appended(first, rest):
    """The README's loop: the first run with its header, the others with --no-header."""
    rc, out, err = run("report", first, "--csv")
    ok = rc == 0
    text = out
    for path in rest:
        rc, out, err2 = run("report", path, "--csv", "--no-header")
        ok &= rc == 0
        text += out
        err += err2
    return ok, text, err


def rows_line_up(text):
    """Every row as wide as the header; the rows as dicts."""
    table = list(csv.reader(io.StringIO(text)))
    header = table[0]
    same = all(len(row) == len(header) for row in table[1:])
    return same, header, [dict(zip(header, row)) for row in table[1:]]


def test_kernel_runs_append(files):
    saxpy = load(SAXPY)
    runs = {
        "none": files.write(saxpy, "saxpy-none.json"),
        "grid": files.write(with_grid(saxpy, "gridstride", 264), "saxpy-grid.json"),
        "default": files.write(with_metrics_of(saxpy, REDUCE), "saxpy-default.json"),
        "all": files.write(with_metrics_of(saxpy, REDUCE2D_ALL), "saxpy-all.json"),
    }
    for name, path in runs.items():
        doc = load(path)
        valid, why = validate(doc, "gpuprof-report-v1.schema.json")
        tap.ok(valid, "the derived saxpy report (%s) is a valid report" % name, why)
    headers = set()
    for path in runs.values():
        rc, out, err, table = csv_of("report", path, "--csv")
        headers.add(tuple(table[0]) if rc == 0 and table else None)
    tap.ok(len(headers) == 1 and None not in headers,
           "saxpy with and without --grid, metrics none/default/all: one header", str(headers))
    ok, text, err = appended(runs["none"], [runs["grid"], runs["default"], runs["all"]])
    same, header, rows = rows_line_up(text)
    tap.ok(ok and same and len(rows) == 12, "appended runs: 12 rows as wide as the header",
           err + text[:400])
    tap.ok(header.index("grid_param") > header.index("source") and
           header.index("alpha") == header.index("grid_param") + 1,
           "the family's parameters follow the fixed columns, in the family's order", header)
    tap.ok(header[header.index("alpha") + 1] == "gld_transactions_per_request",
           "the catalogue's metrics follow the parameters", header)
    grid_rows = [r for r in rows[3:6] if r["variant"] == "gridstride"]
    tap.ok(len(grid_rows) == 1 and grid_rows[0]["grid_param"] == "264" and
           all(r["grid_param"] == "" for r in rows[:3]),
           "--grid lands in grid_param, empty where not given", str(grid_rows))
    tap.ok(all(r["alpha"] == "2" for r in rows), "alpha in its column on every row")
    reduce_dram = load(REDUCE)["results"][0]["metrics"]["dram_throughput"]["value"]
    tap.ok(all(r["dram_throughput"] == cell(reduce_dram) for r in rows[6:9]) and
           all(r["dram_throughput"] == "" for r in rows[:6]),
           "dram_throughput lands in its column (default set), empty without metrics")
    occupancy = load(REDUCE2D_ALL)["results"][0]["metrics"]["achieved_occupancy"]["value"]
    tap.ok(all(r["achieved_occupancy"] == cell(occupancy) for r in rows[9:]) and
           all(r["achieved_occupancy"] == "" for r in rows[:9]),
           "achieved_occupancy (set all only) lands in its column, empty for the others")
    tap.ok(all(r["family"] == "saxpy" and r["check"] == "passed" for r in rows),
           "the fixed columns hold their values on every row")


def test_reports_of_fixtures(files):
    ok, text, err = appended(REDUCE, [REDUCE_BLOCKS, REDUCE])
    same, header, rows = rows_line_up(text)
    tap.ok(ok and same and len(rows) > 3, "reports of reduce fixtures append under one header",
           err)
    rc, out, err, table = csv_of("report", REDUCE, TRANSPOSE, SAXPY, REDUCE2D_ALL, "--csv")
    same, header, rows = rows_line_up(out)
    tap.ok(rc == 0 and same, "a merged report of four families: rows as wide as the header",
           err)
    params = header[header.index("source") + 1:header.index("gld_transactions_per_request")]
    tap.ok(params == ["pad", "group", "grid_param", "alpha"],
           "merged families: each family's parameters, in the family table's order", params)
    pads = [r["pad"] for r in rows if r["family"] == "transpose"]
    want = [cell(r["params"]["pad"]) if r["params"].get("pad") is not None else ""
            for r in load(TRANSPOSE)["results"]]
    tap.ok(pads == want and any(pads) and
           all(r["pad"] == "" for r in rows if r["family"] != "transpose"),
           "pad in its column for transpose rows (empty where it does not apply), empty for "
           "the others", str(pads))
    tap.ok(all(r["group"] == "16" for r in rows if r["family"] == "reduce2d"),
           "reduce2d's group in its column")
    for path in (REDUCE, TRANSPOSE, SAXPY):
        rc, own, _, t = csv_of("report", path, "--csv")
        tap.ok(rc == 0 and set(t[0]) <= set(header),
               "%s: its header's columns are all in the merged header" % os.path.basename(path))


def test_exec(files):
    headers = set()
    for path in (EXEC_COPY, EXEC_AUTO, EXEC_ROTATE):
        rc, out, err, table = csv_of("report", path, "--csv")
        headers.add(tuple(table[0]) if rc == 0 and table else None)
    tap.ok(len(headers) == 1 and None not in headers, "exec reports: one header per kernel row")
    header = list(headers.pop() or [])
    tap.ok(header[:3] == ["kind", "source", "kernel"] and
           "dram_throughput_min" in header and
           header.index("dram_throughput_max") == header.index("dram_throughput_min") + 2,
           "exec rows: kind, source, kernel, then each metric's min, avg and max", header[:12])
    doc = load(EXEC_AUTO)
    rc, out, err, _ = csv_of("report", EXEC_AUTO, "--csv")
    same, _, rows = rows_line_up(out)
    kernels = {k["kernel"]: k for k in doc["exec"]["kernels"]}
    program = " ".join(w if "^" not in w else "'%s'" % w for w in doc["exec"]["program"])
    tap.ok(same and len(rows) == len(kernels) and all(r["kind"] == "kernel" for r in rows) and
           all(r["source"] == program for r in rows),
           "exec --csv: a row per kernel, kind kernel, source the program", program)
    good = True
    for r in rows:
        m = kernels[r["kernel"]]["metrics"]["dram_throughput"]
        for stat, key in (("min", "min"), ("avg", "average"), ("max", "max")):
            want = cell(m[key]) if m[key] is not None else ""
            good &= r["dram_throughput_" + stat] == want
        good &= r["calls"] == str(kernels[r["kernel"]]["calls"])
    tap.ok(good, "each kernel's min, avg and max land in their columns, as JSON's summary")
    rc, out, err, _ = csv_of("report", EXEC_AUTO, "--csv", "--launches")
    same, lheader, lrows = rows_line_up(out)
    tap.ok(rc == 0 and same and len(lrows) == len(doc["exec"]["launches"]) and
           lheader[:4] == ["kind", "source", "pid", "id"] and
           [r["duration_ms"] for r in lrows] ==
           [cell(l["duration_ms"]) for l in doc["exec"]["launches"]],
           "--launches: a row per launch, its duration in its column", err)


def test_rows_that_sum():
    """exec's CSV: summing the rows whose row is total counts each copy once (issue 37): the
    bytes and calls per kind are JSON's, and the by_host_memory rows add up to them too."""
    path = os.path.join(FIXTURES, "exec-activities.json")
    doc = load(path)
    rc, out, err, _ = csv_of("report", path, "--csv")
    same, header, rows = rows_line_up(out)
    tap.ok(rc == 0 and header[-2:] == ["row", "variant"] and
           {r["row"] for r in rows} == {"total", "by_host_memory"} and
           all(r["row"] == "total" for r in rows if r["kind"] == "kernel"),
           "exec --csv: the row column before the variant, total or by_host_memory",
           header[-4:])
    want_bytes = sum(c["bytes"] for c in doc["exec"]["activities"])
    want_calls = len(doc["exec"]["activities"])
    copies = [r for r in rows if r["kind"].startswith(("memcpy", "memset"))]
    total = [r for r in copies if r["row"] == "total"]
    by_host = [r for r in copies if r["row"] == "by_host_memory"]
    got_bytes = sum(float(r["bytes"]) for r in total)
    got_calls = sum(int(r["calls"]) for r in total)
    every_bytes = sum(float(r["bytes"]) for r in copies)
    tap.ok(got_bytes == want_bytes and got_calls == want_calls and by_host and
           every_bytes > want_bytes,
           "summing the total rows: %d bytes in %d copies and memsets, as recorded (all rows "
           "together: %d, double counted)" % (got_bytes, got_calls, every_bytes),
           (want_bytes, want_calls))
    for kind in {r["kind"] for r in by_host}:
        parts = sum(float(r["bytes"]) for r in by_host if r["kind"] == kind)
        whole = [float(r["bytes"]) for r in total if r["kind"] == kind]
        tap.ok(whole == [parts], "%s: its by_host_memory rows add up to its total row" % kind,
               (whole, parts))


def test_merged_exec(files):
    synthetic = os.path.join(ROOT, "tests", "golden", "inputs", "exec-synthetic.json")
    rc, doc, err = run_json("report", EXEC_COPY, synthetic, EXEC_AUTO, "--json")
    programs = [load(p)["exec"]["program"] for p in (EXEC_COPY, synthetic, EXEC_AUTO)]
    tap.ok(rc == 0 and [s.get("program") for s in doc["sources"]] == programs,
           "merged exec JSON: each source names its program", err)
    counts = [len(load(p)["exec"]["launches"]) for p in (EXEC_COPY, synthetic, EXEC_AUTO)]
    tap.ok([l["source"] for l in doc["exec"]["launches"]] ==
           [0] * counts[0] + [1] * counts[1] + [2] * counts[2],
           "merged exec JSON: each launch the index of its source")
    valid, why = validate(doc, "gpuprof-report-v1.schema.json")
    tap.ok(valid, "the merged exec report is valid against the schema", why)
    merged = files.write(doc, "merged-exec.json")
    rc, again, err = run_json("report", merged, "--json")
    tap.ok(rc == 0 and again == doc, "a merged exec report reads back as written", err)
    rc, nested, err = run_json("report", merged, EXEC_ROTATE, "--json")
    tap.ok(rc == 0 and len(nested["sources"]) == 4 and
           nested["sources"][3]["program"] == load(EXEC_ROTATE)["exec"]["program"] and
           nested["exec"]["launches"][-1]["source"] == 3,
           "a merged report merged again keeps every program and launch source", err)
    rc, text, err = run("report", merged)
    tap.ok(rc == 0 and "report of 3 files:" in text and
           all(p[0] in text for p in programs) and
           re.search(r"\[3\] %s:\s" % re.escape(EXEC_AUTO), text),
           "merged exec text: a line per file with its program", text[:600])
    rc, out, err, _ = csv_of("report", merged, "--csv", "--launches")
    same, _, rows = rows_line_up(out)
    sources = [r["source"] for r in rows]
    tap.ok(rc == 0 and same and sources[0] == programs[0][0] and
           sources[counts[0]].startswith("./app ") and sources[-1].startswith(programs[2][0]),
           "merged exec CSV: each launch's row names its own program", str(sorted(set(sources))))
    rc, out, err, _ = csv_of("report", merged, "--csv")
    same, _, rows = rows_line_up(out)
    tap.ok(rc == 0 and same and {r["source"] for r in rows} == set(sources),
           "merged exec CSV per kernel: the kernels of every program, each with its own")
    old = copy.deepcopy(doc)
    for s in old["sources"]:
        del s["program"]
    for l in old["exec"]["launches"]:
        del l["source"]
    old_path = files.write(old, "merged-old.json")
    rc, text, err = run("report", old_path)
    tap.ok(rc == 0 and "program not recorded" in text,
           "a merge written before programs were recorded reads; text says so", err)
    rc, out, err, _ = csv_of("report", old_path, "--csv")
    same, _, rows = rows_line_up(out)
    tap.ok(rc == 0 and same and rows and all(r["source"] == "" for r in rows),
           "its CSV rows have an empty source", err)
    bad = copy.deepcopy(load(EXEC_COPY))
    bad["exec"]["launches"][0]["source"] = 0
    rc, out, err = run("report", files.write(bad))
    tap.ok(rc == 1 and out == "" and "source" in err,
           "a launch source in a report that is not merged is refused", err)
    bad = copy.deepcopy(doc)
    bad["exec"]["launches"][0]["source"] = 3
    rc, out, err = run("report", files.write(bad))
    tap.ok(rc == 1 and out == "" and "source" in err, "a launch source out of range is refused",
           err)


def refused(args, message, name):
    rc, out, err = run(*args)
    tap.ok(rc == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1,
           name, "exit %d\n%s%s" % (rc, out[:200], err))


def test_csv_columns(files):
    chosen = "variant,n,grid_param,median_ms,check,dram_throughput"
    rc, out, err, table = csv_of("report", SAXPY, "--csv", "--csv-columns=" + chosen)
    doc = load(SAXPY)
    tap.ok(rc == 0 and table[0] == chosen.split(",") and
           [r[0] for r in table[1:]] == [r["variant"] for r in doc["results"]] and
           table[1][3] == cell(doc["results"][0]["timing"]["median_ms"]),
           "--csv-columns: the columns named, in that order, with their values", out)
    rc, out, err, table = csv_of("report", SAXPY, "--csv", "--no-header",
                                 "--csv-columns=median_ms,variant")
    tap.ok(rc == 0 and len(table) == 3 and table[0] ==
           [cell(doc["results"][0]["timing"]["median_ms"]), "monolithic"],
           "--csv-columns with --no-header: the chosen cells, no header", out)
    rc, out, err, table = csv_of("report", REDUCE, "--csv",
                                 "--csv-columns=variant,dram__bytes_read.sum")
    tap.ok(rc == 0 and table[0] == ["variant", "dram__bytes_read.sum"] and
           all(r[1] == "" for r in table[1:]),
           "a PerfWorks counter is a column, empty where not collected", err)
    rc, out, err, table = csv_of("report", EXEC_AUTO, "--csv",
                                 "--csv-columns=kernel,dram_throughput_avg")
    tap.ok(rc == 0 and table[0] == ["kernel", "dram_throughput_avg"],
           "exec: a metric's _avg column chosen", err)
    refused(("report", REDUCE, "--csv", "--csv-columns=variant,dram_thruput"),
            "unknown column 'dram_thruput' in --csv-columns; did you mean 'dram_throughput'?",
            "report: an unknown column, with a suggestion, exit 2 and nothing written")
    refused(("reduce", "--csv", "--csv-columns=varaint"), "did you mean 'variant'?",
            "reduce: an unknown column is a usage error before any GPU")
    refused(("saxpy", "--csv", "--csv-columns=gird_param"), "did you mean 'grid_param'?",
            "saxpy: a misspelt parameter column, suggested")
    refused(("reduce", "--csv", "--csv-columns=pad"), "unknown column 'pad'",
            "reduce has no pad column")
    refused(("reduce", "--csv", "--csv-columns=variant,,median_ms"), "empty column name",
            "an empty item")
    refused(("reduce", "--csv", "--csv-columns=variant,"), "empty column name",
            "a trailing comma")
    refused(("reduce", "--csv", "--csv-columns="), "needs a value", "an empty list")
    refused(("reduce", "--csv", "--csv-columns=variant,median_ms,variant"),
            "column 'variant' is listed twice", "a repeated column")
    refused(("report", REDUCE, "--csv", "--csv-columns=n,n"), "listed twice",
            "report: a repeated column")
    refused(("reduce", "--csv-columns=variant"), "--csv-columns applies to --csv output only",
            "--csv-columns without --csv")
    refused(("report", REDUCE, "--json", "--csv-columns=variant"), "applies to --csv",
            "report --json --csv-columns")
    refused(("exec", "--csv", "--csv-columns=kernel,dram_throughput", "true"),
            "did you mean 'dram_throughput_avg'?",
            "exec: a metric without _min/_avg/_max suggests its average")
    refused(("exec", "--csv", "--launches", "--csv-columns=dram_throughput_avg", "true"),
            "did you mean 'dram_throughput'?", "exec --launches: one value per metric")
    refused(("report", REDUCE, "--launches"), "--launches applies to exec reports only",
            "report --launches of a kernel report")
    # No GPU visible, so that it stops at the device check on any machine: exit 3, not 2.
    rc, out, err = run("reduce", "--csv", "--csv-columns=variant,median_ms,dram_throughput",
                       env={"CUDA_VISIBLE_DEVICES": ""})
    tap.ok(rc == 3 and out == "", "a good --csv-columns passes the command line (then needs "
           "a GPU, hidden here)", err)
    rc, out, err = run("exec", "--csv", "--output=-",
                       "--csv-columns=kind,kernel,dram__bytes.sum_max", "--metrics=dram__bytes.sum",
                       "true")
    tap.ok(rc != 2, "exec: a PerfWorks counter's _max column passes the command line", err)
    rc, out, _ = run("reduce", "--help")
    tap.ok("--csv-columns=LIST" in out, "--help lists --csv-columns")


def test_compare_header():
    """compare's header does not follow what the two reports measured: every catalogue
    metric's base_ and new_ columns whatever the metrics (default set, all, none)."""
    headers = []
    for report in (REDUCE, REDUCE2D_ALL, SAXPY):
        rc, out, err = run("compare", report, report, "--csv")
        headers.append(out.splitlines()[0] if rc == 0 and out else err)
    tap.ok(len(set(headers)) == 1 and "base_shared_efficiency,new_shared_efficiency" in headers[0],
           "compare --csv: one header for reports of the default set, all and none", headers)


def main():
    test_compare_header()
    with tempfile.TemporaryDirectory() as tmp:
        files = Files(tmp)
        test_kernel_runs_append(files)
        test_reports_of_fixtures(files)
        test_exec(files)
        test_rows_that_sum()
        test_merged_exec(files)
        test_csv_columns(files)
    tap.done()


if __name__ == "__main__":
    main()
