#!/usr/bin/env python3
"""Where a profiled launch's time goes under CUPTI's range profiler (bench/replay_cost.cu,
built by `make bench`): a session per launch, as gpuprof exec profiles counters of several
passes, against one pass around many launches, for the default set (2 passes: kernel
replay) and a set of one pass (user replay: the launch itself is the pass)."""
import os
import subprocess

from common import BUILD, out_path

PROGRAM = os.path.join(BUILD, "bench", "replay_cost")
LAUNCHES = "64"
SETS = ["default", "dram_read_bytes,dram_write_bytes"]


def main():
    if not os.path.exists(PROGRAM):
        raise SystemExit("build it first: make bench (or make %s)" % PROGRAM)
    for metrics in SETS:
        p = subprocess.run([PROGRAM, LAUNCHES, metrics], capture_output=True, text=True,
                           timeout=600)
        with open(out_path("replay-%s.txt" % metrics.split(",")[0]), "w") as f:
            f.write(p.stdout + p.stderr)
        print(p.stdout.rstrip())
        if p.returncode != 0:
            raise SystemExit("replay_cost %s failed (exit %d): %s" % (metrics, p.returncode,
                                                                     p.stderr.strip()))


if __name__ == "__main__":
    main()
