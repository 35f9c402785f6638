#!/usr/bin/env python3
"""Merging a distributed job's ranks (issue 38): `gpuprof report` of N per-rank reports, its
wall time and peak memory. CPU only, no GPU needed.

Writes 1,024 synthetic per-rank reports into a temporary folder: each is
tests/fixtures/exec-torch.json (a PyTorch training loop's report, about 0.5 MB, 92 launches
of 24 kernels with long C++ names) with its rank (exec.rank: rank r of 1024, from RANK), its
own pid, and its launches' durations perturbed by up to +-2 % (a pattern of the rank and
kernel), one rank (RANK_SLOW) 30 % slower on every kernel. Then runs `gpuprof report` on the
first 16, 64, 256 and 1,024 of them, each run in a process of its own, and reads the run's
wall time and peak resident memory (ru_maxrss of that process, from wait4). Prints, per run:
files, seconds, peak MiB, the peak over the peak of `report` on one file (a single report
rendered as it is: the reference) and what it adds to that peak, and the peak over the size
of one report file. Each gpuprof is started by a fresh, small Python whose own peak is the
floor of what it can measure (a child's peak counts the memory of its parent until it runs
gpuprof); it is printed, beside the peak of `gpuprof --version`.

The merge reads one file at a time, folds it into the rank view and frees it before the next:
its memory is one report's (the file's text, its parsed JSON, the report) plus the view's few
numbers per kernel and rank, so the peak must stay flat as the files grow.

    python3 bench/bench_merge_ranks.py [--ranks=16,64,256,1024] [--format=text|json|csv|html]
                                       [--keep=FOLDER]
"""
import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, table  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "tests", "fixtures", "exec-torch.json")
RANK_SLOW = 7


def rank_report(base, rank, world, numbers):
    """The fixture as rank `rank` of `world` would have written it."""
    doc = copy.deepcopy(base)
    e = doc["exec"]
    e["pid"] = 10000 + rank
    e["rank"] = {"rank": rank, "size": world, "from": "RANK"}
    for launch in e["launches"]:
        launch["pid"] = e["pid"]
        if launch["duration_ms"] is None:
            continue
        jitter = 1.0 + 0.01 * (((rank * 31 + numbers[launch["kernel"]] * 7) % 5) - 2)
        slow = 1.3 if rank == RANK_SLOW else 1.0
        launch["duration_ms"] = round(launch["duration_ms"] * jitter * slow, 6)
    return doc


def write_reports(folder, world):
    with open(SOURCE) as f:
        base = json.load(f)
    numbers = {k["kernel"]: k["number"] for k in base["exec"]["kernels"]}
    paths = []
    for rank in range(world):
        path = os.path.join(folder, "r%04d.json" % rank)
        with open(path, "w") as f:
            json.dump(rank_report(base, rank, world, numbers), f, indent=1)
        paths.append(path)
    return paths


# The measurer: a fresh, small Python that starts gpuprof and reads the peak of that process
# alone. A process's peak (ru_maxrss) counts the memory of the process it was forked from until
# it runs gpuprof, so gpuprof is started by this one, not by the benchmark (which holds a
# report in memory): its own peak is the floor of what it can measure, and is printed.
MEASURER = """
import os, sys, time
null = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
start = time.perf_counter()
pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ, file_actions=null)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
with open("/proc/self/status") as f:
    own = next(line.split()[1] for line in f if line.startswith("VmHWM"))
print(os.waitstatus_to_exitcode(status), seconds, usage.ru_maxrss, own)
"""


def measure(args):
    """(exit status, seconds, peak resident KiB of gpuprof, the measurer's own peak KiB) of
    `gpuprof ARGS`, its output discarded."""
    p = subprocess.run([sys.executable, "-I", "-S", "-c", MEASURER, os.path.abspath(BIN)] +
                       args, capture_output=True, text=True, check=True)
    rc, seconds, peak, own = p.stdout.split()
    return int(rc), float(seconds), int(peak), int(own)


def row(files, seconds, peak, one, size):
    return [files, "%.3f" % seconds, "%.1f" % (peak / 1024), "%.2f" % (peak / one),
            "%+.1f" % ((peak - one) / 1024), "%.1f" % (peak * 1024 / size)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ranks", default="16,64,256,1024")
    ap.add_argument("--format", default="text", choices=("text", "json", "csv", "html"))
    ap.add_argument("--keep", help="write the reports into this folder and keep them")
    opts = ap.parse_args()
    counts = [int(n) for n in opts.ranks.split(",")]
    flag = [] if opts.format == "text" else ["--" + opts.format]
    with tempfile.TemporaryDirectory() as tmp:
        folder = opts.keep or tmp
        os.makedirs(folder, exist_ok=True)
        start = time.perf_counter()
        paths = write_reports(folder, max(counts))
        size = os.path.getsize(paths[0])
        print("%d reports of %.2f MB each written in %.1f s (%s); gpuprof report %s" %
              (len(paths), size / 1e6, time.perf_counter() - start, folder,
               opts.format if flag else "(text)"))
        _, _, bare, floor = measure(["--version"])
        rc, seconds, one, _ = measure(["report"] + paths[:1] + flag)
        if rc != 0:
            raise SystemExit("gpuprof report of one file failed (exit %d)" % rc)
        rows = [row("1 (as it is)", seconds, one, one, size)]
        for n in counts:
            rc, seconds, peak, _ = measure(["report"] + paths[:n] + flag)
            if rc != 0:
                raise SystemExit("gpuprof report of %d files failed (exit %d)" % (n, rc))
            rows.append(row(str(n), seconds, peak, one, size))
    print()
    table(["files", "seconds", "peak MiB", "peak / one file's", "over one file's, MiB",
           "peak / report size"], rows)
    print("\none report file: %.2f MB. gpuprof --version peaks at %.1f MiB as measured here, "
          "the measurer's own peak being %.1f MiB: the least it can see" %
          (size / 1e6, bare / 1024, floor / 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main())
