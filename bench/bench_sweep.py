#!/usr/bin/env python3
"""Sweeps and noise (issue 21).

sweep: `gpuprof transpose --pad=0,1,2 --block=32x8,32x16,16x16 --size=4096x4096` in one
process (24 configurations: smem and smemunroll at 3 blocks x 3 pads, tile at its 2 blocks x
3 pads; the issue counted 18) against the same configurations as one invocation each in a
shell loop (`--variant=V --pad=P --block=B`), wall time of each, best of BENCH_RUNS
(default 3). Target: one process < half the loop.

noise: three back-to-back `gpuprof reduce --size=2^28 --json` runs, compared pairwise with
`gpuprof compare`. Target: nothing flagged; prints the largest change seen, each result's
noise and the threshold used.

    python3 bench/bench_sweep.py [--only=sweep|noise]
"""
import itertools
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, out_path, table, verdict  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
PADS = ["0", "1", "2"]
BLOCKS = ["32x8", "32x16", "16x16"]
SIZE = "4096x4096"


def wall(argv_list):
    """Seconds to run each command line in turn (each must succeed)."""
    start = time.perf_counter()
    for argv in argv_list:
        p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            raise SystemExit("%s failed (exit %d): %s" % (" ".join(argv), p.returncode,
                                                          p.stderr.strip()))
    return time.perf_counter() - start


def one_process():
    return [[BIN, "transpose", "--pad=" + ",".join(PADS), "--block=" + ",".join(BLOCKS),
             "--size=" + SIZE, "--csv"]]


def shell_loop():
    """One invocation per configuration the single process ran."""
    p = subprocess.run(one_process()[0][:-1] + ["--json"], capture_output=True, text=True,
                       check=True)
    loop = []
    for r in json.loads(p.stdout)["results"]:
        block = "%dx%d" % tuple(r["launch"]["block"][:2])
        loop.append([BIN, "transpose", "--variant=" + r["variant"],
                     "--pad=%d" % r["params"]["pad"], "--block=" + block, "--size=" + SIZE,
                     "--csv"])
    return loop


def count_results(argv_list):
    n = 0
    for argv in argv_list:
        p = subprocess.run(argv, capture_output=True, text=True, check=True)
        n += len(p.stdout.splitlines()) - 1
    return n


def bench_sweep():
    print("== sweep: transpose --pad=%s --block=%s --size=%s" % (",".join(PADS), ",".join(BLOCKS),
                                                                SIZE))
    loop_argv = shell_loop()
    n_one, n_loop = count_results(one_process()), count_results(loop_argv)
    one = min(wall(one_process()) for _ in range(RUNS))
    loop = min(wall(loop_argv) for _ in range(RUNS))
    table(["how", "invocations", "results", "wall_s (best of %d)" % RUNS],
          [["one process", 1, n_one, "%.2f" % one],
           ["shell loop", len(loop_argv), n_loop, "%.2f" % loop]])
    print("one process / shell loop = %s" % verdict(one / loop, 0.5, higher_is_better=False))
    return n_one == n_loop and one / loop < 0.5


def compare(a, b):
    p = subprocess.run([BIN, "compare", a, b, "--json"], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise SystemExit("gpuprof compare failed (exit %d): %s" % (p.returncode, p.stderr))
    return json.loads(p.stdout)


def bench_noise():
    print("== noise: three back-to-back runs of reduce --size=2^28, compared pairwise")
    files = []
    for i in range(3):
        path = out_path("noise-run%d.json" % (i + 1))
        with open(path, "w") as f:
            subprocess.run([BIN, "reduce", "--size=2^28", "--json"], stdout=f, check=True)
        files.append(path)
    rows, flagged, largest, threshold = [], 0, 0.0, None
    for a, b in itertools.combinations(range(3), 2):
        doc = compare(files[a], files[b])
        threshold = doc["threshold_pct"]
        flagged += doc["summary"]["slower"] + doc["summary"]["faster"]
        for row in doc["rows"]:
            ch = row["change_pct"]
            if ch is not None and abs(ch) >= abs(largest):
                largest = ch
            rows.append(["%d-%d" % (a + 1, b + 1), row["key"]["variant"],
                         "%.2f" % row["base"]["noise_pct"], "%.2f" % row["new"]["noise_pct"],
                         "%+.2f" % ch, "%.2f" % row["bound_pct"], row["verdict"]])
    table(["pair", "variant", "noise_a%", "noise_b%", "change%", "bound%", "verdict"], rows)
    print("largest change %+.2f %%, threshold %g %%, flagged %d (target: 0)" % (largest,
                                                                             threshold, flagged))
    return flagged == 0


def main():
    only = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--only=")), None)
    ok = True
    if only in (None, "sweep"):
        ok &= bench_sweep()
    if only in (None, "noise"):
        ok &= bench_noise()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
