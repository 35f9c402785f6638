#!/usr/bin/env python3
"""On a GPU: gpuprof exec --nvtx (issue 48). tests/apps/nvtx_ranges launches one kernel per
NVTX case (nested push/pop, another thread's own range, a start/end range ended by another
thread, a domain with a registered string and a named category, a graph launched inside a
range) and prints each kernel's expected range path: every launch's "range" in the JSON
report must be it, with counters and without (--metrics=none), and the report must validate
against the schema. Without --nvtx no launch has a range. A PyTorch loop under emit_nvtx
(tests/apps/torch_train.py --nvtx, skipped without PyTorch) keeps at least 95 % of its kernel
time in a named range, and its result. Skips without a GPU."""
import json
import os
import subprocess
import sys
import tempfile

import tap
from gpuprof import BIN, app, require_gpu
from schema import validate

HERE = os.path.dirname(os.path.abspath(__file__))
TORCH_TRAIN = os.path.join(HERE, "..", "apps", "torch_train.py")


def exec_json(*args, env=None):
    """(exit status, report, stdout, stderr) of gpuprof exec --json --output=FILE ARGS."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "report.json")
        p = subprocess.run([BIN, "exec", "--json", "--output=" + path] + list(args),
                           capture_output=True, text=True, timeout=600,
                           env=dict(os.environ, **(env or {})))
        doc = None
        if os.path.exists(path):
            with open(path) as f:
                doc = json.load(f)
        return p.returncode, doc, p.stdout, p.stderr


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
    tap.ok(rc == 0 and "nvtx_ranges: ok" in out and len(want) == 7,
           "--metrics=%s: the program ran as without gpuprof" % metrics, (rc, err[-400:]))
    seen = paths_seen(doc)
    wrong = {k: (seen.get(k), p) for k, p in want.items()
             if not seen.get(k) or any(r != p for r in seen[k])}
    tap.ok(doc is not None and not wrong and len(seen.get("rangeGraph", [])) == 2,
           "--metrics=%s: every launch's range path is the program's (nested, per thread, "
           "start/end ended elsewhere, domain, graph launch)" % metrics, wrong)
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


def check_torch():
    if not has_torch():
        tap.skip("PyTorch loop under emit_nvtx", "no PyTorch with CUDA for " + sys.executable)
        return
    rc, doc, out, err = exec_json("--nvtx", "--metrics=none", "--", sys.executable,
                                  TORCH_TRAIN, "--nvtx", "3")
    ls = doc["exec"]["launches"] if doc else []
    total = sum(l["duration_ms"] or 0 for l in ls)
    ranged = sum(l["duration_ms"] or 0 for l in ls if l.get("range"))
    share = 100.0 * ranged / total if total else 0.0
    tap.ok(rc == 0 and "torch_train: ok" in out, "PyTorch loop: its result and exit status",
           (rc, err[-400:]))
    tap.ok(share >= 95.0 and any(l.get("range", "").startswith("step/forward/") for l in ls),
           "PyTorch loop under emit_nvtx: %.1f %% of kernel time in a named range (at least "
           "95), ops inside step/forward" % share)


def main():
    require_gpu("nvtx_ranges")
    for metrics in ("default", "none"):
        check_program(metrics)
    check_without()
    check_other_tool()
    check_torch()
    tap.done()


if __name__ == "__main__":
    main()
