#!/usr/bin/env python3
"""What gpuprof exec's activity records cost a program: copies, memsets and kernels are
always recorded (no replay), so `exec --metrics=none` on `activities COUNT` (tests/apps: COUNT
activities, a 256-byte HtoD copy and a tiny launch in turn) against the program alone, at
10,000 and 100,000 activities, medians of RUNS alternating runs. The difference's slope is
the cost per activity (target <= 5 us, issue 28), the rest exec's fixed start-up; the report
of one run is checked to hold every copy and launch.

    bench_activities.py [--runs=N]       (default $BENCH_RUNS or 5)

Raw output (the checked report) goes to $BENCH_OUT."""
import argparse
import json
import os
import statistics
import subprocess
import time

from common import BIN, BUILD, out_path, table, verdict

APP = os.path.join(BUILD, "tests", "apps", "activities")
COUNTS = (10000, 100000)
TARGET_US = 5.0


def wall(argv):
    t = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True, timeout=1800)
    seconds = time.monotonic() - t
    if p.returncode != 0:
        raise SystemExit("%s failed (exit %d): %s" % (" ".join(argv), p.returncode,
                                                      p.stderr[-500:]))
    return seconds


def check_report(count):
    """One run's report holds count/2 HtoD copies and count/2 launches."""
    path = out_path("activities-%d.json" % count)
    wall([BIN, "exec", "--metrics=none", "--json", "--force", "--output=" + path, APP, str(count)])
    with open(path) as f:
        doc = json.load(f)
    copies = [a for a in doc["exec"].get("activities", []) if a["kind"] == "memcpy HtoD"]
    launches = doc["exec"]["launches"]
    if len(copies) != count // 2 or len(launches) != count // 2:
        raise SystemExit("activities %d: the report holds %d HtoD copies and %d launches, "
                         "expected %d of each" % (count, len(copies), len(launches), count // 2))


def measure(runs):
    rows, added = [], {}
    for count in COUNTS:
        alone, timed = [], []
        for _ in range(runs):  # alternating, so drift hits both alike
            alone.append(wall([APP, str(count)]))
            timed.append(wall([BIN, "exec", "--metrics=none", "--output=/dev/null", APP,
                               str(count)]))
        a, t = statistics.median(alone), statistics.median(timed)
        added[count] = t - a
        rows.append([count, "%.3f" % a, "%.3f" % t, "%.3f" % added[count],
                     "%.2f" % (added[count] / count * 1e6)])
    return rows, added


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", "5")))
    args = ap.parse_args()
    if not os.path.exists(APP):
        raise SystemExit("%s is not built: make apps" % APP)
    check_report(COUNTS[0])
    rows, added = measure(args.runs)
    print("exec --metrics=none on activities (a 256 B HtoD copy and a 1x32 launch in turn), "
          "wall time (s), medians of %d alternating runs:" % args.runs)
    table(["activities", "alone", "gpuprof exec", "added", "added/activity us"], rows)
    low, high = COUNTS
    per_activity = (added[high] - added[low]) / (high - low) * 1e6
    fixed = added[low] - low * per_activity * 1e-6
    print("added per activity: %s; fixed start-up: %.3f s" % (
        verdict(per_activity, TARGET_US, False).replace("(target", "us (target"), fixed))


if __name__ == "__main__":
    main()
