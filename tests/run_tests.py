#!/usr/bin/env python3
"""Run the test programs (unit, cli, gpu) of a tier, read their TAP, print each failure and
one closing line: `N passed, N failed, N skipped`. Exit 1 when anything failed.

    run_tests.py [BUILD] [--suites=unit,cli,gpu] [--jobs=N] [--gpu-jobs=N] [--tier=ncu]

The test programs run side by side, N at a time (default: one per CPU this process may use),
each program's report printed whole, in the order below (a suite skipped whole prints no
report of its own: the reasons close the run, each once with its suites); but with a usable GPU the GPU
programs run one after the other, after the rest (they share the GPU and time things), and
the programs of tests/apps must be built (make apps): one missing is a failure.
--gpu-jobs=N (default 1) runs N GPU programs side by side instead, every gpuprof among them
taking turns with the GPU's counters through one lock file (GPUPROF_COUNTER_LOCK, man gpuprof):
what does not profile (the programs' start, CUDA contexts, PyTorch's compilation, the checks)
overlaps. Their timings share the GPU then; use it to measure, not for timing tests. The
programs that measure the whole device (GPU_ALONE: PM sampling) still run alone, after the rest.

Two tiers. The default (make test) runs every program, each GPU suite skipping its
comparisons with ncu in one line (GPUPROF_TEST_NCU=1 in the environment runs them too).
--tier=ncu (make test-ncu) runs only the GPU suites that call ncu_tier() or ncu_tier_only()
(tests/lib/gpuprof.py), with GPUPROF_TEST_NCU=1: whole, their comparisons with ncu and the
job on two GPUs included; it needs ncu, and two GPUs for that job.

The tests need the Python standard library only (tests/cli/test_requirements.py)."""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

SUITES = ("unit", "cli", "gpu")
TIERS = ("default", "ncu")
# How a suite says it has a part in the ncu tier: it calls one of these (tests/lib/gpuprof.py).
NCU_PART = re.compile(r"\bncu_tier(_only)?\(")
# The longest programs (5 to 8 s each on two cores), started first so that the run does not
# end on one of them alone. Only the order they start in: reports keep theirs.
FIRST = ("cli/test_cli.py", "cli/test_schema.py", "cli/test_golden.py", "cli/test_text.py")
# The longest GPU programs (alone on an H200: 125, 76, 55, 53, 44, 42 and 38 s), started first
# when they run side by side (--gpu-jobs), for the same reason.
GPU_FIRST = ("gpu/test_variants.py", "gpu/test_graphs.py", "gpu/test_contexts.py",
             "gpu/test_examples.py", "gpu/test_exec_source.py", "gpu/test_exec.py",
             "gpu/test_replay.py")
# GPU programs that measure the whole device, and so run alone after the others even with
# --gpu-jobs: PM sampling counts every process's DRAM traffic (beside 3 other suites on an
# H200, a window of 268 MB read 7.2 GB).
GPU_ALONE = ("gpu/test_pm_sampler.py",)


def programs(build, suites):
    unit = os.path.join(build, "tests", "unit_tests")
    if "unit" in suites:
        yield "unit", [unit, os.path.join(HERE, "fixtures")]
    for suite in [s for s in SUITES if s != "unit" and s in suites]:
        folder = os.path.join(HERE, suite)
        for name in sorted(os.listdir(folder)):
            if name.startswith("test_") and name.endswith(".py"):
                yield "%s/%s" % (suite, name), [sys.executable, os.path.join(folder, name)]


def in_ncu_tier(argv):
    """Whether the test program (a Python suite's argv) has a part in the ncu tier."""
    if not argv[-1].endswith(".py"):
        return False
    with open(argv[-1]) as f:
        return bool(NCU_PART.search(f.read()))


def selected(build, suites, tier):
    """The test programs of `suites` that `tier` runs: every one in the default tier, the GPU
    suites with a part in the ncu tier in that tier."""
    return [(n, a) for n, a in programs(build, suites)
            if tier == "default" or (n.startswith("gpu/") and in_ncu_tier(a))]


def run(name, argv, env):
    """Run one test program: (its report's lines, {"passed": n, "failed": n, "skipped": n})."""
    out = ["== %s" % name]
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    try:
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             env=env)
    except OSError as e:
        counts["failed"] += 1
        out.append("  FAIL: %s could not start (%s)" % (name, e))
        return out, counts
    seen = 0
    plan = None
    failed_here = 0
    for line in p.stdout:
        line = line.rstrip("\n")
        m = re.match(r"^(not ok|ok) \d+ - (.*)$", line)
        if m:
            seen += 1
            if "# SKIP" in m.group(2):
                counts["skipped"] += 1
                out.append("  skip: " + m.group(2))
            elif m.group(1) == "ok":
                counts["passed"] += 1
            else:
                counts["failed"] += 1
                failed_here += 1
                out.append("  FAIL: " + m.group(2))
        elif line.startswith("1..0 # SKIP"):
            counts["skipped"] += 1
            out.append("  skip: whole suite: " + line.split("# SKIP", 1)[1].strip())
            plan = 0
        elif re.match(r"^1\.\.\d+$", line):
            plan = int(line[3:])
        elif line.startswith("#") and failed_here:
            out.append("  " + line)
    rc = p.wait()
    if plan is None or (plan and plan != seen) or (rc != 0 and failed_here == 0):
        counts["failed"] += 1
        out.append("  FAIL: %s ended badly (exit %d, %d results, plan %s)"
                   % (name, rc, seen, plan))
    return out, counts


def whole_skip(lines):
    """The reason a suite's report gives for skipping whole, or None."""
    skips = [l for l in lines[1:] if l.startswith("  skip: whole suite: ")]
    return skips[0][len("  skip: whole suite: "):] if len(lines) == 2 and skips else None


def whole_skip_lines(skipped, width=100):
    """Each reason of the suites skipped whole, once, with their count and names:
    skipped is [(suite name, reason)] in the order they ran."""
    reasons = {}
    for name, reason in skipped:
        reasons.setdefault(reason, []).append(name)
    out = []
    for reason, names in reasons.items():
        out.append("== skipped whole, %d suite%s: %s"
                   % (len(names), "" if len(names) == 1 else "s", reason))
        line = " "
        for name in names:
            if len(line) + 1 + len(name) > width and line.strip():
                out.append(line)
                line = " "
            line += " " + name
        out.append(line)
    return out


def run_gpu(programs, env, jobs, report):
    """The GPU programs one after the other, or `jobs` side by side taking turns with the
    counters through a lock file, the longest first and GPU_ALONE's after the rest, one by
    one; each report printed whole, in their order."""
    if jobs == 1:
        for name, argv in programs:
            report(*run(name, argv, env))
        return
    shared = sorted([p for p in programs if p[0] not in GPU_ALONE],
                    key=lambda p: GPU_FIRST.index(p[0]) if p[0] in GPU_FIRST else len(GPU_FIRST))
    with tempfile.TemporaryDirectory(prefix="gpuprof-tests-") as folder:
        env = dict(env, GPUPROF_COUNTER_LOCK=os.path.join(folder, "counters.lock"))
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            running = {name: pool.submit(run, name, argv, env) for name, argv in shared}
            for name, argv in programs:
                if name in running:
                    report(*running[name].result())
                else:
                    concurrent.futures.wait(running.values())
                    report(*run(name, argv, env))


def usable_gpu(build, env):
    """Whether gpuprof finds a usable GPU, as tests/lib/gpuprof.py's has_gpu decides."""
    try:
        p = subprocess.run([os.path.join(build, "gpuprof"), "device", "--device=0", "--json"],
                           capture_output=True, env=env, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0


def missing_programs(build):
    """A failure's lines when programs of tests/apps are not built, else []: with a GPU, the
    GPU tests must not pass for want of them. Each tests/apps/NAME.cu builds
    BUILD/tests/apps/NAME, each NAME.sh a copy."""
    sources = os.listdir(os.path.join(HERE, "apps"))
    names = sorted(n[:-3] if n.endswith(".cu") else n for n in sources
                   if n.endswith((".cu", ".sh")))
    missing = [n for n in names if not os.path.exists(os.path.join(build, "tests", "apps", n))]
    if not missing:
        return []
    return ["== gpu: the test programs",
            "  FAIL: a GPU is usable but %d of tests/apps' programs are not built in %s "
            "(make apps): %s" % (len(missing), os.path.join(build, "tests", "apps"),
                                 " ".join(missing))]


def main():
    args = [a for a in sys.argv[1:]
            if not a.startswith(("--suites=", "--jobs=", "--gpu-jobs=", "--tier="))]
    gpu_jobs = 1
    suites = SUITES
    tier = "default"
    try:
        jobs = len(os.sched_getaffinity(0))
    except AttributeError:
        jobs = os.cpu_count() or 1
    bad = False
    for a in sys.argv[1:]:
        if a.startswith("--suites="):
            suites = a.split("=", 1)[1].split(",")
        elif a.startswith("--jobs="):
            value = a.split("=", 1)[1]
            bad |= not (value.isdigit() and int(value) > 0)
            jobs = int(value) if value.isdigit() else jobs
        elif a.startswith("--gpu-jobs="):
            value = a.split("=", 1)[1]
            bad |= not (value.isdigit() and int(value) > 0)
            gpu_jobs = int(value) if value.isdigit() and int(value) > 0 else gpu_jobs
        elif a.startswith("--tier="):
            tier = a.split("=", 1)[1]
            bad |= tier not in TIERS
    unknown = [s for s in suites if s not in SUITES]
    if unknown or bad or len(args) > 1:
        print("usage: run_tests.py [BUILD] [--suites=%s] [--jobs=N] [--gpu-jobs=N] [--tier=%s]"
              % (",".join(SUITES), "|".join(TIERS)), file=sys.stderr)
        return 2
    build = os.path.abspath(args[0] if args else "build")
    path = [os.path.join(HERE, "lib")] + [p for p in os.environ.get("PYTHONPATH", "").split(":") if p]
    env = dict(os.environ, GPUPROF_BUILD=build, PYTHONPATH=":".join(path), PYTHONUNBUFFERED="1")
    if tier == "ncu":
        env["GPUPROF_TEST_NCU"] = "1"
    totals = {"passed": 0, "failed": 0, "skipped": 0}
    skipped_whole = []

    def report(lines, counts):
        reason = whole_skip(lines)
        if reason is None:
            print("\n".join(lines), flush=True)
        else:
            skipped_whole.append((lines[0][3:], reason))
        for k in totals:
            totals[k] += counts[k]

    # The GPU programs share the GPU and time things: with a usable GPU they run one after
    # the other, after the rest; without one they only skip, side by side with the rest.
    gpu = "gpu" in suites and usable_gpu(build, env)
    everything = selected(build, suites, tier)
    one_by_one = [(n, a) for n, a in everything if gpu and n.startswith("gpu/")]
    side_by_side = [(n, a) for n, a in everything if (n, a) not in one_by_one]
    first = sorted(side_by_side, key=lambda p: FIRST.index(p[0]) if p[0] in FIRST else len(FIRST))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        running = {name: pool.submit(run, name, argv, env) for name, argv in first}
        for name, _ in side_by_side:
            report(*running[name].result())
    missing = missing_programs(build) if gpu else []
    if missing:
        report(missing, {"passed": 0, "failed": 1, "skipped": 0})
    run_gpu(one_by_one, env, gpu_jobs, report)
    if skipped_whole:
        print("\n".join(whole_skip_lines(skipped_whole)))
    print("%d passed, %d failed, %d skipped" % (totals["passed"], totals["failed"],
                                                totals["skipped"]))
    return 1 if totals["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
