#!/usr/bin/env python3
"""What a kernel's later rounds cost (issue 44): under --replay=auto and rotate a signature
(its code and launch shape) collects its counter groups again at its 256th profiled launch
and then every 4 times as many (include/gpuprof/rotation.h), so that instruction counts that
vary with a kernel's arguments are seen. On a GPU, after `make apps`:

round    gpuprof exec --replay=auto on `hold 0 N` (a 4 MiB copy N times): with N = 256 the
         signature has had its first round only, with N = 258 its second too (launch 257
         collects the SASS group, 258 returns to the other): the difference in wall time is
         one round (two changes of group, two launches), medians of RUNS alternating runs;
         the same at 1024 and 1026 for its third round. Printed with what it costs per
         profiled launch at most: a round per 192 launches or more (target: what that adds
         to a launch stays under 5 % of ncu's cost per launch, about 100 ms: 5 ms);
check    the report of N = 258 shows the round: launch 257's passes are the SASS group's.
Raw output goes to $BENCH_OUT."""
import json
import os
import statistics

from bench_exec import RUNS, app, wall
from common import BIN, out_path, table, verdict

PAIRS = ((256, 258), (1024, 1026))
NCU_MS_PER_LAUNCH = 100.0   # ncu's added cost per profiled launch, about (bench/README.md)


def exec_argv(n, log_json=None):
    out = ["--json", "--force", "--output=" + log_json] if log_json else ["--output=/dev/null"]
    return [BIN, "exec", "--replay=auto"] + out + app(["hold", "0", str(n)])


def round_cost(before, after):
    a, b = [], []
    for _ in range(RUNS):
        a.append(wall(exec_argv(before))[0])
        b.append(wall(exec_argv(after))[0])
    return statistics.median(a), statistics.median(b)


def check_round():
    path = out_path("variants-hold-258.json")
    wall(exec_argv(258, path))
    with open(path) as f:
        doc = json.load(f)
    ls = sorted(doc["exec"]["launches"], key=lambda l: l["id"])
    passes = [l.get("passes") for l in ls]
    ok = len(ls) == 258 and passes[256] == [0] and passes[257] == [1]
    print("check: hold 0 258 under auto: launch 257's passes %s, 258's %s: %s" %
          (passes[256] if len(ls) > 256 else None, passes[257] if len(ls) > 257 else None,
           "the second round" if ok else "NOT the second round"))
    return ok


def main():
    rows, worst = [], 0.0
    for before, after in PAIRS:
        a, b = round_cost(before, after)
        ms = 1e3 * (b - a)
        worst = max(worst, ms)
        rows.append(["%d -> %d" % (before, after), "%.3f" % a, "%.3f" % b, "%.1f" % ms])
    print("round: gpuprof exec --replay=auto on hold 0 N, wall seconds, medians of %d "
          "alternating runs:" % RUNS)
    table(["launches", "before", "with the round", "round ms"], rows)
    per_launch = max(worst, 0.0) / 192.0
    print("a round costs at most %.1f ms; one per 192 profiled launches or more adds at most "
          "%s ms per launch" % (worst, verdict(per_launch, 0.05 * NCU_MS_PER_LAUNCH, False)))
    check_round()


if __name__ == "__main__":
    main()
