#!/usr/bin/env python3
"""On a GPU: the hardware metrics show the physics the seeds describe, profiling leaves
results intact, JSON with metrics matches the schema, and metrics degrade to null (exit 0,
or 1 with --require-metrics) when another profiler holds the counters (ncu: in the ncu tier,
make test-ncu). Skips without a GPU."""
import shutil
import subprocess

import tap
from gpuprof import BIN, ncu_tier, require_gpu, run, run_json
from schema import validate


def metric(result, key, launch=None):
    m = (result["launches"][launch]["metrics"] if launch is not None else result["metrics"]) or {}
    entry = m.get(key)
    return entry["value"] if entry else None


def by_variant(doc):
    return {(r["variant"], r["params"].get("pad")): r for r in doc["results"]}


def near(value, want, tol):
    return value is not None and abs(value - want) <= tol


def test_transpose_physics():
    rc, doc, err = run_json("transpose", "--size=4096x4096", "--repeat=1", "--warmup=0",
                            "--json", "--metrics=default")
    if not tap.ok(rc == 0 and doc, "transpose with metrics", err):
        return
    valid, why = validate(doc, "gpuprof-report-v1.schema.json")
    tap.ok(valid, "transpose JSON with metrics is valid against the schema", why)
    res = {r["variant"]: r for r in doc["results"]}
    naive = res.get("naive")
    tap.ok(naive and near(metric(naive, "gst_transactions_per_request"), 32.0, 0.01),
           "naive transpose stores 32 sectors per request", naive and naive["metrics"])
    tap.ok(naive and near(metric(naive, "gst_efficiency"), 12.5, 0.05),
           "naive transpose store efficiency 12.5 %")
    tap.ok(naive and near(metric(naive, "gld_transactions_per_request"), 4.0, 0.01),
           "naive transpose loads 4 sectors per request (coalesced)")
    tap.ok(naive and near(metric(naive, "gst_ideal_per_request"), 4.0, 0.01) and
           near(metric(naive, "gld_ideal_per_request"), 4.0, 0.01),
           "naive transpose: the ideal of its 4-byte stores and loads is 4 sectors per request",
           naive and naive["metrics"])
    for name in ("copy", "smem", "smemunroll", "tile"):
        r = res.get(name)
        st = metric(r, "gst_transactions_per_request") if r else None
        if name == "tile" and st is not None and st > 4.01:
            # Wider stores move more sectors per request at full efficiency.
            tap.ok(near(metric(r, "gst_efficiency"), 100.0, 0.5),
                   "tile stores at 100 %% efficiency (%.1f sectors/request)" % st)
            continue
        tap.ok(near(st, 4.0, 0.01) and near(metric(r, "gst_efficiency"), 100.0, 0.5),
               "%s stores 4 sectors per request at 100 %% efficiency" % name,
               r and {k: metric(r, k) for k in ("gst_transactions_per_request", "gst_efficiency")})
    # The bank-conflict counts are in the `all` set (their counters make a pass expensive).
    rc, pads, err = run_json("transpose", "--variant=smem", "--pad=0", "--size=4096x4096",
                             "--repeat=1", "--warmup=0", "--json",
                             "--metrics=shared_load_bank_conflicts")
    rc1, pads1, err1 = run_json("transpose", "--variant=smem", "--pad=1", "--size=4096x4096",
                                "--repeat=1", "--warmup=0", "--json",
                                "--metrics=shared_load_bank_conflicts")
    c0 = metric(pads["results"][0], "shared_load_bank_conflicts") if rc == 0 else None
    c1 = metric(pads1["results"][0], "shared_load_bank_conflicts") if rc1 == 0 else None
    tap.ok(c0 is not None and c1 is not None and c0 >= 10 * max(c1, 1),
           "padding the tile cuts load bank conflicts tenfold or more (%s -> %s)" % (c0, c1),
           err + err1)


def test_l2_tex_hit_rate():
    """A row-wise copy reads each input sector once (an L2 miss: the L2 was flushed) and writes
    each output sector once (a hit: the L2 allocates written sectors), so half of the SMs'
    own L2 lookups hit; l2_hit_rate also counts lookups that do not come from the SMs."""
    rc, doc, err = run_json("transpose", "--variant=copy", "--size=4096x4096", "--repeat=1",
                            "--warmup=0", "--json", "--metrics=l2_tex_hit_rate,l2_hit_rate")
    if not tap.ok(rc == 0 and doc, "transpose copy with the L2 hit rates", err):
        return
    r = doc["results"][0]
    tex = (r["metrics"] or {}).get("l2_tex_hit_rate") or {}
    hits = (tex.get("inputs") or {}).get("lts__t_sectors_srcunit_tex_lookup_hit.sum")
    sectors = 4096 * 4096 * 4 // 32
    tap.ok(near(tex.get("value"), 50.0, 0.5), "copy: half of the SMs' L2 lookups hit (%s %%)"
           % tex.get("value"), r["metrics"])
    tap.ok(hits is not None and abs(hits - sectors) <= 0.005 * sectors,
           "copy: the SMs' L2 hits are its %d store sectors (%s)" % (sectors, hits))
    tap.ok(metric(r, "l2_hit_rate") is not None, "copy: l2_hit_rate collected alongside")


def test_reduce_physics():
    rc, doc, err = run_json("reduce", "--variant=neighbored,interleaved,threadfence,shfl",
                            "--repeat=1", "--warmup=0", "--json", "--metrics=all")
    if not tap.ok(rc == 0 and doc, "reduce with --metrics=all", err):
        return
    res = {r["variant"]: r for r in doc["results"]}
    tf = res["threadfence"]
    tap.ok(near(metric(tf, "gld_transactions_per_request"), 4.0, 0.01) and
           near(metric(tf, "gld_efficiency"), 100.0, 0.1),
           "coalesced int32 loads: 4 sectors per request at 100 %")
    tap.ok(near(metric(res["shfl"], "gld_transactions_per_request"), 16.0, 0.05),
           "16-byte loads: 16 sectors per request")
    tap.ok(near(metric(res["shfl"], "gld_ideal_per_request"), 16.0, 0.05) and
           near(metric(tf, "gld_ideal_per_request"), 4.0, 0.01),
           "the ideal follows the loads' width: 16 for 16-byte loads, 4 for 4-byte ones (%s, %s)"
           % (metric(res["shfl"], "gld_ideal_per_request"), metric(tf, "gld_ideal_per_request")))
    for v in ("threadfence", "shfl"):
        got = metric(res[v], "shared_load_ideal_per_request")
        tap.ok(near(got, 1.0, 0.01),
               "%s: its shared loads (the warp sums, a few threads each) ideally take 1 "
               "wavefront each, not less (%s)" % (v, got))
    for v in ("threadfence", "shfl"):
        got = metric(res[v], "shared_load_transactions_per_request")
        tap.ok(near(got, 1.0, 0.01),
               "%s: conflict-free shared loads take 1 wavefront per executed load (%s)" % (v, got))
    for key in ("branch_efficiency", "warp_execution_efficiency"):
        a, b = metric(res["neighbored"], key), metric(res["interleaved"], key)
        tap.ok(a is not None and b is not None and a < b,
               "neighbored has lower %s than interleaved (%s < %s)" % (key, a, b))
    shfl_bytes = metric(res["shfl"], "dram_read_bytes")
    tap.ok(shfl_bytes is not None and abs(shfl_bytes - res["shfl"]["bytes_moved"]) <=
           0.02 * res["shfl"]["bytes_moved"],
           "L2 flushed before profiling: shfl reads its whole input from DRAM (%s bytes)" % shfl_bytes)
    for r in doc["results"]:
        tap.ok(r["check"]["after_profile"] == "passed",
               "%s is still right after profiling replayed it" % r["variant"])
        tap.ok(r["profile"] and r["profile"]["passes"] >= 1 and
               r["profile"]["sm_clock_ghz"] and r["profile"]["sm_clock_ghz"] > 0.1,
               "%s: passes and SM clock reported" % r["variant"])


def test_multi_launch_aggregate():
    rc, doc, err = run_json("reduce", "--variant=cub", "--repeat=1", "--warmup=0", "--json")
    if not tap.ok(rc == 0 and doc, "cub with metrics", err):
        return
    r = doc["results"][0]
    tap.ok(len(r["launches"]) >= 2, "cub: each of its kernels is reported (%d)" % len(r["launches"]))
    total = sum(metric(r, "dram_read_bytes", i) or 0 for i in range(len(r["launches"])))
    tap.ok(near(metric(r, "dram_read_bytes"), total, 1.0),
           "cub: the aggregate is computed from the summed counters")


# Counters decided by the kernel's instructions, not by what the caches hold.
EXACT_KEYS = ("gld_transactions_per_request", "gst_transactions_per_request", "gld_efficiency",
              "gst_efficiency", "shared_load_transactions_per_request")


def exact_keys(result):
    """EXACT_KEYS, less the shared-memory one for a library call: a shared wavefront count
    includes the bank conflicts, and cub's vary from run to run (ncu against ncu: 5-7 %)."""
    library = any(l.get("library_call") for l in result["launches"])
    return [k for k in EXACT_KEYS if not (library and k.startswith("shared_"))]


def matches(together, alone, key, launch=None):
    """Metric `key` of a result profiled with others within 0.5 % of the one profiled alone
    (true when alone it is undefined)."""
    want = metric(alone, key, launch)
    return want is None or near(metric(together, key, launch), want, 0.005 * max(abs(want), 1e-9))


def test_one_session_matches_alone():
    """Every configuration of a problem is profiled in one session: each must get its own
    counters, the same as when it runs alone (a library call, last in the session, too)."""
    variants = ["interleaved", "unrolling8", "threadfence", "shfl", "cub"]
    common = ["--size=2^22", "--repeat=1", "--warmup=0", "--json", "--metrics=default"]
    rc, doc, err = run_json("reduce", "--variant=" + ",".join(variants), *common)
    if not tap.ok(rc == 0 and doc, "reduce, five variants profiled together", err):
        return
    together = {r["variant"]: r for r in doc["results"]}
    for v in variants:
        rc, alone, err = run_json("reduce", "--variant=" + v, *common)
        if not tap.ok(rc == 0 and alone, "reduce --variant=%s alone" % v, err):
            continue
        a, t = alone["results"][0], together[v]
        same = [k for k in exact_keys(a) if metric(a, k) is not None and matches(t, a, k)]
        differ = ["%s %s vs %s" % (k, metric(t, k), metric(a, k)) for k in exact_keys(a)
                  if not matches(t, a, k)]
        tap.ok(same and not differ and len(t["launches"]) == len(a["launches"]),
               "%s: profiled with others = profiled alone (%s)" % (v, ", ".join(same)),
               "; ".join(differ))


def test_more_than_one_session():
    """More launches than one session holds, and several library calls: split into sessions."""
    rc, doc, err = run_json("reduce", "--variant=all", "--block=64,128,256,512,1024",
                            "--size=2^20", "--type=int32,float32", "--repeat=1", "--warmup=0",
                            "--json", "--metrics=gld_transactions_per_request")
    if not tap.ok(rc == 0 and doc, "reduce: 12 variants x 5 blocks x 2 types profiled", err):
        return
    missing = ["%s/%s/%s" % (r["variant"], r["type"], r["launch"]["block"])
               for r in doc["results"]
               if metric(r, "gld_transactions_per_request") is None or
               r["check"]["after_profile"] != "passed"]
    tap.ok(len(doc["results"]) >= 100 and not missing,
           "every one of %d results has its metrics and passed its check after profiling"
           % len(doc["results"]), ", ".join(missing[:10]))


def test_later_problem_needs_more_ranges():
    """The first problem sets how many ranges a session holds; a later problem with more
    launches (reduce2d: one pass at 16x16, three at 4096x4096) must still get every one."""
    common = ["--variant=all", "--repeat=1", "--warmup=0", "--json", "--metrics=default"]
    rc, doc, err = run_json("reduce2d", "--size=16x16,4096x4096", *common)
    if not tap.ok(rc == 0 and doc, "reduce2d, a small then a large problem, profiled", err):
        return
    small = [r for r in doc["results"] if r["size"]["nx"] == 16]
    large = [r for r in doc["results"] if r["size"]["nx"] == 4096]
    tap.ok(small and large and len(large[0]["launches"]) > len(small[0]["launches"]),
           "the large problem launches more kernels (%s vs %s)" % (
               len(large[0]["launches"]) if large else "?", len(small[0]["launches"]) if small else "?"))
    missing = ["%s %sx%s launch %d" % (r["variant"], r["size"]["nx"], r["size"]["ny"], i)
               for r in doc["results"] for i in range(len(r["launches"]))
               if metric(r, "gld_transactions_per_request", i) is None]
    tap.ok(not missing and all(r["check"]["after_profile"] == "passed" for r in doc["results"]),
           "every launch of both problems has its metrics and passed its check", ", ".join(missing))
    rc, alone, err = run_json("reduce2d", "--size=4096x4096", *common)
    if not tap.ok(rc == 0 and alone, "reduce2d 4096x4096 alone", err):
        return
    for a, t in zip(alone["results"], large):
        differ = ["%s launch %d: %s vs %s" % (k, i, metric(t, k, i), metric(a, k, i))
                  for k in EXACT_KEYS for i in range(len(a["launches"])) if not matches(t, a, k, i)]
        tap.ok(not differ, "%s 4096x4096: after the small problem = alone" % a["variant"],
               "; ".join(differ))


def test_under_another_profiler():
    if not ncu_tier("metrics unavailable under ncu, another profiler"):
        return
    ncu = shutil.which("ncu")
    if not ncu:
        tap.skip("metrics unavailable under ncu", "ncu not installed")
        return
    cmd = [ncu, "--metrics", "gpu__time_duration.sum", BIN, "reduce", "--variant=shfl",
           "--repeat=1", "--warmup=0"]
    p = subprocess.run(cmd + ["--json"], capture_output=True, text=True, timeout=600)
    tap.ok(p.returncode == 0 and "metrics unavailable" in p.stderr,
           "under ncu: one warning, metrics unavailable, exit 0", p.stderr[-2000:])
    q = subprocess.run(cmd + ["--require-metrics"], capture_output=True, text=True, timeout=600)
    tap.ok(q.returncode == 1 and "--require-metrics" in q.stderr,
           "under ncu with --require-metrics: exit 1", q.stderr[-2000:])


def main():
    require_gpu()
    test_reduce_physics()
    test_multi_launch_aggregate()
    test_one_session_matches_alone()
    test_more_than_one_session()
    test_later_problem_needs_more_ranges()
    rc, doc, _ = run_json("list", "--json")
    if any(f["name"] == "transpose" for f in doc["families"]):
        test_transpose_physics()
        test_l2_tex_hit_rate()
    test_under_another_profiler()
    tap.done()


if __name__ == "__main__":
    main()
