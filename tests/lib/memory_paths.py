"""The memory-path programs of tests/apps (spill, nospill, atomics, cpasync, tma, zerocopy,
and copy for the L2 group) profiled by `gpuprof exec --metrics=GROUP` and by Nsight Compute,
kernel by kernel, every metric of the group set against ncu's `ncu_metric` x `ncu_scale` from
gpuprof's own catalogue. Shared by tests/gpu/test_memory_paths.py, which asserts, and
bench/bench_memory_paths.py, which prints the agreement table. gpuprof and ncu run one after
the other in separate processes, so gpuprof never holds CUPTI while ncu runs."""
import csv
import io
import json
import math
import os
import shutil
import subprocess

from gpuprof import BIN, app

CUDA_HOME = os.environ.get("CUDA_HOME", "/usr/local/cuda")

# The keys each group must hold (issue 28). A key missing from its group is a failure, except
# the optional ones.
GROUPS = {
    "local": ("local_load_transactions", "local_store_transactions",
              "local_load_transactions_per_request", "local_store_transactions_per_request",
              "local_memory_overhead"),
    "l2": ("l2_read_transactions", "l2_write_transactions", "l2_read_throughput",
           "l2_write_throughput", "l2_hit_rate", "l2_tex_hit_rate"),
    "atomics": ("atomic_transactions", "atomic_transactions_per_request"),
    "sysmem": ("sysmem_read_bytes", "sysmem_write_bytes", "sysmem_read_throughput",
               "sysmem_write_throughput"),
    "async": ("cp_async_requests", "cp_async_sectors_per_request", "cp_async_efficiency",
              "tma_load_bytes", "tma_store_bytes", "tma_load_throughput",
              "tma_store_throughput"),
}
OPTIONAL = {"l2": ("global_hit_rate",)}

# (program, its arguments, the group profiled). copy at 2^22 floats: 16 MiB in and out.
RUNS = (("spill", (), "local"), ("nospill", (), "local"), ("atomics", (), "atomics"),
        ("cpasync", (), "async"), ("tma", (), "async"), ("zerocopy", (), "sysmem"),
        ("copy", ("both", "2^22"), "l2"))

# Tolerances. Counters fixed by the kernel's instructions (SASS instruction and sector counts,
# requests, TMA and cp.async bytes) and what derives from them: 1 % (counts), 1 point
# (percentages). Counters that depend on what the caches hold or on where the memory lies
# (L2 and DRAM sectors, hits, system-memory traffic through L2): 5 % or 5 points, or twice
# ncu's own run-to-run spread when that is larger, and never less than a floor of a few
# sectors for small counts. Rates (GB/s) follow each run's duration with clocks unlocked:
# within a factor of 2 (a wrong scale is off by 10^3).
KERNEL_REL, KERNEL_PT = 0.01, 1.0
STATE_REL, STATE_PT = 0.05, 5.0
# L1's hits and misses of local memory follow what else the SM's L1 held: on the H100 the
# spill kernel's local-load L1 misses read 7840 and 6916 sectors in two ncu runs (12 %
# apart) and 7172 and 7508 under gpuprof. ncu's own spread decides, at least 15 %.
L1_STATE_REL = 0.15
STATE_FLOOR = {"bytes": 4096.0, "count": 128.0}
RATE_FACTOR = 2.0

# Inputs that make a metric depend on the caches' state or on timing.
STATE_MARKS = ("lts__", "dram__", "fbpa__", "pcie__", "hit", "miss", "sysmem", "aperture",
               "cycles", "time_duration", "warps_active", "bank_conflicts", "l1tex__m_")


def catalogue(chip=None):
    """gpuprof's metric catalogue for `chip` (default: the GPU's, else GH100)."""
    if chip is None:
        p = subprocess.run([BIN, "metrics", "--json"], capture_output=True, text=True)
        chip = (json.loads(p.stdout).get("chip") if p.returncode == 0 else None) or "GH100"
    p = subprocess.run([BIN, "metrics", "--chip=" + chip, "--json"], capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError("gpuprof metrics --chip=%s: %s" % (chip, p.stderr.strip()))
    return json.loads(p.stdout)["metrics"]


def group_metrics(cat, group):
    """The catalogue's rows of `group`, in catalogue order."""
    return [m for m in cat if m.get("set") == group]


def missing_keys(cat, group):
    present = {m["key"] for m in group_metrics(cat, group)}
    return [k for k in GROUPS[group] if k not in present]


def kind_of(m):
    """'rate', 'state' or 'kernel' (see the tolerances above)."""
    if m["unit"] == "GB/s" or m["key"].endswith("_throughput"):
        return "rate"
    if any(mark in i for i in m["inputs"] for mark in STATE_MARKS):
        return "state"
    return "kernel"


def is_percentage(m):
    return m["unit"] in ("%", "fraction")


def percent_factor(m):
    """What turns the metric's value into percent (1 for %, 100 for a fraction)."""
    return 100.0 if m["unit"] == "fraction" else 1.0


def ncu_path():
    """ncu on PATH or in CUDA_HOME/bin; None when neither."""
    found = shutil.which("ncu")
    if found:
        return found
    cand = os.path.join(CUDA_HOME, "bin", "ncu")
    return cand if os.access(cand, os.X_OK) else None


def base_name(kernel):
    """`spillHeavy` of `spillHeavy(unsigned int *, ...)` (and of `void f<0>(...)`: `f<0>`)."""
    return kernel.split("(")[0].split()[-1] if kernel else ""


def run_exec(program, args, group, json_path):
    """gpuprof exec --metrics=GROUP --json --force --output=json_path -- PROGRAM ARGS: (exit
    status, report or None, the program's stdout, stderr); --force: a benchmark's folder keeps
    the reports of its earlier runs."""
    p = subprocess.run([BIN, "exec", "--metrics=" + group, "--json", "--force",
                        "--output=" + json_path,
                        "--", app(program)] + list(args),
                       capture_output=True, text=True, timeout=600)
    doc = None
    if os.path.exists(json_path):
        try:
            with open(json_path) as f:
                doc = json.load(f)
        except ValueError:
            doc = None
    return p.returncode, doc, p.stdout, p.stderr


def number(text):
    if text is None:
        return None
    text = str(text).replace(",", "").strip()
    try:
        v = float(text)
    except ValueError:
        return None
    return None if math.isnan(v) else v


def run_ncu(program, args, names, log_path, options=("--cache-control", "none")):
    """ncu --clock-control none OPTIONS (kernel replay) collecting `names` on PROGRAM ARGS:
    (exit status, [{column: text}] one per kernel launch in order, stderr). By default
    OPTIONS is --cache-control none, no cache flush: gpuprof exec measures the program's
    launches as they run, with the caches as the program left them, and ncu's default flush
    before each kernel makes its cache counters (L1 and L2 hits and misses) differ from that by
    more than its own spread."""
    cmd = ([ncu_path(), "--clock-control", "none"] + list(options) +
           ["--csv", "--page", "raw", "--print-units", "base", "--metrics", ",".join(names),
            "--log-file", log_path, app(program)] + list(args))
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    rows = []
    if os.path.exists(log_path):
        with open(log_path) as f:
            body = "\n".join(l for l in f.read().splitlines() if l.startswith('"'))
        rows = [r for r in csv.DictReader(io.StringIO(body))
                if (r.get("ID") or "").strip().isdigit()]  # the units row has no ID
    return p.returncode, rows, p.stderr


def pair_launches(doc, rows):
    """[(kernel base name, k-th launch of it, gpuprof launch, ncu row)], matched by kernel
    name and order; (pairs, kernels only one side has)."""
    ours = {}
    for l in (doc or {}).get("exec", {}).get("launches", []):
        if l.get("profiled"):
            ours.setdefault(base_name(l["kernel"]), []).append(l)
    theirs = {}
    for r in rows:
        theirs.setdefault(base_name(r.get("Kernel Name", "")), []).append(r)
    pairs, unmatched = [], []
    for name in list(dict.fromkeys(list(ours) + list(theirs))):
        a, b = ours.get(name, []), theirs.get(name, [])
        if len(a) != len(b):
            unmatched.append("%s: gpuprof %d launches, ncu %d" % (name, len(a), len(b)))
        pairs += [(name, k, x, y) for k, (x, y) in enumerate(zip(a, b))]
    return pairs, unmatched


def comparable(metrics):
    """What is set against ncu: each metric with an ncu equivalent, and for one without (the
    catalogue's ncu_metric null: local_memory_overhead, the atomics, l2_tex_hit_rate) each of
    its input counters, which ncu collects by the same name; gpuprof's report holds every
    input's value beside the metric's."""
    out = []
    for m in metrics:
        if m.get("ncu_metric"):
            out.append(m)
            continue
        for name in m["inputs"]:
            out.append({"key": "%s[%s]" % (m["key"], name), "metric": m["key"], "input": name,
                        "unit": "bytes" if "bytes" in name else "count", "inputs": [name],
                        "ncu_metric": name, "ncu_scale": 1})
    return out


def value_of(launch, key):
    entry = (launch.get("metrics") or {}).get(key)
    return entry.get("value") if entry else None


def measured(launch, m):
    """gpuprof's value of a comparable() row: the metric's, or one input's of its metric."""
    if "input" not in m:
        return value_of(launch, m["key"])
    entry = (launch.get("metrics") or {}).get(m["metric"]) or {}
    return (entry.get("inputs") or {}).get(m["input"])


def ncu_value(m, row):
    """ncu's value of metric m in gpuprof's unit (ncu_metric x ncu_scale), None if absent."""
    v = number(row.get(m["ncu_metric"])) if m.get("ncu_metric") else None
    return None if v is None else v * m["ncu_scale"]


def spread_of(m, rows_a, rows_b, index):
    """ncu against itself for metric m at the index-th kernel row: relative (counts) or in
    points (percentages); 0 when unknown."""
    if rows_b is None or index >= len(rows_a) or index >= len(rows_b):
        return 0.0
    a, b = ncu_value(m, rows_a[index]), ncu_value(m, rows_b[index])
    if a is None or b is None:
        return 0.0
    if is_percentage(m):
        return abs(a - b) * percent_factor(m)
    return abs(a - b) / max(abs(a), abs(b), 1e-12)


def compare(m, ours, theirs, spread=0.0):
    """One metric of one kernel: {'diff': text, 'tolerance': text, 'ok': bool}."""
    kind = kind_of(m)
    if ours is None or theirs is None:
        # Undefined on one side (a ratio of 0 / 0): agreed when the other is undefined or 0.
        other = theirs if ours is None else ours
        ok = other is None or other == 0
        return {"diff": "undefined" if ok else "one side undefined", "tolerance": "-",
                "ok": ok}
    if kind == "rate":
        if ours == 0 or theirs == 0:
            return {"diff": "-", "tolerance": "both 0", "ok": ours == theirs}
        ratio = ours / theirs
        return {"diff": "x%.3f" % ratio, "tolerance": "x1/%g-x%g" % (RATE_FACTOR, RATE_FACTOR),
                "ok": 1.0 / RATE_FACTOR <= ratio <= RATE_FACTOR}
    if is_percentage(m):
        diff = abs(ours - theirs) * percent_factor(m)
        tol = KERNEL_PT if kind == "kernel" else max(STATE_PT, 2 * spread)
        return {"diff": "%.3f pt" % diff, "tolerance": "%.3g pt" % tol, "ok": diff <= tol}
    rel = abs(ours - theirs) / max(abs(ours), abs(theirs), 1e-12)
    if kind == "kernel":
        return {"diff": "%.3f %%" % (100 * rel), "tolerance": "%g %%" % (100 * KERNEL_REL),
                "ok": rel <= KERNEL_REL}
    l1_state = any(i.startswith("l1tex__") and ("hit" in i or "miss" in i)
                   for i in m["inputs"])
    tol = max(L1_STATE_REL if l1_state else STATE_REL, 2 * spread)
    floor = STATE_FLOOR["bytes" if "byte" in m["unit"].lower() else "count"]
    ok = rel <= tol or abs(ours - theirs) <= floor
    return {"diff": "%.3f %%" % (100 * rel), "tolerance": "%.3g %% or %g" % (100 * tol, floor),
            "ok": ok}


def profile(program, args, group, cat, folder, ncu_runs=1):
    """Profile one program both ways: gpuprof exec, then ncu `ncu_runs` times (0: gpuprof
    alone). Returns a dict: rc, doc, out, err (gpuprof exec's), metrics (the group's catalogue
    rows), ncu_rc, ncu_err, rows (ncu's first run), rows2 (its second, for its own spread, or
    None), pairs, unmatched."""
    metrics = group_metrics(cat, group)
    tag = "%s-%s" % (program, group)
    rc, doc, out, err = run_exec(program, args, group, os.path.join(folder, tag + ".json"))
    res = {"rc": rc, "doc": doc, "out": out, "err": err, "metrics": metrics, "ncu_rc": None,
           "ncu_err": "", "rows": [], "rows2": None, "pairs": [], "unmatched": []}
    names = list(dict.fromkeys(m["ncu_metric"] for m in comparable(metrics)))
    if not names or ncu_runs < 1 or ncu_path() is None:
        return res
    runs = []
    for r in range(ncu_runs):
        nrc, rows, nerr = run_ncu(program, args, names,
                                  os.path.join(folder, "%s-ncu-%d.csv" % (tag, r)))
        res["ncu_rc"], res["ncu_err"] = nrc, nerr
        if nrc != 0:
            return res
        runs.append(rows)
    res["rows"] = runs[0]
    res["rows2"] = runs[1] if len(runs) > 1 else None
    res["pairs"], res["unmatched"] = pair_launches(doc, res["rows"])
    return res


def agreement_rows(res):
    """[(kernel, k, metric row, gpuprof value, ncu value, comparison)] of one profile()."""
    index = {id(row): i for i, row in enumerate(res["rows"])}
    out = []
    for name, k, launch, row in res["pairs"]:
        for m in comparable(res["metrics"]):
            spread = spread_of(m, res["rows"], res["rows2"], index[id(row)])
            ours, theirs = measured(launch, m), ncu_value(m, row)
            out.append((name, k, m, ours, theirs, compare(m, ours, theirs, spread)))
    return out


def sass_local_sectors(program, kernel, arch):
    """From cuobjdump -sass of PROGRAM for sm_ARCH: (store sectors, store instructions, load
    sectors, load instructions) one warp moves through local memory in `kernel` (every
    instruction executed once per warp: no loops, one path), or None without cuobjdump or
    without that architecture's SASS in the program. A warp's 4-byte local access is 128
    contiguous bytes (4 sectors), an 8-byte one 8, a 16-byte one 16."""
    tool = shutil.which("cuobjdump") or os.path.join(CUDA_HOME, "bin", "cuobjdump")
    if not os.access(tool, os.X_OK):
        return None
    p = subprocess.run([tool, "-sass", "-arch", "sm_" + arch, app(program)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None
    counts = {"STL": [0, 0], "LDL": [0, 0]}
    inside = found = False
    for line in p.stdout.splitlines():
        if "Function :" in line:
            inside = kernel in line.split("Function :", 1)[1]
            found = found or inside
            continue
        if not inside or "*/" not in line:
            continue
        fields = line.split("*/", 1)[1].split(";")[0].split()
        if fields and fields[0].startswith("@"):
            fields = fields[1:]
        op = fields[0] if fields else ""
        stem = op.split(".")[0]
        if stem in counts:
            width = 16 if ".128" in op else 8 if ".64" in op else 4
            counts[stem][0] += width
            counts[stem][1] += 1
    if not found:
        return None
    return counts["STL"][0], counts["STL"][1], counts["LDL"][0], counts["LDL"][1]
