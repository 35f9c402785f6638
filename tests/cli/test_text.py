#!/usr/bin/env python3
"""The text view (issue 29): every line of every text output fits 120 columns unless --wide,
no line ends in a space, every metric measured gets a column (abbreviated, with a legend, or
in full with --wide), times in the unit that suits them, counts as whole numbers, a report
without a device, exec's nvprof summary (N launches of K kernels, min/max/avg per metric),
--kernel-name's styles, the list's and --metrics-detail's alignment, and the usage errors of
the new options."""
import copy
import json
import os
import re
import shlex
import tempfile

import tap
from gpuprof import run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
INPUTS = os.path.join(ROOT, "tests", "golden", "inputs")
CASES = os.path.join(ROOT, "tests", "golden", "cases.txt")
REDUCE = os.path.join(FIXTURES, "reduce-default.json")
ALL = os.path.join(FIXTURES, "reduce2d-4096-all.json")
EXEC = os.path.join(FIXTURES, "exec-copy.json")
ROTATE = os.path.join(FIXTURES, "exec-rotate.json")
SYNTHETIC = os.path.join(INPUTS, "exec-synthetic.json")
NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}


def load(path):
    with open(path) as f:
        return json.load(f)


def write(tmp, name, doc):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def text_cases():
    """(name, argv) of every golden case whose output is text."""
    with open(CASES) as f:
        for line in f:
            words = shlex.split(line.strip()) if line.strip() and not line.startswith("#") else []
            if words and words[0].endswith(".txt"):
                yield words[0], words[1:]


def test_every_text_output():
    for name, argv in text_cases():
        rc, out, _ = run(*argv, env=NO_GPU)
        lines = out.splitlines()
        if "--wide" not in argv:
            long = [l for l in lines if len(l) > 120]
            tap.ok(not long, "%s: every line within 120 columns" % name,
                   long[0] if long else None)
        spaced = [l for l in lines if l != l.rstrip()]
        tap.ok(not spaced, "%s: no line ends in a space" % name,
               repr(spaced[0]) if spaced else None)


def tables(out, first_title):
    """The header lines of the tables whose first column is first_title."""
    return [l for l in out.splitlines() if l.split()[:1] == [first_title]]


def test_metric_columns():
    rc, out, _ = run("report", ALL)
    legend = out[out.index("columns:"):out.index("\n\n")]
    doc = load(ALL)
    keys = list(doc["results"][0]["metrics"])
    headers = " ".join(tables(out, "variant")).split()
    tap.ok(rc == 0 and all(k in legend for k in keys),
           "--metrics=all: the legend spells out every metric measured (%d)" % len(keys), out)
    for label in ("occupancy", "branch%", "l2_hit%", "ld_conflicts", "dram_rd_B"):
        tap.ok(label in headers, "--metrics=all: a column %s" % label, out)
    tap.ok(len(tables(out, "variant")) > 1 and
           all(l.split()[0] in ("variant", "inner", "outer", "#1", "#2", "#3")
               for l in out.split("group 16\n")[1].splitlines() if l.strip()),
           "--metrics=all: the columns beyond 120 continue in tables that repeat the variant")
    rc, out, _ = run("report", ALL, "--wide")
    heads = tables(out, "variant")
    tap.ok(rc == 0 and len(heads) == 1 and all(k in heads[0].split() for k in keys) and
           "columns:" not in out,
           "--wide: one table, the metric keys as headers, no legend", out)
    rc, out, _ = run("report", REDUCE)
    heads = tables(out, "variant")
    tap.ok(rc == 0 and heads and heads[0].split()[-6:] ==
           ["gld/req", "gst/req", "ld_eff%", "st_eff%", "dram_GB/s", "shld/req"],
           "default set: its table metrics, in the catalogue's order", out)


def with_times(doc, times):
    doc = copy.deepcopy(doc)
    for r, ms in zip(doc["results"], times):
        r["timing"]["median_ms"] = ms
    return doc


def test_times(tmp):
    times = [0.00085, 0.0038, 0.0281, 0.2206, 1.5, 12.345, 2500.0]
    path = write(tmp, "times.json", with_times(load(REDUCE), times))
    rc, out, _ = run("report", path)
    cells = [l.split()[3] for l in out.splitlines()[out.splitlines().index(
        tables(out, "variant")[0]) + 1:] if l and not l.startswith(" ")][:len(times)]
    tap.ok(rc == 0 and cells == ["850ns", "3.80us", "28.10us", "220.60us", "1.50ms",
                                 "12.35ms", "2.50s"],
           "times in the unit that suits them (nvprof's)", " ".join(cells))


def test_counts(tmp):
    doc = load(EXEC)
    first = doc["exec"]["launches"][0]
    second = copy.deepcopy(first)
    second["id"] = 2
    first["metrics"]["dram_read_bytes"]["value"] = 43580
    second["metrics"]["dram_read_bytes"]["value"] = 43583
    doc["exec"]["launches"].append(second)
    path = write(tmp, "counts.json", doc)
    rc, out, _ = run("report", path, "--metrics-detail")
    row = [l.split() for l in out.splitlines() if "dram_read_bytes" in l]
    tap.ok(rc == 0 and row and row[0][:6] == ["2", "dram_read_bytes", "43580", "43583", "43582",
                                             "bytes"],
           "a byte count's minimum, maximum and average as whole numbers", out)
    tap.ok("e+" not in out, "no number in exponent form", out)


def test_no_device(tmp):
    doc = load(REDUCE)
    doc["device"] = None
    rc, out, _ = run("report", write(tmp, "nodevice.json", doc))
    tap.ok(rc == 0 and "no GPU recorded" in out.splitlines()[0] and "sm_00" not in out,
           "a null device: 'no GPU recorded'", out)


def test_exec_summary():
    rc, out, _ = run("report", ROTATE)
    words = " ".join(out.split())
    tap.ok(rc == 0 and "6 launches of 2 kernels in 1 process" in words and
           "6/6 launches profiled" in words, "exec: N launches of K kernels", out)
    lines = out.splitlines()
    heads = [l for l in lines if l.split()[:1] == ["gld/req"]]
    rows = lines[lines.index(heads[0]) + 1:lines.index(heads[0]) + 3] if heads else []
    tap.ok(len(heads) == 1 and heads[0].split()[-1] == "kernel" and "dram_GB/s" in heads[0] and
           [r.split()[6] for r in rows] == ["#1", "#2"] and
           not any(l.startswith("Kernel #") for l in lines),
           "exec: one metric table, a row per kernel in the summary's order, #N and name last",
           out)
    at = heads[0].split().index("dram_GB/s") if heads else 0
    tap.ok([r.split()[at] for r in rows] == ["23.5", "1582.3"],
           "exec: each kernel's average over its profiled launches", out)
    rc, out, _ = run("report", ROTATE, "--metrics-detail")
    heads = [l.split() for l in tables(out, "launches") if "metric" in l.split()]
    tap.ok(heads == [["launches", "metric", "min", "max", "avg", "unit"]],
           "exec --metrics-detail: nvprof's --metrics layout, one row per metric", out)
    kernels = [l for l in out.splitlines() if l.startswith("Kernel #")]
    tap.ok(len(kernels) == 2, "exec --metrics-detail: the metric rows under each kernel", out)
    rows = [l.split() for l in out.splitlines() if l.split()[1:2] == ["dram_throughput"]]
    tap.ok(len(rows) == 2 and rows[1][2:6] == ["1225.4", "1939.3", "1582.3", "GB/s"],
           "exec --metrics-detail: each metric's minimum, maximum and average", out)
    tap.ok(rc == 0 and "            bytes read from DRAM per second" in out and "*" in out,
           "exec --metrics-detail: every metric with its description under it", out)


def kernel_column(out):
    """The kernel names of exec's summary table."""
    lines = out.splitlines()
    head = tables(out, "%kernels")[0]
    at = head.rindex("kernel")
    rows = lines[lines.index(head) + 1:]
    rows = [l for l in rows[:rows.index("")] if re.match(r"\s*(-|[\d.]+%) ", l)]
    return [re.sub(r"^#\d+ ", "", l[at:]) for l in rows]


def test_kernel_name():
    want = {
        "short": "kernel_05",
        "full": "kernel_05(float *, int)",
        "function": "kernel_05",
        "base": "kernel_05",
    }
    for style, name in want.items():
        rc, out, _ = run("report", SYNTHETIC, "--kernel-name=" + style)
        names = kernel_column(out)
        tap.ok(rc == 0 and name in names, "--kernel-name=%s: %s" % (style, name), out)
        cub = [n for n in names if "DeviceReduceKernel" in n]
        expect = {"short": "cub::", "full": "void ", "function": "void ", "base": "void "}[style]
        # Two kernels of one base name are shown fuller, never alike (issue 37).
        tap.ok(len(cub) == 2 and all(n.startswith(expect) for n in cub) and
               cub[0] != cub[1] and
               (style != "function" or not any("(float *" in n for n in cub)),
               "--kernel-name=%s: the templated cub kernel" % style, "\n".join(names))
    rc, out, _ = run("report", SYNTHETIC)
    tap.ok(rc == 0 and "cub::DeviceReduceKernel #6" in kernel_column(out),
           "by default the short style: the qualified name, what follows the parameters", out)
    rc, out, _ = run("report", SYNTHETIC, "--kernel-name=full")
    cut = [n for n in kernel_column(out) if "\u2026" in n]
    tap.ok(rc == 0 and cut and
           not any(re.search(r"[A-Za-z0-9_]\u2026[A-Za-z0-9_]", n) for n in cut) and
           all(n.startswith("void ") and n.endswith("#1") or n.endswith("#6") for n in cut),
           "long names cut in the middle at readable boundaries, start and end kept",
           "\n".join(cut))
    rc, out, _ = run("report", SYNTHETIC, "--wide", "--kernel-name=full")
    tap.ok(rc == 0 and any(n.endswith("cub::GridEvenShare<int>, cub::Sum) #6")
                           for n in kernel_column(out)),
           "--wide: names whole", out)


CUSPARSE = ("void cusparse::csrmv_v3_kernel<cusparse::CsrMVPolicy<128, 4, 2, 7>, int, int, "
            + ", ".join(["cusparse::Functor<float, float, %d>" % i for i in range(12)])
            + ">(cusparse::KernelCoeffs<float>, int const *, int const *, int const *, "
            "float const *, float const *, int, int, float *)")


def test_templated_name(tmp):
    doc = load(EXEC)
    doc["exec"]["launches"][0]["kernel"] = CUSPARSE
    path = write(tmp, "cusparse.json", doc)
    assert len(CUSPARSE) > 500
    rc, out, _ = run("report", path, "--metrics-detail")
    tap.ok(rc == 0 and kernel_column(out) == ["cusparse::csrmv_v3_kernel"] and
           "Kernel #1: cusparse::csrmv_v3_kernel\n" in out,
           "by default its qualified name, alone of its name", out)
    rc, out, _ = run("report", path, "--metrics-detail", "--kernel-name=full")
    tap.ok(rc == 0 and max(len(l) for l in out.splitlines()) <= 120 and
           "Kernel #1: void cusparse::csrmv_v3_kernel<" in out and
           "Functor<float, float, 11>>(\u2026)\n" in out,
           "a %d-character cuSPARSE name: cut to 120 columns" % len(CUSPARSE), out)
    rc, out, _ = run("report", path, "--kernel-name=base", "--metrics-detail")
    tap.ok(rc == 0 and kernel_column(out) == ["csrmv_v3_kernel"] and
           "Kernel #1: csrmv_v3_kernel\n" in out, "--kernel-name=base: csrmv_v3_kernel", out)
    rc, out, _ = run("report", path, "--wide", "--kernel-name=full")
    tap.ok(rc == 0 and kernel_column(out) == [CUSPARSE], "--wide: the name whole", out)


def test_usage_errors():
    cases = [
        (("report", EXEC, "--kernel-name=bsae"), "did you mean 'base'", "a misspelt style"),
        (("report", EXEC, "--kernel-name=Full"), "valid: short, full, function, base", "a capital"),
        (("report", EXEC, "--kernel-name="), "--kernel-name", "an empty style"),
        (("report", EXEC, "--kernel-name=base", "--json"), "applies to text and Markdown output only",
         "--kernel-name with JSON"),
        (("report", EXEC, "--wide", "--csv"), "--wide applies to text output only",
         "--wide with CSV"),
        (("reduce", "--wide", "--html"), "--wide applies to text output only",
         "reduce --wide --html"),
        (("exec", "--kernel-name=mangled", "true"), "--kernel-name", "exec with a bad style"),
        (("device", "--wide"), "does not apply to 'device'", "device --wide"),
    ]
    for args, message, name in cases:
        rc, out, err = run(*args, env=NO_GPU)
        tap.ok(rc == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1,
               "%s: exit 2, one line, nothing on stdout" % name, err)


def column_starts(header, row_words):
    return header.index(row_words)


def test_alignment():
    rc, out, _ = run("list", env=NO_GPU)
    ok = rc == 0
    for block in out.strip().split("\n\n"):
        lines = block.splitlines()
        at = lines[1].index("summary")
        for row in lines[2:]:
            if row.startswith("  default, blocks -: "):  # the note under the table, not a row
                continue
            ok = ok and row[at - 2:at] == "  " and row[at] != " "
    tap.ok(ok, "list: every summary starts in its column, after the blocks", out)
    rc, out, _ = run("report", os.path.join(FIXTURES, "transpose-4096.json"), "--metrics-detail")
    lines = out.splitlines()
    head = [l for l in lines if l.split()[:2] == ["metric", "value"]][0]
    unit = head.index("unit")
    rows = [l for l in lines[lines.index(head) + 1:] if l.startswith("    ") and
            l.split()[0] in [k for k in load(os.path.join(FIXTURES, "transpose-4096.json"))
                             ["results"][0]["metrics"]]]
    tap.ok(rc == 0 and rows and all(r[unit - 1] == " " and r[unit] != " " for r in rows),
           "--metrics-detail: units aligned after the longest description (%d rows)"
           % len(rows), out)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_every_text_output()
        test_metric_columns()
        test_times(tmp)
        test_counts(tmp)
        test_no_device(tmp)
        test_exec_summary()
        test_kernel_name()
        test_templated_name(tmp)
        test_usage_errors()
        test_alignment()
    tap.done()


if __name__ == "__main__":
    main()
