#!/usr/bin/env python3
"""What `gpuprof exec --source` adds to a program, against ncu --section SourceCounters.

Issue 36, on the test programs of tests/apps (make apps), on a GPU. Wall times in seconds,
medians of BENCH_RUNS (default 3) rounds, the four runs of a program alternating within a
round:

alone    the program by itself;
exec     under `gpuprof exec` (the default metrics, --replay=auto);
source   under `gpuprof exec --source`: the same, and one patched launch of each kernel;
ncu      under `ncu --section SourceCounters --clock-control none`: every launch, as ncu
         profiles by default.

Printed last: what --source adds to plain exec, what exec --source and ncu each add to the
program alone, and their ratio, (exec --source - alone) / (ncu - alone), against the issue's
target: exec --source adds at most 1/10 of what ncu --section SourceCounters adds. Both exec
runs write their JSON report (into $BENCH_OUT, default bench-out/), and the --source run's
views with lines are counted, so that a --source that patched nothing cannot pass for cheap.
Without ncu (PATH or CUDA_HOME/bin) the ncu column and the ratio are left out.

`--programs=copy,streams` runs some of the programs (PROGRAMS); `--list` prints the commands
and runs nothing."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from common import BIN, BUILD, OUT, out_path, table, verdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lib"))
from memory_paths import ncu_path  # noqa: E402

APPS = os.path.join(BUILD, "tests", "apps")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
CUDA_HOME = os.environ.get("CUDA_HOME", "/usr/local/cuda")
TARGET = 0.10
# (name, program and arguments): a bandwidth-bound pair of kernels launched 20 times each, and
# four kernels on four streams (in place, one through shared memory) launched 10 times each;
# no graphs (--source patches direct launches).
PROGRAMS = (
    ("copy", ["copy", "both", "2^24", "20"]),
    ("streams", ["streams", "10"]),
)
RUN_KINDS = ("alone", "exec", "source", "ncu")


def app(args):
    return [os.path.join(APPS, args[0])] + list(args[1:])


def argv_of(kind, name, args, ncu, round_no):
    """The command line of one run; exec runs write their report as JSON into BENCH_OUT."""
    if kind == "alone":
        return app(args)
    if kind == "ncu":
        return [ncu, "--section", "SourceCounters", "--clock-control", "none"] + app(args)
    report = os.path.join(OUT, "%s-%s-%d.json" % (kind, name, round_no))
    source = ["--source"] if kind == "source" else []
    return [BIN, "exec", "--json", "--force", "--output=" + report] + source + ["--"] + \
        app(args)


def wall(argv, log):
    """Seconds the command took; its output kept in BENCH_OUT/log; exits on a failure."""
    t = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True, timeout=1800)
    seconds = time.monotonic() - t
    with open(out_path(log), "w") as f:
        f.write(p.stdout + p.stderr)
    if p.returncode != 0:
        raise SystemExit("%s failed (exit %d): %s" % (" ".join(argv), p.returncode,
                                                      p.stderr[-500:]))
    return seconds


def views_with_lines(path):
    """(kernels with a view that has lines, kernels) of an exec --source report."""
    with open(path) as f:
        doc = json.load(f)
    views = doc["exec"].get("source_lines") or []
    kernels = {l.get("mangled") or l["kernel"] for l in doc["exec"]["launches"]}
    return len({v["kernel"] for v in views if v["has_lines"] and v["launch"] is not None}), \
        len(kernels)


def measure(name, args, ncu):
    """{kind: median seconds} of the program, and its views with lines."""
    kinds = [k for k in RUN_KINDS if k != "ncu" or ncu]
    times = {k: [] for k in kinds}
    os.makedirs(OUT, exist_ok=True)  # exec's --output must name an existing folder
    for r in range(RUNS):
        for kind in kinds:
            times[kind].append(wall(argv_of(kind, name, args, ncu, r),
                                    "%s-%s-%d.log" % (kind, name, r)))
    views = views_with_lines(out_path("source-%s-%d.json" % (name, RUNS - 1)))
    return {k: statistics.median(v) for k, v in times.items()}, views


def summary(results):
    """The table's rows and the closing lines, from [(name, args, {kind: seconds}, (views,
    kernels))]: what --source adds to exec and to the program alone, what ncu adds, and the
    ratio of the two additions per program and over all programs."""
    rows, lines = [], []
    total_source = total_ncu = 0.0
    for name, args, t, (views, kernels) in results:
        source_added = t["source"] - t["alone"]
        ncu_added = t["ncu"] - t["alone"] if "ncu" in t else None
        ratio = source_added / ncu_added if ncu_added and ncu_added > 0 else None
        total_source += source_added
        total_ncu += ncu_added if ncu_added is not None else 0.0
        rows.append([" ".join(args), "%.2f" % t["alone"], "%.2f" % t["exec"],
                     "%.2f" % t["source"], "%.2f" % t["ncu"] if "ncu" in t else "-",
                     "%+.2f" % (t["source"] - t["exec"]), "%.2f" % source_added,
                     "%.2f" % ncu_added if ncu_added is not None else "-",
                     "%.3f" % ratio if ratio is not None else "-",
                     "%d/%d" % (views, kernels)])
    if all("ncu" in r[2] for r in results) and total_ncu > 0:
        lines.append("all programs: (exec --source - alone) / (ncu --section SourceCounters - "
                     "alone) = %s" % verdict(total_source / total_ncu, TARGET, False))
    else:
        lines.append("no ratio: ncu not found on PATH or in %s/bin" % CUDA_HOME)
    return rows, lines


HEADERS = ["program", "alone", "exec", "exec --source", "ncu", "--source over exec",
           "source added", "ncu added", "ratio", "views"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", default=",".join(n for n, _ in PROGRAMS),
                        help="comma-separated, of: %s" % ", ".join(n for n, _ in PROGRAMS))
    parser.add_argument("--list", action="store_true",
                        help="print the commands of one round and run nothing")
    opts = parser.parse_args()
    names = [n for n in opts.programs.split(",") if n]
    known = dict(PROGRAMS)
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        parser.error("--programs: unknown %s (known: %s)" % (", ".join(unknown) or "(none)",
                                                              ", ".join(known)))
    ncu = ncu_path()
    if opts.list:
        for name in names:
            for kind in RUN_KINDS:
                if kind != "ncu" or ncu:
                    print(" ".join(argv_of(kind, name, known[name], ncu, 0)))
        if not ncu:
            print("# ncu not found on PATH or in %s/bin: no ncu runs" % CUDA_HOME)
        return 0
    missing = [p for p in [BIN] + [app(known[n])[0] for n in names] if not os.path.exists(p)]
    if missing:
        raise SystemExit("not built: %s (make all apps)" % " ".join(missing))
    results = []
    for name in names:
        t, views = measure(name, known[name], ncu)
        results.append((name, known[name], t, views))
    rows, lines = summary(results)
    print("\nexec --source against ncu --section SourceCounters (every launch), wall time (s), "
          "medians of %d rounds; views: kernels with lines / kernels:" % RUNS)
    table(HEADERS, rows)
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
