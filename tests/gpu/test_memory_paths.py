#!/usr/bin/env python3
"""On a GPU: the memory-path metric groups of issue 28 (--metrics=local, l2, atomics, sysmem,
async) on the programs of tests/apps made for them. The catalogue holds every expected key
with its counters and ncu metric; each program's own check passes under gpuprof exec; the
physics (spills only under the register cap, atomics, cp.async and TMA traffic only in the
kernels that issue them, zero-copy bytes at least the buffer); and every metric of the group
agrees with ncu --clock-control none kernel by kernel, within the tolerances that
tests/lib/memory_paths.py states (instruction-determined counts 1 %, percentages 1 point,
cache and system-memory quantities 5 % / 5 points or twice ncu's own spread, rates a factor of
2), in the ncu tier (make test-ncu) only. Skips without a GPU; the comparisons with ncu skip
without ncu."""
import tempfile

import memory_paths as mp
import tap
from gpuprof import ncu_tier, require_gpu, run_json

MIB4 = 4 << 20              # the byte size of the tma and zerocopy buffers (2^20 floats)
SPILL_WARPS = (1 << 15) // 32
ATOMIC_REQUESTS = (1 << 20) // 32
# cpasync: per kernel, (cp.async requests, sectors per request): 2^20 floats, 16 B or 4 B a
# lane, one warp-wide instruction per request.
CP_ASYNC = {"stageCpAsync16": ((1 << 20) // 4 // 32, 16.0),
            "stageCpAsync4": ((1 << 20) // 32, 4.0)}
COPY_N = 1 << 22            # copy both 2^22 (the l2 run)
AGAINST = "every metric of each group against ncu --clock-control none, kernel by kernel"


def near_rel(value, want, tol):
    return value is not None and abs(value - want) <= tol * max(abs(want), 1e-12)


def kernels(doc):
    """{kernel base name: [profiled launch]}."""
    out = {}
    for l in (doc or {}).get("exec", {}).get("launches", []):
        if l.get("profiled"):
            out.setdefault(mp.base_name(l["kernel"]), []).append(l)
    return out


def value(doc, kernel, key):
    """The metric of the first profiled launch of `kernel`, None when absent."""
    ls = kernels(doc).get(kernel)
    return mp.value_of(ls[0], key) if ls else None


def test_catalogue(cat):
    for group, keys in sorted(mp.GROUPS.items()):
        missing = mp.missing_keys(cat, group)
        tap.ok(not missing, "gpuprof metrics: group %s holds %s" % (group, ", ".join(keys)),
               "missing: " + ", ".join(missing))
        rows = {m["key"]: m for m in mp.group_metrics(cat, group)}
        for key in keys + mp.OPTIONAL.get(group, ()):
            m = rows.get(key)
            if m is None:
                continue
            tap.ok(m["inputs"] and m.get("ncu_scale") and
                   (m.get("ncu_metric") or all("__" in i for i in m["inputs"])),
                   "%s: its counters and the matching ncu metric (%s x %s)"
                   % (key, m.get("ncu_metric") or "none: its inputs, one by one",
                      m.get("ncu_scale")), m)


def physics_spill(doc, ctx):
    loads = value(doc, "spillHeavy", "local_load_transactions")
    stores = value(doc, "spillHeavy", "local_store_transactions")
    tap.ok(loads and stores and loads > 0 and stores > 0,
           "spill: spillHeavy under -maxrregcount=32 loads and stores local memory (%s, %s "
           "transactions)" % (loads, stores))
    light = [value(doc, "noPressure", k) for k in ("local_load_transactions",
                                                    "local_store_transactions")]
    tap.ok(light == [0, 0], "spill: noPressure, under the same cap, touches no local memory "
           "(%s)" % light)
    sass = mp.sass_local_sectors("spill", "spillHeavy", ctx["arch"])
    if sass is None:
        tap.skip("spill: local transactions = the sectors of spillHeavy's STL/LDL x %d warps"
                 % SPILL_WARPS, "cuobjdump not installed, or no sm_%s SASS in spill"
                 % ctx["arch"])
        return
    st_sectors, st_count, ld_sectors, ld_count = sass
    tap.ok(near_rel(stores, st_sectors * SPILL_WARPS, 0.01) and
           near_rel(loads, ld_sectors * SPILL_WARPS, 0.01),
           "spill: local store and load transactions are the SASS's %d and %d sectors a warp x "
           "%d warps (%s, %s)" % (st_sectors, ld_sectors, SPILL_WARPS, stores, loads))
    tap.ok(st_count and ld_count and
           near_rel(value(doc, "spillHeavy", "local_store_transactions_per_request"),
                    st_sectors / st_count, 0.01) and
           near_rel(value(doc, "spillHeavy", "local_load_transactions_per_request"),
                    ld_sectors / ld_count, 0.01),
           "spill: local sectors per request as the SASS's widths say (%d STL, %d LDL)"
           % (st_count, ld_count))


def physics_nospill(doc, ctx):
    for kernel in ("spillHeavy", "noPressure"):
        got = [value(doc, kernel, k) for k in ("local_load_transactions",
                                                "local_store_transactions")]
        tap.ok(got == [0, 0], "nospill: %s without the register cap touches no local memory "
               "(%s)" % (kernel, got))


def physics_atomics(doc, ctx):
    for kernel, what in (("atomicTicket", "ATOM, result used"), ("atomicSum", "RED")):
        t = value(doc, kernel, "atomic_transactions")
        per = value(doc, kernel, "atomic_transactions_per_request")
        tap.ok(t is not None and t > 0, "atomics: %s (%s) has atomic transactions (%s)"
               % (kernel, what, t))
        tap.ok(t and per and near_rel(t / per, ATOMIC_REQUESTS, 0.01),
               "atomics: %s makes N / 32 = %d atomic requests (%s transactions / %s per "
               "request)" % (kernel, ATOMIC_REQUESTS, t, per))


def physics_cpasync(doc, ctx):
    eff = ctx["rows"].get("cp_async_efficiency")
    factor = mp.percent_factor(eff) if eff else 1.0  # to percent
    for kernel, (requests, sectors) in sorted(CP_ASYNC.items()):
        got = value(doc, kernel, "cp_async_requests")
        tap.ok(near_rel(got, requests, 0.01), "cpasync: %s makes %d cp.async requests (%s)"
               % (kernel, requests, got))
        per = value(doc, kernel, "cp_async_sectors_per_request")
        tap.ok(near_rel(per, sectors, 0.01), "cpasync: %s moves %g sectors per cp.async "
               "request (%s)" % (kernel, sectors, per))
        e = value(doc, kernel, "cp_async_efficiency")
        tap.ok(e is not None and abs(e * factor - 100.0) <= 1.0,
               "cpasync: %s's cp.async efficiency is 100 %% (%s)" % (kernel, e))
    got = value(doc, "stagePlain", "cp_async_requests")
    tap.ok(got == 0, "cpasync: stagePlain (LDG + STS) makes no cp.async request (%s)" % got)


def physics_tma(doc, ctx):
    loaded = value(doc, "tmaBulkLoad", "tma_load_bytes")
    tap.ok(loaded is not None and loaded >= MIB4,
           "tma: tmaBulkLoad's TMA load bytes are at least the %d it loads (%s)" % (MIB4, loaded))
    stored = value(doc, "tmaBulkStore", "tma_store_bytes")
    tap.ok(stored is not None and stored >= MIB4,
           "tma: tmaBulkStore's TMA store bytes are at least the %d it stores (%s)"
           % (MIB4, stored))
    plain = [value(doc, "plainTileLoad", k) for k in ("tma_load_bytes", "tma_store_bytes")]
    tap.ok(plain == [0, 0], "tma: plainTileLoad (LDG + STS) moves nothing by TMA (%s)" % plain)


def physics_zerocopy(doc, ctx):
    read = value(doc, "zeroCopyRead", "sysmem_read_bytes")
    tap.ok(read is not None and read >= MIB4,
           "zerocopy: zeroCopyRead reads at least its %d-byte host buffer from system memory "
           "(%s)" % (MIB4, read))
    written = value(doc, "zeroCopyWrite", "sysmem_write_bytes")
    tap.ok(written is not None and written >= MIB4,
           "zerocopy: zeroCopyWrite writes at least its %d-byte host buffer to system memory "
           "(%s)" % (MIB4, written))


def physics_copy(doc, ctx):
    sectors = COPY_N * 4 // 32
    for kernel in ("copyCoalesced", "copyStrided"):
        r = value(doc, kernel, "l2_read_transactions")
        w = value(doc, kernel, "l2_write_transactions")
        tap.ok(r is not None and w is not None and r >= 0.99 * sectors and w >= 0.99 * sectors,
               "copy: %s reads and writes at least its %d sectors each way in L2 (%s, %s)"
               % (kernel, sectors, r, w))


PHYSICS = {"spill": physics_spill, "nospill": physics_nospill, "atomics": physics_atomics,
           "cpasync": physics_cpasync, "tma": physics_tma, "zerocopy": physics_zerocopy,
           "copy": physics_copy}


def test_program(program, args, group, cat, ctx, folder, against):
    """gpuprof exec --metrics=GROUP on the program, and with `against` (the ncu tier) ncu's
    runs of it, twice (its own spread), set against it."""
    line = " ".join([program] + list(args))
    res = mp.profile(program, args, group, cat, folder, ncu_runs=2 if against else 0)
    doc = res["doc"]
    tap.ok(res["rc"] == 0 and doc and "%s: ok" % program in res["out"],
           "gpuprof exec --metrics=%s %s: exit 0, the program's own check passes" % (group, line),
           res["err"][-2000:])
    profiled = [l for ls in kernels(doc).values() for l in ls]
    keys = [m["key"] for m in res["metrics"]]
    lacking = ["%s: %s" % (mp.base_name(l["kernel"]), k) for l in profiled for k in keys
               if k not in (l.get("metrics") or {})]
    tap.ok(profiled and keys and not lacking,
           "%s: every profiled launch carries the %d metrics of group %s"
           % (line, len(keys), group), "; ".join(lacking[:10]))
    PHYSICS[program](doc, dict(ctx, rows={m["key"]: m for m in res["metrics"]}))
    if not against:
        return
    if mp.ncu_path() is None:
        tap.skip("%s: group %s agrees with ncu" % (line, group), "ncu not installed")
        return
    if not tap.ok(res["ncu_rc"] == 0, "ncu --clock-control none on %s (twice)" % line,
                  res["ncu_err"][-2000:]):
        return
    tap.ok(res["pairs"] and not res["unmatched"],
           "%s: the same kernel launches under gpuprof and ncu" % line,
           "; ".join(res["unmatched"]))
    for kernel, k, m, ours, theirs, c in mp.agreement_rows(res):
        tap.ok(c["ok"], "%s %s#%d %s (%s): gpuprof %s, ncu %s, diff %s (within %s)"
               % (program, kernel, k, m["key"], mp.kind_of(m), ours, theirs, c["diff"],
                  c["tolerance"]))


def device_arch():
    """The GPU's compute capability as "90"; "" when unknown."""
    rc, doc, _ = run_json("device", "--device=0", "--json")
    cc = doc["devices"][0]["compute_capability"] if rc == 0 and doc else ""
    return cc.replace(".", "")


def main():
    require_gpu(*(p for p, _, _ in mp.RUNS))
    cat = mp.catalogue()
    test_catalogue(cat)
    arch = device_arch()
    against = ncu_tier(AGAINST)
    with tempfile.TemporaryDirectory() as folder:
        for program, args, group in mp.RUNS:
            if program == "tma" and arch and int(arch) < 90:
                tap.skip("tma: TMA metrics", "TMA needs sm_90, this GPU is sm_" + arch)
                continue
            test_program(program, args, group, cat, {"arch": arch}, folder, against)
    tap.done()


if __name__ == "__main__":
    main()
