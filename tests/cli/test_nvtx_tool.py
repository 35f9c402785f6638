#!/usr/bin/env python3
"""Without a GPU: the injected library as NVTX's tool (src/inject/nvtx.c), and the range path
exec --nvtx gives each launch in the JSON report. A program with
NVTX ranges and no CUDA (tests/cli/nvtx_host_check.c) runs without a tool, then with
NVTX_INJECTION64_PATH naming libgpuprof-inject.so: NVTX calls InitializeInjectionNvtx2, and
the library's handlers answer (the levels of pushes and pops, a domain, a start/end id)
where NVTX alone answers "no tracking" (-2). The library links libcuda, which a machine
without a driver lacks: the CUDA toolkit's stub stands in, loaded but never called. A report
whose launches carry ranges validates, reads back with them (gpuprof report --json), and one
with an empty range is refused."""
import json
import ctypes
import os
import subprocess
import tempfile

import tap
from schema import validate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.abspath(os.environ.get("GPUPROF_BUILD", os.path.join(ROOT, "build")))
CHECK = os.path.join(BUILD, "tests", "nvtx_host_check")
LIBRARY = os.path.join(BUILD, "libgpuprof-inject.so")
CUDA = os.environ.get("CUDA_HOME", "/usr/local/cuda")
STUB = os.path.join(CUDA, "lib64", "stubs", "libcuda.so")

WITHOUT = {"push_a": "-2", "push_w": "-2", "push_ex": "-2", "pop": "-2", "domain": "none",
           "domain_push": "-2", "domain_pop": "-2", "overflow_push": "-2", "start": "0"}


def lines(env):
    p = subprocess.run([CHECK], capture_output=True, text=True, env=env, timeout=60)
    return p.returncode, [tuple(l.split(" ", 1)) for l in p.stdout.splitlines()], p.stderr


def has_libcuda():
    """Whether the dynamic loader finds libcuda.so.1 (a driver is installed)."""
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    return True


def environment(folder, tool):
    env = {k: v for k, v in os.environ.items() if k != "NVTX_INJECTION64_PATH"}
    if tool:
        env["NVTX_INJECTION64_PATH"] = LIBRARY
    if not has_libcuda():
        os.symlink(STUB, os.path.join(folder, "libcuda.so.1"))
        env["LD_LIBRARY_PATH"] = folder + ":" + env.get("LD_LIBRARY_PATH", "")
    return env


def check_report_ranges():
    """A recorded report given ranges: valid, read back with them; "" refused."""
    with open(os.path.join(ROOT, "tests", "fixtures", "exec-copy.json")) as f:
        doc = json.load(f)
    doc["exec"]["launches"][0]["range"] = "step/forward/lib@conv [layer]"
    valid, why = validate(doc, "gpuprof-report-v1.schema.json")
    tap.ok(valid, "a launch's range validates", why)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "r.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        p = subprocess.run([os.path.join(BUILD, "gpuprof"), "report", path, "--json"],
                           capture_output=True, text=True, timeout=60)
        back = json.loads(p.stdout) if p.returncode == 0 else None
        tap.ok(back and back["exec"]["launches"][0].get("range") == doc["exec"]["launches"][0]
               ["range"] and all("range" not in l for l in back["exec"]["launches"][1:]),
               "report --json: the range read back, none where none was", p.stderr)
        doc["exec"]["launches"][0]["range"] = ""
        with open(path, "w") as f:
            json.dump(doc, f)
        p = subprocess.run([os.path.join(BUILD, "gpuprof"), "report", path, "--json"],
                           capture_output=True, text=True, timeout=60)
        tap.ok(p.returncode != 0 and "range" in p.stderr and
               not validate(doc, "gpuprof-report-v1.schema.json")[0],
               "an empty range: refused by the schema and the loader", p.stderr)


def main():
    check_report_ranges()
    if not os.path.exists(CHECK) or not os.path.exists(LIBRARY):
        tap.skip_all("%s or %s not built (make)" % (CHECK, LIBRARY))
    if not has_libcuda() and not os.path.exists(STUB):
        tap.skip_all("no libcuda and no CUDA stub at %s to load the library with" % STUB)
    with tempfile.TemporaryDirectory() as folder:
        rc, out, err = lines(environment(folder, False))
    tap.ok(rc == 0 and out and all(WITHOUT[k] == v for k, v in out),
           "without a tool: NVTX answers no tracking", (rc, out, err))
    with tempfile.TemporaryDirectory() as folder:
        rc, out, err = lines(environment(folder, True))
    want = [("push_a", "0"), ("push_w", "1"), ("push_ex", "2"), ("pop", "2"), ("pop", "1"),
            ("pop", "0"), ("domain", "created"), ("domain_push", "0"), ("domain_pop", "0"),
            ("overflow_push", "-1"), ("start", "an id")]
    tap.ok(rc == 0 and out == want,
           "NVTX_INJECTION64_PATH=libgpuprof-inject.so: its handlers answer every call "
           "(pushes' and pops' levels, a domain, one past the model's left out, a start/end "
           "range's id)", (rc, out, err))
    tap.done()


if __name__ == "__main__":
    main()
