#!/usr/bin/env python3
"""On a GPU: the text view of live runs (issue 29). Every line of a kernel command's table,
with the default and with every metric, and of exec's summary fits 120 columns and ends in no
space; --wide gives one table; exec says "N launches of K kernels" and lists each kernel's
metrics with their minimum, maximum and average; --kernel-name=base prints the kernels'
own names. Skips without a GPU."""
import os
import re
import subprocess

import tap
from gpuprof import BIN, BUILD, require_gpu

APP = os.path.join(BUILD, "tests", "apps", "copy")


def text(*args):
    p = subprocess.run([BIN] + list(args), capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def fits(out):
    return all(len(l) <= 120 and l == l.rstrip() for l in out.splitlines())


def test_kernel_commands():
    for args in (["reduce"], ["transpose", "--metrics=all"], ["reduce2d", "--metrics=all"],
                 ["saxpy"]):
        rc, out, err = text(*args)
        tap.ok(rc == 0 and fits(out) and "columns:" in out,
               "gpuprof %s: every line within 120 columns, a legend" % " ".join(args),
               err or out[-2000:])
    rc, out, err = text("transpose", "--metrics=all", "--wide")
    heads = [l for l in out.splitlines() if l.startswith("variant ")]
    tap.ok(rc == 0 and len(heads) == 1 and "achieved_occupancy" in heads[0],
           "transpose --metrics=all --wide: one table, the metrics' keys as headers",
           err or out[-2000:])


def test_exec():
    rc, out, err = text("exec", APP, "both", "2^20", "3")
    words = " ".join(out.split())
    tap.ok(rc == 0 and fits(out) and "6 launches of 2 kernels" in words,
           "exec: N launches of K kernels, within 120 columns", err or out[-3000:])
    lines = out.splitlines()
    head = [i for i, l in enumerate(lines) if l.startswith("gld/req")]
    rows = lines[head[0] + 1:head[0] + 3] if head else []
    tap.ok(len(head) == 1 and lines[head[0]].split()[1] == "ideal" and
           {n for r in rows for n in ("copyCoalesced", "copyStrided") if n in r} ==
           {"copyCoalesced", "copyStrided"},
           "exec: one metric table, a row per kernel, the ideal beside gld/req", out[-3000:])
    rc, out, err = text("exec", "--metrics-detail", APP, "both", "2^20", "3")
    rows = [l.split() for l in out.splitlines() if l.split()[1:2] == ["gld_efficiency"]]
    tap.ok(len(rows) == 2 and all(len(r) == 6 for r in rows),
           "exec --metrics-detail: per kernel, a metric's launches, minimum, maximum and average",
           out[-3000:])
    rc, out, err = text("exec", "--kernel-name=base", "--metrics-detail", APP, "both", "2^20",
                        "3")
    tap.ok(rc == 0 and re.search(r"^Kernel #\d+: copyStrided$", out, re.M) and
           "(float *" not in out,
           "exec --kernel-name=base: the kernels' own names", err or out[-3000:])


def main():
    require_gpu()
    test_kernel_commands()
    if os.path.exists(APP):
        test_exec()
    else:
        tap.skip("exec's text", "the test programs are not built (make apps)")
    tap.done()


if __name__ == "__main__":
    main()
