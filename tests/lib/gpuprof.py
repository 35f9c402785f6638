"""Run the gpuprof binary from tests: exit code, stdout, stderr; what the GPU tests need
first: a GPU, the test programs of tests/apps; and the test tier they run in."""
import csv
import io
import json
import os
import subprocess
import tempfile

import tap

BUILD = os.environ.get("GPUPROF_BUILD", "build")
BIN = os.path.join(BUILD, "gpuprof")
APPS = os.path.join(BUILD, "tests", "apps")

# The test tiers (README.md, Set up). The default tier (`make test`) checks gpuprof on its own.
# The ncu tier (`make test-ncu`: tests/run_tests.py --tier=ncu sets GPUPROF_TEST_NCU=1) adds
# the comparisons with Nsight Compute, the runs that exist only to be compared with it, and
# the job on two GPUs. A suite with such a part asks ncu_tier() before it, or ncu_tier_only()
# first of all; run_tests.py picks the ncu tier's suites by those calls.
NCU_TIER = os.environ.get("GPUPROF_TEST_NCU") == "1"
NCU_SKIP = "ncu comparisons: make test-ncu"


def as_typed(path):
    """A file's path as a person in the checkout types it: relative to the current folder
    where that is shorter. The text a report prints of its input files (merged reports, rank
    views) then fits the tests' 120 columns wherever the checkout lies."""
    relative = os.path.relpath(path)
    return relative if len(relative) < len(path) else path


def run(*args, env=None, timeout=600):
    """(exit code, stdout, stderr) of `gpuprof args...`."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    p = subprocess.run([BIN] + list(args), capture_output=True, text=True, env=full_env,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def run_json(*args, **kw):
    rc, out, err = run(*args, **kw)
    try:
        doc = json.loads(out) if out.strip() else None
    except ValueError:
        doc = None
    return rc, doc, err


def exec_json(*args, env=None):
    """(exit status, report, the program's and gpuprof's stdout, stderr) of gpuprof exec
    --json --output=FILE ARGS: the report in a file, apart from the program's output; None
    when no report was written or it does not parse."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "report.json")
        full_env = dict(os.environ, **(env or {}))
        p = subprocess.run([BIN, "exec", "--json", "--output=" + path] + list(args),
                           capture_output=True, text=True, env=full_env, timeout=600)
        doc = None
        if os.path.exists(path):
            with open(path) as f:
                try:
                    doc = json.load(f)
                except ValueError:
                    doc = None
        return p.returncode, doc, p.stdout, p.stderr


def ncu_sass_rows(text):
    """(kernel name, offset, row) of each instruction of ncu's SASS source page in CSV
    (--page source --print-source sass --csv): the row as a dict by ncu's column names, the
    offset its address less the first of its kernel's block (one block per profiled launch)."""
    hdr, current, base = None, None, None
    for row in csv.reader(io.StringIO(text)):
        if len(row) >= 2 and row[0] == "Kernel Name":
            current, hdr, base = row[1], None, None
            continue
        if row and row[0] == "Address":
            hdr = row
            continue
        if not hdr or len(row) != len(hdr) or not current:
            continue
        d = dict(zip(hdr, row))
        addr = int(d["Address"], 16)
        base = addr if base is None else base
        yield current, addr - base, d


def has_gpu():
    """(True, '') when a CUDA device is usable, else (False, reason)."""
    rc, _, err = run("device", "--device=0", "--json")
    if rc == 0:
        return True, ""
    return False, (err.strip().splitlines() or ["gpuprof device failed"])[-1]


def app(name):
    """A test program of tests/apps, as `make apps` builds it."""
    return os.path.join(APPS, name)


def require_gpu(*programs, missing="the test programs are not built (make apps)"):
    """Skip the whole script (TAP's plan of zero, exit 0) without a usable GPU, and with
    `missing` as the reason when one of the test programs named is not built."""
    gpu, reason = has_gpu()
    if not gpu:
        tap.skip_all("no GPU: " + reason)
    if not all(os.path.exists(app(p)) for p in programs):
        tap.skip_all(missing)


def ncu_tier(what):
    """Whether the suite's part that runs ncu (or runs only to be compared with it) runs: in
    the ncu tier, yes. Outside it, no, and one TAP skip line names `what`, all of what the
    suite leaves to the ncu tier: a suite asks once, before its ncu part."""
    if not NCU_TIER:
        tap.skip(what, NCU_SKIP)
    return NCU_TIER


def ncu_tier_only(reason=NCU_SKIP):
    """Skip the whole suite (TAP's plan of zero, exit 0) outside the ncu tier: one that is all
    comparisons with ncu, or the job on two GPUs (`reason` then says so)."""
    if not NCU_TIER:
        tap.skip_all(reason)
