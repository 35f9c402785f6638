#!/usr/bin/env python3
"""Without a GPU: the helpers of bench/bench_graphs.py that read gpuprof exec's report and
graph_lengths' output (graph nodes apart from direct launches, medians of DRAM bytes, the
relative error, the sizes graph_lengths prints), on a report built from the recorded
tests/fixtures/exec-copy.json; and that the programs it runs are built by `make apps`."""
import copy
import importlib.util
import json
import os
import sys

import tap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, "bench")


def load_bench():
    """bench/bench_graphs.py as a module (it imports bench/common.py beside it)."""
    sys.path.insert(0, BENCH)
    spec = importlib.util.spec_from_file_location("bench_graphs",
                                                  os.path.join(BENCH, "bench_graphs.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fixture_launch():
    with open(os.path.join(ROOT, "tests", "fixtures", "exec-copy.json")) as f:
        return json.load(f)["exec"]["launches"][0]


def launch(base, kernel, node, read, write, how=None, duration_ms=0.002):
    """A copy of the fixture's launch as `kernel`, graph node `node` (0: direct), with those
    DRAM bytes (None: the metric absent)."""
    l = copy.deepcopy(base)
    l["kernel"] = kernel + "(float *, const float *, unsigned int)"
    l["graph"], l["graph_node"] = (7, node) if node else (0, 0)
    l["duration_ms"] = duration_ms
    for key, value in (("dram_read_bytes", read), ("dram_write_bytes", write)):
        if value is None:
            l["metrics"].pop(key, None)
        else:
            l["metrics"][key]["value"] = value
    if how is not None:
        l["how"] = how
    return l


def report(launches):
    return {"exec": {"launches": launches}}


def test_splitting(bg, base):
    doc = report([launch(base, "lengthCopy2us", 3, 3.0e6, 1.0e6, ["graph", "sampled"]),
                  launch(base, "lengthCopy2us", 0, 3.1e6, 2.0e6),
                  launch(base, "lengthGap", 4, None, None),
                  launch(base, "lengthCopy2us", 3, 2.9e6, 1.2e6, ["sampled", "graph"])])
    parts = bg.split_launches(doc)
    tap.ok(sorted(parts) == ["lengthCopy2us", "lengthGap"] and
           len(parts["lengthCopy2us"]["graph"]) == 2 and
           len(parts["lengthCopy2us"]["direct"]) == 1 and
           len(parts["lengthGap"]["graph"]) == 1 and not parts["lengthGap"]["direct"],
           "graph nodes (graph_node != 0) are kept apart from direct launches, by kernel name")
    tap.ok(bg.split_launches(None) == {} and bg.split_launches({"exec": {"launches": []}}) == {},
           "no report or no launches: nothing")
    tap.ok(bg.median_of(parts["lengthCopy2us"]["graph"], "dram_read_bytes") == 2.95e6 and
           bg.median_of(parts["lengthGap"]["graph"], "dram_read_bytes") is None,
           "the median of a metric over launches; None when none has it")
    tap.ok(bg.hows(parts["lengthCopy2us"]["graph"]) == "graph+sampled" and
           bg.hows(parts["lengthCopy2us"]["direct"]) == "-",
           "`how` lists summarised in one order; '-' for a report without them")


def test_values(bg, base):
    l = launch(base, "k", 0, 5.0, 6.0)
    tap.ok(bg.metric_value(l, "dram_read_bytes") == 5.0 and
           bg.metric_value(l, "no_such_metric") is None, "a metric's value, None when absent")
    l["metrics"]["dram_read_bytes"]["value"] = float("nan")
    l["metrics"]["dram_write_bytes"]["value"] = None
    tap.ok(bg.metric_value(l, "dram_read_bytes") is None and
           bg.metric_value(l, "dram_write_bytes") is None and
           bg.metric_value(dict(l, metrics=None), "dram_read_bytes") is None,
           "NaN, null and a launch without metrics give None")
    tap.ok(abs(bg.relative_error(103.0, 100.0) - 0.03) < 1e-12 and
           abs(bg.relative_error(97.0, 100.0) + 0.03) < 1e-12 and
           bg.relative_error(1.0, 0) is None and bg.relative_error(None, 1.0) is None and
           bg.relative_error(1.0, None) is None, "relative error (got - ref) / ref, None when "
           "undefined")
    tap.ok(bg.percent(0.0123) == "+1.23 %" and bg.percent(-0.5) == "-50.00 %" and
           bg.percent(None) == "-", "relative errors printed as signed percentages")
    tap.ok(abs(bg.per_launch_ms(1.0, 3.0, 20, 60) - 50.0) < 1e-9,
           "cost per graph launch: the slope between two launch counts, in ms")
    tap.ok(bg.base_name("lengthCopy5us(float *, const float *, unsigned int)") ==
           "lengthCopy5us" and bg.base_name("void manyTiny<0>(unsigned int *)") ==
           "manyTiny<0>" and bg.base_name("") == "", "kernel base names as the report's")


def test_sizes(bg):
    err = ("something else\ngraph_lengths: scale=1 n=750000,1875000,7500000,37500000 "
           "launches=5\n")
    sizes = bg.sizes_from_stderr(err)
    tap.ok(sizes == {"lengthCopy2us": 750000, "lengthCopy5us": 1875000,
                     "lengthCopy20us": 7500000, "lengthCopy100us": 37500000},
           "graph_lengths' sizes read from its stderr line, by kernel", sizes)
    tap.ok(bg.sizes_from_stderr("no such line\n") == {}, "no sizes line: no sizes")
    with open(os.path.join(ROOT, "tests", "apps", "graph_lengths.cu")) as f:
        source = f.read()
    tap.ok(all("__global__ void %s(" % k in source for k, _ in bg.LENGTH_KERNELS) and
           'fprintf(stderr, "graph_lengths: scale=%g n=%u,%u,%u,%u' in source,
           "the kernels and the sizes line the bench reads are graph_lengths.cu's")


def test_length_rows(bg, base):
    ls = []
    for k, (name, _) in enumerate(bg.LENGTH_KERNELS):
        n = [750000, 1875000, 7500000, 37500000][k]
        ls += [launch(base, name, 10 + k, 4 * n * 1.01, 4 * n * 0.8, ["graph", "sampled"])
               for _ in range(3)]
        ls += [launch(base, name, 0, 4 * n, 4 * n, duration_ms=0.001 * (k + 1)) for _ in range(3)]
    sizes = {name: [750000, 1875000, 7500000, 37500000][k]
             for k, (name, _) in enumerate(bg.LENGTH_KERNELS)}
    rows = bg.length_rows(report(ls), sizes)
    tap.ok([r[0] for r in rows] == [k for k, _ in bg.LENGTH_KERNELS] and
           len(rows[0]) == len(bg.HEADERS_LENGTHS), "one row per copy kernel, every column")
    first = dict(zip(bg.HEADERS_LENGTHS, rows[0]))
    tap.ok(first["n"] == 750000 and first["4n MB"] == "3.000" and first["direct us"] == "1.0"
           and first["nodes"] == 3 and first["direct"] == 3, "sizes, direct time and counts",
           first)
    tap.ok(first["read graph MB"] == "3.030" and first["read direct MB"] == "3.000" and
           first["read err"] == "+1.00 %" and first["write err"] == "-20.00 %" and
           first["how"] == "graph+sampled", "graph against direct DRAM bytes, relative errors",
           first)
    empty = bg.length_rows(report([]), {})
    tap.ok(all(r[1:4] == ["-", "-", "-"] and r[4] == 0 and r[5] == 0 and r[8] == "-"
               for r in empty), "a report without the kernels: dashes, not a crash", empty)


def test_built_by_make(bg):
    with open(os.path.join(ROOT, "tests", "apps", "apps.mk")) as f:
        mk = f.read()
    programs = ("graph_nodes", "graph_host", "graph_child", "graph_update", "graph_lengths",
                "graph_samples")
    tap.ok(all(" %s" % p in mk and os.path.exists(os.path.join(ROOT, "tests", "apps",
                                                               p + ".cu"))
               for p in programs), "the graph programs are in apps.mk's list, with sources")
    with open(os.path.join(ROOT, "tests", "apps", "README.md")) as f:
        readme = f.read()
    tap.ok(all("`%s" % p in readme for p in programs), "tests/apps/README.md documents each")
    with open(os.path.join(ROOT, "bench", "README.md")) as f:
        tap.ok("bench_graphs.py" in f.read(), "bench/README.md lists bench_graphs.py")


def main():
    bg = load_bench()
    base = fixture_launch()
    test_splitting(bg, base)
    test_values(bg, base)
    test_sizes(bg)
    test_length_rows(bg, base)
    test_built_by_make(bg)
    tap.done()


if __name__ == "__main__":
    main()
