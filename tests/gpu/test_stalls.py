#!/usr/bin/env python3
"""On a GPU: gpuprof exec --stalls (issue 47), warp-stall reasons from CUPTI's PC sampling in
the program's own launches.

- copy both: the report's exec.stalls holds both kernels' instructions, each with its line in
  copy.cu; the reasons' samples add up to CUPTI's total less the non-user and dropped ones;
  copyCoalesced waits on its loads (long_scoreboard first); the program's output and exit
  status are its own (exit3 exits 3 under --stalls).
- graph_nodes: a CUDA graph's kernel nodes are sampled in their own launches.
- the text and Markdown name the stall section.
- a kernel command's --stalls (transpose, reduce --json) runs it again under exec --stalls.
- beside the sectors: transpose --source --stalls, and exec's --source and --stalls reports
  given to `gpuprof report`, put each line's stall share and group beside its sectors.
- ncu tier: for the catalogue's transposes and reductions and copy (built with -lineinfo),
  and NVIDIA's cuda-samples globalToShmemAsyncCopy (its eight matrix multiplies, -lineinfo,
  where tests/third_party/stage-cuda-samples.sh staged it), on at least 8 kernels each source line holding at least 5 % of a kernel's samples (ours or
  ncu's) has a share within 3 points of ncu's source page ("Warp Stall Sampling (All
  Samples)", the same instructions by their offsets), and every compared kernel's top reason
  is WarpStateStats' top stall reason.
Skips without a GPU."""
import collections
import csv
import io
import json
import os
import re
import shutil
import subprocess
import tempfile

import tap
from gpuprof import BIN, BUILD, app, ncu_sass_rows, ncu_tier, require_gpu
from gpuprof import exec_json as gpuprof_exec_json

LINE_POINTS = 3.0      # the bound on a line's share against ncu's
LINE_SHARE = 0.05      # lines holding at least this share of a kernel's samples are compared
MIN_KERNELS = 8        # kernels that must be compared
MIN_OURS = 5000        # samples a kernel needs on each side to be compared: a share's standard
MIN_NCU = 1000         # error is then under 0.7 points on ours and 1.6 on ncu's
ASYNC_COPY = os.path.join(os.path.abspath(os.environ.get("GPUPROF_CUDA_SAMPLES") or
                                          os.path.join(BUILD, "third_party", "cuda-samples")),
                          "globalToShmemAsyncCopy")


def exec_json(*args):
    """(exit status, report, stdout, stderr) of gpuprof exec --stalls --json ARGS."""
    return gpuprof_exec_json("--stalls", *args)


def stalls_of(doc):
    return (doc or {}).get("exec", {}).get("stalls")


def by_kernel(stalls):
    """{mangled kernel: {pc: pc record}} (one process)."""
    out = collections.defaultdict(dict)
    for p in (stalls or {}).get("pcs", []):
        out[p["kernel"]][p["pc"]] = p
    return out


def total(pc):
    return sum(pc["samples"].values())


def top_reason(pcs):
    c = collections.Counter()
    for p in pcs.values():
        c.update(p["samples"])
    return c.most_common(1)[0][0] if c else None


def test_copy():
    rc, doc, out, err = exec_json("--", app("copy"), "both", "2^24", "10")
    s = stalls_of(doc)
    tap.ok(rc == 0 and "copy: ok" in out and s and s.get("samples", 0) > 0,
           "copy both under --stalls: the program's result, a report with samples", err[-800:])
    if not s:
        return
    k = by_kernel(s)
    names = {n for n in k if "copyCoalesced" in n or "copyStrided" in n}
    tap.ok(len(names) == 2, "both copy kernels have sampled instructions (%s)" % sorted(k))
    lined = all(p.get("file", "").endswith("copy.cu") and p.get("line", 0) > 0
                for n in names for p in k[n].values())
    tap.ok(lined, "every sampled instruction of the copies has its line in copy.cu")
    counted = sum(total(p) for pcs in k.values() for p in pcs.values())
    expect = s["samples"] - s["non_user"] - s["dropped"]
    tap.ok(abs(counted - expect) <= 0.01 * s["samples"],
           "the reasons' samples add up to CUPTI's total less non-user and dropped (%d, %d)"
           % (counted, expect))
    tap.ok(all(p.get("not_issued", 0) <= total(p) for pcs in k.values() for p in pcs.values()),
           "not-issued samples are a part of each instruction's samples")
    coalesced = next((k[n] for n in names if "copyCoalesced" in n), {})
    tap.ok(top_reason(coalesced) == "long_scoreboard",
           "copyCoalesced waits on its loads: long_scoreboard first (%s)" % top_reason(coalesced))


def test_exit_status():
    rc, doc, out, err = exec_json("--", app("exit3"))
    tap.ok(rc == 3 and stalls_of(doc) is not None,
           "exit3 under --stalls: exit status 3, a report that says stalls were sampled", err[-500:])


def test_graph_nodes():
    rc, doc, out, err = exec_json("--", app("graph_nodes"), "20")
    k = by_kernel(stalls_of(doc))
    sampled = sorted(n for n in ("nodesFill", "nodesScale", "nodesOffset", "nodesCombine")
                     if any(n in m and sum(total(p) for p in k[m].values()) > 0 for m in k))
    tap.ok(rc == 0 and len(sampled) == 4,
           "graph_nodes: the graph's kernel nodes are sampled in their own launches (%s)"
           % sampled, err[-500:])


def test_text():
    for fmt in ([], ["--markdown"]):
        p = subprocess.run([BIN, "exec", "--stalls"] + fmt + ["--", app("copy"), "both", "2^22"],
                           capture_output=True, text=True, timeout=300)
        tap.ok(p.returncode == 0 and re.search(r"(?i)warp stall", p.stdout) and
               "copyCoalesced" in p.stdout,
               "exec --stalls %s: the stall section names the kernels" % (fmt or "text"),
               p.stdout[-2000:] + p.stderr[-500:])


def joined_lines(doc):
    """The lines of the report's per-line views that carry their stall share."""
    return [l for v in ((doc or {}).get("exec") or {}).get("source_lines") or []
            for l in v["lines"] if l.get("stall_percent") is not None]


def test_beside_sectors():
    """Stalls beside the per-line sectors: a kernel command's --source --stalls (its sampled
    child, then its own patched run) and two exec reports given to `gpuprof report`; the
    views of the patched runs join the samples of the same code (name and cubin CRC)."""
    p = subprocess.run([BIN, "transpose", "--variant=naive", "--size=4096x4096", "--source",
                        "--stalls", "--metrics=none", "--json"], capture_output=True,
                       text=True, timeout=300)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    lines = joined_lines(doc)
    stores = [l for l in lines if l["global_stores"] and l["sectors"] > l["ideal_sectors"]]
    tap.ok(p.returncode == 0 and stores and all(l["stall_group"] for l in stores) and
           sum(l["stall_percent"] for l in lines) > 50,
           "transpose --source --stalls: the naive store line's excess sectors beside its stall "
           "share and group, the lines listed holding most samples",
           (p.stderr[-800:], lines[:4]))
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, n) for n in ("source.json", "stalls.json")]
        program = ["--", BIN, "transpose", "--variant=naive", "--size=4096x4096",
                   "--metrics=none"]
        for path, option in zip(paths, ("--source", "--stalls")):
            subprocess.run([BIN, "exec", option, "--json", "--output=" + path] + program,
                           capture_output=True, text=True, timeout=300)
        q = subprocess.run([BIN, "report"] + paths + ["--json"], capture_output=True,
                           text=True, timeout=120)
        try:
            merged = json.loads(q.stdout)
        except ValueError:
            merged = None
        tap.ok(q.returncode == 0 and joined_lines(merged),
               "report SOURCE.json STALLS.json: exec's two runs joined line by line (the same "
               "code in both)", q.stderr[-800:])


def test_kernel_command():
    """A kernel command's --stalls: run again under exec --stalls in a child."""
    p = subprocess.run([BIN, "transpose", "--stalls", "--size=4096x4096"], capture_output=True,
                       text=True, timeout=300)
    tap.ok(p.returncode == 0 and "passed" in p.stdout and re.search(r"(?i)warp stalls", p.stdout)
           and "transposeSmem" in p.stdout,
           "transpose --stalls: its own table (checks passed), then exec's with the stall "
           "section", p.stdout[-2500:] + p.stderr[-500:])
    p = subprocess.run([BIN, "reduce", "--stalls", "--variant=shfl", "--json"],
                       capture_output=True, text=True, timeout=300)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    k = by_kernel(stalls_of(doc))
    tap.ok(p.returncode == 0 and any("reduceShfl" in n for n in k),
           "reduce --stalls --json: the report alone on standard output, reduceShfl sampled",
           p.stdout[:500] + p.stderr[-500:])


# ---- against ncu -------------------------------------------------------------------------------

def ncu_source(text):
    """{ncu kernel name: {pc offset: All Samples}} from ncu's SASS source page CSV (the first
    launch of each name)."""
    out = {}
    for current, offset, d in ncu_sass_rows(text):
        v = d.get("Warp Stall Sampling (All Samples)")
        out.setdefault(current, {}).setdefault(offset, float(v) if v not in (None, "", "-")
                                               else 0.0)
    return out


def ncu_top_reasons(text):
    """{ncu kernel name: its top stall reason} from WarpStateStats' raw metrics
    (smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio)."""
    rows = list(csv.reader(io.StringIO(text)))
    hdr = next((r for r in rows if "Kernel Name" in r), None)
    out = {}
    if not hdr:
        return out
    # smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio, or the
    # average_warp_latency_ form of another ncu version: one column per reason.
    pat = re.compile(r"^smsp__average_warps?_(?:latency_)?issue_stalled_(\w+?)"
                     r"(?:_per_issue_active|_per_warp_active)?\.(?:ratio|pct)$")
    cols, seen = [], set()
    for i, h in enumerate(hdr):
        m = pat.match(h)
        if m and not m.group(1).endswith("not_issued") and m.group(1) not in seen:
            seen.add(m.group(1))
            cols.append((i, m.group(1)))
    name = hdr.index("Kernel Name")
    for r in rows[rows.index(hdr) + 1:]:
        if len(r) != len(hdr) or r[name] in out:
            continue
        vals = []
        for i, reason in cols:
            try:
                vals.append((float(r[i].replace(",", "")), reason))
            except ValueError:
                pass
        if vals:
            out[r[name]] = max(vals)[1]
    return out


def base_name(name):
    """A kernel's function name without namespaces, template arguments and parameters."""
    previous, name = None, name.replace("(anonymous namespace)", "")
    while previous != name:  # innermost template arguments first; "<unnamed>" goes too
        previous, name = name, re.sub(r"<[^<>]*>", "", name)
    words = name.split("(")[0].split("::")[-1].split()
    return words[-1] if words else name


def line_shares(pcs, lines):
    c = collections.Counter()
    for pc, v in pcs.items():
        c[lines.get(pc, "?")] += v
    t = sum(c.values()) or 1
    return {l: v / t for l, v in c.items()}


def ncu_once(ncu, args, kernels):
    """ncu's source page (SASS, CSV) and raw page (CSV) of one run with SourceCounters and
    WarpStateStats of the kernels matching the regex `kernels`: one profiling run, read twice."""
    with tempfile.TemporaryDirectory() as tmp:
        rep = os.path.join(tmp, "stalls")
        subprocess.run([ncu, "--clock-control", "none", "--section", "SourceCounters",
                        "--section", "WarpStateStats", "-k", "regex:" + kernels, "-o", rep] +
                       args, capture_output=True, text=True, timeout=900)
        pages = []
        for page in (["--page", "source", "--print-source", "sass"], ["--page", "raw"]):
            p = subprocess.run([ncu, "-i", rep + ".ncu-rep", "--csv"] + page,
                               capture_output=True, text=True, timeout=300)
            pages.append(p.stdout)
        return pages


def same_kernel(name):
    """A kernel name as both of ncu's pages can be matched by: the source page writes a
    template argument's type ("<int, (int)2>"), the raw page not ("<int, 2>")."""
    name = re.sub(r"\((?:unsigned )?[a-z]+\)(?=-?\d)", "", name)
    return re.sub(r"(?<=[<, ])(\d+)u\b", r"\1", name)


def compare_program(ours_args, ncu_args, kernels, ncu):
    """Kernels of one program compared: [(name, worst points, top ours, top ncu)]. Ours runs
    the kernels many times (our period is coarser than ncu's), ncu profiles each once."""
    rc, doc, out, err = exec_json("--", *ours_args)
    ours = by_kernel(stalls_of(doc))
    demangled = {l.get("mangled") or l["kernel"]: l["kernel"] for l in
                 (doc or {}).get("exec", {}).get("launches", [])}
    source, raw = ncu_once(ncu, ncu_args, kernels)
    theirs = ncu_source(source)
    tops = {same_kernel(k): v for k, v in ncu_top_reasons(raw).items()}
    compared = []
    for kname, npcs in theirs.items():
        cands = [m for m in ours if base_name(demangled.get(m, m)) == base_name(kname)]
        best = max(cands, key=lambda m: len(set(ours[m]) & set(npcs)), default=None)
        if (not best or sum(total(p) for p in ours[best].values()) < MIN_OURS or
                sum(npcs.values()) < MIN_NCU):
            continue
        lines = {pc: (p.get("file"), p.get("line")) for pc, p in ours[best].items()}
        mine = line_shares({pc: total(p) for pc, p in ours[best].items()}, lines)
        ncus = line_shares(npcs, lines)
        big = [l for l in set(mine) | set(ncus)
               if mine.get(l, 0) >= LINE_SHARE or ncus.get(l, 0) >= LINE_SHARE]
        worst = max(abs(mine.get(l, 0) - ncus.get(l, 0)) * 100 for l in big)
        compared.append((kname, worst, top_reason(ours[best]), tops.get(same_kernel(kname))))
    return compared


def test_against_ncu():
    ncu = shutil.which("ncu")
    if not ncu:
        tap.skip("warp-stall shares against ncu's source page", "ncu not installed")
        return
    # The catalogue's kernels only, not its cache flushes and fills.
    once = ["--metrics=none", "--repeat=1", "--warmup=0"]
    many = ["--metrics=none", "--repeat=20", "--warmup=0"]
    transpose = [BIN, "transpose", "--size=8192x8192"]
    reduce = [BIN, "reduce", "--size=2^26"]
    programs = [([app("copy"), "both", "2^24", "40"], [app("copy"), "both", "2^24", "1"], "copy"),
                (transpose + many, transpose + once, "Gmem|transpose"),
                (reduce + many, reduce + once, "^reduce")]
    if os.path.exists(ASYNC_COPY):
        # Each -kernel=N launches one kernel 101 times: ours samples all, ncu profiles three.
        programs += [([ASYNC_COPY, "-kernel=%d" % n],
                      ["--launch-count", "3", ASYNC_COPY, "-kernel=%d" % n], "MatrixMul")
                     for n in range(8)]
    else:
        print("# globalToShmemAsyncCopy not staged in %s: the catalogue's kernels only"
              % os.path.dirname(ASYNC_COPY))
    compared = [c for ours, theirs, kernels in programs
                for c in compare_program(ours, theirs, kernels, ncu)]
    if not compared:
        print("# no kernel compared: ncu's pages named none of the kernels sampled")
    for name, worst, mine, theirs in compared:
        print("# %-60.60s worst line %.2f points; top %s / ncu %s" % (name, worst, mine, theirs))
    # The bound holds on at least MIN_KERNELS kernels. On the H200 16 of 18 kept it;
    # two differed by 3.3 and 3.8 points at a load line (long_scoreboard), where ncu agreed
    # with itself within 1.2 (bench/README.md, Warp stalls).
    close = [c for c in compared if c[1] <= LINE_POINTS]
    tap.ok(len(close) >= MIN_KERNELS,
           "%d of %d kernels: every line of 5 %% or more within %.0f points of ncu's source page "
           "(the others: %s)" % (len(close), len(compared), LINE_POINTS,
                                 [(c[0][:40], round(c[1], 2)) for c in compared
                                  if c[1] > LINE_POINTS]))
    same = [c for c in compared if c[2] == c[3]]
    tap.ok(len(compared) >= MIN_KERNELS and len(same) == len(compared),
           "%d of %d kernels: the top reason is WarpStateStats' (%s)"
           % (len(same), len(compared), [(c[0][:30], c[2], c[3]) for c in compared if c[2] != c[3]]))


def main():
    require_gpu("copy", "exit3", "graph_nodes")
    test_copy()
    test_exit_status()
    test_graph_nodes()
    test_text()
    test_kernel_command()
    test_beside_sectors()
    if ncu_tier("warp-stall shares and top reasons against ncu"):
        test_against_ncu()
    tap.done()


if __name__ == "__main__":
    main()
