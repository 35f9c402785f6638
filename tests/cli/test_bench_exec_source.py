#!/usr/bin/env python3
"""Without a GPU: bench/bench_exec_source.py (the cost of exec --source against ncu
--section SourceCounters) takes its arguments and prints its commands (--list), refuses an
unknown program, counts a --source report's views with lines (on the recorded-shape
tests/fixtures/exec-source.json), and sums up: what --source adds to exec and to the program
alone, what ncu adds, and the ratio against the issue's 1/10, or no ratio without ncu. Its
programs are built by `make apps`."""
import importlib.util
import os
import subprocess
import sys

import tap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, "bench")
SCRIPT = os.path.join(BENCH, "bench_exec_source.py")


def load_bench():
    """bench/bench_exec_source.py as a module (it imports bench/common.py beside it)."""
    sys.path.insert(0, BENCH)
    spec = importlib.util.spec_from_file_location("bench_exec_source", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(*args):
    p = subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True, text=True,
                       cwd=ROOT, timeout=60)
    return p.returncode, p.stdout, p.stderr


def test_arguments(bench):
    rc, out, err = run("--list", "--programs=copy")
    lines = out.splitlines()
    source = [l for l in lines if " exec " in l and "--source" in l]
    plain = [l for l in lines if " exec " in l and "--source" not in l]
    ncu = [l for l in lines if "--section SourceCounters --clock-control none" in l]
    tap.ok(rc == 0 and len(source) == 1 and len(plain) == 1 and
           source[0].endswith("-- " + os.path.join(bench.APPS, "copy") + " both 2^24 20") and
           (len(ncu) == 1 or "ncu not found" in out) and
           lines[0] == os.path.join(bench.APPS, "copy") + " both 2^24 20",
           "--list --programs=copy: the program alone, under exec, under exec --source and "
           "under ncu --section SourceCounters (or why not)", out + err)
    rc, out, err = run("--programs=copy,nosuch")
    tap.ok(rc == 2 and "unknown nosuch" in err and out == "",
           "--programs with an unknown program: usage error, nothing run", err)


def test_views(bench):
    views, kernels = bench.views_with_lines(os.path.join(ROOT, "tests", "fixtures",
                                                         "exec-source.json"))
    tap.ok((views, kernels) == (1, 4),
           "views_with_lines: the fixture's one kernel with lines of its 4 kernels (a view "
           "without line information and one with only a note do not count)", (views, kernels))


def test_summary(bench):
    t = {"alone": 1.0, "exec": 3.0, "source": 3.5, "ncu": 31.0}
    rows, lines = bench.summary([("copy", ["copy", "both"], t, (2, 2)),
                                 ("streams", ["streams", "10"], dict(t, ncu=21.0), (4, 4))])
    tap.ok(rows[0][5:] == ["+0.50", "2.50", "30.00", "0.083", "2/2"] and
           rows[1][8] == "0.125" and len(rows[0]) == len(bench.HEADERS) and
           lines == ["all programs: (exec --source - alone) / (ncu --section SourceCounters - "
                     "alone) = 0.100 (target <= 0.10: met)"],
           "summary: --source over exec, each tool's addition, the ratio per program and over "
           "all (5.00 / 50.00) against 1/10", (rows, lines))
    rows, lines = bench.summary([("copy", ["copy"], {"alone": 1.0, "exec": 2.0, "source": 2.5},
                                  (2, 2))])
    tap.ok(rows[0][4] == "-" and rows[0][7:9] == ["-", "-"] and lines[0].startswith("no ratio"),
           "summary without ncu: no ncu column, no ratio, and why", (rows, lines))


def test_built_by_make(bench):
    with open(os.path.join(ROOT, "tests", "apps", "apps.mk")) as f:
        mk = f.read()
    programs = [args[0] for _, args in bench.PROGRAMS]
    tap.ok(all(" %s " % p in mk.replace("\\\n", " ").replace("\n", " ") and
               os.path.exists(os.path.join(ROOT, "tests", "apps", p + ".cu")) for p in programs),
           "the benchmark's programs (%s) are in apps.mk's list, with sources"
           % ", ".join(programs))


def main():
    bench = load_bench()
    test_arguments(bench)
    test_views(bench)
    test_summary(bench)
    test_built_by_make(bench)
    tap.done()


if __name__ == "__main__":
    main()
