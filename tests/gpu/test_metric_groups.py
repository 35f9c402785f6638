#!/usr/bin/env python3
"""On a GPU: the metric groups of issue 28 on gpuprof's own kernels. The default set still
takes two passes and its classic kernels carry no note; a row-wise copy's L2 traffic is its
bytes; a kernel with no local memory, atomics, host memory, cp.async or TMA reads zero in
those groups, every value defined. (The apps that exercise each path, and the comparisons
with ncu, are in the tests of the apps.) Skips without a GPU."""
import tap
from gpuprof import require_gpu, run_json
from schema import validate

COPY = ("transpose", "--variant=copy", "--size=4096x4096", "--repeat=1", "--warmup=0", "--json")
SECTORS = 4096 * 4096 * 4 // 32    # the copy reads and writes each of its sectors once


def copy_with(metrics):
    rc, doc, err = run_json(*COPY, "--metrics=" + metrics)
    ok = tap.ok(rc == 0 and doc is not None, "transpose copy --metrics=%s" % metrics, err)
    return doc if ok else None


def values(doc):
    return {k: v["value"] for k, v in (doc["results"][0]["metrics"] or {}).items()}


def notes(doc):
    return {k: v["note"] for k, v in (doc["results"][0]["metrics"] or {}).items() if "note" in v}


def test_default_unchanged():
    doc = copy_with("default")
    if not doc:
        return
    tap.ok(doc["profiler"]["passes"] == 2, "the default set: 2 passes (%s)"
           % doc["profiler"]["passes"])
    tap.ok(not notes(doc), "a copy of LDG and STG: no notes", notes(doc))


def test_l2():
    doc = copy_with("l2")
    if not doc:
        return
    v = values(doc)
    valid, why = validate(doc, "gpuprof-report-v1.schema.json")
    tap.ok(valid, "--metrics=l2 JSON is valid against the schema", why)
    for key in ("l2_read_transactions", "l2_write_transactions"):
        got = v.get(key)
        tap.ok(got is not None and abs(got - SECTORS) <= 0.02 * SECTORS,
               "copy: %s is the copy's %d sectors (%s)" % (key, SECTORS, got))
    hit = v.get("global_hit_rate")
    tap.ok(hit is not None and hit < 5.0, "copy: L1 serves almost no load (%s %%)" % hit)


def test_paths_not_taken():
    doc = copy_with("local,atomics,sysmem,async")
    if not doc:
        return
    v = values(doc)
    for key in ("local_load_transactions", "local_store_transactions", "atomic_transactions",
                "sysmem_read_bytes", "sysmem_write_bytes", "cp_async_requests",
                "tma_load_bytes", "tma_store_bytes"):
        tap.ok(v.get(key) == 0, "copy: %s is 0 (%s)" % (key, v.get(key)))


def test_groups_and_keys():
    doc = copy_with("default,l2,atomic_transactions")
    if not doc:
        return
    keys = set(values(doc))
    tap.ok({"gld_efficiency", "l2_read_transactions", "atomic_transactions"} <= keys
           and "local_load_transactions" not in keys,
           "default,l2,atomic_transactions: the default's, the l2 group's and the key", keys)


def main():
    require_gpu()
    test_default_unchanged()
    test_l2()
    test_paths_not_taken()
    test_groups_and_keys()
    tap.done()


if __name__ == "__main__":
    main()
