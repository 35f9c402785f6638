#!/usr/bin/env python3
"""The Makefile's own output (issue 46): a quiet build, one short line per step (V=1 prints
the whole commands), and `make run` without a usable GPU ending on one line that says so, with
the build done and no error of make's after it."""
import os
import subprocess
import tempfile

import tap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.abspath(os.environ.get("GPUPROF_BUILD", os.path.join(ROOT, "build")))
# An object of kernels/ needs neither cJSON nor the CUDA compiler: quick to build anywhere.
OBJECT = os.path.join("kernels", "cuda_status.o")


def make(*args, env=None, merged=False):
    """make's run; merged: stderr into stdout, in the order they came. Without the flags of a
    make this test may run under (make test, check-sanitize): its variables would win."""
    clean = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return subprocess.run(["make", "--no-print-directory"] + list(args), cwd=ROOT,
                          stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT if merged else subprocess.PIPE, text=True,
                          timeout=300, env=dict(clean, **(env or {})))


def test_quiet_build():
    for verbose, name in (("", "the default"), ("V=1", "V=1")):
        with tempfile.TemporaryDirectory() as tmp:
            target = os.path.join(tmp, OBJECT)
            p = make("BUILD=" + tmp, target, *([verbose] if verbose else []))
            lines = p.stdout.splitlines()
            if not verbose:
                tap.ok(p.returncode == 0 and lines == ["  CC    " + target] and not p.stderr,
                       "a quiet build by default: one short line for the step", p.stdout + p.stderr)
            else:
                tap.ok(p.returncode == 0 and len(lines) == 1 and " -c -o " + target in lines[0]
                       and "-Wall" in lines[0],
                       "V=1 prints the whole compiler command", p.stdout + p.stderr)


def test_run_without_gpu():
    # -o: gpuprof is not remade (the build the tests run on may be another's, sanitized).
    binary = os.path.join(BUILD, "gpuprof")
    p = make("BUILD=" + BUILD, "-o", binary, "run", env={"CUDA_VISIBLE_DEVICES": ""},
             merged=True)
    out = p.stdout.strip().splitlines()
    tap.ok(p.returncode == 0 and out and out[-1] == (
               "make run: %s is built, but there is no usable GPU here to run it on (the line "
               "above says why)" % binary) and "no usable CUDA device" in out[-2]
           and "make: ***" not in p.stdout,
           "make run without a GPU: gpuprof's reason, then one line saying the build is done",
           p.stdout)


def main():
    test_quiet_build()
    test_run_without_gpu()
    tap.done()


if __name__ == "__main__":
    main()
