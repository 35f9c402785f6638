#!/usr/bin/env python3
"""gpuprof report reads strictly: every kind of malformed report is refused with exit 1, one
line on stderr naming the file and the JSON path of the fault, and nothing on stdout; a
recorded report reads back to the same JSON. Keys it does not know are passed over within
schema_version 1 (a newer gpuprof's additions), while wrong types and ranges still fail."""
import copy
import glob
import json
import os
import tempfile

import tap
from gpuprof import run
from reports import as_written_now

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = sorted(glob.glob(os.path.join(ROOT, "tests", "fixtures", "*.json")))
BASE = os.path.join(ROOT, "tests", "fixtures", "reduce-default.json")


def mutated(change, path=BASE):
    with open(path) as f:
        doc = json.load(f)
    change(doc)
    return json.dumps(doc).encode()


ACTIVITIES = os.path.join(ROOT, "tests", "fixtures", "exec-activities.json")
GRAPH = os.path.join(ROOT, "tests", "fixtures", "exec-graph.json")


def mutated_exec(change, path=ACTIVITIES):
    """exec-activities.json (copies, memsets, unified memory), or another exec report,
    changed by `change(exec)`."""
    return mutated(lambda doc: change(doc["exec"]), path)


def mutated_graph(change):
    """exec-graph.json (CUDA-graph kernel nodes of every origin) changed by `change(exec)`."""
    return mutated_exec(change, GRAPH)


def set_launch(i, **fields):
    return lambda e: e["launches"][i].update(fields)


def first_result(doc):
    return doc["results"][0]


# (name, document bytes, what stderr must contain after "<file>: ")
CASES = [
    ("a wrong type", mutated(lambda d: first_result(d)["launch"].update(block="x")),
     "results[0].launch.block: expected three whole numbers"),
    ("an integer out of range",
     mutated(lambda d: first_result(d)["timing"].update(repeats=6863031616)),
     "results[0].timing.repeats: must be from 1 to 4294967295"),
    ("a negative size", mutated(lambda d: first_result(d)["launch"].update(shared_bytes=-2)),
     "results[0].launch.shared_bytes: must be from 0 to"),
    ("a fraction where a whole number belongs",
     mutated(lambda d: first_result(d)["launch"].update(shared_bytes=1.5)),
     "results[0].launch.shared_bytes: expected a whole number"),
    ("a value outside an enumeration", mutated(lambda d: d["profiler"].update(state="weird")),
     "profiler.state: expected one of 'disabled', 'ok', 'unavailable'"),
    ("a metric's inputs as an array",
     mutated(lambda d: first_result(d)["metrics"]["gld_efficiency"].update(inputs=[None])),
     "results[0].metrics.gld_efficiency.inputs: expected an object"),
    ("a driver version that overflows",
     mutated(lambda d: d["device"].update(driver_version="2147483647.0")),
     "device.driver_version: expected a version such as \"13.0\""),
    ("a missing field", mutated(lambda d: first_result(d).pop("check")),
     "results[0].check: missing"),
    ("a future schema", mutated(lambda d: d.update(schema_version=99)),
     "schema_version 99 is not supported"),
    ("the next major schema", mutated(lambda d: d.update(schema_version=2, bogus=1)),
     "schema_version 2 is not supported (this gpuprof reads 1; the report needs a newer "
     "gpuprof)"),
    ("a fractional schema", mutated(lambda d: d.update(schema_version=0.5)),
     "schema_version 0.5 is not supported (this gpuprof reads 1)"),
    ("a wrong type beside an unknown key",
     mutated(lambda d: first_result(d)["timing"].update(p99_ms=1.0, repeats="20")),
     "results[0].timing.repeats: expected a whole number"),
    ("a JSON document that is not a report", b'{"results": []}', "not a gpuprof report"),
    ("an array at the top", b"[1, 2]", "not a gpuprof report"),
    ("a syntax error", b'{\n "a": 1,\n oops}', "not valid JSON (line 3, column 3)"),
    ("an empty file", b"", "empty file, not a gpuprof report"),
    ("only white space", b" \n\t\r\n", "empty file, not a gpuprof report"),
    ("a second document after the report", mutated(lambda d: None) + b"\n{}\n",
     "text after the JSON document (line 2, column 1)"),
    ("a stray character after the report", mutated(lambda d: None) + b" x",
     "text after the JSON document (line 1, column"),
    ("NaN, which JSON does not have",
     b'{"schema_version": 1, "run": {"repeat": NaN}}', "not valid JSON (line 1, column 41)"),
    ("bytes that are not UTF-8", b'{"schema_version": 1, "tool": "\xff"}',
     "not UTF-8 text (byte 31)"),
    ("a copy of an unknown kind",
     mutated_exec(lambda e: e["activities"][1].update(kind="memcpy XtoY")),
     "exec.activities[1].kind: expected one of 'memcpy', 'memcpy HtoD'"),
    ("a copy from an unknown memory",
     mutated_exec(lambda e: e["activities"][1].update(src="swap")),
     "exec.activities[1].src: expected one of"),
    ("a copy's bytes negative", mutated_exec(lambda e: e["activities"][2].update(bytes=-1)),
     "exec.activities[2].bytes: must be from 0 to"),
    ("a unified-memory counter without events",
     mutated_exec(lambda e: e["unified_memory"]["thrashing"].update(events=0)),
     "exec.unified_memory.thrashing.events: must be from 1 to"),
    ("a counter's most below its least",
     mutated_exec(lambda e: e["unified_memory"]["bytes_htod"].update(max=1)),
     "exec.unified_memory.bytes_htod.max: must be from 1048576 to"),
    ("copies that are not objects", mutated_exec(lambda e: e.update(copies=[1])),
     "exec.copies[0]: expected an object"),
    ("a launch's how as a string", mutated_graph(set_launch(1, how="shadow")),
     "exec.launches[1].how: expected an array"),
    ("a launch's how naming no way", mutated_graph(set_launch(1, how=["shadow", "replayed"])),
     "exec.launches[1].how[1]: expected one of 'range', 'shadow', 'sampled', 'graph'"),
    ("a launch's how in capitals", mutated_graph(set_launch(2, how=["Shadow"])),
     "exec.launches[2].how[0]: expected one of 'range', 'shadow'"),
    ("a launch's how with a number", mutated_graph(set_launch(2, how=[2])),
     "exec.launches[2].how[0]: expected one of"),
    ("a launch's how naming a way twice",
     mutated_graph(set_launch(3, how=["sampled", "shadow", "sampled"])),
     "exec.launches[3].how[2]: 'sampled' twice"),
    ("a launch's note as a number", mutated_graph(set_launch(4, note=4)),
     "exec.launches[4].note: expected a string or null"),
    ("a launch's note as a list", mutated_graph(set_launch(4, note=["approximate"])),
     "exec.launches[4].note: expected a string or null"),
    ("a launch's note empty", mutated_graph(set_launch(5, note="")),
     "exec.launches[5].note: expected a note or null, not \"\""),
    ("an unknown graph profiling", mutated_graph(lambda e: e.update(graph_profiling="nodes")),
     "exec.graph_profiling: expected one of 'node', 'graph', 'time'"),
    ("a graph profiling of null", mutated_graph(lambda e: e.update(graph_profiling=None)),
     "exec.graph_profiling: expected one of 'node', 'graph', 'time'"),
    ("nesting deeper than 32 levels", b"[" * 40 + b"]" * 40, "nested deeper than 32 levels"),
]


def test_malformed(tmp):
    path = os.path.join(tmp, "bad.json")
    for name, text, message in CASES:
        with open(path, "wb") as f:
            f.write(text)
        rc, out, err = run("report", path)
        lines = err.strip().splitlines()
        tap.ok(rc == 1 and out == "" and len(lines) == 1 and
               lines[0].startswith("gpuprof: %s: " % path) and message in lines[0],
               "report with %s: exit 1, one line naming the fault" % name, err)


def with_unknown_keys(doc):
    """Keys a newer gpuprof might add, at the top, in nested objects and in arrays."""
    doc["bogus"] = {"nested": [1, 2]}
    doc["device"]["hbm_stacks"] = 5
    doc["run"]["cooling"] = "liquid"
    doc["profiler"]["future"] = None
    r = first_result(doc)
    r["timing"]["p99_ms"] = 1.0
    r["launch"]["cluster"] = [1, 1, 1]
    r["check"]["note"] = "x"
    for m in r["metrics"].values():
        m["confidence"] = 0.5
    return doc


def test_unknown_keys_ignored(tmp):
    with open(BASE) as f:
        original = json.load(f)
    path = os.path.join(tmp, "newer.json")
    with open(path, "w") as f:
        json.dump(with_unknown_keys(copy.deepcopy(original)), f)
    for fmt in ([], ["--json"], ["--csv"]):
        rc1, want, _ = run("report", BASE, *fmt)
        rc2, got, err = run("report", path, *fmt)
        tap.ok(rc1 == 0 and rc2 == 0 and got == want and not err,
               "unknown keys of a schema_version 1 report are passed over (report %s)"
               % " ".join(fmt or ["text"]), err)
    rc, out, err = run("compare", BASE, path)
    tap.ok(rc == 0 and "%d matched" % len(original["results"]) in out,
           "compare reads them as well", err)

    def exec_keys(e):
        e["hostname"] = "node7"
        e["launches"][0]["cluster"] = [2, 1, 1]
        e["filters"]["kernel_base"] = True

    def activity_keys(e):
        e["activities"][0]["speed"] = 1
        e["unified_memory"]["swaps"] = {"events": 1}

    exec_copy = os.path.join(ROOT, "tests", "fixtures", "exec-copy.json")
    for fixture, add_keys, what in (
            (exec_copy, exec_keys, "unknown keys of an exec report are passed over too"),
            (ACTIVITIES, activity_keys,
             "unknown keys of copies and of the unified-memory counters are passed over")):
        with open(path, "wb") as f:
            f.write(mutated_exec(add_keys, fixture))
        rc1, want, _ = run("report", fixture, "--json")
        rc2, got, err = run("report", path, "--json")
        tap.ok(rc1 == 0 and rc2 == 0 and got == want, what, err)


def test_files_that_are_no_report(tmp):
    rc, out, err = run("report", tmp)
    tap.ok(rc == 1 and out == "" and err.strip() == "gpuprof: %s: is a directory" % tmp,
           "report of a directory: exit 1, 'X: is a directory'", err)
    rc, out, err = run("compare", tmp, BASE)
    tap.ok(rc == 2 and out == "" and err.strip() == "gpuprof: %s: is a directory" % tmp,
           "compare of a directory: exit 2, 'X: is a directory'", err)
    empty = os.path.join(tmp, "empty.json")
    open(empty, "w").close()
    rc, out, err = run("compare", BASE, empty)
    tap.ok(rc == 2 and out == "" and
           err.strip() == "gpuprof: %s: empty file, not a gpuprof report" % empty,
           "compare of an empty file: exit 2, 'X: empty file, not a gpuprof report'", err)


def test_round_trip(tmp):
    for fixture in FIXTURES:
        rc, out, err = run("report", fixture, "--json")
        with open(fixture) as f:
            original = json.load(f)
        tap.ok(rc == 0 and json.loads(out) == as_written_now(original),
               "report %s --json reads back to the same document" % os.path.basename(fixture),
               err)


def test_graph_fields(tmp):
    """Absent "how", "note" and "graph_profiling" (an older gpuprof's report) read as none,
    null and "node"; present ones read back as written."""
    with open(GRAPH) as f:
        doc = json.load(f)
    older = copy.deepcopy(doc)
    del older["exec"]["graph_profiling"]
    for launch in older["exec"]["launches"]:
        del launch["how"], launch["note"]
    path = os.path.join(tmp, "older.json")
    with open(path, "w") as f:
        json.dump(older, f)
    rc, out, err = run("report", path, "--json")
    back = json.loads(out) if rc == 0 else {"exec": {"launches": []}}
    tap.ok(rc == 0 and back["exec"]["graph_profiling"] == "node" and
           all(l["how"] == [] and l["note"] is None for l in back["exec"]["launches"]) and
           len(back["exec"]["launches"]) == len(doc["exec"]["launches"]),
           "an exec report without how, note and graph_profiling: none, null and node", err)
    for mode in ("graph", "time"):
        path = os.path.join(tmp, "%s.json" % mode)
        with open(path, "w") as f:
            json.dump(dict(doc, exec=dict(doc["exec"], graph_profiling=mode)), f)
        rc, out, err = run("report", path, "--json")
        tap.ok(rc == 0 and json.loads(out)["exec"]["graph_profiling"] == mode,
               "graph_profiling %s reads back" % mode, err)
    hows = sorted({"+".join(l["how"]) for l in doc["exec"]["launches"]})
    tap.ok(hows == ["", "graph", "range", "sampled", "shadow", "shadow+sampled"],
           "exec-graph.json has a launch of every way its metrics can be obtained", str(hows))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_malformed(tmp)
        test_graph_fields(tmp)
        test_unknown_keys_ignored(tmp)
        test_files_that_are_no_report(tmp)
        test_round_trip(tmp)
    tap.done()


if __name__ == "__main__":
    main()
