#!/usr/bin/env python3
"""On a GPU: gpuprof exec --replay (issue 26). The default set takes two one-pass groups on
GH100 (SASS counters; DRAM bytes, duration and clocks). auto replays each signature's first
launch and gives the later ones one group each; rotate never replays; application runs the
program once per group. Instruction-determined counters must equal --replay=kernel's launch
for launch; programs keep their results in every mode; a signature launched once under
rotate says what it lacks. Skips without a GPU."""
import json
import os
import subprocess
import tempfile

import tap
from gpuprof import BIN, app, require_gpu
from schema import validate
from test_exec import EXACT, exec_json, launches, metric

SASS_KEYS = ("gld_transactions_per_request", "gst_transactions_per_request", "gld_efficiency",
             "gst_efficiency")
MODES = ("auto", "rotate", "kernel", "application")


def exact_counters(launch):
    """The instruction-determined counters a launch carries, by name."""
    out = {}
    for m in (launch["metrics"] or {}).values():
        for c, v in m["inputs"].items():
            if any(e in c for e in EXACT) and v is not None:
                out[c] = v
    return out


def kernel_stats(doc, name):
    for k in doc["exec"]["kernels"] if doc else []:
        if name in k["kernel"]:
            return k
    return None


def test_auto():
    rc, doc, out, err = exec_json(app("copy"), "coalesced", "2^24", "20")
    ls = launches(doc, "copyCoalesced")
    if not tap.ok(rc == 0 and doc and len(ls) == 20 and "copy: ok" in out,
                  "auto: copy x20 ran, 20 launches", err):
        return
    valid, why = validate(doc, "gpuprof-report-v1.schema.json")
    tap.ok(valid, "auto: the report is valid against the schema", why)
    p = doc["profiler"]
    tap.ok(p.get("replay") == "auto" and p.get("pass_groups") == 2,
           "auto: the profiler says auto, 2 one-pass groups", p)
    tap.ok(ls[0].get("passes") == [0, 1] and all(l.get("passes") == [1] for l in ls[1:]),
           "auto: the first launch carries both passes, the later ones the uninstrumented one",
           [l.get("passes") for l in ls])
    tap.ok(all(l["profiled"] for l in ls) and
           all(metric(l, "dram_read_bytes") for l in ls) and
           all(metric(l, "gst_efficiency") is None for l in ls[1:]),
           "auto: every launch has its DRAM bytes, only the first its SASS metrics")
    k = kernel_stats(doc, "copyCoalesced")
    m = k["metrics"] if k else {}
    eff = m.get("gst_efficiency") or {}
    tap.ok(k and k.get("passes") == [0, 1] and eff.get("launches") == 1 and
           (m.get("dram_read_bytes") or {}).get("launches") == 20 and
           near_pct(eff.get("average"), 100.0),
           "auto: the kernel's SASS metrics from 1 launch, its DRAM bytes from 20", k)
    tap.ok(all((l["duration_ms"] or 0) > 0 for l in ls),
           "auto: every launch timed (replayed and uninstrumented ones)")


def test_rotate():
    rc, doc, out, err = exec_json("--replay=rotate", app("copy"), "coalesced", "2^24", "10")
    ls = launches(doc, "copyCoalesced")
    if not tap.ok(rc == 0 and len(ls) == 10 and "copy: ok" in out, "rotate: copy x10 ran",
                  err):
        return
    tap.ok([l.get("passes") for l in ls] == [[0]] + [[1]] * 9,
           "rotate: the SASS pass first, then the other, no launch with both",
           [l.get("passes") for l in ls])
    tap.ok(ls[0]["duration_ms"] is None and all((l["duration_ms"] or 0) > 0 for l in ls[1:]),
           "rotate: the instrumented launch untimed, the others timed",
           [l["duration_ms"] for l in ls])
    k = kernel_stats(doc, "copyCoalesced")
    m = k["metrics"] if k else {}
    eff = m.get("gst_efficiency") or {}
    thr = m.get("gld_throughput") or {}
    tap.ok(near_pct(eff.get("average"), 100.0) and thr.get("combined") and
           (thr.get("average") or 0) > 0,
           "rotate: the kernel has every metric; gld_throughput combined from both passes",
           (eff, thr))
    rc, doc, _, err = exec_json("--replay=rotate", app("copy"), "strided", "2^24", "1")
    st = launches(doc, "copyStrided")
    reason = (st[0]["metrics"].get("dram_read_bytes") or {}).get("reason", "") if st else ""
    tap.ok(rc == 0 and len(st) == 1 and st[0].get("passes") == [0] and
           "not collected in this launch" in reason and
           near_pct(metric(st[0], "gst_efficiency"), 12.5),
           "rotate: a kernel launched once has its SASS metrics, DRAM bytes n/a with the reason",
           reason)
    rc, doc, _, err = exec_json(app("copy"), "strided", "2^24", "1")
    st = launches(doc, "copyStrided")
    tap.ok(rc == 0 and len(st) == 1 and metric(st[0], "dram_read_bytes") and
           near_pct(metric(st[0], "gst_efficiency"), 12.5),
           "auto: the same kernel launched once gets complete metrics", err)


def near_pct(v, want):
    return v is not None and abs(v - want) < 0.01


def test_counters_equal_kernel_replay():
    """Launch for launch, every instruction-determined counter a launch carries equals the
    same launch's under --replay=kernel."""
    args = [app("copy"), "both", "2^22", "3"]
    _, ref, _, _ = exec_json("--replay=kernel", *args)
    want = [exact_counters(l) for l in launches(ref)]
    for mode in ("auto", "rotate", "application"):
        rc, doc, _, err = exec_json("--replay=" + mode, *args)
        got = [exact_counters(l) for l in launches(doc)]
        compared = sum(len(g) for g in got)
        same = len(got) == len(want) and all(want[i].get(c) == v for i, g in enumerate(got)
                                             for c, v in g.items())
        tap.ok(rc == 0 and compared > 0 and same,
               "%s: %d instruction-determined counters equal --replay=kernel's, launch for "
               "launch" % (mode, compared), err)


def test_application():
    rc, doc, out, err = exec_json("--replay=application", app("copy"), "both", "2^22", "2")
    ls = launches(doc)
    tap.ok(rc == 0 and len(ls) == 4 and out.count("copy: ok") == 1 and
           all(l.get("passes") == [0, 1] for l in ls) and
           all(metric(l, "gst_efficiency") is not None and metric(l, "dram_read_bytes")
               for l in ls),
           "application: 4 launches, each with both passes from two runs; one run's output",
           (err, [l.get("passes") for l in ls]))
    with tempfile.TemporaryDirectory() as tmp:
        state = os.path.join(tmp, "state")
        rc, doc, out, err = exec_json("--replay=application", app("varying"), state)
        warned = [w for w in (doc or {}).get("warnings", []) if "application replay" in w]
        tap.ok(rc == 0 and len(launches(doc)) == 3 and warned and "varyingStep" in warned[0],
               "application: a run that launches more is warned about, naming the kernel",
               (err, warned))


def test_sass_metrics_alone():
    """SASS metrics alone take two passes with the clocks every set adds: rotated, each
    kernel's SASS pass (a kernel-replay session of one pass: the kernel runs once) gives its
    store efficiency, and the kernel's summary has it."""
    rc, doc, _, err = exec_json("--replay=rotate", "--metrics=gld_efficiency,gst_efficiency",
                                app("copy"), "both", "2^22", "3")
    sass = [l for l in launches(doc) if 0 in (l.get("passes") or [])]
    want = {"copyCoalesced": 100.0, "copyStrided": 12.5}
    k = {x["kernel"].split("(")[0]: x for x in doc["exec"]["kernels"]} if doc else {}
    tap.ok(rc == 0 and doc and doc["profiler"]["pass_groups"] == 2 and len(sass) >= 2 and
           all(near_pct(metric(l, "gst_efficiency"), want[l["kernel"].split("(")[0]])
               for l in sass) and
           all(near_pct(k[n]["metrics"]["gst_efficiency"]["average"], v)
               for n, v in want.items() if n in k) and len(k) == 2,
           "SASS metrics alone, rotated: each SASS launch's store efficiency (100 %, 12.5 %), "
           "and each kernel's", (err, [metric(l, "gst_efficiency") for l in sass]))


def test_programs_stay_correct():
    for mode in MODES:
        rc, doc, out, err = exec_json("--replay=" + mode, app("inplace"), "5")
        tap.ok(rc == 0 and "inplace: ok" in out and len(launches(doc, "scaleInPlace")) == 5,
               "%s: an in-place kernel launched 5 times keeps its result" % mode, err)
        rc, doc, out, err = exec_json("--replay=" + mode, app("graph"))
        tap.ok(rc == 0 and "graph: ok" in out and
               len([l for l in launches(doc) if l["graph_node"]]) == 6,
               "%s: the graph program runs its 6 nodes and passes its check" % mode, err)
        rc, doc, out, err = exec_json("--replay=" + mode, app("hold"), "1", "40")
        tap.ok(rc == 0 and "hold: ok" in out and len(launches(doc, "holdCopy")) == 40,
               "%s: 1 GiB held, 40 launches, the right result" % mode, err)


def device_gib():
    p = subprocess.run([BIN, "device", "--device=0", "--json"], capture_output=True, text=True,
                       timeout=120)
    try:
        return json.loads(p.stdout)["devices"][0]["memory_bytes"] / 2 ** 30
    except (ValueError, KeyError, IndexError, TypeError):
        return None


def footprint(doc):
    return ((doc or {}).get("profiler") or {}).get("auto_replay")


def test_footprint():
    """auto decides by footprint (issue 35): holding nothing it replays each signature's first
    launch; holding 3/4 of the device (a copy would not fit in what is free) or more than the
    16 GiB budget it does not, every launch collects one group, and the report says why."""
    total = device_gib()
    if not tap.ok(total, "the device's memory is known (%s GiB)" % total):
        return
    rc, doc, out, err = exec_json(app("hold"), "0", "10")
    f = footprint(doc)
    first = launches(doc, "holdCopy")[:1]
    tap.ok(rc == 0 and f and f["replay"] and f["held_bytes"] < f["free_bytes"] and first and
           first[0]["profiled"] and len(first[0]["passes"] or [0, 1]) == 2,
           "auto, nothing held: replays the first launch (every pass), and says so", (f, err))
    for gib, why in ((int(total * 0.75), "does not fit in the"), (20, "over the 16.0 GiB")):
        rc, doc, out, err = exec_json(app("hold"), str(gib), "10")
        f = footprint(doc)
        ls = launches(doc, "holdCopy")
        tap.ok(rc == 0 and "hold: ok" in out and len(ls) == 10,
               "auto, %d GiB held: the program's result, 10 launches" % gib, err[-2000:])
        tap.ok(f and not f["replay"] and f["held_bytes"] >= gib * 2 ** 30 and
               f["budget_bytes"] == 16 * 2 ** 30,
               "auto, %d GiB held: no replay, the figures in the profiler section" % gib, f)
        tap.ok(ls and all(l["profiled"] and len(l["passes"] or []) == 1 for l in ls),
               "auto, %d GiB held: every launch collects one group (no replay)" % gib,
               [l["passes"] for l in ls])
        valid, why = validate(doc, "gpuprof-report-v1.schema.json") if doc else (False, "")
        tap.ok(valid, "auto, %d GiB held: the report is valid" % gib, why)
        p = subprocess.run([BIN, "exec", "--", app("hold"), str(gib), "1"],
                           capture_output=True, text=True, timeout=600)
        tap.ok(p.returncode == 0 and "did not replay" in p.stdout and why in p.stdout and
               "1 kernel lacks passes" in p.stdout,
               "auto, %d GiB held, one launch: the text says auto did not replay, why, and "
               "names the kernel that lacks a pass" % gib, p.stdout[-3000:])


def main():
    require_gpu("hold")
    test_footprint()
    test_auto()
    test_rotate()
    test_counters_equal_kernel_replay()
    test_application()
    test_sass_metrics_alone()
    test_programs_stay_correct()
    tap.done()


if __name__ == "__main__":
    main()
