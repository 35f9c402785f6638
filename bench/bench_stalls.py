#!/usr/bin/env python3
"""What gpuprof exec --stalls costs (issue 47), on a GPU:

1. kernel time with stalls on against off: the median duration of each kernel of
   `copy both 2^26 20` in `exec --metrics=none` and `exec --stalls` reports, runs alternating
   (target <= 1.02);
2. the wall time of a program alone, under `gpuprof exec --metrics=none`, under
   `gpuprof exec --stalls`, and under `ncu --section SourceCounters --section WarpStateStats
   --clock-control none` (the sections that give ncu's stall reasons per line and per
   kernel), for tests/apps' copy and a PyTorch loop (tests/apps/torch_train.py, skipped
   without PyTorch), and NVIDIA's cuda-samples globalToShmemAsyncCopy (101 launches of a
   cp.async matrix multiply; staged by tests/third_party/stage-cuda-samples.sh, skipped
   where not): ncu profiles only its first --sample-launches (default 20) there, so that
   what ncu adds is an underestimate; printed: what --stalls adds to exec, and (exec
   --stalls - alone) / (ncu - alone) (target <= 1/30).

    python3 bench/bench_stalls.py [--runs=N] [--steps=N] [--only=kernels,programs]
                                  [--programs=copy,torch,sample] [--sample-launches=N]

Best of --runs (default 3) for the wall times, ncu once. Prints a table last."""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.environ.get("GPUPROF_BUILD", os.path.join(ROOT, "build"))
BIN = os.path.join(BUILD, "gpuprof")
APPS = os.path.join(BUILD, "tests", "apps")
TORCH_TRAIN = os.path.join(ROOT, "tests", "apps", "torch_train.py")
SAMPLE = os.path.join(BUILD, "third_party", "cuda-samples", "globalToShmemAsyncCopy")


def wall(cmd, runs):
    """Best wall time of `runs` runs (seconds), and whether every run exited 0."""
    best, ok = float("inf"), True
    for _ in range(runs):
        t = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t)
        ok = ok and p.returncode == 0
    return best, ok


def kernel_medians(extra):
    """{kernel: median duration ms} of copy both 2^26 20 under exec EXTRA."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "r.json")
        subprocess.run([BIN, "exec", "--json", "--output=" + path] + extra +
                       ["--", os.path.join(APPS, "copy"), "both", "2^26", "20"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        with open(path) as f:
            doc = json.load(f)
    by = {}
    for l in doc["exec"]["launches"]:
        if l.get("duration_ms") is not None:
            by.setdefault(l["kernel"].split("(")[0], []).append(l["duration_ms"])
    return {k: statistics.median(v) for k, v in by.items()}


def bench_kernels(runs):
    off, on = {}, {}
    for _ in range(runs):
        for k, v in kernel_medians(["--metrics=none"]).items():
            off.setdefault(k, []).append(v)
        for k, v in kernel_medians(["--stalls"]).items():
            on.setdefault(k, []).append(v)
    rows = []
    for k in sorted(off):
        a, b = statistics.median(off[k]), statistics.median(on.get(k, [float("nan")]))
        rows.append(("kernel time, %s (copy both 2^26 20): stalls on / off" % k,
                     "%.4f / %.4f ms = %.3f" % (b, a, b / a), "<= 1.02"))
    return rows


def bench_program(name, cmd, runs, ncu_options=()):
    """`ncu_options`: ncu's own, such as a launch count (what ncu adds is then a floor)."""
    alone, ok0 = wall(cmd, runs)
    plain, ok1 = wall([BIN, "exec", "--metrics=none", "--"] + cmd, runs)
    stalls, ok2 = wall([BIN, "exec", "--stalls", "--"] + cmd, runs)
    ncu = shutil.which("ncu")
    ncu_s, ok3 = (wall([ncu, "--clock-control", "none", "--section", "SourceCounters",
                        "--section", "WarpStateStats"] + list(ncu_options) + cmd, 1) if ncu else (float("nan"), True))
    print("%s: alone %.2f s, exec %.2f s, exec --stalls %.2f s, ncu %.2f s%s" %
          (name, alone, plain, stalls, ncu_s, "" if ok0 and ok1 and ok2 and ok3 else
           " (a run failed)"), flush=True)
    added, ncu_added = stalls - alone, ncu_s - alone
    return [("%s: exec --stalls / exec" % name, "%.2f / %.2f s = %.3f" % (stalls, plain,
                                                                           stalls / plain), ""),
            ("%s: added by exec --stalls / by ncu" % name,
             "%.2f / %.2f s = 1/%.0f" % (added, ncu_added, ncu_added / added if added > 0
                                         else float("inf")), "<= 1/30")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--steps", type=int, default=3, help="PyTorch loop steps (ncu profiles each "
                    "of its kernels: about 90 launches per 3 steps)")
    ap.add_argument("--only", default="kernels,programs")
    ap.add_argument("--programs", default="copy,torch,sample",
                    help="of the programs part: copy, torch, sample")
    ap.add_argument("--sample-launches", type=int, default=20,
                    help="the launches of the cuda-sample that ncu profiles")
    a = ap.parse_args()
    rows = []
    if "kernels" in a.only:
        rows += bench_kernels(a.runs)
    if "programs" in a.only:
        if "copy" in a.programs:
            rows += bench_program("copy both 2^24 2", [os.path.join(APPS, "copy"), "both",
                                                       "2^24", "2"], a.runs)
        if "sample" in a.programs and os.path.exists(SAMPLE):
            rows += bench_program("globalToShmemAsyncCopy (ncu: %d of 101 launches)"
                                  % a.sample_launches, [SAMPLE], a.runs,
                                  ["--launch-count", str(a.sample_launches)])
        elif "sample" in a.programs:
            print("%s not staged (tests/third_party/stage-cuda-samples.sh): skipped" % SAMPLE)
        torch = "torch" in a.programs and subprocess.run([sys.executable, "-c", "import torch; assert torch.cuda.is_available()"],
                               capture_output=True).returncode == 0
        if torch:
            rows += bench_program("torch_train %d steps" % a.steps,
                                  [sys.executable, TORCH_TRAIN, str(a.steps)], a.runs)
        elif "torch" in a.programs:
            print("PyTorch with CUDA not found: the PyTorch loop is skipped")
    print("\n| measurement | result | target |\n| --- | --- | --- |")
    for r in rows:
        print("| %s | %s | %s |" % r)


if __name__ == "__main__":
    main()
