#!/usr/bin/env python3
"""On a GPU: --source, the per-line view of the kernel commands (issue 36). The naive transpose
names its store line, whose store instructions take 32 sectors per request against an ideal
of 4; the shared-memory transpose with pad 0 names its shared line with its bank conflict,
gone with pad 1 in 32x32 blocks (in the default 32x16 blocks pad 1 leaves a 2-way conflict:
a warp reads two tile columns, and ncu counts it too); the results
stay checked; JSON holds every line and instruction and reads back; each kernel of KERNELS has
a per-line view; and, in the ncu tier (make test-ncu) with ncu on the PATH, each patched
instruction's executions, global sectors and ideal sectors equal ncu's source page (--section
SourceCounters --page source --print-source sass) for those kernels, instruction for
instruction (instruction-determined: exact). gpuprof and ncu run one after the other, so
gpuprof never holds CUPTI while ncu profiles. Skips without a GPU."""
import json
import os
import shutil
import subprocess
import tempfile

import tap
from gpuprof import BIN, ncu_sass_rows, ncu_tier, require_gpu

# (gpuprof arguments, a regular expression of the kernel ncu profiles, its name in our report)
KERNELS = (
    (["transpose", "--variant=naive"], "naiveGmem", "naiveGmem"),
    (["transpose", "--variant=smem", "--pad=0"], "transposeSmem", "transposeSmem"),
    (["transpose", "--variant=smem", "--pad=1"], "transposeSmem", "transposeSmem"),
    (["transpose", "--variant=tile"], "transposeTile", "transposeTile"),
    (["reduce", "--variant=neighbored"], "reduceNeighbored", "reduceNeighbored"),
    (["reduce", "--variant=interleaved"], "reduceInterleaved", "reduceInterleaved"),
    (["reduce", "--variant=unrollwarps8"], "reduceUnrollWarps8", "reduceUnrollWarps8"),
    (["saxpy"], "saxpy", "saxpy"),
)
FAST = ["--repeat=3", "--warmup=1"]


def gpuprof_json(args, *extra):
    p = subprocess.run([BIN] + list(args) + FAST + list(extra) + ["--json"],
                       capture_output=True, text=True, timeout=600)
    try:
        return p.returncode, json.loads(p.stdout), p.stderr
    except ValueError:
        return p.returncode, None, p.stderr


def kernels_of(doc):
    out = []
    for r in (doc or {}).get("results", []):
        out += r.get("source_lines") or []
    return out


def kernel_named(doc, name):
    for k in kernels_of(doc):
        if name in k["kernel"]:
            return k
    return None


def worst_line(k, key):
    """The line with the most of `key` over its ideal."""
    ideal = {"sectors": "ideal_sectors", "shared_wavefronts": "shared_ideal_wavefronts"}[key]
    return max(k["lines"], key=lambda l: l[key] - l[ideal]) if k and k["lines"] else None


def test_transpose_views():
    rc, doc, err = gpuprof_json(["transpose", "--variant=naive", "--source"])
    k = kernel_named(doc, "naiveGmem")
    line = worst_line(k, "sectors")
    at = k["lines"].index(line) if line else -1
    stores = [i for i in (k or {}).get("instructions", []) if i["line"] == at and
              i["global_stores"]]
    tap.ok(rc == 0 and line and line["file"].endswith("transpose.cu") and stores and
           all(i["sectors"] == 32 * i["global_stores"] and
               i["ideal_sectors"] == 4 * i["global_stores"] for i in stores),
           "transpose naive --source: the worst line holds the store, 32 sectors per request "
           "against an ideal of 4", (err[-500:], line, stores))
    tap.ok(doc and all(r["check"]["status"] == "passed" for r in doc["results"]),
           "transpose naive --source: the result is still right")
    for pad, conflicts in ((0, True), (1, False)):
        rc, doc, err = gpuprof_json(["transpose", "--variant=smem", "--pad=%d" % pad,
                                     "--block=32x32", "--source"])
        k = kernel_named(doc, "transposeSmem")
        line = worst_line(k, "shared_wavefronts")
        shared = (line["shared_loads"] + line["shared_stores"]) if line else 0
        excess = line["shared_wavefronts"] - line["shared_ideal_wavefronts"] if line else -1
        if conflicts:
            ok = rc == 0 and shared and excess > 0 and \
                line["shared_wavefronts"] >= 16 * line["shared_ideal_wavefronts"]
            what = "names the shared-memory line with its bank conflict (wavefronts >= 16x ideal)"
        else:
            ok = rc == 0 and k and all(l["shared_wavefronts"] == l["shared_ideal_wavefronts"]
                                       for l in k["lines"])
            what = "no line has shared wavefronts over the ideal: the conflict is gone"
        tap.ok(ok, "transpose smem --pad=%d --block=32x32 --source: %s" % (pad, what),
               (err[-500:], line))


def test_text_and_report():
    p = subprocess.run([BIN, "transpose", "--variant=naive", "--source", "--sass"] + FAST,
                       capture_output=True, text=True, timeout=600)
    out = p.stdout
    tap.ok(p.returncode == 0 and "where memory moves, by source line" in out and
           "transpose.cu:" in out and "global store" in out and "32.00" in out,
           "transpose naive --source --sass: the text names transpose.cu lines, the store "
           "instructions under them, 32.00 sectors per request", out[-3000:])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "t.json")
        rc, doc, err = gpuprof_json(["transpose", "--variant=naive", "--source"])
        with open(path, "w") as f:
            json.dump(doc, f)
        p = subprocess.run([BIN, "report", path, "--json"], capture_output=True, text=True)
        back = json.loads(p.stdout) if p.returncode == 0 else None
        tap.ok(back and kernels_of(back) == kernels_of(doc) and kernels_of(doc),
               "report --json: the lines and instructions read back whole", p.stderr)


def ncu_instructions(rows_text, kernel):
    """{pc offset: (instructions, sectors, ideal sectors, shared wavefronts, ideal)} from ncu's
    sass source CSV of the
    first profiled kernel whose name contains `kernel`: its addresses less the first."""
    out = {}
    for current, offset, d in ncu_sass_rows(rows_text):
        if kernel not in current:
            continue
        num = lambda k: int(float(d.get(k) or 0)) if d.get(k) not in (None, "-", "") else 0
        out.setdefault(offset, (num("Instructions Executed"),
                                     num("L2 Theoretical Sectors Global"),
                                     num("L2 Theoretical Sectors Global Ideal"),
                                     num("L1 Wavefronts Shared"),
                                     num("L1 Wavefronts Shared Ideal")))
    return out


def test_views():
    """[(args, regex, name, its per-line view)] of the kernels of KERNELS that have one under
    --source --metrics=none (what test_against_ncu sets against ncu)."""
    views = []
    for args, regex, name in KERNELS:
        rc, doc, err = gpuprof_json(args + ["--source", "--metrics=none"])
        k = kernel_named(doc, name)
        if tap.ok(rc == 0 and k, "%s --source: the kernel %s has a per-line view"
                  % (" ".join(args), name), err[-500:]):
            views.append((args, regex, name, k))
    return views


def test_against_ncu(views):
    ncu = shutil.which("ncu")
    if not ncu:
        tap.skip("per-instruction counts against ncu's source page", "ncu not installed")
        return
    compared = 0
    for args, regex, name, k in views:
        p = subprocess.run([ncu, "--clock-control", "none", "--section", "SourceCounters",
                            "--page", "source", "--print-source", "sass", "--csv", "-k",
                            "regex:" + regex, "-c", "1", BIN] + args +
                           ["--metrics=none", "--repeat=1", "--warmup=0"],
                           capture_output=True, text=True, timeout=600)
        theirs = ncu_instructions(p.stdout, regex)
        ours = {i["pc"]: (i["instructions"], i["sectors"], i["ideal_sectors"],
                          i["shared_wavefronts"], i["shared_ideal_wavefronts"])
                for i in k["instructions"]}
        moving = {pc: v for pc, v in theirs.items() if any(v[1:])}
        diff = [(pc, ours.get(pc), v) for pc, v in sorted(moving.items()) if ours.get(pc) != v]
        tap.ok(p.returncode == 0 and moving and not diff,
               "%s: %d memory instructions: executions, global sectors and their ideal, shared "
               "wavefronts and their ideal equal ncu's source page" % (name, len(moving)),
               (p.stderr[-800:], diff[:5]))
        compared += not diff and bool(moving)
    tap.ok(compared >= 6, "at least six kernels agree with ncu instruction for instruction (%d)"
           % compared)


def main():
    require_gpu()
    test_transpose_views()
    test_text_and_report()
    views = test_views()
    if ncu_tier("per-instruction counts against ncu's source page"):
        test_against_ncu(views)
    tap.done()


if __name__ == "__main__":
    main()
