#!/usr/bin/env python3
"""On a GPU: the PM sampler (include/gpuprof/pm_sampler.h) through its self-test,
build/tests/pm_sampler_check (tests/gpu/pm_sampler_check.c). A kernel that reads 256 MiB from
DRAM, sampled: the samples' read bytes sum to within 3 % of 256 MiB, in two windows of one
sampler at 1 µs and in a window after one that lost samples; a window with more samples than
room says it lost some and hands back a full counter data (so the hardware buffer, sized by
gp_pm_sampler_hardware_buffer_bytes, outlasted the counter data); samples in time order; the
device sampled again after close. Skips without a GPU."""
import os
import subprocess

import tap
from gpuprof import BUILD, require_gpu

CHECK = os.path.join(BUILD, "tests", "pm_sampler_check")
TOLERANCE = 0.03


def run_check():
    p = subprocess.run([CHECK], capture_output=True, text=True, timeout=300)
    windows, reopened = {}, False
    for line in p.stdout.splitlines():
        fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "window" in fields:
            windows[fields["window"]] = fields
        reopened |= fields.get("reopen") == "1"
    return p.returncode, windows, reopened, p.stdout + p.stderr


def read_error(w):
    expected = float(w["expected_read_bytes"])
    return abs(float(w["read_bytes"]) - expected) / expected


def check_complete(w, name, what):
    if not tap.ok(w is not None, "%s: window %s reported" % (what, name)):
        return
    tap.ok(w["lost"] == "0" and int(w["samples"]) > 0 and w["ordered"] == "1",
           "%s: window %s lost nothing, %s samples in time order" % (what, name, w["samples"]),
           w)
    tap.ok(read_error(w) <= TOLERANCE,
           "%s: window %s read %s bytes, %s expected (within 3 %%)" %
           (what, name, w["read_bytes"], w["expected_read_bytes"]), w)


def main():
    require_gpu()
    if not tap.ok(os.access(CHECK, os.X_OK), "the self-test is built (%s)" % CHECK):
        tap.done()
    rc, windows, reopened, output = run_check()
    tap.ok(rc == 0, "pm_sampler_check ran every window (exit %d)" % rc, output)
    check_complete(windows.get("A1"), "A1", "1 us samples")
    check_complete(windows.get("A2"), "A2", "1 us samples, the sampler's second window")
    b1 = windows.get("B1")
    if tap.ok(b1 is not None, "full window: B1 reported", output):
        tap.ok(b1["lost"] == "1", "full window: B1 (300 reads, room for 10 ms) lost samples", b1)
        tap.ok(int(b1["samples"]) <= int(b1["max_samples"]),
               "full window: B1 hands back at most its room (%s of %s samples)" %
               (b1["samples"], b1["max_samples"]), b1)
    check_complete(windows.get("B2"), "B2", "a fresh sampler after a lost window")
    tap.ok(reopened, "the device is sampled again after the samplers closed", output)
    tap.done()


if __name__ == "__main__":
    main()
