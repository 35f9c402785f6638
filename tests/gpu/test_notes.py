#!/usr/bin/env python3
"""On a GPU: the notes that tell why a classic metric is empty or above 100 % (issue 28).
- tests/apps/broadcast: shared loads that a whole warp aims at the same 16 bytes LOWER
  shared_efficiency (CUPTI counts the bytes once per wavefront, not once per thread: 9.1 % on
  the H100), equal to ncu's and with no note; its twin, distinct 16 bytes a thread, is 100 %.
  (A broadcast is not what puts the metric above 100 %: docs/cupti.md, 7.4.)
- tests/apps/gemm (cuBLAS): the FP32 product at matrixMulCUBLAS's sizes loads through cp.async
  and the FP16 one through TMA on an H100; their gld_* metrics are undefined with a note
  naming the path, and the async group counts what they loaded. The FP16 kernel's wgmma
  reads its operands from shared memory: its shared_efficiency (2 %, as ncu's) says why.
The comparison with ncu runs in the ncu tier (make test-ncu). Skips without a GPU (and the ncu
comparison without ncu)."""
import os
import subprocess
import tempfile

import memory_paths as mp
import tap
from gpuprof import BIN, ncu_tier, require_gpu


def launches(doc, base):
    return [l for l in (doc or {}).get("exec", {}).get("launches", [])
            if mp.base_name(l["kernel"]) == base and l.get("profiled")]


def metric(launch, key):
    return ((launch.get("metrics") or {}).get(key) or {})


def test_broadcast(folder):
    rc, doc, out, err = mp.run_exec("broadcast", (), "default",
                                    os.path.join(folder, "broadcast.json"))
    if not tap.ok(rc == 0 and "broadcast: ok" in out and doc,
                  "exec broadcast: exit 0, the program's own check passes", err):
        return
    wide = launches(doc, "sharedBroadcast")
    narrow = launches(doc, "sharedDistinct")
    eff = [metric(l, "shared_efficiency") for l in wide]
    tap.ok(len(eff) == 1 and 0 < (eff[0].get("value") or 0) < 50 and not eff[0].get("note"),
           "sharedBroadcast: a warp-wide broadcast lowers shared_efficiency (%s %%), no note"
           % (eff[0].get("value") if eff else None))
    eff = [metric(l, "shared_efficiency") for l in narrow]
    tap.ok(len(eff) == 1 and 90 <= (eff[0].get("value") or 0) <= 100.0001 and
           not eff[0].get("note"),
           "sharedDistinct: shared_efficiency about 100 %% (%s), no note"
           % (eff[0].get("value") if eff else None))
    if not ncu_tier("broadcast: shared_efficiency agrees with ncu"):
        return
    if mp.ncu_path() is None:
        tap.skip("broadcast: shared_efficiency agrees with ncu", "ncu not installed")
        return
    cat = [m for m in mp.catalogue("GH100") if m["key"] == "shared_efficiency"]
    nrc, rows, nerr = mp.run_ncu("broadcast", (), [cat[0]["ncu_metric"]],
                                 os.path.join(folder, "broadcast-ncu.csv"))
    pairs, unmatched = mp.pair_launches(doc, rows)
    results = [(name, mp.compare(cat[0], mp.measured(l, cat[0]), mp.ncu_value(cat[0], row)))
               for name, _, l, row in pairs]
    tap.ok(nrc == 0 and len(results) == 2 and not unmatched and
           all(c["ok"] for _, c in results),
           "broadcast: shared_efficiency equals ncu's %s" % cat[0]["ncu_metric"],
           (nerr[-1000:], unmatched, results))


def test_gemm(folder):
    rc, doc, out, err = mp.run_exec("gemm", (), "default,async", os.path.join(folder, "gemm.json"))
    if not tap.ok(rc == 0 and "gemm: ok" in out and doc,
                  "exec gemm (cuBLAS): exit 0, the program's own check passes", err):
        return
    profiled = [l for l in doc["exec"]["launches"] if l.get("profiled")]
    by_cp_async = [l for l in profiled if (metric(l, "cp_async_requests").get("value") or 0) > 0]
    by_tma = [l for l in profiled if (metric(l, "tma_load_bytes").get("value") or 0) > 0]
    tap.ok(by_cp_async and by_tma,
           "gemm: cuBLAS's kernels load through cp.async (%d launches) and TMA (%d launches)"
           % (len(by_cp_async), len(by_tma)), [l["kernel"][:80] for l in profiled])
    wgmma = [metric(l, "shared_efficiency").get("note", "") for l in by_tma]
    tap.ok(by_tma and all("wgmma" in n for n in wgmma) and
           not any("wgmma" in metric(l, "shared_efficiency").get("note", "")
                   for l in by_cp_async),
           "gemm: the wgmma kernel's shared_efficiency says its operand reads are not in the "
           "bytes (%s)" % wgmma[:1])
    for path, group in (("cp.async", by_cp_async), ("TMA", by_tma)):
        notes = [metric(l, "gld_efficiency").get("note", "") for l in group]
        tap.ok(group and all(path in n for n in notes) and
               all(metric(l, "gld_efficiency").get("value") is None for l in group),
               "gemm: gld_efficiency of the kernels loading via %s is n/a and says so (%s)"
               % (path, notes[:1]))


def test_gemm_default(folder):
    """The default set counts cp.async's sectors too: the text's metric table shows them in the
    row of each kernel that loads through cp.async (issue 46)."""
    path = os.path.join(folder, "gemm-default.json")
    rc, doc, out, err = mp.run_exec("gemm", (), "default", path)
    if not tap.ok(rc == 0 and doc, "exec gemm, default set", err):
        return
    profiled = [l for l in doc["exec"]["launches"] if l.get("profiled")]
    by_cp_async = [l for l in profiled
                   if (metric(l, "cp_async_sectors_per_request").get("value") or 0) > 0]
    tap.ok(by_cp_async, "gemm, default set: cp_async_sectors_per_request measured (%d launches)"
           % len(by_cp_async), [l["kernel"][:80] for l in profiled])
    p = subprocess.run([BIN, "report", path], capture_output=True, text=True, timeout=120)
    head = [l for l in p.stdout.splitlines() if l.startswith("gld/req")]
    tap.ok(p.returncode == 0 and head and "cpasync/req" in head[0].split(),
           "gemm, default set: the metric table has a cpasync/req column", p.stdout)


def main():
    require_gpu("broadcast", "gemm", missing="tests/apps not built (make apps)")
    with tempfile.TemporaryDirectory() as folder:
        test_broadcast(folder)
        test_gemm(folder)
        test_gemm_default(folder)
    tap.done()


if __name__ == "__main__":
    main()
