#!/usr/bin/env python3
"""Sweeps stream (issue 37), without a GPU: a kernel command writes nothing before its first
result is final, so a sweep that finds no GPU leaves standard output empty (no header alone)
and prints no progress, on a pipe or on a terminal. The rows as they come are the unit
tests' (tests/unit/test_stream.c) and the GPU tests' (tests/gpu/test_stream.py)."""
import os
import pty
import subprocess

import tap
from gpuprof import BIN, run

NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}
SWEEP = ["reduce", "--block=64,128,256,512,1024", "--variant=interleaved,shfl"]


def on_a_terminal(args):
    """(exit status, what was written to standard error, a terminal)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([BIN] + args, stdout=subprocess.DEVNULL, stderr=slave,
                         env=dict(os.environ, **NO_GPU))
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    rc = p.wait(timeout=120)
    os.close(master)
    return rc, seen.decode(errors="replace")


def main():
    for fmt in ([], ["--csv"], ["--json"]):
        rc, out, err = run(*(SWEEP + fmt), env=NO_GPU)
        tap.ok(rc == 3 and out == "" and len(err.strip().splitlines()) == 1 and
               "\r" not in err and "\x1b" not in err,
               "a sweep %swithout a GPU: exit 3, nothing on stdout, no progress" %
               (fmt[0] + " " if fmt else ""), "rc=%d out=%r err=%r" % (rc, out[:300], err))
    rc, err = on_a_terminal(SWEEP)
    tap.ok(rc == 3 and "no usable CUDA device" in err and "\x1b[K" not in err,
           "stderr a terminal, a run far shorter than 2 s: no progress line", repr(err))
    tap.done()


if __name__ == "__main__":
    main()
