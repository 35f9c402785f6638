#!/usr/bin/env python3
"""On a GPU: `gpuprof exec --source` on third-party programs, NVIDIA's cuda-samples transpose
and matrixMul built with -lineinfo (issue 36: "third-party kernels built with -lineinfo").
They are not in this repository: `sh tests/third_party/stage-cuda-samples.sh CHECKOUT` builds
them into build/third_party/cuda-samples (GPUPROF_CUDA_SAMPLES=FOLDER: elsewhere); the script
skips, with the reason, where they are not staged.

- transpose: exit 0 and its own check passed under exec --source; transposeNaive's worst line
  holds all of the kernel's excess, its stores 32 sectors per request against an ideal of 4
  and its loads 4 against 4 (the issue's reference: the line
  `odata[index_out + i] = idata[index_in + i * width];`); transposeCoalesced reads its shared
  tile column-wise, more wavefronts than ideal on that line (bank conflicts);
  transposeNoBankConflicts's padded tile, wavefronts equal to the ideal on every line.
- Against ncu's source page, instruction by instruction (tests/gpu/test_exec_source.py's
  comparison: the very launch gpuprof patched): transposeNaive, transposeCoalesced,
  transposeNoBankConflicts, copySharedMem, transposeDiagonal and matrixMul's
  MatrixMulCUDA<32>: at least six third-party kernels agree; and globalToShmemAsyncCopy's
  cp.async kernels (LDGSTS), with the two exceptions test_async_copy_against_ncu names. In
  the ncu tier (make test-ncu) only.
With GPUPROF_TEST_KEEP=FOLDER, every report and ncu output is kept there."""
import csv
import io
import os
import subprocess
import tempfile

import tap
from gpuprof import BUILD, ncu_tier, require_gpu
from memory_paths import ncu_path
from test_exec_source import (Exec, against_ncu, instructions_of_line, ncu_source_page,
                              our_instructions, patch_of, worst_line)

SAMPLES = os.path.abspath(os.environ.get("GPUPROF_CUDA_SAMPLES") or
                          os.path.join(BUILD, "third_party", "cuda-samples"))
TRANSPOSE = os.path.join(SAMPLES, "transpose")
MATRIXMUL = os.path.join(SAMPLES, "matrixMul")
ASYNC_COPY = os.path.join(SAMPLES, "globalToShmemAsyncCopy")
# globalToShmemAsyncCopy's kernels whose global loads are cp.async (LDGSTS) of 16 bytes
# (issue 47: two LDGSTS differed from ncu's source page), by its -kernel=N.
ASYNC_KERNELS = (
    ("0", "MatrixMulAsyncCopyMultiStageLargeChunk<16>"),
    ("1", "MatrixMulAsyncCopyLargeChunk<16>"),
    ("2", "MatrixMulAsyncCopyLargeChunkAWBarrier<16>"),
    ("4", "MatrixMulAsyncCopyMultiStage<16>"),
)
# (program, kernel, ncu's -k): ncu matches the function's name, without its parameters.
AGAINST_NCU = (
    (TRANSPOSE, "transposeNaive", "regex:^transposeNaive$"),
    (TRANSPOSE, "transposeCoalesced", "regex:^transposeCoalesced$"),
    (TRANSPOSE, "transposeNoBankConflicts", "regex:^transposeNoBankConflicts$"),
    (TRANSPOSE, "copySharedMem", "regex:^copySharedMem$"),
    (TRANSPOSE, "transposeDiagonal", "regex:^transposeDiagonal$"),
    (MATRIXMUL, "MatrixMulCUDA<32>", "regex:^MatrixMulCUDA"),
)
AGAINST = "third-party kernels against ncu's source page"


def shared_excess(view):
    return [l for l in view["lines"]
            if l["shared_wavefronts"] > l["shared_ideal_wavefronts"]]


def test_transpose(run):
    tap.ok(run.rc == 0 and "Test passed" in run.out,
           "exec --source transpose (cuda-samples): exit 0, its own check passed", run.diag())
    naive = patch_of(run, "transposeNaive")
    worst = worst_line(naive.view) if naive else None
    if not tap.ok(worst and worst["file"] and worst["file"].endswith("transpose.cu"),
                  "transposeNaive: a view with its transpose.cu lines", naive and naive.view):
        return
    stores = instructions_of_line(naive.view, worst, "global_stores")
    loads = instructions_of_line(naive.view, worst, "global_loads")
    total = sum(l["excess_sectors"] for l in naive.view["lines"])
    tap.ok(worst["excess_sectors"] == total > 0 and stores and loads and
           all(i["sectors"] == 32 * i["global_stores"] and
               i["ideal_sectors"] == 4 * i["global_stores"] for i in stores) and
           all(i["sectors"] == 4 * i["global_loads"] == i["ideal_sectors"] for i in loads),
           "transposeNaive: its worst line (transpose.cu:%s) holds all of the kernel's excess, "
           "its stores 32 sectors per request against an ideal of 4, its loads 4 against 4"
           % worst["line"], (worst, stores[:2], loads[:2]))
    coalesced = patch_of(run, "transposeCoalesced")
    padded = patch_of(run, "transposeNoBankConflicts")
    tap.ok(coalesced and shared_excess(coalesced.view),
           "transposeCoalesced: a line reads its shared tile with more wavefronts than ideal "
           "(bank conflicts)", coalesced and coalesced.view["lines"])
    tap.ok(padded and padded.view["lines"] and
           any(l["shared_wavefronts"] for l in padded.view["lines"]) and
           not shared_excess(padded.view),
           "transposeNoBankConflicts: the padded tile, shared wavefronts equal to the ideal on "
           "every line", padded and padded.view["lines"])


def test_against_ncu(runs):
    """AGAINST_NCU's kernels in `runs` ({program: its Exec}) against ncu's source page."""
    ncu = ncu_path()
    if not ncu:
        tap.skip(AGAINST, "ncu not found on PATH or in CUDA_HOME/bin")
        return
    agreed = sum(against_ncu(ncu, runs[program], program, (), name, pattern,
                             os.path.basename(program))
                 for program, name, pattern in AGAINST_NCU)
    tap.ok(agreed >= 6, "at least six third-party kernels agree with ncu instruction for "
           "instruction (%d)" % agreed)


LDGSTS_SECTORS = "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"


def ncu_counter(ncu, p, program, args, pattern, metric):
    """ncu's value of `metric` for the launch gpuprof patched (Patch `p`), or None."""
    q = subprocess.run([ncu, "--clock-control", "none", "--metrics", metric, "--csv", "-k",
                        pattern, "--launch-skip", str(p.skip), "--launch-count", "1",
                        program] + list(args), capture_output=True, text=True, timeout=300)
    body = "\n".join(l for l in q.stdout.splitlines() if l.startswith('"'))
    for r in csv.DictReader(io.StringIO(body)):
        if r.get("Metric Name") == metric:
            return int(float(r["Metric Value"].replace(",", "")))
    return None


def check_multistage_large_chunk(ncu, p, ours, theirs, args, pattern):
    """MultiStageLargeChunk loads A and B with the same index expression under the same
    condition (the sample's own code: `&B[aStage + wA * threadIdx.y + t4x]`), so its two
    LDGSTS must move the same sectors. ncu's source page gives them different counts, and
    even different ideals (the same threads, the same 16 bytes each), a repeatable 42,360
    sectors (0.1 %) above ncu's own LDGSTS sector counter of the same launch; gpuprof's two
    are equal and add up to that counter exactly (bench/README.md, Per-line view)."""
    # The LDGSTS: the only instructions that both read global memory and write shared.
    pair = sorted(pc for pc, v in ours.items() if v[1] and v[3])
    rest = {pc: v for pc, v in theirs.items() if any(v[1:]) and pc not in pair}
    tap.ok(rest and all(ours.get(pc) == v for pc, v in rest.items()),
           "MultiStageLargeChunk<16>: every memory instruction but its two LDGSTS equals ncu's "
           "source page (%d)" % len(rest),
           [(pc, ours.get(pc), v) for pc, v in rest.items() if ours.get(pc) != v][:5])
    counter = ncu_counter(ncu, p, ASYNC_COPY, args, pattern, LDGSTS_SECTORS)
    tap.ok(len(pair) == 2 and ours[pair[0]] == ours[pair[1]] and
           counter == ours[pair[0]][1] + ours[pair[1]][1],
           "MultiStageLargeChunk<16>: its two LDGSTS (the same addresses, the same threads) "
           "move the same sectors, and they add up to ncu's %s of the same launch (%s)"
           % (LDGSTS_SECTORS, counter), ([(pc, ours[pc], theirs.get(pc)) for pc in pair]))


def test_async_copy_against_ncu(folder):
    """globalToShmemAsyncCopy's cp.async kernels (LDGSTS) against ncu's source page:
    instruction for instruction, but for MultiStageLargeChunk's two LDGSTS (above), and for
    AWBarrier's execution counts, whose barrier wait retries (SYNCS.PHASECHK.TRYWAIT, then a
    back-off on the global timer) run as often as the wait lasts."""
    ncu = ncu_path()
    if not ncu:
        tap.skip("cp.async kernels against ncu's source page", "no ncu")
        return
    if not os.path.exists(ASYNC_COPY):
        tap.skip("cp.async kernels against ncu's source page",
                 "globalToShmemAsyncCopy is not staged in %s" % SAMPLES)
        return
    for number, name in ASYNC_KERNELS:
        args = ("-kernel=" + number,)
        run = Exec(folder, "async%s" % number, (), ASYNC_COPY, args)
        tap.ok(run.rc == 0 and "Result = PASS" in run.out,
               "exec --source globalToShmemAsyncCopy -kernel=%s: exit 0, its own check passed"
               % number, run.diag())
        pattern = "regex:^%s$" % name.split("<")[0]
        if number not in ("0", "2"):
            against_ncu(ncu, run, ASYNC_COPY, args, name, pattern, "globalToShmemAsyncCopy")
            continue
        p = patch_of(run, name)
        if not tap.ok(p and p.launch is not None, "%s has a patched launch" % name, run.diag()):
            continue
        q, theirs = ncu_source_page(ncu, p, ASYNC_COPY, args, name, pattern)
        ours = our_instructions(p)
        if number == "0":
            check_multistage_large_chunk(ncu, p, ours, theirs, args, pattern)
            continue
        moving = {pc: v for pc, v in theirs.items() if any(v[1:])}
        tap.ok(q.returncode == 0 and moving and all(ours.get(pc) == v for pc, v in
                                                  moving.items()),
               "AWBarrier<16>: its %d memory instructions equal ncu's source page" % len(moving),
               [(pc, ours.get(pc), v) for pc, v in moving.items() if ours.get(pc) != v][:5])


def main():
    require_gpu(TRANSPOSE, MATRIXMUL,
                missing="NVIDIA's cuda-samples are not staged in %s (sh "
                        "tests/third_party/stage-cuda-samples.sh CHECKOUT)" % SAMPLES)
    with tempfile.TemporaryDirectory() as folder:
        transpose = Exec(folder, "transpose", (), TRANSPOSE)
        test_transpose(transpose)
        matrixmul = Exec(folder, "matrixMul", (), MATRIXMUL)
        tap.ok(matrixmul.rc == 0 and "Result = PASS" in matrixmul.out,
               "exec --source matrixMul (cuda-samples): exit 0, its own check passed",
               matrixmul.diag())
        if ncu_tier(AGAINST):
            test_against_ncu({TRANSPOSE: transpose, MATRIXMUL: matrixmul})
            test_async_copy_against_ncu(folder)
    tap.done()


if __name__ == "__main__":
    main()
