#!/usr/bin/env python3
"""On a GPU: sweeps stream (issue 37). A kernel command's text and CSV rows come as each
configuration finishes, so that a sweep interrupted by SIGINT or SIGTERM keeps the rows it
printed (to a pipe here); the rows of a live table are one width; a progress line is written
to standard error when it is a terminal and the run lasts more than 2 s, and never to a
pipe. Skips without a GPU. (Without one, tests/unit/test_stream.c holds the streaming
renderer to the whole rendering.)"""
import os
import pty
import re
import select
import signal
import subprocess
import time

import tap
from gpuprof import BIN, require_gpu

# Slow enough that a signal comes mid-sweep: --metrics=none, so that each configuration
# finishes on its own, a large size and many repeats.
SWEEP = ["reduce", "--variant=interleaved", "--metrics=none", "--size=2^28", "--repeat=400",
         "--block=64,128,256,512,1024"]


def interrupted(extra, sig, is_row):
    """Run the sweep with stdout a pipe, wait for the first row, send sig: (exit status, rows
    seen before and after the signal)."""
    p = subprocess.Popen([BIN] + SWEEP + extra, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    lines, deadline = [], time.time() + 300
    while time.time() < deadline:
        line = p.stdout.readline()
        if not line:
            break
        lines.append(line)
        if is_row(line):
            break
    p.send_signal(sig)
    out, _ = p.communicate(timeout=120)
    lines += out.splitlines(True)
    return p.returncode, [l for l in lines if is_row(l)]


def test_interrupted():
    text_row = lambda l: l.startswith("interleaved ")
    rc, rows = interrupted([], signal.SIGINT, text_row)
    tap.ok(rc == -signal.SIGINT and 1 <= len(rows) < 5,
           "SIGINT mid-sweep: the text rows printed so far are kept (%d of 5)" % len(rows),
           "rc=%s" % rc)
    csv_row = lambda l: l.startswith("reduce,")
    rc, rows = interrupted(["--csv"], signal.SIGTERM, csv_row)
    tap.ok(rc == -signal.SIGTERM and 1 <= len(rows) < 5,
           "SIGTERM mid-sweep: the CSV rows printed so far are kept (%d of 5)" % len(rows),
           "rc=%s" % rc)


def test_rows_one_width():
    p = subprocess.run([BIN, "reduce", "--block=64,128,256,512,1024"], capture_output=True,
                       text=True, timeout=600)
    lines = p.stdout.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("variant ")), None)
    rows = []
    for l in lines[start + 1:] if start is not None else []:
        if not l:
            break
        rows.append(l)
    tap.ok(p.returncode == 0 and len(rows) >= 5 and len({len(r) for r in rows}) == 1 and
           all(len(l) <= 120 for l in lines),
           "a live table: its rows one width, every line within 120 columns", p.stdout[-2000:])


def progress_on(stderr_is_terminal):
    """The sweep's standard error, a terminal or a pipe."""
    if not stderr_is_terminal:
        p = subprocess.run([BIN] + SWEEP, capture_output=True, text=True, timeout=600)
        return p.stderr
    master, slave = pty.openpty()
    p = subprocess.Popen([BIN] + SWEEP, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 600)
        try:
            chunk = os.read(master, 4096) if ready else b""
        except OSError:
            chunk = b""
        if not chunk:
            break
        seen += chunk
    p.wait(timeout=60)
    os.close(master)
    return seen.decode(errors="replace")


def test_progress():
    start = time.time()
    term = progress_on(True)
    lasted = time.time() - start
    if lasted < 3:
        tap.skip("progress on a terminal", "the sweep took %.1f s, not over 2 s" % lasted)
    else:
        tap.ok(re.search(r"\[[1-5]/5\] reduce interleaved int32 ", term) and
               "\r\x1b[K" in term,
               "stderr a terminal, a run over 2 s: [k/N] progress lines, written over", term)
    pipe = progress_on(False)
    tap.ok("\x1b[K" not in pipe and "[1/5]" not in pipe,
           "stderr a pipe: no progress at all", pipe[-500:])


def main():
    require_gpu()
    test_interrupted()
    test_rows_one_width()
    test_progress()
    tap.done()


if __name__ == "__main__":
    main()
