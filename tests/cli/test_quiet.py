#!/usr/bin/env python3
"""Quieter reports (issue 37): a metric note once per kernel, naming the option that shows
more, not under every metric it is about; exec's text header two lines at most, the detail
kept in the legend under the summary; a warning a report holds several times printed once,
with its count."""
import glob
import json
import os
import tempfile

import tap
from gpuprof import run
from test_text import load, write

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
INPUTS = os.path.join(ROOT, "tests", "golden", "inputs")
NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}
NOTE = ("loads via cp.async (LDGSTS) are not counted here: --metrics=async counts them "
        "(cp_async_*)")
NOTED = ["gld_transactions_per_request", "gld_efficiency"]




def fixture(name):
    return load(os.path.join(FIXTURES, name))


def blocks(out, head):
    """The lines of each block that starts with `head`, up to the next such block."""
    found, current = [], None
    for line in out.splitlines():
        if line.startswith(head):
            current = []
            found.append(current)
        elif current is not None:
            current.append(line)
    return found


def test_notes_once(tmp):
    rc, out, _ = run("report", os.path.join(INPUTS, "notes.json"), "--metrics-detail",
                     env=NO_GPU)
    kernels = blocks(out, "Kernel: ")
    tap.ok(rc == 0 and kernels and all(sum("cp.async" in l for l in k) == 1 for k in kernels),
           "--metrics-detail: the cp.async note once per kernel (%d kernels)" % len(kernels),
           out)
    words = " ".join(out.split())
    tap.ok("gld_efficiency, gld_throughput, gld_transactions_per_request: loads via cp.async"
           in words and "--metrics=async counts them" in words,
           "the note names the metrics it is about and the option that shows more", out)
    doc = fixture("exec-auto.json")
    for launch in doc["exec"]["launches"]:
        for key in NOTED:
            if launch["metrics"] and key in launch["metrics"]:
                launch["metrics"][key]["note"] = NOTE
    noted = write(tmp, "noted.json", doc)
    rc, out, _ = run("report", noted, env=NO_GPU)
    words = " ".join(out.split())
    tap.ok(rc == 0 and words.count("loads via cp.async") == 1 and
           "* #1, #2 %s: loads via cp.async" % ", ".join(NOTED) in words,
           "exec: the note once under the metric table, naming its kernels and metrics", out)
    rc, out, _ = run("report", noted, "--metrics-detail", env=NO_GPU)
    kernels = blocks(out, "Kernel #")
    tap.ok(rc == 0 and len(kernels) == 2 and
           all(sum("cp.async" in l for l in k) == 1 for k in kernels) and
           "* %s: loads via cp.async" % ", ".join(NOTED) in " ".join(out.split()),
           "exec --metrics-detail: the note once under each kernel's metric rows, naming its "
           "metrics", out)


def test_header():
    reports = sorted(glob.glob(os.path.join(FIXTURES, "exec-*.json")) +
                     glob.glob(os.path.join(INPUTS, "exec-*.json")))
    for path in reports:
        rc, out, _ = run("report", path, env=NO_GPU)
        header = out.split("\n\n")[0].splitlines()
        name = os.path.basename(path)
        # The program's line, continued on lines indented by two where its command line is
        # long, then the GPUs and the metrics.
        program = " ".join(l.strip() for l in header[:-1])
        tap.ok(rc == 0 and len(header) >= 2 and all(len(l) <= 120 for l in header) and
               header[0].startswith("gpuprof ") and
               all(l.startswith("  ") for l in header[1:-1]) and "exit status" in program and
               " launch" in program and header[-1].startswith("GPU ") and
               "; metrics: " in header[-1],
               "%s: the header: the program, then the GPU and the metrics" % name,
               "\n".join(header))
    rc, out, _ = run("report", os.path.join(FIXTURES, "exec-auto.json"), env=NO_GPU)
    words = " ".join(out.split())
    tap.ok("CUPTI range profiler on GH100 (132 SMs), --replay=auto (kernel replay of each "
           "kernel's first launch" in words and "passes: the one-pass groups" in words,
           "the profiler's detail kept, in the legend under the summary", out)


def test_shares():
    """Each share says what it divides by: the summary's of the kernels' time, the GPU
    activities' of all GPU time; a legend under each table says so."""
    rc, out, _ = run("report", os.path.join(FIXTURES, "exec-activities.json"), env=NO_GPU)
    heads = [l.split()[0] for l in out.splitlines() if l.split()[:1] in (["%kernels"], ["%GPU"])]
    tap.ok(rc == 0 and heads == ["%kernels", "%GPU"] and
           "legend: %kernels = each kernel's share of the time of all kernels" in out and
           "legend: %GPU = each row's share of the time of all GPU activities" in out and
           "time%" not in out and "Time(%)" not in out,
           "the two shares headed %kernels and %GPU, each explained under its table", out)


def test_units():
    """One unit rule (issue 37): data moved in decimal units (8388608 bytes are 8.39MB, as
    the GB/s beside them count 10^9 bytes), stated in the legend; capacity binary, as GiB."""
    rc, out, _ = run("report", os.path.join(FIXTURES, "exec-activities.json"), env=NO_GPU)
    memset = [l for l in out.splitlines() if l.endswith("[CUDA memset]")]
    tap.ok(rc == 0 and memset and " 8.39MB " in memset[0] and "MiB" not in out and
           "8.0000MB" not in out and
           "decimal units: 1 MB = 10^6 bytes, 1 GB = 10^9 bytes, GB/s = 10^9 bytes/s" in
           " ".join(out.split()),
           "exec: 8388608 bytes of memsets shown as 8.39MB, the rule in the legend", out)
    rc, out, _ = run("report", os.path.join(FIXTURES, "exec-activities.json"), "--launches",
                     env=NO_GPU)
    tap.ok(rc == 0 and "[CUDA memset] 4.19MB" in out and "1 MB = 10^6 bytes" in out,
           "exec --launches: a copy's bytes decimal, the rule in the legend", out)
    rc, out, _ = run("report", os.path.join(FIXTURES, "reduce-default.json"), env=NO_GPU)
    tap.ok(rc == 0 and "67.1 MB moved at least" in out and "MiB" not in out and
           "1 MB = 10^6 bytes" in out,
           "kernel command: bytes moved in decimal MB, as its GB/s", out)


def test_library_shape():
    """CUB's launch shape (issue 37): not captured, so every view says so alike: - with one
    explanation in text, list and --help, block=- in compare, empty in CSV, null in JSON;
    never 0x0x0 or a block range it does not have."""
    reduce_ = os.path.join(FIXTURES, "reduce-default.json")
    explain = "CUB's own launch shape, not captured"
    rc, out, _ = run("report", reduce_, env=NO_GPU)
    cub = [l for l in out.splitlines() if l.startswith("cub ")]
    tap.ok(rc == 0 and cub and cub[0].split()[1:3] == ["-", "-"] and
           "grid, block -: " + explain in out, "text: - and the explanation", out)
    rc, out, _ = run("list", env=NO_GPU)
    row = [l for l in out.splitlines() if l.split()[:1] == ["cub"]]
    tap.ok(rc == 0 and row and row[0].split()[1:3] == ["-", "-"] and
           "  default, blocks -: " + explain in out.splitlines() and "32..1024" not in row[0],
           "list: cub's default and blocks -, explained under the table", row)
    rc, out, _ = run("reduce", "--help", env=NO_GPU)
    lines = out.splitlines()
    at = [i for i, l in enumerate(lines) if l.split()[:1] == ["cub"]]
    tap.ok(rc == 0 and at and lines[at[0] + 1].split() == ["blocks", "-"] + ["(CUB's", "own",
                                                                               "launch", "shape,",
                                                                               "not",
                                                                               "captured)"],
           "--help: cub's blocks -, explained, no range", out)
    rc, out, _ = run("compare", reduce_, reduce_, env=NO_GPU)
    tap.ok(rc == 0 and "reduce cub int32 size=16777216 block=-" in out and "0x0x0" not in out,
           "compare: block=-, never 0x0x0", out)
    rc, out, _ = run("report", reduce_, "--csv", env=NO_GPU)
    lines = out.splitlines()
    header = lines[0].split(",") if lines else []
    row = [l.split(",") for l in lines if l.startswith("reduce,cub,")]
    tap.ok(rc == 0 and row and row[0][header.index("grid")] == "" and
           row[0][header.index("block")] == "" and "0x0x0" not in out,
           "csv: cub's grid and block empty", row[:1])
    rc, out, _ = run("report", reduce_, "--json", env=NO_GPU)
    doc = json.loads(out) if rc == 0 else {"results": []}
    res = [r for r in doc["results"] if r["variant"] == "cub"]
    tap.ok(res and res[0]["launch"]["grid"] is None and res[0]["launch"]["block"] is None and
           all(l["block"] is None for l in res[0]["launches"]),
           "json: cub's grid and block null, and its launches'", res[:1])


def test_warnings(tmp):
    doc = fixture("exec-copy.json")
    doc["warnings"] = ["kernel replay failed once"] * 3 + ["another"]
    rc, _, err = run("report", write(tmp, "warned.json", doc), env=NO_GPU)
    lines = err.splitlines()
    tap.ok(rc == 0 and lines == ["gpuprof: warning: kernel replay failed once (3 times)",
                                 "gpuprof: warning: another"],
           "a warning held three times: one line with its count", err)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_notes_once(tmp)
        test_header()
        test_shares()
        test_units()
        test_library_shape()
        test_warnings(tmp)
    tap.done()


if __name__ == "__main__":
    main()
