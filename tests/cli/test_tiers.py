#!/usr/bin/env python3
"""Without a GPU: the test tiers (tests/lib/gpuprof.py, tests/run_tests.py --tier=ncu). Every
GPU suite that runs ncu is in the ncu tier, and asks ncu_tier() at most once (its one TAP skip
line in the default tier); the suites that are all ncu tier skip whole outside it, saying
`make test-ncu`; run_tests.py --tier=ncu picks exactly the ncu tier's suites (it is not run
here: on a GPU it would run them), and refuses a tier it does not know."""
import glob
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import time

import tap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.abspath(os.environ.get("GPUPROF_BUILD", os.path.join(ROOT, "build")))
RUN_TESTS = os.path.join(ROOT, "tests", "run_tests.py")
# What a suite that runs ncu names: the lookups of ncu, ncu's runs in tests/lib, or ncu as an
# example's launcher.
RUNS_NCU = re.compile(r'ncu_path\(|which\("ncu"\)|run_ncu\(|ncu_runs=|"ncu"')
ASKS = re.compile(r"\bncu_tier\(")
# The suites that belong to the ncu tier whole.
WHOLE = ("test_graph_ncu.py", "test_ddp.py")


def load_run_tests():
    spec = importlib.util.spec_from_file_location("run_tests", RUN_TESTS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def suites():
    """{file name: text} of the GPU suites."""
    out = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "gpu", "test_*.py"))):
        with open(path) as f:
            out[os.path.basename(path)] = f.read()
    return out


def test_marks(texts, run_tests):
    tier = {name for name in texts
            if run_tests.in_ncu_tier([os.path.join(ROOT, "tests", "gpu", name)])}
    runs_ncu = {name for name, text in texts.items() if RUNS_NCU.search(text)}
    tap.ok(runs_ncu and runs_ncu <= tier,
           "every GPU suite that runs ncu is in the ncu tier (%d of %d)"
           % (len(runs_ncu), len(tier)), sorted(runs_ncu - tier))
    tap.ok(set(WHOLE) <= tier, "%s are in the ncu tier" % " and ".join(WHOLE))
    twice = [name for name, text in texts.items() if len(ASKS.findall(text)) > 1]
    tap.ok(not twice, "each suite asks ncu_tier() once at most: one skip line outside the tier",
           twice)
    return tier


def test_whole_suites():
    env = {k: v for k, v in os.environ.items() if k != "GPUPROF_TEST_NCU"}
    env.update(GPUPROF_BUILD=BUILD, PYTHONPATH=os.path.join(ROOT, "tests", "lib"))
    for name in WHOLE:
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gpu", name)],
                           capture_output=True, text=True, env=env, timeout=120)
        tap.ok(p.returncode == 0 and re.match(r"1\.\.0 # SKIP .*: make test-ncu$", p.stdout),
               "%s outside the ncu tier: a plan of zero, the reason naming make test-ncu" % name,
               p.stdout + p.stderr)


def test_run_tests(run_tests, texts, tier):
    picked = {os.path.basename(n) for n, _ in run_tests.selected(BUILD, ("gpu",), "ncu")}
    tap.ok(picked == tier, "run_tests.py --tier=ncu picks the ncu tier's suites, only them "
           "(%d)" % len(picked), sorted(picked ^ tier))
    everything = run_tests.selected(BUILD, run_tests.SUITES, "default")
    tap.ok({os.path.basename(n) for n, _ in everything if n.startswith("gpu/")} == set(texts)
           and any(n.startswith("cli/") for n, _ in everything) and
           any(n == "unit" for n, _ in everything),
           "the default tier picks every suite: unit, command-line and GPU")
    q = subprocess.run([sys.executable, RUN_TESTS, BUILD, "--tier=fast"], capture_output=True,
                       text=True, timeout=60)
    tap.ok(q.returncode == 2 and "--tier=default|ncu" in q.stderr,
           "run_tests.py --tier=fast: the usage, exit 2", q.stderr)


def test_skip_reasons(run_tests):
    """A reason many suites skip for is printed once, with their count and names."""
    why = "no GPU: gpuprof: no usable CUDA device"
    lines = [["== gpu/test_%s.py" % n, "  skip: whole suite: " + why] for n in ("a", "b", "c")]
    lines.append(["== gpu/test_d.py", "  skip: whole suite: ncu comparisons: make test-ncu"])
    tap.ok(run_tests.whole_skip(["== gpu/test_e.py", "  skip: one case # SKIP why"]) is None and
           run_tests.whole_skip(["== gpu/test_f.py", "  skip: whole suite: " + why,
                                 "  FAIL: x"]) is None and
           run_tests.whole_skip(lines[0]) == why,
           "only a report of one whole-suite skip line counts as a suite skipped whole")
    out = run_tests.whole_skip_lines([(l[0][3:], run_tests.whole_skip(l)) for l in lines],
                                     width=40)
    joined = "\n".join(out)
    tap.ok(joined.count(why) == 1 and out[0] == "== skipped whole, 3 suites: " + why and
           all(n in joined for n in ("gpu/test_a.py", "gpu/test_b.py", "gpu/test_c.py")) and
           "== skipped whole, 1 suite: ncu comparisons: make test-ncu" in out and
           all(len(l) <= 40 for l in out[1:] if not l.startswith("==")),
           "each reason once, with its count and its suites' names wrapped", joined)


def test_gpu_jobs(run_tests):
    """--gpu-jobs=N runs the GPU programs N at a time, each told the one lock file through
    which its gpuprof runs take turns with the counters; reports stay in order."""
    program = ("import os, sys, time; time.sleep(0.6); "
               "print('1..1'); lock = os.environ.get('GPUPROF_COUNTER_LOCK', ''); "
               "print(('ok' if lock.endswith('counters.lock') else 'not ok') + ' 1 - ' + lock)")
    programs = [("gpu/test_%s.py" % n, [sys.executable, "-c", program]) for n in "abc"]
    reports = []

    def report(lines, counts):
        reports.append((lines[0], counts))

    start = time.monotonic()
    run_tests.run_gpu(programs, dict(os.environ), 3, report)
    took = time.monotonic() - start
    tap.ok([r[0] for r in reports] == ["== gpu/test_a.py", "== gpu/test_b.py", "== gpu/test_c.py"]
           and all(c == {"passed": 1, "failed": 0, "skipped": 0} for _, c in reports),
           "--gpu-jobs=3: every program told the lock file, reports in order", reports)
    tap.ok(took < 1.5, "--gpu-jobs=3: three programs of 0.6 s side by side in %.1f s" % took)
    reports.clear()
    run_tests.run_gpu(programs[:1], {k: v for k, v in os.environ.items()
                                     if k != "GPUPROF_COUNTER_LOCK"}, 1, report)
    tap.ok(reports and reports[0][1]["failed"] == 1,
           "--gpu-jobs=1 (the default): one after the other, no lock file", reports)
    q = subprocess.run([sys.executable, RUN_TESTS, BUILD, "--gpu-jobs=0"], capture_output=True,
                       text=True, timeout=60)
    tap.ok(q.returncode == 2 and "--gpu-jobs=N" in q.stderr,
           "run_tests.py --gpu-jobs=0: the usage, exit 2", q.stderr)


def test_gpu_first(run_tests):
    """Side by side, the longest GPU programs start first (each named in GPU_FIRST exists),
    and the reports keep their order."""
    here = os.path.join(os.path.dirname(RUN_TESTS))
    named = run_tests.GPU_FIRST + run_tests.GPU_ALONE
    missing = [n for n in named if not os.path.exists(os.path.join(here, n))]
    tap.ok(run_tests.GPU_FIRST and run_tests.GPU_ALONE and not missing,
           "GPU_FIRST and GPU_ALONE name GPU suites that exist", missing)
    with tempfile.TemporaryDirectory() as folder:
        order = os.path.join(folder, "order")
        program = ("import sys, time; open(%r, 'a').write(sys.argv[1] + '\\n'); "
                   "time.sleep(0.3); print('1..1'); print('ok 1 - ran')" % order)
        names = ["gpu/test_a.py", "gpu/test_b.py", run_tests.GPU_FIRST[0]]
        programs = [(n, [sys.executable, "-c", program, n]) for n in names]
        reports = []
        run_tests.run_gpu(programs, dict(os.environ), 2, lambda lines, c: reports.append(lines[0]))
        with open(order) as f:
            started = f.read().split()
    # two at a time: the first two started together (either may write first), the third after
    tap.ok(sorted(started[:2]) == sorted([names[2], names[0]]) and started[2:] == [names[1]] and
           reports == ["== " + n for n in names],
           "--gpu-jobs=2: %s started in the first pair, reports in the programs' order"
           % run_tests.GPU_FIRST[0], (started, reports))


def test_gpu_alone(run_tests):
    """Side by side, a program of GPU_ALONE starts only once the others have ended."""
    with tempfile.TemporaryDirectory() as folder:
        order = os.path.join(folder, "order")
        program = ("import sys, time; open(%r, 'a').write('start ' + sys.argv[1] + '\\n'); "
                   "time.sleep(0.3); open(%r, 'a').write('end ' + sys.argv[1] + '\\n'); "
                   "print('1..1'); print('ok 1 - ran')" % (order, order))
        names = ["gpu/test_a.py", run_tests.GPU_ALONE[0], "gpu/test_z.py"]
        programs = [(n, [sys.executable, "-c", program, n]) for n in names]
        reports = []
        run_tests.run_gpu(programs, dict(os.environ), 3, lambda lines, c: reports.append(lines[0]))
        with open(order) as f:
            events = f.read().splitlines()
    alone = events.index("start " + run_tests.GPU_ALONE[0]) if events else -1
    ended = [i for i, e in enumerate(events) if e in ("end " + names[0], "end " + names[2])]
    tap.ok(len(ended) == 2 and alone > max(ended) and reports == ["== " + n for n in names],
           "--gpu-jobs=3: %s alone, after the others ended; reports in order"
           % run_tests.GPU_ALONE[0], (events, reports))


def main():
    texts = suites()
    run_tests = load_run_tests()
    tier = test_marks(texts, run_tests)
    test_whole_suites()
    test_run_tests(run_tests, texts, tier)
    test_skip_reasons(run_tests)
    test_gpu_jobs(run_tests)
    test_gpu_first(run_tests)
    test_gpu_alone(run_tests)
    tap.done()


if __name__ == "__main__":
    main()
