#!/usr/bin/env python3
"""Run every test program (unit, cli, gpu), read their TAP, print each failure and one
closing line: `N passed, N failed, N skipped`. Exit 1 when anything failed.

    run_tests.py [BUILD] [--suites=unit,cli,gpu]

The tests need the Python standard library only (tests/cli/test_requirements.py)."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

SUITES = ("unit", "cli", "gpu")


def programs(build, suites):
    unit = os.path.join(build, "tests", "unit_tests")
    if "unit" in suites:
        yield "unit", [unit, os.path.join(HERE, "fixtures")]
    for suite in [s for s in SUITES if s != "unit" and s in suites]:
        folder = os.path.join(HERE, suite)
        for name in sorted(os.listdir(folder)):
            if name.startswith("test_") and name.endswith(".py"):
                yield "%s/%s" % (suite, name), [sys.executable, os.path.join(folder, name)]


def run(name, argv, env, totals):
    print("== %s" % name, flush=True)
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         env=env)
    seen = 0
    plan = None
    failed_here = 0
    for line in p.stdout:
        line = line.rstrip("\n")
        m = re.match(r"^(not ok|ok) \d+ - (.*)$", line)
        if m:
            seen += 1
            if "# SKIP" in m.group(2):
                totals["skipped"] += 1
                print("  skip: " + m.group(2))
            elif m.group(1) == "ok":
                totals["passed"] += 1
            else:
                totals["failed"] += 1
                failed_here += 1
                print("  FAIL: " + m.group(2))
        elif line.startswith("1..0 # SKIP"):
            totals["skipped"] += 1
            print("  skip: whole suite: " + line.split("# SKIP", 1)[1].strip())
            plan = 0
        elif re.match(r"^1\.\.\d+$", line):
            plan = int(line[3:])
        elif line.startswith("#") and failed_here:
            print("  " + line)
    rc = p.wait()
    if plan is None or (plan and plan != seen) or (rc != 0 and failed_here == 0):
        totals["failed"] += 1
        print("  FAIL: %s ended badly (exit %d, %d results, plan %s)" % (name, rc, seen, plan))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--suites=")]
    suites = SUITES
    for a in sys.argv[1:]:
        if a.startswith("--suites="):
            suites = a.split("=", 1)[1].split(",")
    unknown = [s for s in suites if s not in SUITES]
    if unknown or len(args) > 1:
        print("usage: run_tests.py [BUILD] [--suites=%s]" % ",".join(SUITES), file=sys.stderr)
        return 2
    build = os.path.abspath(args[0] if args else "build")
    path = [os.path.join(HERE, "lib")] + [p for p in os.environ.get("PYTHONPATH", "").split(":") if p]
    env = dict(os.environ, GPUPROF_BUILD=build, PYTHONPATH=":".join(path), PYTHONUNBUFFERED="1")
    totals = {"passed": 0, "failed": 0, "skipped": 0}
    for name, argv in programs(build, suites):
        run(name, argv, env, totals)
    print("%d passed, %d failed, %d skipped" % (totals["passed"], totals["failed"],
                                                totals["skipped"]))
    return 1 if totals["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
