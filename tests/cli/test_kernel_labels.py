#!/usr/bin/env python3
"""Kernel identity (issue 37): every exec view numbers kernels #1..#N in the summary's order
and names them so that no two share a label, in every text view (120 columns, --wide,
--launches, each --kernel-name style), also once the "#N" is taken off; long names are cut
in the middle, keeping their start and end, never to nothing. A synthetic report from a
fixture holds PyTorch-like names that differ deep in their template arguments, two cuBLAS
names that differ in their tail, and a name with no break point wider than the column."""
import copy
import glob
import json
import os
import re
import tempfile

import tap
from gpuprof import run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
INPUTS = os.path.join(ROOT, "tests", "golden", "inputs")
NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}

MTA = ("void at::native::<unnamed>::multi_tensor_apply_kernel<at::native::<unnamed>::"
       "TensorListMetadata<%d>, at::native::<unnamed>::%s<float, %d, 1, 1>, %s, float>"
       "(at::native::<unnamed>::TensorListMetadata<%d>, at::native::<unnamed>::%s<float, %d, "
       "1, 1>, %s, float)")
PYTORCH = [MTA % (lists, op, depth, fn, lists, op, depth, fn) for lists, op, depth, fn in [
    (2, "BinaryOpListAlphaFunctor", 2, "std::plus<float>"),
    (2, "BinaryOpListAlphaFunctor", 2, "std::minus<float>"),
    (3, "BinaryOpListAlphaFunctor", 2, "std::plus<float>"),
    (2, "BinaryOpScalarFunctor", 2, "std::multiplies<float>"),
    (2, "BinaryOpScalarFunctor", 2, "std::divides<float>"),
    (1, "UnaryOpFunctor", 1, "at::native::<unnamed>::Sqrt<float>"),
    (1, "UnaryOpFunctor", 1, "at::native::<unnamed>::Exp<float>"),
]]
CUBLAS = ["sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_"
          "aligna4_alignc4_execute_kernel__5x_cublas",
          "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_"
          "aligna4_alignc4_execute_kernel__5x_cublas_splitk"]
UNBROKEN = "k" * 150
NAMES = PYTORCH + CUBLAS + [UNBROKEN]

VIEWS = [[], ["--wide"], ["--launches"], ["--launches", "--wide"]] + [
    ["--kernel-name=%s" % s] + extra for s in ("base", "function", "full")
    for extra in ([], ["--launches"], ["--wide"])]

TAGGED = re.compile(r"(?:^Kernel #(\d+): |  #(\d+) )(.*)$")


def synthetic(tmp):
    """exec-auto.json with each launch copied under every name, the times spread."""
    with open(os.path.join(FIXTURES, "exec-auto.json")) as f:
        doc = json.load(f)
    first = doc["exec"]["launches"][0]
    launches = []
    for i, name in enumerate(NAMES):
        for j in range(2):
            l = copy.deepcopy(first)
            l["kernel"], l["mangled"] = name, None
            l["id"] = 100 + 2 * i + j
            l["duration_ms"] = 0.01 * (i + 1)
            launches.append(l)
    doc["exec"]["launches"] = launches
    doc["exec"]["kernels"] = []
    path = os.path.join(tmp, "names.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def blocks(out):
    """The output's paragraphs and tables: runs of lines between blank lines."""
    return [b.splitlines() for b in out.split("\n\n")]


def check_block(name, lines):
    """In one table: each number one label, each label one number, none empty; the rest after
    the number differs too."""
    by_number, by_label = {}, {}
    for line in lines:
        m = TAGGED.search(line)
        if not m:
            continue
        number, label = m.group(1) or m.group(2), m.group(3).strip()
        if not label.strip("…") or label.startswith("Kernel:"):
            return "%s: an empty label: %r" % (name, line)
        if by_number.setdefault(number, label) != label:
            return "%s: #%s shown as %r and %r" % (name, number, by_number[number], label)
        if by_label.setdefault(label, number) != number:
            return "%s: #%s and #%s both %r" % (name, by_label[label], number, label)
    return None


def test_every_view(reports):
    for path in reports:
        for view in VIEWS:
            name = "%s %s" % (os.path.basename(path), " ".join(view))
            rc, out, err = run("report", path, *view, env=NO_GPU)
            tagged = [l for l in out.splitlines() if TAGGED.search(l)]
            problems = [p for p in (check_block(name, b) for b in blocks(out)) if p]
            tap.ok(rc == 0 and tagged and not problems,
                   "%s: %d kernel rows, no two alike, none empty" % (name, len(tagged)),
                   problems[0] if problems else err)


def test_numbers_agree(path):
    """The summary's #N is the metric block's and the activities' for the same kernel."""
    rc, out, _ = run("report", path, "--wide", env=NO_GPU)
    summary = {}
    for line in out.splitlines():
        m = TAGGED.search(line)
        if m and m.group(2):
            summary.setdefault(m.group(3).strip(), m.group(2))
        elif m:
            tap.ok(summary.get(m.group(3).strip()) == m.group(1),
                   "Kernel #%s's block names the summary's #%s" % (m.group(1), m.group(1)))
    numbers = [int(n) for n in summary.values()]
    tap.ok(rc == 0 and numbers == list(range(1, len(numbers) + 1)),
           "%s: kernels numbered #1..#%d, most time first" % (os.path.basename(path),
                                                               len(numbers)), out)


def test_cuts(path):
    rc, out, _ = run("report", path, env=NO_GPU)
    rows = [TAGGED.search(l).group(3) for l in out.splitlines() if TAGGED.search(l)]
    cublas = [r for r in rows if r.startswith("sm80_xmma_gemm_")]
    tap.ok(cublas and all("tilesize128x128x8" in r and "…" in r for r in cublas),
           "cuBLAS names keep their start and tile shape, cut in the middle", "\n".join(rows))
    torch = [r for r in rows if r.startswith("void")]
    tap.ok(len(torch) >= 14 and all("multi_tensor_apply_kernel" in r for r in torch),
           "PyTorch names keep the function's own name", "\n".join(torch))
    unbroken = [r for r in rows if r.startswith("kkkk")]
    tap.ok(unbroken and all(len(r) >= 16 and r.endswith("k") and "…" in r for r in unbroken),
           "a name with no break point is cut in its middle, not to nothing", "\n".join(rows))
    rc, out, _ = run("report", path, "--kernel-name=base", env=NO_GPU)
    base = [TAGGED.search(l).group(3) for l in out.splitlines() if TAGGED.search(l)]
    tap.ok("multi_tensor_apply_kernel" not in base,
           "--kernel-name=base: kernels of one base name shown fuller, not alike",
           "\n".join(base))


def test_merged():
    """A merged report's rows say their file, by the header's index (issue 37)."""
    copy_, synthetic_ = (os.path.join(FIXTURES, "exec-copy.json"),
                         os.path.join(INPUTS, "exec-synthetic.json"))
    for view in ([], ["--launches"]):
        rc, out, _ = run("report", copy_, synthetic_, *view, env=NO_GPU)
        rows = [TAGGED.search(l).group(3) for l in out.splitlines() if TAGGED.search(l)]
        tap.ok(rc == 0 and "  [1] %s" % copy_ in out and "  [2] %s" % synthetic_ in out and
               rows and all(re.match(r"\[[12]\] ", r) for r in rows) and
               all(r.startswith("[1] ") == ("copyCoalesced" in r) for r in rows),
               "merged exec %s: the files listed with their index, each kernel row tagged "
               "with its file's" % " ".join(view), out)
    a, b = (os.path.join(FIXTURES, f) for f in ("reduce-default.json", "reduce-blocks.json"))
    rc, out, _ = run("report", a, b, env=NO_GPU)
    heads = [(b, [l.startswith("variant ") for l in b].index(True)) for b in blocks(out)
             if any(l.startswith("variant ") for l in b)]
    body = [l for b, at in heads for l in b[at + 1:] if not l.startswith(" ")]
    tap.ok(rc == 0 and body and all(re.search(r"^\S+( \S+=\S+)* \[[12]\] ", l) for l in body),
           "merged kernel reports: every result row tagged [1] or [2]", out)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        names = synthetic(tmp)
        reports = sorted(glob.glob(os.path.join(FIXTURES, "exec-*.json")) +
                         glob.glob(os.path.join(INPUTS, "exec-*.json"))) + [names]
        test_every_view(reports)
        test_numbers_agree(names)
        test_numbers_agree(os.path.join(FIXTURES, "exec-graph.json"))
        test_cuts(names)
        test_merged()
    tap.done()


if __name__ == "__main__":
    main()
