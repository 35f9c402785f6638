#!/usr/bin/env python3
"""On a GPU: every variant x its allowed block shapes x awkward sizes x types, checked
against the CPU by gpuprof itself (one TAP line per result). Skips without a GPU."""
import csv
import io

import tap
from gpuprof import require_gpu, run, run_json

# Awkward sizes from the issues: 1, a prime, 2^24+7, rectangular and odd matrices.
SIZES = {
    "reduce": ["1", "31", "1000003", "2^24", "2^24+7"],
    "transpose": ["1x1", "1000x3000", "4097x33", "8192x8192"],
    "reduce2d": ["1x1", "1000x3000", "4097x33", "4096x4096"],
    "saxpy": ["1", "1000003", "2^26+3"],
}
BLOCKS_2D = ["32x16", "32x8", "16x16", "32x32", "8x32", "64x8", "16x8", "4x64"]
EXTRA = {
    "reduce": [["--type=int32,float32"]],
    "transpose": [[]],
    "reduce2d": [["--group=8"], ["--group=16"], ["--group=2"], ["--group=32"]],
    "saxpy": [[]],
}


def allowed_blocks(family, variant):
    xs, ys = variant["block_x"], variant["block_y"]
    if family in ("transpose", "reduce2d"):
        blocks = []
        for b in BLOCKS_2D:
            x, y = map(int, b.split("x"))
            if x in xs and y in ys:
                blocks.append(b)
        return blocks
    return [str(x) for x in xs if x >= 32]


def check_rows(family, block, args, out, rc, err):
    rows = list(csv.DictReader(io.StringIO(out)))
    if not tap.ok(rows, "%s block %s %s: results" % (family, block, " ".join(args)),
                  "exit %d\n%s" % (rc, err)):
        return
    for r in rows:
        size = r["n"] if r["nx"] == "0" else "%sx%s" % (r["nx"], r["ny"])
        tap.ok(r["check"] == "passed",
               "%s %s block %s %s %s%s" % (family, r["variant"], block, r["type"], size,
                                           " group " + r["group"] if r.get("group") else ""),
               "%s\n%s" % (r, err))
    tap.ok(rc == (0 if all(r["check"] == "passed" for r in rows) else 1),
           "%s block %s: exit status follows the checks" % (family, block))


def test_family(family, variants):
    by_block = {}
    for v in variants:
        for b in allowed_blocks(family, v):
            by_block.setdefault(b, []).append(v["name"])
    for block, names in sorted(by_block.items()):
        # reduce2d inner takes its block from --group: run it without --block.
        names_here = [n for n in names if not (family == "reduce2d" and n == "inner")]
        for extra in EXTRA[family]:
            if not names_here:
                continue
            args = ["--variant=" + ",".join(names_here), "--block=" + block,
                    "--size=" + ",".join(SIZES[family]), "--metrics=none", "--repeat=1",
                    "--warmup=1", "--csv"] + extra
            rc, out, err = run(family, *args)
            check_rows(family, block, extra, out, rc, err)
    if family == "reduce2d":
        for extra in EXTRA[family]:
            rc, out, err = run(family, "--variant=inner", "--size=" + ",".join(SIZES[family]),
                               "--metrics=none", "--repeat=1", "--warmup=0", "--csv", *extra)
            check_rows(family, "group", extra, out, rc, err)
    if family == "saxpy":
        rc, out, err = run("saxpy", "--variant=gridstride", "--grid=1", "--block=1",
                           "--size=1000003", "--metrics=none", "--repeat=1", "--warmup=0", "--csv")
        check_rows(family, "1 grid 1 (serial)", [], out, rc, err)


def main():
    require_gpu()
    rc, doc, err = run_json("list", "--json")
    tap.ok(rc == 0, "list --json", err)
    for fam in doc["families"]:
        test_family(fam["name"], fam["variants"])
    tap.done()


if __name__ == "__main__":
    main()
