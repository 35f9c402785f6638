#!/usr/bin/env python3
"""The cost cliffs of gpuprof exec (issue 35), on the test programs of tests/apps (make apps),
on a GPU. Wall times in seconds, medians of BENCH_RUNS (default 1) alternating runs.

memory   hold GIB 40 (a 4 MiB copy launched 40 times beside GIB GiB allocated and never
         touched) under the default options, holding nothing and holding 3/4 of the device:
         the ratio of the two (target <= 1.3); then --replay=kernel holding 3/4, one launch:
         the mode that pays for the memory.
loop     graph_loop L (one graph of a memset, three kernels and a copy, launched L times):
         alone, under gpuprof exec (node, --graph-samples' default 10) and under
         --graph-profiling=graph, at L = 1000 and 3000; what a graph launch adds after the
         sampled ones is the slope of (exec - alone) between them (target <= 0.2 ms). Then ncu
         --graph-profiling node at L = 10 and 20: its cost per graph launch (slope) and its
         added time at 3000 launches, extrapolated from 20 by that slope (an ncu run of 3000
         graph launches takes several minutes); gpuprof's added time at 3000 against it
         (target <= 1/20). And --graph-samples=all at 100 and 200 launches: what every sampled
         graph launch costs, the cliff the default avoids.
spread   graph_nodes 60 --graph-samples=all --metrics=dram_read_bytes,dram_write_bytes (its
         64 MiB buffers do not fit in L2, unlike graph_loop's): the sampled DRAM reads of the
         nodes that run alone (nodesFill, nodesCombine) over the 60 launches: the spread from
         launch to launch, and how far the mean of the first 10 (the default) is from the mean
         of all.
host     graph_samples 3 (NVIDIA simpleCudaGraphs' shape: its last node a host function) and
         graph_host 3 (a kernel before and one after a host node) under node: which kernel
         nodes got instruction-level counters from shadow launches.
`--only=memory,loop,spread,host` runs some of them. Raw output goes to $BENCH_OUT."""
import argparse
import json
import os
import shutil
import statistics
import subprocess

from bench_exec import RUNS, app, default_counters, wall
from common import BIN, device, out_path, table, verdict


def exec_argv(args, *options):
    return [BIN, "exec", "--output=/dev/null"] + list(options) + app(args)


def median_walls(argvs, tag):
    """Each argv's median wall time over RUNS rounds, the argvs alternating within a round."""
    times = [[] for _ in argvs]
    for r in range(RUNS):
        for i, argv in enumerate(argvs):
            times[i].append(wall(argv, "%s-%d-%d.txt" % (tag, i, r))[0])
    return [statistics.median(t) for t in times]


def memory():
    total = device()["memory_bytes"] / 2 ** 30
    held = int(total * 0.75)
    none, most = median_walls([exec_argv(["hold", "0", "40"]),
                               exec_argv(["hold", str(held), "40"])], "memory")
    alone = median_walls([app(["hold", "0", "40"]), app(["hold", str(held), "40"])], "alone")
    rows = [["0", "%.2f" % alone[0], "%.2f" % none], [str(held), "%.2f" % alone[1], "%.2f" % most]]
    print("\nmemory: hold GIB 40 under gpuprof exec (default options), %.0f GiB device, medians "
          "of %d runs:" % (total, RUNS))
    table(["GiB held", "alone", "gpuprof exec"], rows)
    print("holding %d GiB (%.0f %%) / holding none: %s" %
          (held, 100.0 * held / total, verdict(most / none, 1.3, False)))
    kernel = wall(exec_argv(["hold", str(held), "1"], "--replay=kernel"), "memory-kernel.txt")[0]
    print("--replay=kernel, %d GiB held, 1 launch: %.2f s (the mode that saves and restores "
          "the memory at every launch)" % (held, kernel))


def ncu_argv(launches):
    counters = default_counters()
    return [shutil.which("ncu"), "--clock-control", "none", "--graph-profiling", "node",
            "--metrics", ",".join(counters), "--csv"] + app(["graph_loop", str(launches)])


def loop():
    counts = (1000, 3000)
    rows, added = [], {}
    for label, options in (("alone", None), ("node", ()), ("graph", ("--graph-profiling=graph",))):
        argvs = [app(["graph_loop", str(n)]) if options is None else
                 exec_argv(["graph_loop", str(n)], *options) for n in counts]
        added[label] = median_walls(argvs, "loop-" + label)
        rows.append([label] + ["%.2f" % t for t in added[label]])
    print("\nloop: graph_loop L, wall time (s), medians of %d runs:" % RUNS)
    table(["run"] + ["L=%d" % n for n in counts], rows)
    span = counts[1] - counts[0]
    for label in ("node", "graph"):
        slope = ((added[label][1] - added["alone"][1]) - (added[label][0] - added["alone"][0]))
        print("%s: added per graph launch after the sampled ones: %.4f ms (slope %d..%d): %s" %
              (label, 1e3 * slope / span, counts[0], counts[1],
               verdict(1e3 * slope / span, 0.2, False)))
    if shutil.which("ncu"):
        few = (10, 20)
        ncu = [wall(ncu_argv(n), "loop-ncu-%d.csv" % n)[0] for n in few]
        alone_few = [wall(app(["graph_loop", str(n)]))[0] for n in few]
        per = ((ncu[1] - alone_few[1]) - (ncu[0] - alone_few[0])) / (few[1] - few[0])
        ncu_added = (ncu[1] - alone_few[1]) + per * (counts[1] - few[1])
        ours = added["node"][1] - added["alone"][1]
        print("ncu --graph-profiling node: %.2f s at %d launches, %.2f s at %d: %.1f ms per "
              "graph launch; added at %d launches, extrapolated: %.1f s" %
              (ncu[0], few[0], ncu[1], few[1], 1e3 * per, counts[1], ncu_added))
        print("gpuprof exec (node) added %.2f s at %d launches; / ncu's: %s" %
              (ours, counts[1], verdict(ours / ncu_added, 0.05, False)))
    every = median_walls([exec_argv(["graph_loop", str(n)], "--graph-samples=all")
                          for n in (100, 200)], "loop-all")
    print("--graph-samples=all: %.2f s at 100 launches, %.2f s at 200: %.1f ms per sampled "
          "graph launch" % (every[0], every[1], 10.0 * (every[1] - every[0])))


def spread():
    path = out_path("spread.json")
    subprocess.run([BIN, "exec", "--json", "--force", "--output=" + path, "--graph-samples=all",
                    "--metrics=dram_read_bytes,dram_write_bytes"] + app(["graph_nodes", "60"]),
                   capture_output=True, text=True, check=True, timeout=1800)
    with open(path) as f:
        doc = json.load(f)
    rows = []
    for kernel in ("nodesFill", "nodesCombine"):
        reads = []
        for l in doc["exec"]["launches"]:
            m = (l.get("metrics") or {}).get("dram_read_bytes") or {}
            if l["kernel"].startswith(kernel + "(") and l["graph_node"] and \
                    "sampled" in (l.get("how") or []) and m.get("value") is not None:
                reads.append(m["value"])
        if len(reads) < 20:
            rows.append([kernel, str(len(reads)), "-", "-", "-"])
            continue
        mean = statistics.mean(reads)
        rows.append([kernel, str(len(reads)), "%.0f" % mean,
                     "%.2f %%" % (100.0 * statistics.pstdev(reads) / mean),
                     "%+.2f %%" % (100.0 * (statistics.mean(reads[:10]) - mean) / mean)])
    print("\nspread: graph_nodes 60, every launch sampled: each node's DRAM reads (bytes)")
    table(["kernel", "samples", "mean", "spread (sd/mean)", "first 10 vs all"], rows)


def host():
    rows = []
    for program, args in (("graph_samples", ["3"]), ("graph_host", ["3"])):
        path = out_path("host-%s.json" % program)
        p = subprocess.run([BIN, "exec", "--json", "--force", "--output=" + path] +
                           app([program] + args),
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            rows.append([program, "exit %d" % p.returncode, "", ""])
            continue
        with open(path) as f:
            doc = json.load(f)
        kernels = {}
        for l in doc["exec"]["launches"]:
            if l["graph_node"]:
                name = l["kernel"].split("(")[0]
                kernels.setdefault(name, False)
                kernels[name] |= "shadow" in (l.get("how") or [])
        rows.append([program, "%d of %d" % (sum(kernels.values()), len(kernels)),
                     ", ".join(k for k, v in kernels.items() if v) or "-",
                     ", ".join(k for k, v in kernels.items() if not v) or "-"])
    print("\nhost: kernel nodes with instruction-level counters (shadow-launched), under node:")
    table(["program", "shadowed", "kernels", "sampled only"], rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="memory,loop,spread,host")
    parts = parser.parse_args().only.split(",")
    for name, part in (("memory", memory), ("loop", loop), ("spread", spread), ("host", host)):
        if name in parts:
            part()


if __name__ == "__main__":
    main()
