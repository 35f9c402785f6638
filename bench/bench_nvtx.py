#!/usr/bin/env python3
"""What gpuprof exec --nvtx costs (issue 48), on a GPU, on tests/apps/torch_train.py --nvtx
(a PyTorch training loop with one emit_nvtx range per op and step/forward/backward/optimizer
ranges around them):

cost  the wall time of `gpuprof exec` without --nvtx, with --nvtx, and with --nvtx and
      --nvtx-include=FILTER, on STEPS steps (default 200), runs alternating, medians; once
      with the default metrics and once with --metrics=none (the ranges' own cost, without
      the counters' noise). Target: with --nvtx / without <= 1.05.
ncu   the same filter on NCU_STEPS steps (default 3): the program alone, `gpuprof exec --nvtx
      --nvtx-include=FILTER` and `ncu --nvtx --nvtx-include FILTER --metrics <gpuprof's
      default counters> --clock-control none`; the launches each profiled and the time each
      added to the program.

    python3 bench/bench_nvtx.py [--runs=N] [--steps=N] [--ncu-steps=N] [--filter=EXPR]
                                [--only=cost,ncu]

Needs PyTorch with CUDA (says so and stops without). Raw output goes to $BENCH_OUT."""
import argparse
import csv
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from bench_exec import default_counters, wall as timed
from common import BIN, out_path, table

HERE = os.path.dirname(os.path.abspath(__file__))
TORCH_TRAIN = os.path.join(os.path.dirname(HERE), "tests", "apps", "torch_train.py")


def program(steps):
    return [sys.executable, TORCH_TRAIN, "--nvtx", str(steps)]


def cost(runs, steps, expr):
    """Alternating runs of exec without and with --nvtx (and with the filter), per metric set."""
    variants = [("without --nvtx", []), ("--nvtx", ["--nvtx"]),
                ("--nvtx --nvtx-include=" + expr, ["--nvtx", "--nvtx-include=" + expr])]
    rows = []
    for metrics in ([], ["--metrics=none"]):
        walls = {name: [] for name, _ in variants}
        for r in range(runs):
            for name, opts in variants:
                argv = [BIN, "exec", "--output=/dev/null"] + metrics + opts + ["--"] + \
                    program(steps)
                walls[name].append(timed(argv)[0])
        base = statistics.median(walls[variants[0][0]])
        for name, _ in variants:
            m = statistics.median(walls[name])
            rows.append([" ".join(metrics) or "default metrics", name,
                         " ".join("%.2f" % w for w in walls[name]), "%.2f" % m,
                         "%.3f" % (m / base)])
    print("\ncost: gpuprof exec on torch_train.py --nvtx %d, wall time (s) of %d alternating "
          "runs each; target: --nvtx / without <= 1.05" % (steps, runs))
    table(["metrics", "exec", "runs", "median", "/ without"], rows)


def ncu_launches(log):
    """The launches (IDs) in ncu's CSV log."""
    with open(log) as f:
        body = "\n".join(l for l in f.read().splitlines() if l.startswith('"'))
    return {r["ID"] for r in csv.DictReader(io.StringIO(body)) if (r.get("ID") or "").isdigit()}


def against_ncu(steps, expr):
    """gpuprof exec and ncu with the same filter: launches profiled, time added."""
    alone = timed(program(steps))[0]
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        ours = timed([BIN, "exec", "--nvtx", "--nvtx-include=" + expr, "--json",
                      "--output=" + report, "--"] + program(steps), "ncu-exec.txt")[0]
        with open(report) as f:
            launches = json.load(f)["exec"]["launches"]
        profiled = sum(1 for l in launches if l.get("profiled"))
        log = os.path.join(tmp, "ncu.csv")
        theirs = timed([shutil.which("ncu"), "--clock-control", "none", "--nvtx",
                        "--nvtx-include", expr, "--metrics", ",".join(default_counters()),
                        "--csv", "--log-file", log] + program(steps), "ncu-ncu.txt")[0]
        ncu_profiled = len(ncu_launches(log))
    added, ncu_added = ours - alone, theirs - alone
    print("\nagainst ncu: torch_train.py --nvtx %d, filter %s; the program alone %.2f s"
          % (steps, expr, alone))
    table(["tool", "launches profiled", "wall (s)", "added (s)"],
          [["gpuprof exec --nvtx --nvtx-include", "%d of %d" % (profiled, len(launches)),
            "%.2f" % ours, "%.2f" % added],
           ["ncu --nvtx --nvtx-include", "%d" % ncu_profiled, "%.2f" % theirs,
            "%.2f" % ncu_added]])
    if added > 0:
        print("time added: gpuprof / ncu = 1/%.0f" % (ncu_added / added))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--ncu-steps", type=int, default=3)
    ap.add_argument("--filter", default="step/optimizer/")
    ap.add_argument("--only", default="cost,ncu")
    a = ap.parse_args()
    probe = subprocess.run([sys.executable, "-c",
                            "import torch; assert torch.cuda.is_available()"],
                           capture_output=True)
    if probe.returncode != 0:
        print("PyTorch with CUDA not found: nothing measured")
        return
    parts = a.only.split(",")
    if "cost" in parts:
        cost(a.runs, a.steps, a.filter)
    if "ncu" in parts:
        if shutil.which("ncu"):
            against_ncu(a.ncu_steps, a.filter)
        else:
            print("ncu not found: the comparison with ncu is not measured")


if __name__ == "__main__":
    main()
