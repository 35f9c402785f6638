#!/usr/bin/env python3
"""Without a GPU: the judging logic of tests/lib/memory_paths.py, which the GPU test of the
memory paths and bench/bench_memory_paths.py use: kinds and tolerances, undefined values,
kernel matching by name and order, a group's missing keys, ncu's own spread; and that every
program it profiles is built by `make apps`."""
import os
import re

import memory_paths as mp
import tap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

def row(key, unit, inputs, group="local", ncu="ncu__x.sum", scale=1):
    return {"key": key, "unit": unit, "inputs": inputs, "set": group, "ncu_metric": ncu,
            "ncu_scale": scale}


SECTORS = row("local_load_transactions", "sectors",
              ["l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"])
L2 = row("l2_read_transactions", "sectors", ["lts__t_sectors_op_read.sum"], "l2")
HIT = row("l2_hit_rate", "%", ["lts__t_sectors_lookup_hit.sum",
                               "lts__t_sectors_lookup_miss.sum"], "l2")
EFF = row("cp_async_efficiency", "%", ["smsp__sass_inst_executed_op_ldgsts.sum"], "async")
FRACTION = row("cp_async_efficiency", "fraction", EFF["inputs"], "async")
RATE = row("l2_read_throughput", "GB/s", ["lts__t_sectors_op_read.sum",
                                          "gpu__time_duration.sum"], "l2", scale=1e-9)
BYTES = row("sysmem_read_bytes", "bytes", ["lts__t_sectors_aperture_sysmem_op_read.sum"],
            "sysmem")


def ok(m, ours, theirs, spread=0.0):
    return mp.compare(m, ours, theirs, spread)["ok"]


def test_kinds():
    tap.ok(mp.kind_of(SECTORS) == "kernel" and mp.kind_of(EFF) == "kernel",
           "sectors and instructions of the SASS's own accesses are instruction-determined")
    tap.ok(mp.kind_of(L2) == "state" and mp.kind_of(HIT) == "state" and
           mp.kind_of(BYTES) == "state", "L2 sectors, hits and system-memory traffic depend on "
           "the caches' state")
    tap.ok(mp.kind_of(RATE) == "rate", "a GB/s metric is a rate")


def test_tolerances():
    tap.ok(ok(SECTORS, 1000, 1009) and not ok(SECTORS, 1000, 1011),
           "instruction-determined counts: within 1 %, not beyond")
    tap.ok(ok(EFF, 100.0, 99.1) and not ok(EFF, 100.0, 98.9),
           "instruction-determined percentages: within 1 point, not beyond")
    tap.ok(ok(FRACTION, 1.0, 0.991) and not ok(FRACTION, 1.0, 0.989),
           "a fraction is judged in points of percent")
    tap.ok(ok(L2, 1e6, 1.049e6) and not ok(L2, 1e6, 1.06e6) and ok(L2, 1e6, 1.08e6, 0.05),
           "cache-state counts: 5 %, or twice ncu's own spread when larger")
    tap.ok(ok(L2, 10, 100) and not ok(L2, 1000, 1500),
           "cache-state counts: a floor of a few sectors for small counts")
    tap.ok(ok(HIT, 50.0, 54.9) and not ok(HIT, 50.0, 55.1), "hit rates: 5 points")
    tap.ok(ok(RATE, 1000.0, 1900.0) and not ok(RATE, 1000.0, 1.0) and not ok(RATE, 1.0, 1000.0),
           "rates: within a factor of 2 (a wrong scale of 10^3 fails)")
    tap.ok(ok(RATE, 0, 0) and not ok(RATE, 0, 5.0), "rates: 0 only against 0")
    tap.ok(ok(SECTORS, 0, 0) and not ok(SECTORS, 0, 64), "a count of 0 against 0 agrees, "
           "against 64 not")


def test_undefined():
    per = row("local_load_transactions_per_request", "sectors/request", SECTORS["inputs"])
    tap.ok(ok(per, None, None) and ok(per, None, 0.0),
           "a ratio undefined in gpuprof agrees with ncu's n/a or 0")
    tap.ok(not ok(per, None, 4.0) and not ok(per, 4.0, None),
           "one side undefined, the other a value: disagreement")
    tap.ok(mp.number("1,234.5") == 1234.5 and mp.number("n/a") is None and
           mp.number("nan") is None, "ncu's numbers read with thousands separators; n/a, nan")
    tap.ok(abs(mp.ncu_value(RATE, {"ncu__x.sum": "2e12"}) - 2000.0) < 1e-9,
           "ncu's value x ncu_scale: 2e12 bytes/s is 2000 GB/s")


def test_pairing():
    doc = {"exec": {"launches": [
        {"kernel": "spillHeavy(unsigned int *, const unsigned int *, unsigned int)",
         "profiled": True, "metrics": {}},
        {"kernel": "noPressure(unsigned int *)", "profiled": True, "metrics": {}},
        {"kernel": "spillHeavy(unsigned int *, const unsigned int *, unsigned int)",
         "profiled": True, "metrics": {}},
        {"kernel": "void manyTiny<0>(unsigned int *)", "profiled": False, "metrics": {}}]}}
    rows = [{"Kernel Name": "noPressure(unsigned int *)", "ID": "0"},
            {"Kernel Name": "spillHeavy(unsigned int *, const unsigned int *, unsigned int)",
             "ID": "1"},
            {"Kernel Name": "spillHeavy(unsigned int *, const unsigned int *, unsigned int)",
             "ID": "2"}]
    pairs, unmatched = mp.pair_launches(doc, rows)
    got = [(name, k, r["ID"]) for name, k, _, r in pairs]
    tap.ok(sorted(got) == [("noPressure", 0, "0"), ("spillHeavy", 0, "1"),
                           ("spillHeavy", 1, "2")] and not unmatched,
           "launches matched by kernel name, then by order; unprofiled ones left out", got)
    pairs, unmatched = mp.pair_launches(doc, rows[:2])
    tap.ok(unmatched == ["spillHeavy: gpuprof 2 launches, ncu 1"],
           "a kernel launched a different number of times is reported", unmatched)
    tap.ok(mp.base_name("void manyTiny<0>(unsigned int *)") == "manyTiny<0>",
           "a template's name without its return type")


def test_groups():
    cat = [SECTORS, L2, HIT, RATE]
    tap.ok(mp.missing_keys(cat, "local") == list(mp.GROUPS["local"][1:]),
           "the keys a group lacks are named, in order")
    tap.ok([m["key"] for m in mp.group_metrics(cat, "l2")] ==
           ["l2_read_transactions", "l2_hit_rate", "l2_read_throughput"],
           "a group's rows in catalogue order")
    a = [{"ncu__x.sum": "100"}, {"ncu__x.sum": "0"}]
    b = [{"ncu__x.sum": "104"}, {"ncu__x.sum": "0"}]
    tap.ok(abs(mp.spread_of(L2, a, b, 0) - 4 / 104) < 1e-12 and
           mp.spread_of(L2, a, b, 1) == 0.0 and mp.spread_of(L2, a, None, 0) == 0.0,
           "ncu's own spread between two runs, per kernel")


def make_list(text, name):
    """The words of a make variable's `:=` definition, its continuation lines joined."""
    text = text.replace("\\\n", " ")
    for line in text.splitlines():
        if re.match(r"^%s\s*:=" % name, line):
            return line.split(":=", 1)[1].split()
    return []


def test_built_by_make():
    with open(os.path.join(ROOT, "tests", "apps", "apps.mk")) as f:
        mk = f.read()
    built = make_list(mk, "APPS_CU") + make_list(mk, "APPS")
    missing = [p for p, _, _ in mp.RUNS if p not in built]
    tap.ok(len(built) > 10 and not missing,
           "apps.mk builds every program the memory-path test profiles",
           "not in apps.mk: " + ", ".join(missing))


def test_through_inputs():
    """A metric with no ncu equivalent is compared input by input, gpuprof's input values
    taken from beside the metric in its report."""
    atom = row("atomic_transactions", "sectors", ["smsp__a_atom.sum", "smsp__a_red.sum"],
               "atomics", ncu=None)
    rows = mp.comparable([SECTORS, atom])
    tap.ok([r["key"] for r in rows] == ["local_load_transactions",
                                        "atomic_transactions[smsp__a_atom.sum]",
                                        "atomic_transactions[smsp__a_red.sum]"] and
           [r["ncu_metric"] for r in rows[1:]] == atom["inputs"],
           "a metric without an ncu name: one comparison per input, by the input's name")
    launch = {"metrics": {"atomic_transactions": {
        "value": 7, "inputs": {"smsp__a_atom.sum": 3, "smsp__a_red.sum": 4}}}}
    tap.ok([mp.measured(launch, r) for r in rows] == [None, 3, 4],
           "gpuprof's side: the metric's value, or the input's from its report")
    ncu_row = {"smsp__a_atom.sum": "3", "smsp__a_red.sum": "4.0"}
    tap.ok(all(mp.compare(r, mp.measured(launch, r), mp.ncu_value(r, ncu_row))["ok"]
               for r in rows[1:]), "equal inputs agree")


def main():
    test_kinds()
    test_through_inputs()
    test_tolerances()
    test_undefined()
    test_pairing()
    test_groups()
    test_built_by_make()
    tap.done()


if __name__ == "__main__":
    main()
