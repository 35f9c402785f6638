#!/usr/bin/env python3
"""gpuprof exec --replay (issue 26) on the test programs of tests/apps (make apps), on a GPU:

cost     what the default set adds in auto, against what ncu adds for the same counters:
         (exec - alone) / (ncu - alone), on programs of at least 100 launches (target <=
         0.05); wall times, medians of RUNS alternating runs;
rotated  the time a rotated launch adds: hold 0 N (a 4 MiB copy N times) under
         --replay=rotate and auto at N = 100 and 400, the slope (target <= 2 ms);
memory   the same per rotated launch with 8 GiB (and 40 GiB where the GPU has it) allocated
         and never touched, against none (target: grows by less than 10 %), beside
         --replay=kernel's growth (CUPTI saves and restores all of it);
agree    each launch's instruction-determined counters in every mode against ncu's on the same
         programs (target: equal, within 1 %).
`--only=cost,rotated,memory,agree` runs some of them. Raw output goes to $BENCH_OUT."""
import argparse
import json
import os
import shutil
import statistics
import subprocess

from bench_exec import APPS, EXACT, RUNS, app, default_counters, ncu_argv, ncu_launches, wall
from common import BIN, out_path, table, verdict

COST_PROGRAMS = [
    ("copy both 2^20 x50", ["copy", "both", "2^20", "50"]),
    ("streams x25", ["streams", "25"]),
    ("hold 0 x200", ["hold", "0", "200"]),
    ("many 300", ["many", "300", "3"]),
]
MODES = ("auto", "rotate", "kernel", "application")


def exec_argv(mode, args, metrics=None):
    return [BIN, "exec", "--output=/dev/null", "--replay=" + mode] + \
        (["--metrics=" + metrics] if metrics else []) + app(args)


def median_wall(argv, log=None):
    return statistics.median(wall(argv, log)[0] for _ in range(RUNS))


def cost(counters):
    rows, added_gp, added_ncu = [], 0.0, 0.0
    for name, args in COST_PROGRAMS:
        alone, gp, nc = [], [], []
        for r in range(RUNS):
            alone.append(wall(app(args))[0])
            gp.append(wall(exec_argv("auto", args), "cost-exec-%s-%d.txt" % (args[0], r))[0])
            nc.append(wall(ncu_argv(counters, app(args)), "cost-ncu-%s-%d.csv" % (args[0], r))[0])
        a, g, n = statistics.median(alone), statistics.median(gp), statistics.median(nc)
        added_gp += g - a
        added_ncu += n - a
        rows.append([name, "%.2f" % a, "%.2f" % g, "%.2f" % n, "%.3f" % ((g - a) / (n - a))])
    print("\ncost: wall time (s), medians of %d alternating runs; gpuprof exec --replay=auto "
          "with the default set, ncu --clock-control none with the same counters:" % RUNS)
    table(["program", "alone", "gpuprof exec", "ncu", "added ratio"], rows)
    print("all programs: (exec - alone) / (ncu - alone) = %s" %
          verdict(added_gp / added_ncu, 0.05, False))


def per_launch(mode, gib, few=100, many=400):
    """Seconds a profiled launch of hold adds: the slope between `few` and `many` launches."""
    t_few = median_wall(exec_argv(mode, ["hold", str(gib), str(few)]),
                        "rot-%s-%d-%d.txt" % (mode, gib, few))
    t_many = median_wall(exec_argv(mode, ["hold", str(gib), str(many)]),
                         "rot-%s-%d-%d.txt" % (mode, gib, many))
    a_few = median_wall(app(["hold", str(gib), str(few)]))
    a_many = median_wall(app(["hold", str(gib), str(many)]))
    return ((t_many - a_many) - (t_few - a_few)) / (many - few)


def rotated():
    rows = []
    for mode in ("rotate", "auto"):
        s = per_launch(mode, 0)
        rows.append([mode, "%.3f" % (s * 1e3)])
    print("\nrotated: time added per profiled launch of hold (a 4 MiB copy), slope between "
          "100 and 400 launches, medians of %d:" % RUNS)
    table(["--replay", "ms per launch"], rows)
    print("rotate: %s" % verdict(float(rows[0][1]), 2.0, False))


def free_gib():
    doc = json.loads(subprocess.run([BIN, "device", "--json", "--device=0"],
                                    capture_output=True, text=True).stdout)
    return doc["devices"][0]["memory_bytes"] / 2**30


def memory():
    sizes = [0, 8] + ([40] if free_gib() > 48 else [])
    rows, growth = [], {}
    for mode, few, many in (("rotate", 100, 400), ("kernel", 20, 60)):
        base = None
        for gib in sizes:
            s = per_launch(mode, gib, few, many)
            base = s if base is None else base
            growth[(mode, gib)] = s / base - 1
            rows.append([mode, gib, "%.3f" % (s * 1e3), "%+.1f %%" % (100 * growth[(mode, gib)])])
    print("\nmemory: time added per profiled launch of hold with GIB allocated and never "
          "touched (slopes, medians of %d):" % RUNS)
    table(["--replay", "GiB held", "ms per launch", "growth"], rows)
    worst = max(growth[("rotate", g)] for g in sizes)
    print("rotate, largest growth: %+.1f %% (target < 10 %%: %s); kernel replay: %+.1f %% at "
          "%d GiB" % (100 * worst, "met" if worst < 0.10 else "NOT met",
                      100 * growth[("kernel", sizes[-1])], sizes[-1]))


def exact(launch):
    out = {}
    for m in (launch["metrics"] or {}).values():
        for c, v in m["inputs"].items():
            if any(e in c for e in EXACT) and v is not None:
                out[c] = v
    return out


def agree(counters):
    rows, worst = [], 0.0
    for name, args in (("copy both 2^22 x3", ["copy", "both", "2^22", "3"]),
                       ("inplace x3", ["inplace", "3"]), ("streams x2", ["streams", "2"]),
                       ("hold 0 x20", ["hold", "0", "20"])):
        _, text = wall(ncu_argv(counters, app(args)), "agree-ncu-%s.csv" % args[0])
        theirs = ncu_launches(text)
        for mode in MODES:
            path = out_path("agree-%s-%s.json" % (mode, args[0]))
            wall([BIN, "exec", "--json", "--replay=" + mode, "--force", "--output=" + path] +
                 app(args))
            with open(path) as f:
                ours = json.load(f)["exec"]["launches"]
            compared = 0
            for i, l in enumerate(ours):
                for c, v in exact(l).items():
                    if i in theirs and c in theirs[i][1]:
                        ref = theirs[i][1][c]
                        worst = max(worst, abs(v - ref) / max(abs(ref), 1.0))
                        compared += 1
            rows.append([name, mode, len(ours), compared])
    print("\nagreement with ncu --clock-control none, instruction-determined counters per "
          "launch (launch i against ncu's ID i), in every mode:")
    table(["program", "--replay", "launches", "counters compared"], rows)
    print("largest difference: %.4f %% (target <= 1 %%: %s)" % (
        100 * worst, "met" if worst <= 0.01 else "NOT met"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="cost,rotated,memory,agree")
    parts = parser.parse_args().only.split(",")
    if not os.path.exists(os.path.join(APPS, "hold")):
        raise SystemExit("build the test programs first: make apps")
    counters = default_counters()
    have_ncu = shutil.which("ncu") is not None
    if "cost" in parts and have_ncu:
        cost(counters)
    if "rotated" in parts:
        rotated()
    if "memory" in parts:
        memory()
    if "agree" in parts and have_ncu:
        agree(counters)
    if not have_ncu:
        print("ncu not found: cost and agreement not measured")


if __name__ == "__main__":
    main()
