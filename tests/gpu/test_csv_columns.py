#!/usr/bin/env python3
"""On a GPU: the README's CSV loop with runs that differ (saxpy with and without --grid, with
--metrics=none, default and all; exec of two programs with --csv and --launches) appends rows
that line up under the first run's header, each value in its named column; --csv-columns on a
real run. Skips without a GPU."""
import csv
import io
import os
import subprocess
import tempfile

import tap
from gpuprof import APPS, BIN, require_gpu, run

SAXPY = ("saxpy", "--size=2^20", "--repeat=2", "--warmup=1")


def table(text):
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1:]


def test_saxpy_loop():
    runs = [
        ("--metrics=none",),
        ("--metrics=none", "--variant=gridstride", "--grid=64"),
        ("--metrics=default",),
        ("--metrics=all", "--variant=gridstride", "--grid=128"),
    ]
    rc, text, err = run(*SAXPY, "--csv", *runs[0])
    ok = rc == 0
    for args in runs[1:]:
        rc, out, err2 = run(*SAXPY, "--csv", "--no-header", *args)
        ok &= rc == 0
        text += out
        err += err2
    header, rows = table(text)
    tap.ok(ok and rows and all(len(r) == len(header) for r in rows),
           "saxpy loop (--grid, metrics none/default/all): every row as wide as the header", err)
    named = [dict(zip(header, r)) for r in rows]
    grids = [r["grid_param"] for r in named if r["variant"] == "gridstride"]
    tap.ok(grids == ["", "64", "", "128"], "--grid lands in grid_param", str(grids))
    dram = [r["dram_throughput"] != "" for r in named]
    occupancy = [r["achieved_occupancy"] != "" for r in named]
    tap.ok(not any(dram[:4]) and all(dram[4:]),
           "dram_throughput empty under --metrics=none, filled under default and all", str(dram))
    tap.ok(occupancy[-1] and not any(occupancy[:-1]),
           "achieved_occupancy only under --metrics=all", str(occupancy))
    for args in runs:
        rc, out, _ = run(*SAXPY, "--csv", *args)
        tap.ok(rc == 0 and out.splitlines()[0] == ",".join(header),
               "saxpy %s: the same header" % " ".join(args))
    rc, out, err = run(*SAXPY, "--csv", "--variant=gridstride", "--grid=32",
                       "--csv-columns=variant,grid_param,dram_throughput")
    header, rows = table(out)
    tap.ok(rc == 0 and header == ["variant", "grid_param", "dram_throughput"] and
           rows[0][:2] == ["gridstride", "32"] and rows[0][2] != "",
           "--csv-columns on a real run", err)


def exec_csv(*args):
    """(exit status, the CSV report, stderr) of gpuprof exec --csv --output=FILE ARGS."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "report.csv")
        p = subprocess.run([BIN, "exec", "--csv", "--output=" + path] + list(args),
                           capture_output=True, text=True, timeout=600)
        text = ""
        if os.path.exists(path):
            with open(path) as f:
                text = f.read()
        return p.returncode, text, p.stderr


def test_exec_loop():
    copy = os.path.join(APPS, "copy")
    rc, text, err = exec_csv("--metrics=none", copy)
    rc2, more, err2 = exec_csv("--no-header", copy, "both")
    header, rows = table(text)
    added = list(csv.reader(io.StringIO(more)))
    tap.ok(rc == 0 and rc2 == 0 and rows and added and
           all(len(r) == len(header) for r in rows + added),
           "exec runs with and without metrics append under one header", err + err2)
    named = [dict(zip(header, r)) for r in rows + added]
    kinds = {r["kind"] for r in named}
    tap.ok("kernel" in kinds and "memcpy HtoD" in kinds and
           all(k == "kernel" or k.startswith(("memcpy ", "memset", "unified_memory "))
               for k in kinds) and
           all(r["source"].startswith(copy) for r in named) and
           any(r["source"] == copy + " both" for r in named),
           "exec rows: kind kernel, then the copies' kinds; source the program's command line",
           str({r["source"] for r in named}))
    tap.ok(all(r["dram_throughput_avg"] == "" for r in named[:len(rows)]) and
           any(r["dram_throughput_avg"] != "" for r in named[len(rows):]),
           "dram_throughput_avg empty without metrics, filled with them")
    rc, out, err = exec_csv("--launches", copy)
    header, rows = table(out)
    tap.ok(rc == 0 and header[:4] == ["kind", "source", "pid", "id"] and rows and
           all(len(r) == len(header) for r in rows), "exec --csv --launches: a row per launch",
           err)


def main():
    require_gpu()
    test_saxpy_loop()
    test_exec_loop()
    tap.done()


if __name__ == "__main__":
    main()
