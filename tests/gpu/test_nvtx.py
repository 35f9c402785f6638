#!/usr/bin/env python3
"""On a GPU: gpuprof exec --nvtx (issue 48). tests/apps/nvtx_ranges launches one kernel per
NVTX case (nested push/pop, another thread's own range, a start/end range ended by another
thread, a domain with a registered string and a named category, a graph launched inside a
range) and prints each kernel's expected range path: every launch's "range" in the JSON
report must be it, with counters and without (--metrics=none), and the report must validate
against the schema. Without --nvtx no launch has a range. A PyTorch loop under emit_nvtx
(tests/apps/torch_train.py --nvtx, eager and with the step captured by torch.cuda.graph,
skipped without PyTorch) keeps its result and at least 95 % of its kernel time in a named
range, its outermost ranges' DRAM bytes add up to the whole run's, the backward nodes'
kernels name their forward ops, and graph kernels carry their capture's ranges. In the ncu tier, --nvtx-include and --nvtx-exclude:
under each of a few filters (a push/pop range, one with '*' and anchors, a start/end range, a
domain's range, an exclude) the launches gpuprof profiled are the kernels `ncu --nvtx
--nvtx-include ...` profiles, kernel by kernel. Skips without a GPU."""
import collections
import csv
import io
import os
import subprocess
import sys
import tempfile

import tap
from gpuprof import app, exec_json, ncu_tier, require_gpu
from memory_paths import base_name, ncu_path
from schema import validate

HERE = os.path.dirname(os.path.abspath(__file__))
TORCH_TRAIN = os.path.join(HERE, "..", "apps", "torch_train.py")


def expected(stdout):
    """{kernel: path} from the program's `expect KERNEL PATH` lines ("-": none)."""
    out = {}
    for line in stdout.splitlines():
        if line.startswith("expect "):
            kernel, path = line[len("expect "):].split(" ", 1)
            out[kernel] = None if path == "-" else path
    return out


def paths_seen(doc):
    """{kernel base name: [range of each launch]}."""
    seen = {}
    for l in doc["exec"]["launches"] if doc else []:
        name = l["kernel"].split("(")[0].split()[-1]
        seen.setdefault(name, []).append(l.get("range"))
    return seen


def check_program(metrics):
    rc, doc, out, err = exec_json("--nvtx", "--metrics=" + metrics, "--",
                                  app("nvtx_ranges"))
    want = expected(out)
    tap.ok(rc == 0 and "nvtx_ranges: ok" in out and len(want) == 8,
           "--metrics=%s: the program ran as without gpuprof" % metrics, (rc, err[-400:]))
    seen = paths_seen(doc)
    wrong = {k: (seen.get(k), p) for k, p in want.items()
             if not seen.get(k) or any(r != p for r in seen[k])}
    tap.ok(doc is not None and not wrong and len(seen.get("rangeGraph", [])) == 2,
           "--metrics=%s: every launch's range path is the program's (nested, per thread, "
           "start/end ended elsewhere, domain, graph launch, graph node captured in a range)"
           % metrics, wrong)
    valid, why = validate(doc, "gpuprof-report-v1.schema.json") if doc else (False, "none")
    tap.ok(valid, "--metrics=%s: the report validates" % metrics, why)


def check_without():
    rc, doc, out, _ = exec_json("--metrics=none", "--", app("nvtx_ranges"))
    tap.ok(rc == 0 and doc and not any("range" in l for l in doc["exec"]["launches"]),
           "without --nvtx: no launch has a range")


def check_other_tool():
    """A tool the environment named is replaced, and the report says so."""
    rc, doc, out, _ = exec_json("--nvtx", "--metrics=none", "--", app("nvtx_ranges"),
                                env={"NVTX_INJECTION64_PATH": "/nonexistent/other-tool.so"})
    warnings = doc.get("warnings", []) if doc else []
    seen = paths_seen(doc)
    tap.ok(rc == 0 and any("/nonexistent/other-tool.so" in w and "took its place" in w
                           for w in warnings) and seen.get("rangeNested") == ["outer/inner"],
           "another NVTX tool in the environment: replaced, the report says so", warnings)


def has_torch():
    p = subprocess.run([sys.executable, "-c", "import torch; assert torch.cuda.is_available()"],
                       capture_output=True, timeout=300)
    return p.returncode == 0


def kernel_dram(doc):
    """The whole run's DRAM bytes from the kernels table: each kernel's mean read and write
    bytes per profiled launch times its launches."""
    total = 0.0
    for k in doc["exec"]["kernels"]:
        means = [((k.get("metrics") or {}).get(m) or {}).get("average")
                 for m in ("dram_read_bytes", "dram_write_bytes")]
        if all(v is not None for v in means):
            total += sum(means) * k["calls"]
    return total


def check_torch_run(mode):
    """torch_train.py --nvtx (eager, or --graph: the step captured by torch.cuda.graph and
    replayed) under exec --nvtx with the default metrics: its result; at least 95 % of its
    kernel time in a named range; the outermost ranges' DRAM bytes add up to the kernels'
    within 1 %; eager: the backward nodes' kernels name their forward ops (emit_nvtx's seq);
    graph: the replayed kernels carry their capture's ranges inside "step"."""
    extra = ["--graph"] if mode == "graph" else []
    rc, doc, out, err = exec_json("--nvtx", "--", sys.executable, TORCH_TRAIN, "--nvtx",
                                  *extra, "3")
    tap.ok(rc == 0 and "torch_train: ok" in out and doc,
           "PyTorch loop (%s): its result and exit status" % mode, (rc, err[-600:]))
    if not doc:
        return
    ls = doc["exec"]["launches"]
    total = sum(l["duration_ms"] or 0 for l in ls)
    ranged = sum(l["duration_ms"] or 0 for l in ls if l.get("range"))
    share = 100.0 * ranged / total if total else 0.0
    inside = "step/graph/forward/" if mode == "graph" else "step/forward/"
    tap.ok(share >= 95.0 and any(l.get("range", "").startswith(inside) for l in ls),
           "PyTorch loop (%s) under emit_nvtx: %.1f %% of kernel time in a named range (at "
           "least 95), ops inside %s" % (mode, share, inside),
           sorted({l.get("range", "")[:100] for l in ls})[:20])
    top = [r for r in doc["exec"].get("ranges", []) if r["depth"] == 0]
    by_range = sum(r["dram_bytes"] or 0 for r in top)
    whole = kernel_dram(doc)
    tap.ok(whole > 0 and abs(by_range - whole) <= 0.01 * whole,
           "PyTorch loop (%s): the outermost ranges' DRAM bytes add up to the whole run's "
           "(%.0f against %.0f, within 1 %%)" % (mode, by_range, whole))
    if mode == "eager":
        backward = [l for l in ls if "Backward" in (l.get("range") or "")]
        paired = [l for l in backward if "(forward: step > forward > " in l["range"]]
        t_back = sum(l["duration_ms"] or 0 for l in backward)
        t_paired = sum(l["duration_ms"] or 0 for l in paired)
        tap.ok(t_back > 0 and t_paired >= 0.95 * t_back,
               "PyTorch loop: %.1f %% of the backward nodes' kernel time names its forward op "
               "(at least 95)" % (100.0 * t_paired / t_back if t_back else 0),
               sorted({l["range"][:160] for l in backward})[:12])


def check_torch():
    if not has_torch():
        tap.skip("PyTorch loop under emit_nvtx", "no PyTorch with CUDA for " + sys.executable)
        return
    for mode in ("eager", "graph"):
        check_torch_run(mode)


# The filters compared with ncu, each with the kernels of tests/apps/nvtx_ranges.cu it takes
# (its comment lists each kernel's ranges): written down too, so that a case that takes
# nothing in both tools does not pass unnoticed.
FILTERS = [
    (["--nvtx-include=outer/"], ["rangeNested", "rangeStarted", "rangeAfterEnd",
                                 "rangeDomain"]),
    (["--nvtx-include=[outer/*/inner]/"], ["rangeNested"]),
    (["--nvtx-include=phase"], ["rangeStarted"]),
    (["--nvtx-include=lib@regstr/"], ["rangeDomain"]),
    (["--nvtx-exclude=outer/"], ["rangeNone", "rangeWorker", "rangeGraph", "rangeGraph",
                                 "rangeCaptured", "rangeCaptured"]),
]


def ncu_profiled(filters, folder):
    """The kernels ncu --nvtx FILTERS profiles in nvtx_ranges, by base name: (Counter,
    stderr)."""
    log = os.path.join(folder, "ncu.csv")
    cmd = [ncu_path(), "--nvtx"] + filters + ["--metrics", "gpu__time_duration.sum", "--csv",
                                             "--log-file", log, app("nvtx_ranges")]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    names = collections.Counter()
    if os.path.exists(log):
        with open(log) as f:
            body = "\n".join(l for l in f.read().splitlines() if l.startswith('"'))
        for r in csv.DictReader(io.StringIO(body)):
            if (r.get("ID") or "").strip().isdigit() and \
                    r.get("Metric Name") == "gpu__time_duration.sum":
                names[base_name(r.get("Kernel Name", ""))] += 1
    return names, p.stderr


def check_filters_against_ncu():
    if not ncu_tier("--nvtx-include and --nvtx-exclude against ncu's"):
        return
    if not ncu_path():
        tap.skip("--nvtx-include and --nvtx-exclude against ncu's", "no ncu")
        return
    for filters, kernels in FILTERS:
        rc, doc, out, err = exec_json(*filters, "--", app("nvtx_ranges"))
        ours = collections.Counter(base_name(l["kernel"]) for l in
                                   (doc["exec"]["launches"] if doc else []) if l["profiled"])
        with tempfile.TemporaryDirectory() as folder:
            theirs, nerr = ncu_profiled(filters, folder)
        want = collections.Counter(kernels)
        tap.ok(rc == 0 and "nvtx_ranges: ok" in out and ours == theirs == want,
               "%s: the launches profiled are ncu's, kernel by kernel (%s)" %
               (" ".join(filters), ", ".join(sorted(want))),
               {"ours": dict(ours), "ncu": dict(theirs), "expected": dict(want),
                "stderr": err[-400:], "ncu stderr": nerr[-400:]})
        tap.ok(doc is not None and doc["exec"]["filters"]["nvtx_include" if "include" in
                                                          filters[0] else "nvtx_exclude"] ==
               [filters[0].split("=", 1)[1]], "%s: the report keeps the filter" % filters[0])


def main():
    require_gpu("nvtx_ranges")
    for metrics in ("default", "none"):
        check_program(metrics)
    check_without()
    check_other_tool()
    check_torch()
    check_filters_against_ncu()
    tap.done()


if __name__ == "__main__":
    main()
