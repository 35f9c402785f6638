"""Shared helpers for the benchmarks: run gpuprof, keep the raw JSON, print tables."""
import json
import os
import subprocess
import sys

BUILD = os.environ.get("GPUPROF_BUILD", "build")
BIN = os.path.join(BUILD, "gpuprof")
OUT = os.environ.get("BENCH_OUT") or "bench-out"


def out_path(name):
    """Where a benchmark keeps its raw output `name`, in OUT (created when missing)."""
    os.makedirs(OUT, exist_ok=True)
    return os.path.join(OUT, name)


def gpuprof_json(*args, save=None):
    p = subprocess.run([BIN] + list(args) + ["--json"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit("gpuprof %s failed (exit %d)" % (" ".join(args), p.returncode))
    if save:
        with open(out_path(save), "w") as f:
            f.write(p.stdout)
    return json.loads(p.stdout)


def device():
    return gpuprof_json("device", "--device=0")["devices"][0]


def table(headers, rows):
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    line = "  ".join("%*s" % (w, h) for w, h in zip(widths, headers))
    print(line)
    for r in rows:
        print("  ".join("%*s" % (w, c) for w, c in zip(widths, r)))


def verdict(value, target, higher_is_better=True):
    ok = value >= target if higher_is_better else value <= target
    return "%.3f (target %s %.2f: %s)" % (value, ">=" if higher_is_better else "<=", target,
                                           "met" if ok else "NOT met")
