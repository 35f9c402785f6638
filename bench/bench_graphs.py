#!/usr/bin/env python3
"""CUDA-graph profiling under gpuprof exec (issue 27), on a GPU, with the programs of tests/apps
(make apps):

cost     graph_nodes (a graph of 5 kernel nodes, a memset and a memcpy node) run plain, under
         `gpuprof exec --graph-profiling=node`, `=graph` and `=time` (default metrics), and
         under `ncu --clock-control none --graph-profiling node --metrics <the counters of
         gpuprof's default set>`: wall time at two launch counts (--launches, default 10,20),
         medians of BENCH_RUNS alternating runs (default 3); the cost per graph launch is the
         slope between them (start-up left out); ncu / gpuprof per mode. Each run must print
         `graph_nodes: ok` (profiling leaves the results alone).
lengths  graph_lengths (copies of about 2, 5, 20 and 100 us, LAUNCHES graph launches then the
         same kernels launched directly): under `gpuprof exec --graph-profiling=node --json`,
         per copy kernel the median DRAM read and write bytes of its graph nodes (launches with
         graph_node != 0: PM-sampled) against those of its direct launches (graph_node == 0:
         the range profiler), and their relative error. Sampled writes are approximate by
         nature (L2 write-back smears them into the next kernel: docs/replay-notes.md).
`--only=cost,lengths` runs one of them. The tables are printed, the lengths table last; full
logs, ncu's output and the reports go to $OUT when set (the device machine's), else
$BENCH_OUT (default bench-out/)."""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import time

import common
from common import BIN, BUILD, out_path, table

APPS = os.path.join(BUILD, "tests", "apps")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
MODES = ("node", "graph", "time")
# graph_lengths' copy kernels (tests/apps/graph_lengths.cu), shortest first, and their
# nominal lengths in us.
LENGTH_KERNELS = (("lengthCopy2us", 2), ("lengthCopy5us", 5), ("lengthCopy20us", 20),
                  ("lengthCopy100us", 100))
# The report's metric keys (src/counters/metrics.c) of a launch's DRAM bytes; for a graph
# node under --graph-profiling=node they hold the PM-sampled bytes (its "how" lists
# "sampled": the key the integrator names in src/render/json.c).
DRAM_KEYS = (("read", "dram_read_bytes"), ("write", "dram_write_bytes"))
# Metrics of one pass: the direct launches are then counted without replay, in the cache
# state the graph's launches see.
LENGTH_METRICS = "dram_read_bytes,dram_write_bytes"
HEADERS_COST = ["run", "launches", "wall (s)", "launches", "wall (s)", "wall / launch (ms)",
                "ms / graph launch", "ok"]
HEADERS_LENGTHS = ["kernel", "n", "4n MB", "direct us", "nodes", "direct", "read graph MB",
                   "read direct MB", "read err", "write graph MB", "write direct MB",
                   "write err", "how"]


# ---- helpers (tests/cli/test_bench_graphs.py runs them on fixtures) -------------------------

def ncu_path():
    """ncu on PATH, in $CUDA_HOME/bin, or the newest /opt/nvidia/nsight-compute/*/ncu."""
    found = shutil.which("ncu")
    if found:
        return found
    cand = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ncu")
    if os.access(cand, os.X_OK):
        return cand
    installed = sorted(glob.glob("/opt/nvidia/nsight-compute/*/ncu"))
    return installed[-1] if installed else None


def base_name(kernel):
    """`lengthCopy2us` of `lengthCopy2us(float *, const float *, unsigned int)`."""
    return kernel.split("(")[0].split()[-1] if kernel else ""


def metric_value(launch, key):
    """A launch's metric `key`, or None when absent or not a number (NaN, null)."""
    entry = (launch.get("metrics") or {}).get(key)
    v = entry.get("value") if isinstance(entry, dict) else None
    return v if isinstance(v, (int, float)) and v == v else None


def split_launches(doc):
    """{kernel base name: {"graph": [launch], "direct": [launch]}} of an exec report, in
    report order: graph nodes (graph_node != 0) apart from direct launches."""
    out = {}
    for l in (doc or {}).get("exec", {}).get("launches", []):
        side = "graph" if l.get("graph_node") else "direct"
        out.setdefault(base_name(l.get("kernel")), {"graph": [], "direct": []})[side].append(l)
    return out


def median_of(launches, key):
    """The median of the launches' metric `key` over those that have it; None if none has."""
    values = [v for v in (metric_value(l, key) for l in launches) if v is not None]
    return statistics.median(values) if values else None


def relative_error(got, reference):
    """(got - reference) / reference, or None when either is unknown or reference is 0."""
    if got is None or reference is None or reference == 0:
        return None
    return (got - reference) / reference


def hows(launches):
    """The distinct `how` lists of the launches, as text ("sampled+shadow", ...; "-" when
    the report has no `how`: a gpuprof before issue 27)."""
    seen = sorted({"+".join(sorted(l.get("how") or [])) or "-" for l in launches})
    return ",".join(seen) if seen else "-"


def sizes_from_stderr(text):
    """graph_lengths' element counts from its `graph_lengths: scale=S n=A,B,C,D ...` line on
    stderr, by kernel base name; {} when the line is missing."""
    for line in text.splitlines():
        if line.startswith("graph_lengths: scale="):
            for word in line.split():
                if word.startswith("n="):
                    counts = [int(c) for c in word[2:].split(",")]
                    return {k: n for (k, _), n in zip(LENGTH_KERNELS, counts)}
    return {}


def percent(v):
    return "-" if v is None else "%+.2f %%" % (100 * v)


def megabytes(v):
    return "-" if v is None else "%.3f" % (v / 1e6)


def length_rows(doc, sizes):
    """The lengths table: one row per copy kernel of graph_lengths."""
    by_kernel = split_launches(doc)
    rows = []
    for kernel, _ in LENGTH_KERNELS:
        sides = by_kernel.get(kernel, {"graph": [], "direct": []})
        g, d = sides["graph"], sides["direct"]
        times = [l["duration_ms"] for l in d if isinstance(l.get("duration_ms"), (int, float))]
        n = sizes.get(kernel)
        row = [kernel, n if n else "-", megabytes(4 * n) if n else "-",
               "%.1f" % (1000 * statistics.median(times)) if times else "-", len(g), len(d)]
        for _, key in DRAM_KEYS:
            sampled, direct = median_of(g, key), median_of(d, key)
            row += [megabytes(sampled), megabytes(direct),
                    percent(relative_error(sampled, direct))]
        rows.append(row + [hows(g)])
    return rows


def per_launch_ms(wall_small, wall_large, small, large):
    """The slope of wall time over graph launches, in ms per launch."""
    return 1000.0 * (wall_large - wall_small) / (large - small)


def ratio(a, b):
    """a / b as text; "-" when b is not positive (a cost lost in the noise)."""
    return "%.1f" % (a / b) if b > 0 else "-"


def markdown(headers, rows):
    lines = ["| " + " | ".join(headers) + " |", "|" + " --- |" * len(headers)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


# ---- running things ---------------------------------------------------------------------------

def app(name, *args):
    return [os.path.join(APPS, name)] + [str(a) for a in args]


def run_logged(argv, log):
    """(wall seconds, exit status, stdout, stderr) of argv; everything kept in log."""
    t = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True, timeout=3600)
    seconds = time.monotonic() - t
    with open(out_path(log), "w") as f:
        f.write("$ %s\nexit %d, %.3f s\n--- stdout\n%s--- stderr\n%s"
                % (" ".join(argv), p.returncode, seconds, p.stdout, p.stderr))
    return seconds, p.returncode, p.stdout, p.stderr


def has_graph_profiling():
    p = subprocess.run([BIN, "exec", "--help"], capture_output=True, text=True)
    return "--graph-profiling" in p.stdout + p.stderr


def default_counters():
    """The counters of gpuprof's default set (GH100's catalogue) and the clock counters every
    result reports, as bench_exec.py collects them for ncu."""
    doc = json.loads(subprocess.run([BIN, "metrics", "--chip=GH100", "--json"],
                                    capture_output=True, text=True).stdout)
    names = []
    for m in doc["metrics"]:
        if m["set"] == "default":
            names += [i for i in m["inputs"] if i not in names]
    return names + ["gpu__time_duration.sum", "sm__cycles_elapsed.avg",
                    "dram__cycles_elapsed.avg"]


def cost_commands(ncu, counters):
    """(label, argv prefix) of each way graph_nodes runs."""
    ways = [("plain", [])]
    ways += [("gpuprof " + m, [BIN, "exec", "--graph-profiling=" + m, "--output=/dev/null",
                               "--"]) for m in MODES]
    if ncu:
        ways.append(("ncu node", [ncu, "--clock-control", "none", "--graph-profiling", "node",
                                  "--metrics", ",".join(counters), "--csv"]))
    return ways


def measure_cost(ways, launch_counts):
    """graph_nodes run each way at each launch count, RUNS times alternating: ({(label, count):
    [wall seconds]}, {label: runs that failed or did not print the ok line})."""
    walls = {(label, n): [] for label, _ in ways for n in launch_counts}
    failures = {label: 0 for label, _ in ways}
    for r in range(RUNS):
        for label, prefix in ways:
            for n in launch_counts:
                tag = "cost-%s-%d-%d.log" % (label.replace(" ", "-"), n, r)
                seconds, rc, out, _ = run_logged(prefix + app("graph_nodes", n), tag)
                walls[(label, n)].append(seconds)
                if rc != 0 or "graph_nodes: ok (%d launches)" % n not in out:
                    failures[label] += 1
    return walls, failures


def cost(ncu, launch_counts):
    small, large = launch_counts
    ways = cost_commands(ncu, default_counters())
    walls, failures = measure_cost(ways, launch_counts)
    rows, slope = [], {}
    for label, _ in ways:
        a = statistics.median(walls[(label, small)])
        b = statistics.median(walls[(label, large)])
        slope[label] = per_launch_ms(a, b, small, large)
        rows.append([label, small, "%.2f" % a, large, "%.2f" % b, "%.1f" % (1000 * b / large),
                     "%.2f" % slope[label],
                     "yes" if failures[label] == 0 else "NO (%d runs)" % failures[label]])
    print("cost: graph_nodes, wall time, medians of %d alternating runs; wall / launch: the "
          "whole run at %d launches; ms / graph launch: the slope between %d and %d launches "
          "(start-up left out)" % (RUNS, large, small, large))
    table(HEADERS_COST, rows)
    with open(out_path("graphs-cost.md"), "w") as f:
        f.write(markdown(HEADERS_COST, rows))
    plain = slope["plain"]
    for m in MODES:
        ours = slope["gpuprof " + m]
        line = ("gpuprof --graph-profiling=%s: %.2f ms per graph launch, %.2f ms more than "
                "plain" % (m, ours, ours - plain))
        if "ncu node" in slope:
            line += "; ncu node / gpuprof %s: %s per launch, %s of the added time" % (
                m, ratio(slope["ncu node"], ours), ratio(slope["ncu node"] - plain, ours - plain))
        print(line)
    if not ncu:
        print("ncu not found (PATH, $CUDA_HOME/bin, /opt/nvidia/nsight-compute/*/ncu): "
              "ncu's cost not measured")


def node_coverage():
    """One graph_nodes run under --graph-profiling=node with the report kept: how many of its
    kernel-node launches carry metrics."""
    path = out_path("graph_nodes-node.json")
    _, rc, out, err = run_logged([BIN, "exec", "--graph-profiling=node", "--json",
                                  "--force", "--output=" + path, "--"] + app("graph_nodes", 20),
                                 "graph_nodes-node.log")
    if rc != 0 or not os.path.exists(path):
        print("graph_nodes under --graph-profiling=node failed (exit %d): %s"
              % (rc, err.strip()[-300:]))
        return
    with open(path) as f:
        nodes = [l for ls in split_launches(json.load(f)).values() for l in ls["graph"]]
    with_metrics = [l for l in nodes if l.get("metrics")]
    print("graph_nodes 20 under --graph-profiling=node: %d graph-node launches, %d with "
          "metrics (how: %s); program %s" % (len(nodes), len(with_metrics), hows(nodes),
                                             "ok" if "graph_nodes: ok" in out else "NOT ok"))


def lengths(scale, launches, metrics):
    path = out_path("graph_lengths-node.json")
    argv = [BIN, "exec", "--graph-profiling=node", "--json", "--force", "--output=" + path]
    argv += ["--metrics=" + metrics] if metrics != "default" else []
    _, rc, out, err = run_logged(argv + ["--"] + app("graph_lengths", scale, launches),
                                 "graph_lengths-node.log")
    if rc != 0 or not os.path.exists(path):
        print("graph_lengths under gpuprof exec failed (exit %d): %s" % (rc, err.strip()[-500:]))
        return
    with open(path) as f:
        doc = json.load(f)
    rows = length_rows(doc, sizes_from_stderr(err))
    with open(out_path("graphs-lengths.md"), "w") as f:
        f.write(markdown(HEADERS_LENGTHS, rows))
    print("\nlengths: graph_lengths %s %d under --graph-profiling=node%s; medians of the graph "
          "nodes' sampled DRAM bytes against the direct launches' (range profiler); err = "
          "(graph - direct) / direct; program %s" % (
              scale, launches, "" if metrics == "default" else " --metrics=" + metrics,
              "ok" if "graph_lengths: ok" in out else "NOT ok"))
    table(HEADERS_LENGTHS, rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="cost,lengths")
    parser.add_argument("--launches", default="10,20",
                        help="graph_nodes' two launch counts for the cost (default 10,20)")
    parser.add_argument("--scale", default="1", help="graph_lengths' SCALE (default 1)")
    parser.add_argument("--length-launches", type=int, default=5,
                        help="graph_lengths' LAUNCHES (default 5)")
    parser.add_argument("--length-metrics", default=LENGTH_METRICS,
                        help="--metrics for graph_lengths (default %s; `default`: gpuprof's "
                             "default set)" % LENGTH_METRICS)
    args = parser.parse_args()
    if os.environ.get("OUT"):
        common.OUT = os.environ["OUT"]
    parts = args.only.split(",")
    counts = [int(c) for c in args.launches.split(",")]
    if len(counts) != 2 or not 0 < counts[0] < counts[1]:
        raise SystemExit("--launches takes two increasing counts, e.g. 10,20")
    missing = [p for p in ("graph_nodes", "graph_lengths")
               if not os.path.exists(os.path.join(APPS, p))]
    if missing:
        raise SystemExit("not built: %s (make apps)" % ", ".join(missing))
    if not has_graph_profiling():
        # Not an error: make bench runs every benchmark, and this one needs issue 27's option.
        print("gpuprof exec has no --graph-profiling: CUDA-graph profiling not measured")
        return
    if "cost" in parts:
        cost(ncu_path(), counts)
        node_coverage()
    if "lengths" in parts:
        lengths(args.scale, args.length_launches, args.length_metrics)


if __name__ == "__main__":
    main()
