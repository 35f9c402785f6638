#!/usr/bin/env python3
"""A distributed job's ranks (issue 38): `gpuprof report` of ranks' exec reports is a rank view.

- The fixtures (tests/fixtures/ranks/, made by make.py from exec-torch.json) carry their rank
  and round-trip.
- The view's numbers agree with the same numbers worked out here from the launches: per
  kernel and rank its calls, time (calls x the mean of the timed launches) and DRAM bytes
  (calls x the means of dram_read_bytes and dram_write_bytes), their least, median and most,
  the slowest and fastest rank; and the slowest rank each kernel names is the one make.py
  slowed (a different kernel on each rank), in text, JSON, CSV, HTML and --by-rank.
- The view does not depend on the order of the files; its JSON reads back and renders the
  same in every format; a view merges with more ranks' files as they would have merged.
- Files that do not belong (no rank, a rank twice, a kernel command's report) are one-line
  usage errors naming the file; so are --launches and --metrics-detail of a view, and
  compare of one. A broken ranks section is refused with its JSON path.
- Memory does not grow with the number of files (bench/bench_merge_ranks.py measures more)."""
import copy
import json
import os
import random
import re
import subprocess
import sys
import tempfile

import tap
import test_html
from gpuprof import BIN, as_typed, run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RANKS_DIR = as_typed(os.path.join(ROOT, "tests", "fixtures", "ranks"))
FILES = [os.path.join(RANKS_DIR, "rank%d.json" % r) for r in (0, 1, 3)]
NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}
NCCL = "ncclDevKernel_AllReduce_Sum_f32_RING_LL"
# make.py's uneven kernels: a name's part -> the rank it made slowest.
SLOWED = {"cutlass_80_simt_sgemm_256x128_8x4_nt_align1": 1,
          "cutlass_80_simt_sgemm_128x64_8x5_tn_align1": 0,
          "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8": 3,
          NCCL: 0}


def load(path):
    with open(path) as f:
        return json.load(f)


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0


# ---- the view worked out from the launches --------------------------------------------------

def cells_of(doc):
    """{identity: (kernel, calls, time_ms or None, dram_bytes or None)} of one rank's report."""
    tallies = {}
    for l in doc["exec"]["launches"]:
        key = l["mangled"] or l["kernel"]
        t = tallies.setdefault(key, {"kernel": l["kernel"], "calls": 0, "ms": [], "read": [],
                                     "write": []})
        t["calls"] += 1
        if l["duration_ms"] is not None:
            t["ms"].append(l["duration_ms"])
        for metric, into in (("dram_read_bytes", "read"), ("dram_write_bytes", "write")):
            m = (l["metrics"] or {}).get(metric) if l["profiled"] else None
            if m and m["value"] is not None:
                t[into].append(m["value"])
    out = {}
    for key, t in tallies.items():
        ms = t["calls"] * sum(t["ms"]) / len(t["ms"]) if t["ms"] else None
        dram = (t["calls"] * (sum(t["read"]) / len(t["read"]) + sum(t["write"]) /
                              len(t["write"])) if t["read"] and t["write"] else None)
        out[key] = (t["kernel"], t["calls"], ms, dram)
    return out


def expected_view(paths):
    """{identity: {rank: (calls, ms, dram)}} and the kernels' names."""
    view, names = {}, {}
    for p in paths:
        doc = load(p)
        rank = doc["exec"]["rank"]["rank"]
        for key, (kernel, calls, ms, dram) in cells_of(doc).items():
            view.setdefault(key, {})[rank] = (calls, ms, dram)
            names[key] = kernel
    return view, names


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-12)


def check_kernel(k, cells):
    """The differences between a kernel of the view's JSON and what the launches give."""
    wrong = []
    by_rank = {c["rank"]: c for c in k["by_rank"]}
    if sorted(by_rank) != sorted(cells):
        wrong.append("ranks %s, not %s" % (sorted(by_rank), sorted(cells)))
        return wrong
    for rank, (calls, ms, dram) in cells.items():
        c = by_rank[rank]
        if c["calls"] != calls or not close(c["total_ms"], ms) or not close(c["dram_bytes"], dram):
            wrong.append("rank %d: %s against %s" % (rank, c, (calls, ms, dram)))
    for key, index in (("time_ms", 1), ("dram_bytes", 2)):
        values = [v[index] for v in cells.values() if v[index] is not None]
        s = k[key]
        want = (min(values), median(values), max(values)) if values else (None,) * 3
        if not all(close(a, b) for a, b in zip((s["min"], s["median"], s["max"]), want)):
            wrong.append("%s %s, not %s" % (key, s, want))
    timed = {r: v[1] for r, v in cells.items() if v[1] is not None}
    slowest = min((r for r in timed if timed[r] == max(timed.values())), default=None)
    fastest = min((r for r in timed if timed[r] == min(timed.values())), default=None)
    if k["slowest_rank"] != slowest or k["fastest_rank"] != fastest:
        wrong.append("slowest %s fastest %s, not %s %s" % (k["slowest_rank"], k["fastest_rank"],
                                                           slowest, fastest))
    return wrong


def test_fixtures():
    for path, rank in zip(FILES, (0, 1, 3)):
        doc = load(path)
        tap.ok(doc["exec"].get("rank") == {"rank": rank, "size": 4, "from": "RANK"},
               "%s records rank %d of 4, from RANK" % (os.path.basename(path), rank))
        rc, out, err = run("report", path, "--json", env=NO_GPU)
        with open(path) as f:
            tap.ok(rc == 0 and out == f.read(), "%s round-trips (report FILE --json)"
                   % os.path.basename(path), err)


def test_numbers(view):
    want, names = expected_view(FILES)
    kernels = view["ranks"]["kernels"]
    tap.ok(len(kernels) == len(want), "the view has each kernel of the ranks once (%d)"
           % len(want))
    wrong = []
    for k in kernels:
        key = k["mangled"] or k["kernel"]
        if key not in want:
            wrong.append("%s: not in the ranks' launches" % key)
            continue
        wrong += ["#%d %s: %s" % (k["number"], names[key][:60], w)
                  for w in check_kernel(k, want[key])]
    tap.ok(not wrong, "every kernel's cells, spreads, slowest and fastest rank agree with its "
           "launches", "\n".join(wrong))
    order = [k["time_ms"]["max"] for k in kernels if k["time_ms"]["max"] is not None]
    tap.ok(order == sorted(order, reverse=True) and
           [k["number"] for k in kernels] == list(range(1, len(kernels) + 1)),
           "kernels are numbered #1..#N, the most time on one rank first")
    ranks = view["ranks"]["ranks"]
    sums = {r["rank"]: r["kernel_ms"] for r in ranks}
    worked = {r: sum(c[1] for cells in want.values() for rr, c in cells.items()
                     if rr == r and c[1] is not None) for r in (0, 1, 3)}
    tap.ok(all(close(sums[r], worked[r]) for r in worked) and
           [r["rank"] for r in ranks] == [0, 1, 3] and view["ranks"]["world_size"] == 4,
           "each rank's kernel time is its kernels' times summed; the ranks in order, world "
           "size 4", "%s %s" % (sums, worked))


def find(kernels, part):
    return next((k for k in kernels if part in k["kernel"]), None)


def test_slowest_everywhere(view):
    kernels = view["ranks"]["kernels"]
    for part, rank in SLOWED.items():
        k = find(kernels, part)
        tap.ok(k is not None and k["slowest_rank"] == rank,
               "JSON: %s's slowest rank is %d" % (part, rank), k and k["slowest_rank"])
    ranks_of_slowest = {find(kernels, p)["slowest_rank"] for p in SLOWED if p != NCCL}
    tap.ok(ranks_of_slowest == {0, 1, 3}, "different kernels are slowest on different ranks")
    nccl = find(kernels, NCCL)
    tap.ok(nccl["collective"] and nccl["fastest_rank"] == 1 and
           not any(k["collective"] for k in kernels if k is not nccl),
           "JSON: the NCCL kernel is the one collective; rank 1, the others waited for, its "
           "fastest")
    last = find(kernels, "unsigned int, 4")
    tap.ok(last and [c["rank"] for c in last["by_rank"]] == [0, 1],
           "JSON: the kernel rank 3 did not run has no cell for it")

    rc, text, err = run("report", *FILES, env=NO_GPU)
    rows = {}
    for line in text.splitlines():
        cells = line.split()
        if len(cells) > 10 and cells[9].startswith("#"):
            rows[int(cells[9][1:])] = cells
    for part, rank in SLOWED.items():
        k = find(kernels, part)
        row = rows.get(k["number"], [])
        want = "%d%s" % (rank, "*" if part == NCCL else "")
        tap.ok(rc == 0 and len(row) > 5 and row[5] == want,
               "text: #%d (%s) names rank %s slowest" % (k["number"], part, want), row)
    tap.ok(rows.get(last["number"], [""])[0] == "2/3", "text: a kernel of 2 of the 3 ranks says "
           "2/3", rows.get(last["number"]))
    tap.ok("usually its fastest (#%d rank 1)" % nccl["number"] in " ".join(text.split()),
           "text: the collective's note names rank 1, the one the others waited for")
    tap.ok("3 ranks of world size 4 (missing: 2)" in text and
           "1 rank failed: 3 (" in text and "ranks 0, 3: synthetic" in err,
           "text: the header names the missing and the failed rank; the ranks' shared "
           "warning is given once, with its ranks", text[:400] + err)
    tap.ok(all(len(line) <= 120 and not line.endswith(" ") for line in text.splitlines()),
           "text: every line fits 120 columns, none ends in a space")

    rc, csv, _ = run("report", *FILES, "--csv", env=NO_GPU)
    lines = csv.splitlines()
    head = lines[0].split(",")
    rows = {}
    for line in lines[1:]:
        cells = line.split(",")
        rows[int(cells[0])] = dict(zip(head, [cells[0]] + cells[-(len(head) - 1):]))
    for part, rank in SLOWED.items():
        k = find(kernels, part)
        r = rows.get(k["number"], {})
        tap.ok(rc == 0 and r.get("slowest_rank") == str(rank) and
               r.get("collective") == ("1" if part == NCCL else "0"),
               "CSV: kernel_id %d: slowest_rank %d" % (k["number"], rank), r)

    rc, csv, _ = run("report", *FILES, "--csv", "--by-rank", "--csv-columns=kernel_id,rank,"
                     "slowest,fastest,total_ms", env=NO_GPU)
    flagged = {}
    for line in csv.splitlines()[1:]:
        kid, rank, slowest, fastest, _ = line.split(",")
        if slowest == "1":
            flagged[int(kid)] = int(rank)
    tap.ok(rc == 0 and all(flagged.get(find(kernels, p)["number"]) == r
                           for p, r in SLOWED.items()),
           "CSV --by-rank: slowest is 1 on each kernel's slowest rank, once per kernel", flagged)

    rc, text, _ = run("report", *FILES, "--by-rank", env=NO_GPU)
    blocks, current = {}, None
    for line in text.splitlines():
        if line.startswith("Kernel #"):
            current = int(line.split("#")[1].split(":")[0].split()[0])
        elif current and line.rstrip().endswith("slowest"):
            blocks[current] = int(line.split()[0])
    tap.ok(rc == 0 and all(blocks.get(find(kernels, p)["number"]) == r
                           for p, r in SLOWED.items()),
           "text --by-rank: the slowest rank's row of each kernel says so", blocks)

    rc, page, _ = run("report", *FILES, "--html", env=NO_GPU)
    chart = page.split('id="chart-rank-time"', 1)[-1].split("</figure>", 1)[0]
    marked = {}
    for group in chart.split('<text class="group"')[1:]:
        number = int(re.search(r">#(\d+) ", group).group(1))
        m = re.search(r'<g class="row slowest">\s*<text class="label"[^>]*>'
                      r'(?:<title>[^<]*</title>)?rank (\d+)</text>', group)
        if m:
            marked[number] = int(m.group(1))
    want = {find(kernels, p)["number"]: r for p, r in SLOWED.items()
            if find(kernels, p)["number"] <= 8}
    tap.ok(rc == 0 and all(marked.get(n) == r for n, r in want.items()),
           "HTML: the chart of time by rank marks each top kernel's slowest rank", marked)
    tap.ok(page.count("<table class=\"kernels ranks\">") == 1 and
           "class=\"by-rank\"" not in page and "rank-list" in page,
           "HTML: the spread table and the ranks' table; no row per kernel and rank")
    test_html.static_checks("rank view page", rc, page, "")
    rc, page, err = run("report", *FILES, "--html", "--by-rank", env=NO_GPU)
    tap.ok(rc == 0 and page.count('<tr class="slowest"><td class="num">') >= len(SLOWED),
           "HTML --by-rank: a row per kernel and rank, the slowest marked")
    test_html.static_checks("rank view page --by-rank", rc, page, err)


def check_order_and_round_trip(files, view_text, seed, common, renders, view, merges,
                               then=None):
    """The view of `files` is the same in any order of them; its JSON reads back and is
    written the same; `report` of it renders as the files do with `common` and each of
    `renders` (a list of argument lists; `view` names the rendering in the checks); and a view
    of the first two merged with the third is the view of the three (`merges` says so).
    `then(view_path, part_path)` checks more on the written view and the two ranks' part."""
    shuffled = files[:]
    random.Random(seed).shuffle(shuffled)
    shuffled.reverse()
    rc, out, _ = run("report", *shuffled, "--json", env=NO_GPU)
    tap.ok(rc == 0 and out == view_text, "the view is the same whatever the order of the files")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "view.json")
        with open(path, "w") as f:
            f.write(view_text)
        rc, out, err = run("report", path, "--json", env=NO_GPU)
        tap.ok(rc == 0 and out == view_text, "the view's JSON reads back and is written the "
               "same (round trip)", err)
        for args in renders:
            a = run("report", *files, *common, *args, env=NO_GPU)
            b = run("report", path, *common, *args, env=NO_GPU)
            tap.ok(a[0] == b[0] == 0 and a[1] == b[1], "report of the view's JSON %s as the "
                   "ranks' files do: %s" % (view, " ".join(args) or "text"))
        # A view of the first two ranks, then the third's file: as the three merged at once.
        part = os.path.join(tmp, "part.json")
        rc, out, _ = run("report", files[0], files[1], "--json", env=NO_GPU)
        with open(part, "w") as f:
            f.write(out)
        rc, joined, err = run("report", part, files[2], "--json", env=NO_GPU)
        tap.ok(rc == 0 and joined == view_text, merges, err)
        if then:
            then(path, part)


def test_order_and_round_trip(view_text):
    check_order_and_round_trip(
        FILES, view_text, 38, [],
        [[], ["--csv"], ["--html"], ["--by-rank"], ["--by-rank", "--csv"],
         ["--by-rank", "--html"], ["--kernel-name=base"], ["--wide"]],
        "renders", "a rank view merges with more ranks' files as the files would have merged",
        then=check_view_refused)


def check_view_refused(path, part):
    """A rank view is no input to compare, nor merged with a file of one of its ranks."""
    rc, _, err = run("compare", path, FILES[0], env=NO_GPU)
    tap.ok(rc == 2 and "is a rank view" in err and len(err.strip().splitlines()) == 1,
           "compare of a rank view: a one-line usage error", err)
    rc, _, err = run("report", part, FILES[1], env=NO_GPU)
    tap.ok(rc == 2 and "rank 1 again" in err, "a view and a file of one of its ranks: "
           "rank twice", err)


def usage_error(args, words, what):
    rc, out, err = run(*args, env=NO_GPU)
    lines = [l for l in err.strip().splitlines() if not l.startswith("gpuprof: warning:")]
    tap.ok(rc == 2 and not out and len(lines) == 1 and all(w in lines[0] for w in words),
           "usage error: %s" % what, err)


def test_errors():
    copy_ = os.path.join(ROOT, "tests", "fixtures", "exec-copy.json")
    reduce_ = os.path.join(ROOT, "tests", "fixtures", "reduce-default.json")
    usage_error(["report", FILES[0], copy_], [copy_, "no rank", "--rank=N"],
                "an unranked file among ranked ones names it")
    usage_error(["report", copy_, FILES[0]], [FILES[0], copy_, "--rank=N"],
                "a ranked file among unranked ones names both")
    usage_error(["report", FILES[0], reduce_], [reduce_, "kernel command"],
                "a kernel command's report among ranks'")
    usage_error(["report", copy_, "--by-rank"], ["--by-rank", copy_, "no rank"],
                "--by-rank of a report without a rank")
    usage_error(["report", *FILES, "--launches"], ["--launches"], "--launches of a rank view")
    usage_error(["report", *FILES, "--metrics-detail"], ["--metrics-detail"],
                "--metrics-detail of a rank view")
    usage_error(["report"] + ["x.json"] * 16385, ["more than 16384 files for 'report'"],
                "more files than a command line of report takes names the limit")
    with tempfile.TemporaryDirectory() as tmp:
        other = os.path.join(tmp, "again.json")
        doc = load(FILES[1])
        doc["exec"]["pid"] += 1
        with open(other, "w") as f:
            json.dump(doc, f)
        usage_error(["report", FILES[0], FILES[1], other], [other, "rank 1 again", FILES[1]],
                    "two files of one rank name both")


def broken(view, what, change, words):
    doc = copy.deepcopy(view)
    change(doc)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "broken.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        rc, out, err = run("report", path, env=NO_GPU)
    tap.ok(rc == 1 and not out and all(w in err for w in words),
           "a broken rank view is refused: %s" % what, err)


def test_broken(view):
    def swap_ranks(d):
        r = d["ranks"]["ranks"]
        r[0], r[1] = r[1], r[0]

    def unknown_rank(d):
        d["ranks"]["kernels"][0]["by_rank"][0]["rank"] = 2

    def untimed(d):
        d["ranks"]["kernels"][1]["by_rank"][0]["total_ms"] = None

    def twice(d):
        d["ranks"]["kernels"].append(copy.deepcopy(d["ranks"]["kernels"][0]))

    def launch(d):
        d["exec"]["launches"] = load(FILES[0])["exec"]["launches"][:1]


    def no_ranks(d):
        d["ranks"]["ranks"] = []

    def no_cells(d):
        d["ranks"]["kernels"][0]["by_rank"] = []

    def big_rank(d):
        d["ranks"]["ranks"][0]["size"] = 0
    for what, change, words in (
            ("ranks out of order", swap_ranks, ["ranks.ranks[1].rank", "in order"]),
            ("a cell of a rank the view lacks", unknown_rank,
             ["ranks.kernels[0].by_rank[0].rank", "one of the ranks"]),
            ("a timed cell without its time", untimed, ["total_ms", "timed"]),
            ("a kernel twice", twice, ["ranks.kernels[%d]" % len(view["ranks"]["kernels"]),
                                       "no other entry"]),
            ("launches beside the ranks", launch, ["exec.launches", "rank view"]),
            ("no rank", no_ranks, ["ranks.ranks", "at least one"]),
            ("a kernel of no rank", no_cells, ["by_rank", "at least one"]),
            ("a world size of 0", big_rank, ["ranks.ranks[0].size"])):
        broken(view, what, change, words)


def test_ranks_elsewhere(view):
    doc = load(os.path.join(ROOT, "tests", "fixtures", "reduce-default.json"))
    doc["ranks"] = view["ranks"]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "reduce.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        rc, out, err = run("report", path, env=NO_GPU)
    tap.ok(rc == 1 and "ranks: expected no ranks section (command is not exec)" in err,
           "a kernel command's report with a ranks section is refused", err)


def test_world_size(view):
    doc = copy.deepcopy(view)
    doc["ranks"]["ranks"][0]["size"] = 2 ** 31 - 1
    for r in doc["ranks"]["ranks"][1:]:
        r["size"] = 2 ** 31 - 1
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "huge.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        rc, out, err = run("report", path, env=NO_GPU, timeout=10)
    tap.ok(rc == 0 and "(missing: 2, 4-2147483646)" in out,
           "a world size of 2^31-1: the missing ranks as ranges, at once", out[:300] + err)


# A small, fresh Python starts gpuprof: a process's peak counts the memory of the one it was
# forked from until it runs gpuprof (bench/bench_merge_ranks.py measures the same way).
MEASURER = """
import os, sys
null = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ, file_actions=null)
_, status, usage = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"""


def peak_kib(args):
    """(exit status, peak resident KiB) of `gpuprof report ARGS`."""
    p = subprocess.run([sys.executable, "-I", "-S", "-c", MEASURER, os.path.abspath(BIN),
                        "report"] + args, capture_output=True, text=True,
                       env=dict(os.environ, **NO_GPU))
    rc, kib = p.stdout.split()
    return int(rc), int(kib)


def test_many_ranks():
    """48 ranks: memory flat, and two views of 24 merged as the 48 files at once."""
    base = load(FILES[0])
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for r in range(48):
            doc = copy.deepcopy(base)
            doc["exec"]["rank"] = {"rank": r, "size": 48, "from": "RANK"}
            path = os.path.join(tmp, "r%02d.json" % r)
            with open(path, "w") as f:
                json.dump(doc, f)
            paths.append(path)
        # Two views of 24 ranks each, merged: as the 48 files at once, warnings included
        # ("ranks 0, 1, 2 and 45 more: ...").
        views = []
        for half in (paths[:24], paths[24:]):
            rc, out, _ = run("report", *half, "--json", env=NO_GPU)
            views.append(os.path.join(tmp, "view%d.json" % len(views)))
            with open(views[-1], "w") as f:
                f.write(out)
        rc, page, err = run("report", *paths, "--html", env=NO_GPU)
        root = test_html.static_checks("rank view page of 48 ranks", rc, page, err)
        chart = page.split('id="chart-rank-time"', 1)[-1].split("</figure>", 1)[0]
        tap.ok(root.first("figure") is not None and chart.count('<g class="row') == 8 and
               chart.count(">median ") == 8 and ">rank 1<" not in chart,
               "HTML of 48 ranks: a bar per top kernel at its median (a whisker to its most), "
               "not a bar per rank")
        whole = run("report", *paths, "--json", env=NO_GPU)
        joined = run("report", *views, "--json", env=NO_GPU)
        warned = json.loads(whole[1])["warnings"] if whole[0] == 0 else []
        tap.ok(whole[0] == joined[0] == 0 and whole[1] == joined[1] and
               warned == ["ranks 0, 1, 2 and 45 more: " + base["warnings"][-1]],
               "two views of 24 ranks merge into the view of the 48, their warnings' ranks "
               "joined", warned)
        if os.environ.get("ASAN_OPTIONS"):
            tap.skip("memory does not grow with the files",
                     "under AddressSanitizer, whose quarantine keeps what is freed")
            return
        rc4, few = peak_kib(paths[:4])
        rc48, many = peak_kib(paths)
        rc1, one = peak_kib(paths[:1])
    tap.ok(rc4 == rc48 == rc1 == 0 and many <= few * 1.15 + 2048,
           "memory does not grow with the files: peak %d KiB for 48 ranks, %d KiB for 4 "
           "(one report alone: %d KiB)" % (many, few, one))


def main():
    test_fixtures()
    rc, view_text, err = run("report", *FILES, "--json", env=NO_GPU)
    tap.ok(rc == 0, "report of the three ranks' files, as JSON", err)
    view = json.loads(view_text)
    test_numbers(view)
    test_slowest_everywhere(view)
    test_order_and_round_trip(view_text)
    test_errors()
    test_broken(view)
    test_ranks_elsewhere(view)
    test_world_size(view)
    test_many_ranks()
    tap.done()


if __name__ == "__main__":
    main()
