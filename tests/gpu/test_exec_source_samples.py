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
  MatrixMulCUDA<32>: at least six third-party kernels agree. In the ncu tier (make test-ncu)
  only.
With GPUPROF_TEST_KEEP=FOLDER, every report and ncu output is kept there."""
import os
import tempfile

import tap
from gpuprof import BUILD, ncu_tier, require_gpu
from memory_paths import ncu_path
from test_exec_source import Exec, against_ncu, instructions_of_line, patch_of, worst_line

SAMPLES = os.path.abspath(os.environ.get("GPUPROF_CUDA_SAMPLES") or
                          os.path.join(BUILD, "third_party", "cuda-samples"))
TRANSPOSE = os.path.join(SAMPLES, "transpose")
MATRIXMUL = os.path.join(SAMPLES, "matrixMul")
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
    tap.done()


if __name__ == "__main__":
    main()
