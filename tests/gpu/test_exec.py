#!/usr/bin/env python3
"""On a GPU: gpuprof exec on the programs of tests/apps (built by the Makefile), asserting the
report's contents: the physics of coalesced and strided stores, replay that leaves in-place
results right, streams, threads, graphs, managed memory, several contexts and GPUs, exit
statuses, crashes, filters, children, and the cross-check against gpuprof's own kernel
commands. Skips without a GPU."""
import json
import os
import subprocess
import tempfile

import tap
from gpuprof import BIN, app, exec_json, require_gpu
from schema import validate

# Counters fixed by the kernel's instructions: equal whoever collects them.
EXACT = ("sass", "inst_executed", "thread_inst")


def launches(doc, name=None):
    ls = doc["exec"]["launches"] if doc else []
    return [l for l in ls if name is None or name in l["kernel"]]


def metric(launch, key):
    entry = (launch["metrics"] or {}).get(key)
    return entry["value"] if entry else None


def near(value, want, tol):
    return value is not None and abs(value - want) <= tol


def test_copy():
    rc, doc, out, err = exec_json(app("copy"), "both")
    if not tap.ok(rc == 0 and doc, "exec copy both: exit 0, a report", err):
        return
    valid, why = validate(doc, "gpuprof-report-v1.schema.json")
    tap.ok(valid, "exec JSON is valid against the report schema", why)
    tap.ok("copy: ok" in out and "copy: mode=both" in err,
           "the program's stdout and stderr pass through untouched", out + err)
    co, st = launches(doc, "copyCoalesced"), launches(doc, "copyStrided")
    tap.ok(len(co) == 1 and len(st) == 1 and co[0]["profiled"] and st[0]["profiled"],
           "one profiled launch of each kernel")
    if co and st:
        tap.ok(co[0]["kernel"] == "copyCoalesced(float *, const float *, unsigned long)",
               "the kernel's name demangled as ncu prints it (%s)" % co[0]["kernel"])
        tap.ok(co[0]["grid"] == [65536, 1, 1] and co[0]["block"] == [256, 1, 1] and
               co[0]["shared_bytes"] == 0, "grid, block and shared memory of the launch")
        tap.ok(near(metric(co[0], "gst_transactions_per_request"), 4.0, 0.001) and
               near(metric(co[0], "gst_efficiency"), 100.0, 0.01),
               "coalesced stores: 4 sectors per request, 100 % efficiency")
        tap.ok(near(metric(st[0], "gst_transactions_per_request"), 32.0, 0.001) and
               near(metric(st[0], "gst_efficiency"), 12.5, 0.01),
               "stride-32 stores: 32 sectors per request, 12.5 % efficiency")
        tap.ok(near(metric(st[0], "gld_transactions_per_request"), 4.0, 0.001),
               "the strided kernel's loads stay coalesced: 4 sectors per request")
        tap.ok(co[0]["duration_ms"] and co[0]["duration_ms"] > 0, "a profiled launch has a time")
    k = doc["exec"]["kernels"]
    tap.ok(len(k) == 2 and all(x["calls"] == 1 and x["profiled"] == 1 for x in k) and
           abs(sum(x["time_percent"] for x in k) - 100.0) < 0.01,
           "the summary: one entry per kernel, times adding to 100 %")


def test_dynamic_cudart():
    rc, doc, _, err = exec_json(app("copy_dynamic"), "strided")
    st = launches(doc, "copyStrided")
    tap.ok(rc == 0 and len(st) == 1 and near(metric(st[0], "gst_efficiency"), 12.5, 0.01),
           "a program linked with the shared cudart is profiled too", err)


def test_replay_keeps_results():
    rc, doc, out, err = exec_json(app("inplace"), "5")
    ls = launches(doc, "scaleInPlace")
    tap.ok(rc == 0 and "inplace: ok" in out and len(ls) == 5 and all(l["profiled"] for l in ls),
           "an in-place kernel profiled 5 times still computes the right result", err)


def test_streams_and_threads():
    rc, doc, _, err = exec_json(app("streams"), "3")
    ls = launches(doc)
    streams = {l["stream"] for l in ls}
    delta = launches(doc, "streamDelta")
    tap.ok(rc == 0 and len(ls) == 12 and len(streams) == 4 and all(l["profiled"] for l in ls),
           "4 streams: 12 launches, each profiled, on 4 streams (%s)" % sorted(streams), err)
    tap.ok(delta and all(l["shared_bytes"] == 4096 and l["block"] == [1024, 1, 1] for l in delta),
           "dynamic shared memory and block of each launch")
    rc, doc, _, err = exec_json(app("threads"))
    add, mul = launches(doc, "threadWorkerAdd"), launches(doc, "threadWorkerMul")
    tap.ok(rc == 0 and len(add) == 5 and len(mul) == 5 and
           all(l["profiled"] for l in add + mul) and
           {l["stream"] for l in add}.isdisjoint({l["stream"] for l in mul}),
           "two host threads: 5 profiled launches each, each thread on its own stream", err)


def test_graph():
    rc, doc, _, err = exec_json("--graph-profiling=time", "--", app("graph"))
    eager = launches(doc, "eagerLaunch")
    nodes = [l for l in launches(doc) if l["graph_node"]]
    names = sorted({l["kernel"].split("(")[0] for l in nodes})
    tap.ok(rc == 0 and len(eager) == 1 and eager[0]["profiled"],
           "graph: the ordinary launch is profiled", err)
    tap.ok(len(nodes) == 6 and names == ["graphFill", "graphScale", "graphSum"] and
           all(l["duration_ms"] > 0 and not l["profiled"] and l["graph"] for l in nodes),
           "graph, --graph-profiling=time: its 6 kernel nodes are timed and named, with their "
           "graph (%s)" % names)
    tap.ok(any("graph" in w.lower() for w in doc["warnings"]) if doc else False,
           "graph, --graph-profiling=time: a warning says graph nodes are timed only",
           doc and doc["warnings"])
    rc, doc, _, err = exec_json(app("graph"))
    nodes = [l for l in launches(doc) if l["graph_node"]]
    tap.ok(rc == 0 and len(nodes) == 6 and all(l["profiled"] for l in nodes),
           "graph, by default (--graph-profiling=node): its 6 kernel nodes have metrics", err)


def test_managed_and_contexts():
    rc, doc, _, err = exec_json(app("managed"))
    tap.ok(rc == 0 and len(launches(doc, "managedTouch")) == 1 and
           launches(doc)[0]["profiled"], "managed memory: the launch is profiled", err)
    rc, doc, _, err = exec_json(app("reset"))
    before, after = launches(doc, "beforeReset"), launches(doc, "afterReset")
    tap.ok(rc == 0 and len(before) == 1 and len(after) == 1 and before[0]["profiled"] and
           after[0]["profiled"], "cudaDeviceReset: the launches before and after it are profiled",
           err)
    rc, doc, _, err = exec_json(app("reset"), "noexit_sync")
    tap.ok(rc == 0 and len(launches(doc, "noSyncExit")) == 1,
           "a program that exits without synchronising: its launch is reported", err)


ONE_PASS = "--metrics=dram_read_bytes,dram_write_bytes"


def counted(ls):
    """The launches that carry their counters (dram_read_bytes) as profiled launches."""
    return [l for l in ls if l["profiled"] and metric(l, "dram_read_bytes") is not None]


def test_one_pass():
    """Counters of one pass: one pass around consecutive profiled launches (no replay),
    ended by a launch not profiled, a full pass (32 ranges), the process's end or a crash."""
    # 2^24 floats: in and out (128 MB) do not fit in L2 (50 MB on the H100), so each launch,
    # counted in the cache state the one before left (no replay flushes it), reads ~4 N from
    # DRAM; writes are ~4 N give or take the dirty lines that move between launches.
    n = 1 << 24
    rc, doc, _, err = exec_json(ONE_PASS, app("copy"), "both", "2^24", "3")
    ls = launches(doc)
    tap.ok(rc == 0 and doc and doc["profiler"]["passes"] == 1 and len(counted(ls)) == 6 and
           "one pass, no replay" in doc["profiler"]["api"],
           "one pass: the 6 launches of copy both x3 profiled with their counters, no replay",
           err)
    tap.ok(len(ls) == 6 and all(near(metric(l, "dram_read_bytes"), 4 * n, 0.15 * 4 * n) and
                                0.5 * 4 * n < metric(l, "dram_write_bytes") < 1.5 * 4 * n
                                for l in ls),
           "one pass: each launch's own DRAM bytes (reads ~4 N = %d, writes ~4 N)" % (4 * n),
           [(metric(l, "dram_read_bytes"), metric(l, "dram_write_bytes")) for l in ls])
    rc, doc, _, err = exec_json(ONE_PASS, app("many"), "100", "2")
    tap.ok(rc == 0 and len(launches(doc)) == 100 and len(counted(launches(doc))) == 100,
           "one pass: 100 launches, over passes of 32 ranges, all profiled", err)
    rc, doc, _, err = exec_json(ONE_PASS, "--kernel=manyTiny<0>", app("many"), "100", "2")
    ls = launches(doc)
    tap.ok(rc == 0 and len(ls) == 100 and
           all(("<0>" in l["kernel"]) == (l in counted(ls)) for l in ls) and
           all(l["duration_ms"] and l["duration_ms"] > 0 for l in ls),
           "one pass: alternate launches profiled (each other one ends the pass), the rest "
           "timed", err)
    rc, doc, _, err = exec_json(ONE_PASS, "--launch-count=5", app("many"), "100", "2")
    tap.ok(rc == 0 and len(launches(doc)) == 100 and len(counted(launches(doc))) == 5,
           "one pass: --launch-count=5 ends the pass at the 5th launch, the rest timed", err)
    rc, doc, _, err = exec_json(ONE_PASS, app("threads"))
    tap.ok(rc == 0 and len(counted(launches(doc, "threadWorker"))) == 10,
           "one pass: two host threads, 10 launches profiled", err)
    rc, doc, _, err = exec_json(ONE_PASS, app("abort"))
    tap.ok(rc == 134 and len(counted(launches(doc, "beforeAbort"))) == 4,
           "one pass: abort() after 4 launches, their counters reported", err)
    rc, doc, _, err = exec_json(ONE_PASS, app("reset"))
    tap.ok(rc == 0 and len(counted(launches(doc, "beforeReset"))) == 1 and
           len(counted(launches(doc, "afterReset"))) == 1,
           "one pass: cudaDeviceReset ends the first context's pass, both launches counted", err)
    rc, doc, _, err = exec_json(ONE_PASS, app("reset"), "noexit_sync")
    tap.ok(rc == 0 and len(counted(launches(doc, "noSyncExit"))) == 1,
           "one pass: a program that exits without synchronising, its pass ended at exit", err)
    rc, doc, _, err = exec_json(ONE_PASS, app("graph"))
    eager = launches(doc, "eagerLaunch")
    tap.ok(rc == 0 and len(counted(eager)) == 1 and
           len([l for l in launches(doc) if l["graph_node"]]) == 6,
           "one pass: around a graph, the ordinary launch profiled and the 6 nodes timed", err)


def test_devices():
    rc, doc, out, err = exec_json(app("multigpu"))
    ls = launches(doc)
    used = int(out.split("used ")[1].split()[0]) if "used " in out else -1
    # Device d runs onDevice{d % 8} with grid d + 1: name and grid both say where it ran.
    right = all(l["kernel"].startswith("onDevice%d(" % (l["device"] % 8)) and
                l["grid"][0] == l["device"] + 1 and l["profiled"] and
                "gst_efficiency" in l["metrics"] for l in ls)
    tap.ok(rc == 0 and len(ls) == used and right and
           sorted(l["device"] for l in ls) == list(range(used)) and
           len(doc["exec"]["devices"]) == used,
           "every GPU: one launch on each of the %d device(s), attributed to it and "
           "profiled there" % used, err)


def test_exit_statuses():
    rc, doc, _, err = exec_json(app("exit3"))
    tap.ok(rc == 3 and doc and doc["exec"]["exit_status"] == 3 and
           len(launches(doc, "beforeExit3")) == 1,
           "the program's exit status 3 is gpuprof's, its launch reported", err)
    rc, doc, _, err = exec_json(app("abort"))
    tap.ok(rc == 134 and doc and doc["exec"]["signal"] == 6 and
           len(launches(doc, "beforeAbort")) == 4,
           "abort(): exit status 134, the 4 launches before the crash reported", err)
    tap.ok(doc and any("without exiting normally" in w for w in doc["warnings"]),
           "abort(): a warning says the process did not end normally")
    rc, doc, _, err = exec_json("--metrics=none", app("abort"))
    tap.ok(rc == 134 and len(launches(doc, "beforeAbort")) == 4,
           "abort() with --metrics=none: the 4 kernel times flushed before it died", err)
    rc, doc, out, err = exec_json(app("nokernel.sh"))
    tap.ok(rc == 0 and doc and not launches(doc) and "no CUDA here" in out,
           "a script without a CUDA kernel: zero kernels, exit 0", err)


def test_timing_only():
    rc, doc, _, err = exec_json("--metrics=none", app("copy"), "both", "2^20", "3")
    ls = launches(doc)
    tap.ok(rc == 0 and len(ls) == 6 and not any(l["profiled"] for l in ls) and
           all(l["duration_ms"] and l["duration_ms"] > 0 for l in ls) and
           doc["profiler"]["state"] == "disabled",
           "--metrics=none: every launch timed, none profiled", err)
    tap.ok(all(l["kernel"].startswith("copy") and "(" in l["kernel"] for l in ls),
           "--metrics=none: names demangled from the activity records")
    p = subprocess.run([BIN, "exec", "--metrics=none", app("copy"), "both", "2^20", "3"],
                       capture_output=True, text=True, timeout=300)
    tap.ok(p.returncode == 0 and "calls" in p.stdout and "%kernels" in p.stdout and
           "copyStrided" in p.stdout, "--metrics=none text: nvprof's GPU activities summary",
           p.stdout[-2000:])


def test_filters():
    rc, doc, _, err = exec_json("--kernel=Strided", "--launch-skip=1", "--launch-count=2",
                                app("copy"), "both", "2^20", "4")
    st = launches(doc, "copyStrided")
    profiled = [i for i, l in enumerate(st) if l["profiled"]]
    tap.ok(rc == 0 and len(st) == 4 and profiled == [1, 2] and
           not any(l["profiled"] for l in launches(doc, "copyCoalesced")) and
           len(launches(doc)) == 8,
           "--kernel, --launch-skip=1, --launch-count=2: the 2nd and 3rd matching launches "
           "profiled, every launch timed (%s)" % profiled, err)
    rc, doc, _, err = exec_json("--per-kernel=3", app("many"), "600", "2")
    k = {x["kernel"]: x for x in doc["exec"]["kernels"]} if doc else {}
    tap.ok(rc == 0 and len(k) == 2 and all(x["calls"] == 300 and x["profiled"] == 3
                                           for x in k.values()),
           "--per-kernel=3: 3 of each kernel's 300 launches profiled, the rest timed", err)
    rc, doc, _, err = exec_json("--kernel=manyTiny<1>", app("many"), "10", "2")
    tap.ok(rc == 0 and all(("<1>" in l["kernel"]) == l["profiled"] for l in launches(doc)),
           "--kernel matches the demangled name (manyTiny<1>)", err)


def test_children_and_output():
    rc, doc, out, err = exec_json(app("spawn.sh"))
    tap.ok(rc == 0 and doc and not launches(doc) and "spawn: child exited 0" in out,
           "a child process is not profiled by default", err)
    rc, doc, _, err = exec_json("--follow-children", app("spawn.sh"))
    ls = launches(doc, "copyCoalesced")
    tap.ok(rc == 0 and len(ls) == 1 and ls[0]["profiled"] and
           ls[0]["pid"] != doc["exec"]["pid"] and doc["exec"]["processes"] >= 1,
           "--follow-children: the child's kernel, from the child's pid", err)
    with tempfile.TemporaryDirectory() as tmp:
        pattern = os.path.join(tmp, "r.%q{GPUPROF_TEST_RANK}.%p.csv")
        p = subprocess.run([BIN, "exec", "--csv", "--output=" + pattern, app("copy")],
                           capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, GPUPROF_TEST_RANK="7"))
        files = os.listdir(tmp)
        tap.ok(p.returncode == 0 and len(files) == 1 and files[0].startswith("r.7.") and
               files[0].endswith(".csv") and "copyCoalesced" not in p.stdout,
               "--output with %q{NAME} and %p: the report in its file, not on stdout",
               (files, p.stderr))


def differences(a, b, path=""):
    """Where two JSON documents differ (the first few paths). Numbers within a relative 1e-12
    are the same: cJSON writes a double in 15 significant digits when they read back within
    its epsilon, so what is derived from a value read back may move by a unit in the last
    place (a time_percent, say)."""
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and \
                abs(a - b) <= 1e-12 * max(abs(a), abs(b)):
            return []
    if type(a) is not type(b):
        return ["%s: %r != %r" % (path, a, b)]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            out += (differences(a[k], b[k], path + "/" + k) if k in a and k in b
                    else ["%s/%s: only in %s" % (path, k, "the first" if k in a else "the second")])
        return out[:10]
    if isinstance(a, list):
        out = [] if len(a) == len(b) else ["%s: %d != %d items" % (path, len(a), len(b))]
        for i, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, "%s/%d" % (path, i))
        return out[:10]
    return [] if a == b else ["%s: %r != %r" % (path, a, b)]


def test_report_of_exec():
    rc, doc, _, err = exec_json(app("copy"), "both")
    if not doc:
        tap.ok(False, "exec report for gpuprof report", err)
        return
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(doc, f)
        path = f.name
    try:
        p = subprocess.run([BIN, "report", path, "--json"], capture_output=True, text=True)
        again = json.loads(p.stdout) if p.returncode == 0 else None
        tap.ok(again is not None and not differences(doc, again),
               "gpuprof report FILE --json reproduces an exec report",
               p.stderr or differences(doc, again))
        p = subprocess.run([BIN, "report", path], capture_output=True, text=True)
        tap.ok(p.returncode == 0 and "copyStrided" in p.stdout and "calls" in p.stdout,
               "gpuprof report renders an exec report as text", p.stderr)
    finally:
        os.unlink(path)


def counters(metrics):
    out = {}
    for m in (metrics or {}).values():
        out.update(m["inputs"])
    return out


def cross_check(family):
    """Every kernel gpuprof FAMILY launches, profiled by exec: the instruction-determined
    counters gpuprof FAMILY --json reports for them."""
    rc, ex, _, err = exec_json("--", BIN, family, "--metrics=none", "--repeat=1",
                               "--warmup=0")
    q = subprocess.run([BIN, family, "--json", "--repeat=1", "--warmup=0"],
                       capture_output=True, text=True, timeout=600)
    own = json.loads(q.stdout) if q.returncode == 0 else None
    if not tap.ok(rc == 0 and ex and own, "%s under exec and alone" % family, err + q.stderr):
        return
    equal, differ, missing = 0, [], []
    for r in own["results"]:
        for l in r["launches"]:
            if l.get("library_call"):
                continue
            # gpuprof names reduceUnrolling<int, 2> "reduceUnrolling2": match the stem.
            stem = l["kernel"].rstrip("0123456789")
            found = [x for x in ex["exec"]["launches"] if x["profiled"] and
                     stem in x["kernel"] and x["grid"] == l["grid"] and
                     x["block"] == l["block"]]
            if not found:
                missing.append("%s %s" % (r["variant"], l["kernel"]))
                continue
            theirs = counters(found[0]["metrics"])
            for c, v in counters(l["metrics"]).items():
                if any(e in c for e in EXACT):
                    if theirs.get(c) == v:
                        equal += 1
                    else:
                        differ.append("%s %s: %s vs %s" % (r["variant"], c, v, theirs.get(c)))
    tap.ok(equal > 0 and not differ and not missing,
           "exec -- gpuprof %s: %d instruction-determined counters equal to gpuprof's own"
           % (family, equal), "; ".join(missing[:5] + differ[:5]))


def main():
    require_gpu("copy")
    test_copy()
    test_dynamic_cudart()
    test_replay_keeps_results()
    test_streams_and_threads()
    test_graph()
    test_managed_and_contexts()
    test_devices()
    test_exit_statuses()
    test_timing_only()
    test_one_pass()
    test_filters()
    test_children_and_output()
    test_report_of_exec()
    cross_check("reduce")
    cross_check("transpose")
    tap.done()


if __name__ == "__main__":
    main()
