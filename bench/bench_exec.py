#!/usr/bin/env python3
"""gpuprof exec on the test programs of tests/apps (make apps), on a GPU:

cost     wall time of `gpuprof exec` (default metrics) / wall time of `ncu --metrics <the same
         counters> --clock-control none`, on programs of 20 to 300 launches (target <= 0.10),
         medians of RUNS alternating runs;
onepass  the same with metrics that fit in one pass (ONE_PASS: no replay);
timing   what `gpuprof exec --metrics=none` adds per launch on `many` (tiny kernels), from
         10,000 and 100,000 launches: the slope is the cost per launch (target <= 5 us), the
         rest the fixed start-up;
scale    `many 100000` with --per-kernel=5 against twice its own run time plus the profiled
         launches' cost (the same 10 launches profiled in a program of 10);
agree    each launch's instruction-determined counters against ncu's on the same programs
         (target: within 1 %);
devices  multigpu (one launch on each visible GPU, onDevice{d} with grid d + 1) under gpuprof
         exec: every launch attributed to the device it ran on, and profiled there (needs
         two GPUs or more to mean anything; says so with one).
`--only=cost,onepass,timing,scale,agree,devices` runs some of them. Raw output goes to $BENCH_OUT."""
import argparse
import csv
import io
import json
import os
import shutil
import statistics
import subprocess
import time

from common import BIN, BUILD, out_path, table, verdict

APPS = os.path.join(BUILD, "tests", "apps")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
EXACT = ("sass", "inst_executed", "thread_inst")
# Programs of 20 to 300 launches: big buffers and small ones, several streams, tiny kernels.
COST_PROGRAMS = [
    ("copy both 2^24 x10", ["copy", "both", "2^24", "10"]),
    ("copy both 2^20 x50", ["copy", "both", "2^20", "50"]),
    ("streams x10", ["streams", "10"]),
    ("inplace x20", ["inplace", "20"]),
    ("many 300", ["many", "300", "3"]),
]


def app(args):
    return [os.path.join(APPS, args[0])] + args[1:]


def wall(argv, log=None):
    t = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True, timeout=1800)
    seconds = time.monotonic() - t
    if log:
        with open(out_path(log), "w") as f:
            f.write(p.stdout + p.stderr)
    if p.returncode != 0:
        raise SystemExit("%s failed (exit %d): %s" % (" ".join(argv), p.returncode,
                                                      p.stderr[-500:]))
    return seconds, p.stdout


# Metrics that fit in one pass: exec profiles them without replay (src/inject/sessions.h).
ONE_PASS = ["dram_read_bytes", "dram_write_bytes"]


def default_counters(keys=None):
    """The counters of the default set (or of the metrics `keys`), and the clock counters
    every result reports."""
    doc = json.loads(subprocess.run([BIN, "metrics", "--chip=GH100", "--json"],
                                    capture_output=True, text=True).stdout)
    names = []
    for m in doc["metrics"]:
        if (m["key"] in keys) if keys else m["set"] == "default":
            names += [i for i in m["inputs"] if i not in names]
    return names + ["gpu__time_duration.sum", "sm__cycles_elapsed.avg", "dram__cycles_elapsed.avg"]


def ncu_argv(counters, program):
    return [shutil.which("ncu"), "--clock-control", "none", "--metrics", ",".join(counters),
            "--csv"] + program


def cost(counters, metrics=None):
    """gpuprof exec against ncu on the same counters: the default set, or `metrics`."""
    rows, total_gp, total_ncu = [], 0.0, 0.0
    what = ["--metrics=" + ",".join(metrics)] if metrics else []
    tag = "onepass-" if metrics else ""
    for name, args in COST_PROGRAMS:
        alone, gp, nc = [], [], []
        for r in range(RUNS):
            alone.append(wall(app(args))[0])
            gp.append(wall([BIN, "exec", "--output=/dev/null"] + what + app(args),
                           "exec-%s%s-%d.txt" % (tag, args[0], r))[0])
            nc.append(wall(ncu_argv(counters, app(args)),
                           "ncu-%s%s-%d.csv" % (tag, args[0], r))[0])
        a, g, n = statistics.median(alone), statistics.median(gp), statistics.median(nc)
        total_gp += g
        total_ncu += n
        rows.append([name, "%.2f" % a, "%.2f" % g, "%.2f" % n, "%.3f" % (g / n)])
    print("\ncost: wall time (s), medians of %d alternating runs; %s, the same counters for "
          "ncu:" % (RUNS, "--metrics=" + ",".join(metrics) + " (one pass)" if metrics
                    else "default metrics"))
    table(["program", "alone", "gpuprof exec", "ncu", "ratio"], rows)
    print("all programs: gpuprof / ncu = %s" % verdict(total_gp / total_ncu, 0.10, False))


def timing():
    rows, extra = [], {}
    for n in (10000, 100000):
        args = ["many", str(n), "2"]
        alone = statistics.median(wall(app(args))[0] for _ in range(RUNS))
        timed = statistics.median(wall([BIN, "exec", "--metrics=none", "--output=/dev/null"] +
                                       app(args))[0] for _ in range(RUNS))
        extra[n] = timed - alone
        rows.append([n, "%.3f" % alone, "%.3f" % timed, "%.3f" % extra[n]])
    print("\ntiming only (--metrics=none) on many (1 block of 32 threads per launch), "
          "wall time (s), medians of %d:" % RUNS)
    table(["launches", "alone", "gpuprof exec", "added"], rows)
    per_launch = (extra[100000] - extra[10000]) / 90000
    fixed = extra[10000] - 10000 * per_launch
    print("added per launch: %.2f us (target <= 5 us: %s); fixed start-up: %.3f s" % (
        per_launch * 1e6, "met" if per_launch <= 5e-6 else "NOT met", fixed))


def scale():
    args = ["many", "100000", "2"]
    alone = statistics.median(wall(app(args))[0] for _ in range(RUNS))
    limited = statistics.median(wall([BIN, "exec", "--per-kernel=5", "--output=/dev/null"] +
                                     app(args))[0] for _ in range(RUNS))
    small = ["many", "10", "2"]
    small_alone = statistics.median(wall(app(small))[0] for _ in range(RUNS))
    small_exec = statistics.median(wall([BIN, "exec", "--output=/dev/null"] + app(small))[0]
                                   for _ in range(RUNS))
    profiled = small_exec - small_alone
    bound = 2 * alone + profiled
    print("\nscale: many 100000 launches, --per-kernel=5 (10 profiled): %.2f s; alone %.2f s; "
          "the 10 profiled launches cost %.2f s (many 10 under exec, less alone); bound 2 x "
          "alone + that = %.2f s: %s" % (limited, alone, profiled, bound,
                                         "met" if limited <= bound else "NOT met"))


def ncu_launches(text):
    """ncu's CSV: {launch index: (kernel name, {metric: value})}."""
    rows = list(csv.DictReader(io.StringIO(text[text.index('"ID"'):])))
    out = {}
    for r in rows:
        entry = out.setdefault(int(r["ID"]), (r["Kernel Name"], {}))
        entry[1][r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    return out


def agree(counters):
    rows, worst = [], 0.0
    for name, args in (("copy both 2^22", ["copy", "both", "2^22"]),
                       ("inplace x3", ["inplace", "3"]), ("streams x1", ["streams", "1"]),
                       ("threads", ["threads"])):
        _, text = wall(ncu_argv(counters, app(args)), "agree-ncu-%s.csv" % args[0])
        theirs = ncu_launches(text)
        path = out_path("agree-exec-%s.json" % args[0])
        wall([BIN, "exec", "--json", "--force", "--output=" + path] + app(args))
        with open(path) as f:
            ours = [l for l in json.load(f)["exec"]["launches"] if l["profiled"]]
        compared = 0
        for i, l in enumerate(ours):
            if i not in theirs:
                continue
            mine = {}
            for m in (l["metrics"] or {}).values():
                mine.update(m["inputs"])
            for c, v in mine.items():
                if any(e in c for e in EXACT) and c in theirs[i][1]:
                    ref = theirs[i][1][c]
                    worst = max(worst, abs(v - ref) / max(abs(ref), 1.0))
                    compared += 1
        rows.append([name, len(ours), len(theirs), compared])
    print("\nagreement with ncu --clock-control none, instruction-determined counters per "
          "launch (launch i of gpuprof against ncu's ID i):")
    table(["program", "gpuprof launches", "ncu launches", "counters compared"], rows)
    print("largest difference: %.4f %% (target <= 1 %%: %s)" % (
        100 * worst, "met" if worst <= 0.01 else "NOT met"))


def devices():
    gpus = len(json.loads(subprocess.run([BIN, "device", "--json"], capture_output=True,
                                         text=True).stdout)["devices"])
    path = out_path("devices-exec.json")
    wall([BIN, "exec", "--json", "--force", "--output=" + path] + app(["multigpu"]),
         "devices-exec.txt")
    with open(path) as f:
        ls = json.load(f)["exec"]["launches"]
    rows, right = [], 0
    for l in sorted(ls, key=lambda l: l["device"]):
        ok = (l["kernel"].startswith("onDevice%d(" % (l["device"] % 8)) and
              l["grid"][0] == l["device"] + 1 and l["profiled"])
        right += ok
        eff = (l["metrics"] or {}).get("gst_efficiency", {}).get("value")
        rows.append([l["device"], l["kernel"], "x".join(map(str, l["grid"])), l["profiled"],
                     "-" if eff is None else "%g" % eff, "yes" if ok else "NO"])
    print("\ndevices: multigpu under gpuprof exec on %d visible GPU(s):" % gpus)
    table(["device", "kernel", "grid", "profiled", "gst_efficiency", "right device"], rows)
    if gpus < 2:
        print("two GPUs: not measured here (one GPU on this machine)")
    else:
        print("two GPUs or more: %d of %d launches attributed to the device they ran on and "
              "profiled there (target: all): %s" % (right, gpus,
                                                    "met" if right == gpus == len(ls)
                                                    else "NOT met"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="cost,onepass,timing,scale,agree,devices")
    parts = parser.parse_args().only.split(",")
    if not os.path.exists(os.path.join(APPS, "many")):
        raise SystemExit("build the test programs first: make apps")
    counters = default_counters()
    have_ncu = shutil.which("ncu") is not None
    if "cost" in parts and have_ncu:
        cost(counters)
    if "onepass" in parts and have_ncu:
        cost(default_counters(ONE_PASS), ONE_PASS)
    if "timing" in parts:
        timing()
    if "scale" in parts:
        scale()
    if "agree" in parts and have_ncu:
        agree(counters)
    if "devices" in parts:
        devices()
    if not have_ncu:
        print("ncu not found: cost and agreement not measured")


if __name__ == "__main__":
    main()
