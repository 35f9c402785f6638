#!/usr/bin/env python3
"""Issue 28 benchmark: the memory-path metrics (groups local, l2, atomics, sysmem, async)
against Nsight Compute on the programs of tests/apps made for them (spill, nospill, atomics,
cpasync, tma, zerocopy; copy for L2).

Each program runs once under `gpuprof exec --metrics=GROUP` and --ncu-runs times (default 3)
under `ncu --clock-control none` (default cache flush, kernel replay) collecting the group's
`ncu_metric` names from gpuprof's catalogue, one tool after the other. The table has one row
per kernel and metric: gpuprof's value, ncu's first run's (x ncu_scale), their difference,
ncu against itself (largest difference of its later runs from its first), the tolerance of
tests/lib/memory_paths.py and the verdict. It is printed and written as a Markdown table to
$BENCH_OUT/memory-paths.md for bench/README.md; the raw reports and ncu logs stay beside it.
"""
import argparse
import os
import sys

from common import out_path, table

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lib"))
import memory_paths as mp  # noqa: E402

HEADERS = ["program", "kernel", "metric", "kind", "gpuprof", "ncu", "diff", "ncu vs ncu",
           "tolerance", "agree"]


def cell(v):
    if v is None:
        return "-"
    return "%.6g" % v


def ncu_self(res, m, row_index):
    """ncu's later runs against its first for metric m, as text."""
    if len(res["runs"]) < 2:
        return "-"
    first = res["runs"][0]
    worst = max(mp.spread_of(m, first, later, row_index) for later in res["runs"][1:])
    return ("%.3f pt" % worst) if mp.is_percentage(m) else ("%.3f %%" % (100 * worst))


def profile_all(cat, ncu_runs, folder):
    """{(program, group): profile()} with every ncu run kept (res['runs'])."""
    out = {}
    for program, args, group in mp.RUNS:
        res = mp.profile(program, args, group, cat, folder, ncu_runs=1)
        runs = [res["rows"]] if res["ncu_rc"] == 0 else []
        for r in range(1, ncu_runs if runs else 0):
            names = list(dict.fromkeys(m["ncu_metric"] for m in mp.comparable(res["metrics"])))
            rc, rows, err = mp.run_ncu(program, args, names, os.path.join(
                folder, "%s-%s-ncu-%d.csv" % (program, group, r)))
            if rc != 0:
                sys.stderr.write(err[-2000:])
                break
            runs.append(rows)
        res["runs"] = runs
        res["rows2"] = runs[1] if len(runs) > 1 else None
        out[(program, group)] = res
    return out


def rows_of(results):
    rows, problems = [], []
    for program, args, group in mp.RUNS:
        res = results[(program, group)]
        line = " ".join([program] + list(args))
        if res["rc"] != 0 or not res["doc"]:
            problems.append("gpuprof exec --metrics=%s %s: exit %s: %s"
                            % (group, line, res["rc"], res["err"].strip()[-300:]))
            continue
        if res["ncu_rc"] != 0:
            problems.append("ncu on %s: exit %s: %s" % (line, res["ncu_rc"],
                                                         res["ncu_err"].strip()[-300:]))
            continue
        problems += ["%s: %s" % (line, u) for u in res["unmatched"]]
        index = {id(row): i for i, row in enumerate(res["rows"])}
        pairs = {(name, k): row for name, k, _, row in res["pairs"]}
        for kernel, k, m, ours, theirs, c in mp.agreement_rows(res):
            rows.append([program, kernel if k == 0 else "%s#%d" % (kernel, k), m["key"],
                         mp.kind_of(m), cell(ours), cell(theirs), c["diff"],
                         ncu_self(res, m, index[id(pairs[(kernel, k)])]), c["tolerance"],
                         "yes" if c["ok"] else "NO"])
    return rows, problems


def markdown(rows):
    lines = ["| " + " | ".join(HEADERS) + " |", "|" + " --- |" * len(HEADERS)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description="The memory-path metrics against ncu's.")
    parser.add_argument("--ncu-runs", type=int, default=3,
                        help="ncu runs per program, for its own spread (default 3)")
    args = parser.parse_args()
    if mp.ncu_path() is None:
        raise SystemExit("ncu not found (PATH or $CUDA_HOME/bin)")
    missing = [p for p, _, _ in mp.RUNS if not os.path.exists(mp.app(p))]
    if missing:
        raise SystemExit("not built: %s (make apps)" % ", ".join(missing))
    cat = mp.catalogue()
    absent = {g: mp.missing_keys(cat, g) for g in mp.GROUPS}
    folder = os.path.dirname(os.path.abspath(out_path("memory-paths.md")))
    results = profile_all(cat, max(1, args.ncu_runs), folder)
    rows, problems = rows_of(results)
    print("memory paths: gpuprof exec --metrics=GROUP vs ncu --clock-control none "
          "(%d ncu runs per program)" % max(1, args.ncu_runs))
    table(HEADERS, rows)
    with open(out_path("memory-paths.md"), "w") as f:
        f.write(markdown(rows))
    for group, keys in sorted(absent.items()):
        if keys:
            print("group %s lacks %s" % (group, ", ".join(keys)))
    for p in problems:
        print("problem: " + p)
    bad = [r for r in rows if r[-1] != "yes"]
    print("%d kernel metrics compared, %d outside their tolerance%s; table in %s"
          % (len(rows), len(bad), (": " + ", ".join("%s %s %s" % (r[0], r[1], r[2])
                                                   for r in bad)) if bad else "",
             out_path("memory-paths.md")))


if __name__ == "__main__":
    main()
