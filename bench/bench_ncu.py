#!/usr/bin/env python3
"""Issue 4 benchmark: agreement and cost against Nsight Compute.

Agreement: ncu (--clock-control none, default cache flush, kernel replay) collects the same
PerfWorks counters, plus its own ratio metrics, on gpuprof's kernels run with --metrics=none;
gpuprof collects its metrics on the same kernels. Compared kernel by kernel: counts within
1 %, percentages within 1 point. Rates (GB/s) depend on each run's duration with unlocked
clocks and are shown, not judged. Counters that depend on the caches' state are shown against
ncu collecting every counter and against ncu collecting only them in one pass (see
reference_runs for how), after ncu's own cache flush (and, with --gpuprof-flush, after
gpuprof's: ncu --cache-control none); DRAM bytes and L2 hits of 1 M or more are judged, the
median of five gpuprof runs against the median of five ncu runs after ncu's flush, the runs
of each side spread over five placements of gpuprof's buffers in device memory
(PLACEMENTS_MB).

Cost: wall time of `gpuprof reduce` with the default metrics / wall time of ncu collecting
the same counters on the same kernels, medians of five alternating runs of each (target
<= 0.2). `--cost-only` skips the agreement part, `--agreement-only` the cost;
`--kernel-metrics-only` judges the instruction-determined metrics alone, one run of each tool."""
import argparse
import collections
import csv
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

from common import BIN, out_path, table, verdict

FAMILIES = {"reduce": "reduce|Reduce", "transpose": "Gmem|transpose"}

# Counters that depend on the state the kernel finds (what L2 holds, what is still dirty in
# it when the range ends, how long after the L2 flush the kernel starts) or on timing
# (active cycles and warps vary run to run, small bank conflict counts too). Their
# differences are shown next to ncu's own run-to-run spread;
# the others are properties of the kernel's instructions and must agree within 1 %.
STATE_DEPENDENT = ("dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_lookup_hit.sum",
                   "lts__t_sectors_lookup_miss.sum", "lts__t_sectors_srcunit_tex_lookup_hit.sum",
                   "lts__t_sectors_srcunit_tex_lookup_miss.sum", "sm__cycles_active.sum",
                   "sm__warps_active.sum",
                   "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                   "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")


# The cache-state counters ncu can collect in a single pass, in groups, each collected alone.
# ncu's own value for them moves with the other counters it collects alongside, that is with
# the replay pass that collects them (on an H100, reduce shfl wrote 0.18 MB to DRAM in a
# one-pass run, 2.39 MB with --metrics=all; the L2 hits of transpose copy ranged from 3.24 M
# to 3.33 M over ncu runs with different counter sets, gpuprof's from 3.22 M to 3.25 M), so
# gpuprof's are also set against ncu collecting only each group. The L2 hits of the SMs' own
# requests (lts__t_sectors_srcunit_tex_lookup_hit, l2_tex_hit_rate's input) are shown next to
# all-lookup hits: see FLUSHES for where the two part. (lts__t_sectors_lookup_miss.sum added to
# the L2 group made ncu replay every kernel 3 times on an H100, with the L2 hits 3 % higher.)
ONE_PASS_GROUPS = (("dram__bytes_read.sum", "dram__bytes_write.sum"),
                   ("lts__t_sectors_lookup_hit.sum", "lts__t_sectors_srcunit_tex_lookup_hit.sum"))
ONE_PASS_STATE = tuple(n for g in ONE_PASS_GROUPS for n in g)


def catalogue(chip="GH100"):
    p = subprocess.run([BIN, "metrics", "--chip=" + chip, "--json"], capture_output=True, text=True)
    return json.loads(p.stdout)["metrics"]


def counters_of(cat, sets, also=()):
    """The counters of the metrics in `sets` and of the metrics named in `also`, then the
    clock counters gpuprof always collects."""
    names = []
    for m in cat:
        if m["set"] in sets or m["key"] in also:
            names += [i for i in m["inputs"] if i not in names]
    return names + [c for c in ("gpu__time_duration.sum", "sm__cycles_elapsed.avg",
                                "dram__cycles_elapsed.avg") if c not in names]


def number(text):
    text = text.replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        return None


FLUSH_KERNEL = "gp_flush_l2"

# Where in the GPU's physical memory gpuprof's buffers lie moves the cache-state counts of
# some kernels, in gpuprof and in ncu alike, and ncu's injection takes device memory of its
# own, so one run of each does not compare the same placement. On an H100 (2026-11-23), with
# 0-168 MB of device memory taken ahead of gpuprof's buffers in 24 MB steps, the naive
# transpose wrote 52.09-53.18 MB to DRAM in gpuprof and 52.03-53.26 MB in ncu, the two up to
# 2.1 % apart at the same padding, while their medians over the eight placements were
# 52.40 and 52.41 MB (reads 70.98 and 70.84 MB). So the runs of each side behind the judged
# medians are spread over these placements: the k-th run of gpuprof and of ncu takes
# PLACEMENTS_MB[k] MB first (bench/device_pad.c, preloaded).
PLACEMENTS_MB = (0, 24, 48, 72, 96)
CUDA_HOME = os.environ.get("CUDA_HOME", "/usr/local/cuda")


def device_pad_library():
    """Build bench/device_pad.c into the output folder once; its path."""
    lib = os.path.abspath(out_path("device_pad.so"))
    if not os.path.exists(lib):
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "device_pad.c")
        subprocess.run(["cc", "-Wall", "-Wextra", "-std=c11", "-O2", "-shared", "-fPIC",
                        "-I" + os.path.join(CUDA_HOME, "include"), "-o", lib, src,
                        "-L" + os.path.join(CUDA_HOME, "lib64", "stubs"), "-lcuda"], check=True)
    return lib


def placement_env(pad_mb):
    """The environment of a run whose device buffers lie after pad_mb MB taken first."""
    env = dict(os.environ)
    if pad_mb:
        env["LD_PRELOAD"] = " ".join(filter(None, [device_pad_library(),
                                                   env.get("LD_PRELOAD")]))
        env["GPUPROF_BENCH_PAD_MB"] = str(pad_mb)
        # gpuprof sets this in main(), after the preloaded library created the context.
        env.setdefault("CUDA_DEVICE_MAX_CONNECTIONS", "1")
    return env


def run_ncu(family, metrics, extra=(), ncu_args=(), with_flush=False, pad_mb=0):
    """Profile `gpuprof family --metrics=none` under ncu (ncu_args: more ncu options, extra:
    more gpuprof options; with_flush: profile gpuprof's L2-flush kernel too, as gpuprof's own
    session does, and leave its rows out; pad_mb: see placement_env); (kernel rows, wall s,
    passes, json)."""
    log = out_path("ncu-%s.csv" % family)
    kernels = FAMILIES[family] + ("|" + FLUSH_KERNEL if with_flush else "")
    cmd = ["ncu", "--clock-control", "none"] + list(ncu_args) + [
           "--csv", "--page", "raw", "--print-units", "base",
           "--kernel-name", "regex:" + kernels, "--metrics", ",".join(metrics),
           "--log-file", log, BIN, family, "--metrics=none", "--warmup=0", "--repeat=1",
           "--json"] + list(extra)
    start = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, env=placement_env(pad_mb))
    wall = time.time() - start
    if p.returncode != 0:
        sys.stderr.write(p.stderr[-3000:])
        raise SystemExit("ncu failed on %s (exit %d)" % (family, p.returncode))
    text = open(log).read()
    body = "\n".join(l for l in text.splitlines() if l.startswith('"'))
    rows = list(csv.DictReader(io.StringIO(body)))
    rows = [r for r in rows if r.get("ID", "").strip().isdigit()  # drop the units row
            and FLUSH_KERNEL not in r.get("Kernel Name", "")]
    # The raw page has each kernel's replay passes (ncu prints no "N passes" line there).
    passes = sorted({int(float(v)) for v in (number(r.get("profiler__replayer_passes") or "")
                                              for r in rows) if v is not None})
    doc = p.stdout[p.stdout.find("{"):p.stdout.rfind("}") + 1]  # in case ncu wrote lines too
    return rows, wall, passes, json.loads(doc)


def run_gpuprof(family, metric_set, extra=(), label=None, pad_mb=0):
    start = time.time()
    p = subprocess.run([BIN, family, "--metrics=" + metric_set, "--json"] + list(extra),
                       capture_output=True, text=True, env=placement_env(pad_mb))
    wall = time.time() - start
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit("gpuprof %s failed (exit %d)" % (family, p.returncode))
    with open(out_path("gpuprof-%s-%s.json" % (family, label or metric_set)), "w") as f:
        f.write(p.stdout)
    return json.loads(p.stdout), wall


def ncu_spread(first, second):
    """Per kernel and counter, how much two ncu runs of the same kernel differ (relative)."""
    spread = []
    for a, b in zip(first, second):
        d = {}
        for name, va in a.items():
            x, y = number(va or ""), number(b.get(name) or "")
            if x is not None and y is not None:
                d[name] = abs(x - y) / max(abs(x), abs(y), 1e-12)
        spread.append(d)
    return spread


def kind_of(cat, name):
    """'rate' (depends on the run's duration), 'state' (cache/timing state) or 'kernel'."""
    for m in cat:
        if m["key"] == name:
            if m["unit"] == "GB/s" or m["key"] == "dram_utilization":
                return "rate"
            return "state" if any(i in STATE_DEPENDENT for i in m["inputs"]) else "kernel"
    return "state" if name in STATE_DEPENDENT else "kernel"


def launch_inputs(launch):
    """{PerfWorks counter: value} of one launch in gpuprof's JSON."""
    return {n: v for m in (launch["metrics"] or {}).values() for n, v in m["inputs"].items()}


def compare_kernel(ours, theirs, cat):
    """[(metric, ours, ncu, diff text, judged, ok)] for one kernel."""
    out = []
    for m in cat:
        v = (ours["metrics"] or {}).get(m["key"])
        if not m["ncu_metric"] or not v or v["value"] is None:
            continue
        t = number(theirs.get(m["ncu_metric"], ""))
        if t is None:
            continue
        t *= m["ncu_scale"]
        a = v["value"]
        if m["unit"] in ("%", "fraction"):
            f = 100.0 if m["unit"] == "fraction" else 1.0
            diff = abs(a - t) * f
            out.append((m["key"], a, t, "%.3f pt" % diff, True, diff <= 1.0))
        elif m["unit"] == "GB/s":
            rel = abs(a - t) / max(abs(t), 1e-12)
            out.append((m["key"], a, t, "%.2f %%" % (100 * rel), False, True))
        else:
            rel = abs(a - t) / max(abs(a), abs(t), 1e-12)
            out.append((m["key"], a, t, "%.3f %%" % (100 * rel), True, rel <= 0.01))
    # The raw counters themselves.
    for name, value in sorted(launch_inputs(ours).items()):
        t = number(theirs.get(name, ""))
        if t is None or value is None or name.endswith("peak_sustained"):
            continue
        if name in ("gpu__time_duration.sum", "sm__cycles_elapsed.avg", "dram__cycles_elapsed.avg"):
            continue  # durations: a property of each run, not of the kernel
        rel = abs(value - t) / max(abs(value), abs(t), 1e-12)
        out.append((name, value, t, "%.3f %%" % (100 * rel), True, rel <= 0.01))
    uniq = {}
    for row in out:
        uniq.setdefault(row[0], row)
    return [r + (kind_of(cat, r[0]),) for r in uniq.values()]


# How ncu is run for the cache-state references, each protocol set by an artefact of ncu's
# own that it leaves out (H100, 2026-11-23, scratch runs of ncu on gpuprof --metrics=none):
# - DRAM: the first range ncu profiles in a process counts about 2.3 MB more DRAM writes
#   (transpose copy 51.05 MB first, 48.7 later; tile 46.4 / 44.0; reduce neighbored 46.8 /
#   44.6). With gpuprof's flush kernel profiled too, every kernel's range follows a flush's
#   range, as in gpuprof's own session, and the first kernel counts what the others do (copy
#   48.8, tile 44.2, neighbored 44.6; gpuprof 48.5-48.8, 44.1, 44.55).
# - L2 hits of all lookups: after ncu's cache flush, a kernel ncu profiles after others makes
#   1.5-4 % more lookup hits that are not its SMs' (copy 3.24 M as the first, 3.26 M after
#   naive, 3.31 M after four others; 3.30-3.33 M with the flush profiled too), while the first
#   kernel ncu profiles in a process counts what gpuprof counts (3.24 M; gpuprof 3.24-3.25 M;
#   the SMs' own hits are the same to the sector in every case). So each variant gets its own
#   ncu process.
# Each run of either group takes its own placement (PLACEMENTS_MB), as do gpuprof's runs.
REFERENCE_RUNS = len(PLACEMENTS_MB)
DRAM_GROUP, L2_GROUP = ONE_PASS_GROUPS


def reference_runs(family, launches, ncu_args=()):
    """{(variant, k-th kernel of it): [{counter: value}]}: REFERENCE_RUNS one-pass ncu runs of
    each group of ONE_PASS_GROUPS, by the protocols above, the r-th at PLACEMENTS_MB[r]."""
    variants = list(dict.fromkeys(v for v, _ in launches))
    kernels = collections.Counter(v for v, _ in launches)
    samples = {}

    def add(order, group, rows, what):
        keys = [(v, j) for v in order for j in range(kernels[v])]
        if len(rows) != len(keys):
            print("%s, %s (%s): ncu profiled %d kernels, gpuprof %d"
                  % (family, what, ", ".join(group), len(rows), len(keys)))
            return
        for key, row in zip(keys, rows):
            samples.setdefault(key, {}).setdefault(tuple(group), []).append(
                {n: row.get(n) for n in group})

    passes = set()
    for r, pad in enumerate(PLACEMENTS_MB):
        rows, _, p, _ = run_ncu(family, list(DRAM_GROUP), ["--variant=" + ",".join(variants)],
                                ncu_args, with_flush=True, pad_mb=pad)
        add(variants, DRAM_GROUP, rows, "run %d, flush kernels profiled" % (r + 1))
        passes.update(p)
        for v in variants:
            rows, _, p, _ = run_ncu(family, list(L2_GROUP), ["--variant=" + v], ncu_args,
                                    pad_mb=pad)
            add([v], L2_GROUP, rows, "%s alone, run %d" % (v, r + 1))
            passes.update(p)
    if passes != {1}:
        print("%s: the one-pass references took %s passes, not 1: their values are not "
              "one-pass values" % (family, sorted(passes)))
    # [{counter: value}] per kernel: the r-th runs of the groups merged.
    return {key: [dict(kv for g in groups.values() for kv in g[r].items())
                  for r in range(min(len(g) for g in groups.values()))]
            for key, groups in samples.items()}


def against(ours, runs, name):
    """gpuprof's value against ncu's one-pass runs: (text of median and range, difference
    from the median, ncu's own spread, whether gpuprof lies in ncu's range +-1 %, median)."""
    alone = sorted(v for v in (number(r.get(name) or "") for r in runs) if v is not None)
    if not alone:
        return None
    mid, lo, hi = statistics.median(alone), alone[0], alone[-1]
    rel = abs(ours - mid) / max(abs(ours), abs(mid), 1.0)
    own = (hi - lo) / max(abs(hi), 1.0)
    inside = lo - 0.01 * abs(lo) <= ours <= hi + 0.01 * abs(hi)
    return "%.4g (%.4g-%.4g)" % (mid, lo, hi), rel, own, inside, mid


# ncu flushes and invalidates the caches before each kernel (--cache-control all, its default);
# gpuprof reads a buffer three times the L2 and discards it. Under --cache-control none ncu
# leaves the caches as the target left them: gpuprof --metrics=none still flushes before each
# kernel, so ncu then measures the kernel in the state gpuprof measures it in. On an H100 the
# two flushes left the SMs' own L2 lookups the same, but after ncu's, a kernel ncu profiled
# after others made 2-3 % more L2 lookup hits of other origin (transpose copy 3.33 M against
# 3.24 M; with gpuprof's flush under ncu 3.24 M; as the first kernel ncu profiles, 3.24 M after
# ncu's flush too: see reference_runs). Each reference: (ncu options, what it is called). The
# first is the judged one; the second, a diagnostic that doubles the ncu runs, only with
# --gpuprof-flush.
FLUSHES = (((), "ncu's flush"), (("--cache-control", "none"), "gpuprof's flush"))


def state_alone(family, launches, rows_all, state_runs, flushes):
    """State-dependent counters: gpuprof (the median of its REFERENCE_RUNS runs, state_runs:
    per run, per kernel, its counters) vs ncu collecting all counters vs ncu collecting only
    these (one pass per group, REFERENCE_RUNS times, by the protocols of reference_runs), after
    each flush of `flushes` (FLUSHES). The runs of each side are spread over PLACEMENTS_MB.
    Counts of 1 M or more are judged, median against median, against ncu's runs after ncu's
    flush; the rest are shown."""
    samples = {flush: reference_runs(family, launches, flush) for flush, _ in flushes}
    table_rows, worst, worst_self, outside, over = [], {}, {}, {}, []
    seen = collections.Counter()
    for k, ((variant, _), all_row) in enumerate(zip(launches, rows_all)):
        key = (variant, seen[variant])
        seen[variant] += 1
        for name in ONE_PASS_STATE:
            values = sorted(v for v in (run[k].get(name) for run in state_runs if k < len(run))
                            if v is not None)
            t_all = number(all_row.get(name, ""))
            if not values or t_all is None:
                continue
            ours = statistics.median(values)
            cells = [variant, name, "%.4g (%.4g-%.4g)" % (ours, values[0], values[-1]),
                     "%.4g" % t_all]
            for flush, _ in flushes:
                ref = against(ours, samples[flush].get(key, []), name)
                if ref is None:
                    cells += ["-", "-", "-"]
                    continue
                text, rel, own, inside, mid = ref
                if max(ours, mid) >= 1e6:  # below 1 MB (or 1 M sectors) a few lines decide
                    worst[flush] = max(worst.get(flush, 0.0), rel)
                    worst_self[flush] = max(worst_self.get(flush, 0.0), own)
                    if not inside:
                        outside.setdefault(flush, []).append("%s %s" % (variant, name))
                    if flush == FLUSHES[0][0] and rel > 0.01:
                        over.append("%s %s %.2f %%" % (variant, name, 100 * rel))
                cells += [text, "%.2f %%" % (100 * rel), "yes" if inside else "no"]
            table_rows.append(cells)
    print("\n%s: cache-state counters, gpuprof vs ncu with every counter vs ncu with only these "
          "(one pass per group: %s; %d runs of each side, at %s MB of device memory taken "
          "first; DRAM with gpuprof's flush kernel profiled too, L2 with each variant in its own "
          "ncu process), after %s"
          % (family, " | ".join(", ".join(g) for g in ONE_PASS_GROUPS), REFERENCE_RUNS,
             "/".join(map(str, PLACEMENTS_MB)),
             " and after ".join(what + (" (ncu %s)" % " ".join(o) if o else "")
                                for o, what in flushes)))
    headers = ["variant", "counter", "gpuprof, %d runs" % len(state_runs), "ncu (all)"]
    for _, what in flushes:
        headers += ["ncu alone, " + what, "diff", "in range +-1 %"]
    table(headers, table_rows)
    for flush, what in flushes:
        print("after %s: largest difference from ncu alone, counts of 1 M or more: %.2f %% (ncu "
              "alone against itself: up to %.2f %%); outside ncu's own range +-1 %%: %s"
              % (what, 100 * worst.get(flush, 0.0), 100 * worst_self.get(flush, 0.0),
                 ", ".join(outside.get(flush, [])) or "none"))
    print("%s cache-state counts of 1 M or more against the median of ncu's runs after its own "
          "flush: %s" % (family, "every one within 1 %" if not over
                         else "over 1 %: " + ", ".join(over)))
    return not over


def agreement(family, cat, flushes, kernel_only=False):
    """(kernel metrics agree, cache-state counts agree); with kernel_only one run of each
    tool and the cache-state counts not judged (None)."""
    # --metrics=all: every group's metrics ("set" is a metric's group).
    ncu_metrics = counters_of(cat, {m["set"] for m in cat}) + [m["ncu_metric"] for m in cat
                                                               if m["ncu_metric"]]
    ncu_metrics = list(dict.fromkeys(ncu_metrics))
    rows, _, _, _ = run_ncu(family, ncu_metrics)
    rows2 = rows if kernel_only else run_ncu(family, ncu_metrics)[0]
    spread = ncu_spread(rows, rows2)
    # The cache-state counts move with placement: the k-th run at PLACEMENTS_MB[k], as ncu's.
    # The first run's kernel metrics are the ones compared.
    placements = PLACEMENTS_MB[:1] if kernel_only else PLACEMENTS_MB
    docs = [run_gpuprof(family, "all", ["--warmup=0", "--repeat=1"],
                        label="all" if k == 0 else "all-%d" % (k + 1), pad_mb=pad)[0]
            for k, pad in enumerate(placements)]
    launches = [(r["variant"], l) for r in docs[0]["results"] for l in r["launches"]]
    state_runs = [[launch_inputs(l) for r in doc["results"] for l in r["launches"]]
                  for doc in docs]
    if len(launches) != len(rows):
        print("kernel count differs: gpuprof %d, ncu %d" % (len(launches), len(rows)))
    summary, details, bad = [], [], []
    for k, ((variant, launch), theirs) in enumerate(zip(launches, rows)):
        comp = compare_kernel(launch, theirs, cat)
        judged = [c for c in comp if c[4] and c[6] == "kernel"]
        fails = [c for c in judged if not c[5]]
        counts = [float(c[3].split()[0]) for c in judged if c[3].endswith("%")]
        points = [float(c[3].split()[0]) for c in judged if c[3].endswith("pt")]
        state = [c for c in comp if c[6] != "kernel" and c[4] and not c[5]]
        summary.append([variant, theirs["Kernel Name"][:30], len(judged),
                        "%.3f" % max(counts or [0]), "%.3f" % max(points or [0]),
                        "yes" if not fails else "NO (%d)" % len(fails), len(state)])
        for c in comp:
            details.append([variant, c[0], c[6], "%.6g" % c[1], "%.6g" % c[2], c[3],
                            "-" if not c[4] else ("ok" if c[5] else "DIFF"),
                            "ncu vs ncu " + ncu_self(cat, c[0], spread[k])])
        bad += [(variant, c, ncu_self(cat, c[0], spread[k])) for c in fails + state]
    print("\n%s: gpuprof --metrics=all vs ncu --clock-control none, per kernel" % family)
    table(["variant", "ncu kernel", "kernel metrics", "max count diff %", "max pct diff pt",
           "agree", "state-dependent > 1"], summary)
    with open(out_path("agreement-%s.txt" % family), "w") as f:
        for d in details:
            f.write("  ".join(str(x) for x in d) + "\n")
    for variant, c, self_diff in bad:
        print("  %s %s %s: gpuprof %.6g, ncu %.6g (%s); ncu vs ncu %s" % (
            "DIFF" if c[6] == "kernel" else c[6], variant, c[0], c[1], c[2], c[3], self_diff))
    state_ok = None if kernel_only else state_alone(family, launches, rows, state_runs, flushes)
    return not any(c[6] == "kernel" for _, c, _ in bad), state_ok


def ncu_self(cat, key, spread):
    """ncu's own run-to-run difference for a metric key or counter, as text."""
    names = [key]
    for m in cat:
        if m["key"] == key:
            names = [m["ncu_metric"]] + m["inputs"] if m["ncu_metric"] else m["inputs"]
    values = [spread[n] for n in names if n in spread]
    return "%.3f %%" % (100 * max(values)) if values else "?"


COST_RUNS = 5  # wall times on a shared machine move by 5-10 %: the median of five of each

# The metrics of the `all` set that count the SMs' own activity. The default set left them
# out on 2026-11-23 (a pass holding one costs about 1 ms per kernel, flushes included); the
# cost with them is shown next to the target's.
SM_ACTIVITY = ("achieved_occupancy", "shared_load_bank_conflicts", "shared_store_bank_conflicts")


def cost(cat):
    """gpuprof against ncu on the same counters: the default set (the target's) and the
    default set with the SM-activity metrics."""
    keys = [m["key"] for m in cat if m["set"] == "default"]
    counters = counters_of(cat, ("default",))
    # (gpuprof's --metrics, name of its saved JSON, ncu's counters)
    sets = (("default", "default", counters),
            (",".join(keys + list(SM_ACTIVITY)), "default+sm",
             counters_of(cat, ("default",), SM_ACTIVITY)))
    # gpuprof and ncu alternate, so a drift of the machine's speed falls on both.
    ours, theirs = [[] for _ in sets], [[] for _ in sets]
    for _ in range(COST_RUNS):
        for k, (metrics, label, names) in enumerate(sets):
            ours[k].append(run_gpuprof("reduce", metrics, label=label))
            theirs[k].append(run_ncu("reduce", names))
    _, ours_once = run_gpuprof("reduce", "default", ["--warmup=0", "--repeat=1"])
    _, bare = run_gpuprof("reduce", "none", ["--warmup=0", "--repeat=1"])
    _, one = run_gpuprof("reduce", "default", ["--warmup=0", "--repeat=1", "--variant=shfl"])
    _, one_bare = run_gpuprof("reduce", "none", ["--warmup=0", "--repeat=1", "--variant=shfl"])
    each = lambda xs: " ".join("%.2f" % x for x in xs)
    wall = lambda runs: statistics.median(r[1] for r in runs)
    wall_cell = lambda runs: "%.2f (%s)" % (wall(runs), each(r[1] for r in runs))
    gpuprof_passes = lambda runs: runs[0][0]["profiler"].get("passes", "-")
    ncu_passes = lambda runs: ",".join(map(str, runs[0][2])) or "?"
    print("\ncost: gpuprof reduce --variant=all, default metrics (%d counters)" % len(counters))
    table(["run", "wall s", "passes"],
          [["gpuprof reduce (20 timed + 3 warm-up launches, then profiled)", wall_cell(ours[0]),
            gpuprof_passes(ours[0])],
           ["gpuprof reduce --repeat=1 --warmup=0", "%.2f" % ours_once, gpuprof_passes(ours[0])],
           ["  same, --metrics=none (start-up, data, checks)", "%.2f" % bare, "-"],
           ["  --variant=shfl only, default metrics", "%.2f" % one, "-"],
           ["  --variant=shfl only, --metrics=none", "%.2f" % one_bare, "-"],
           ["ncu --metrics <same counters> on the same kernels", wall_cell(theirs[0]),
            ncu_passes(theirs[0])],
           ["gpuprof reduce, default + %s" % ", ".join(SM_ACTIVITY), wall_cell(ours[1]),
            gpuprof_passes(ours[1])],
           ["ncu on the same kernels and those counters", wall_cell(theirs[1]),
            ncu_passes(theirs[1])]])
    print("with the SM-activity metrics as well (not the target's set): gpuprof / ncu = %.3f"
          % (wall(ours[1]) / wall(theirs[1])))
    print("gpuprof / ncu wall time, medians of %d runs = " % COST_RUNS
          + verdict(wall(ours[0]) / wall(theirs[0]), 0.2, higher_is_better=False))


def parse_args():
    parser = argparse.ArgumentParser(description="gpuprof's metrics and cost against ncu's.")
    part = parser.add_mutually_exclusive_group()
    part.add_argument("--agreement-only", action="store_true", help="skip the cost part")
    part.add_argument("--cost-only", action="store_true", help="skip the agreement part")
    parser.add_argument("--kernel-metrics-only", action="store_true",
                        help="agreement of the instruction-determined metrics only: one run of "
                             "each tool, the cache-state counts not judged (a quick check)")
    parser.add_argument("--gpuprof-flush", action="store_true",
                        help="also set the cache-state counts against ncu after gpuprof's L2 "
                             "flush (ncu --cache-control none; twice the ncu runs)")
    return parser.parse_args()


def main():
    args = parse_args()
    if not shutil.which("ncu"):
        raise SystemExit("ncu not found")
    p = subprocess.run([BIN, "metrics", "--json"], capture_output=True, text=True)
    chip = json.loads(p.stdout).get("chip") or "GH100"
    cat = catalogue(chip)
    if not args.cost_only:
        flushes = FLUSHES if args.gpuprof_flush else FLUSHES[:1]
        results = [agreement(family, cat, flushes, args.kernel_metrics_only)
                   for family in ("reduce", "transpose")]
        print("\nagreement of the kernel metrics (instruction-determined counters and what "
              "derives from them): %s" % ("every one within 1 % / 1 point"
                                          if all(k for k, _ in results) else "DIFF lines above"))
        if not args.kernel_metrics_only:
            print("agreement of the cache-state counts of 1 M or more (DRAM bytes, L2 hits), "
                  "against ncu's flush: %s" % ("every one within 1 %"
                                               if all(st for _, st in results)
                                               else "over 1 % lines above"))
    if not args.agreement_only:
        cost(cat)


if __name__ == "__main__":
    main()
