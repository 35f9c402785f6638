#!/usr/bin/env python3
"""On a GPU: every README and man-page example that needs one (tests/lib/examples.py says
which, and how they run) runs as written: every gpuprof it runs exits 0 (0 or 1 before ||)
and the command exits 0. The commands of a block run in order in one folder, those that need
no GPU too (tests/cli/test_examples.py asserts them), so that a later example finds the files
an earlier one wrote. Known failures are listed, with their reason, in EXPECTED_FAILURES.
The examples that run under ncu or start ranks on two GPUs (torchrun), and their blocks, run
in the ncu tier (make test-ncu). Skips without a GPU."""
import shutil
import subprocess

import examples as ex
import tap
from gpuprof import BUILD, ncu_tier, require_gpu, run_json

# Launchers whose examples start one rank per GPU (two in the examples).
DISTRIBUTED = {"torchrun", "mpirun", "srun"}
# Launchers whose examples belong to the ncu tier, with the rest of their block: ncu, and
# those of two GPUs.
NCU_LAUNCHERS = DISTRIBUTED | {"ncu"}


def gpu_count():
    try:
        p = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return 0
    return sum(1 for line in p.stdout.splitlines() if line.startswith("GPU "))


def main():
    require_gpu()
    rc, doc, err = run_json("list", "--json")
    families = {f["name"] for f in (doc or {}).get("families", [])}
    tap.ok(rc == 0 and families, "gpuprof list --json names the kernel families", err)
    examples, _ = ex.all_examples(families)
    gpu = [e for e in examples if e.gpu]
    tap.ok(len(gpu) >= 10, "examples that need a GPU found: %d" % len(gpu))
    ex.check_expected_failures(tap, examples)
    runner = ex.Runner(BUILD)
    path = runner.path()
    gpus = gpu_count()
    skipped_blocks = set()  # a block whose distributed example cannot run: its files are missing
    ncu_blocks = {e.block for e in gpu if ex.outer_program(e) in NCU_LAUNCHERS}
    if ncu_blocks and not ncu_tier("the examples run under ncu or on two GPUs, and the rest of "
                                   "their blocks (%d)" % sum(e.block in ncu_blocks
                                                             for e in examples)):
        examples = [e for e in examples if e.block not in ncu_blocks]
    for e in examples:
        description = "%s: %s" % (e.where, e.key)
        if e.block in skipped_blocks:
            tap.skip(description, "it reads what a distributed example before it writes")
            continue
        if ex.outer_program(e) in DISTRIBUTED and gpus < 2:
            tap.skip(description, "it runs two ranks: %d GPU(s) here" % gpus)
            skipped_blocks.add(e.block)
            continue
        if not e.gpu:
            if any(g.block == e.block for g in gpu):
                runner.run(e)      # what the block's later examples may read
            continue
        outer = ex.outer_program(e)
        if outer and not shutil.which(outer, path=path):
            tap.skip(description, "%s is not installed here" % outer)
            continue
        ex.report(tap, e, runner.problems(e, compare_output=False), "runs", description)
        if e.shown is not None:
            tap.skip(description + ": prints the output shown",
                     "a run's times differ from the README's; its layout is held by the "
                     "fixture examples of tests/cli/test_examples.py")
    tap.done()


if __name__ == "__main__":
    main()
