#!/usr/bin/env python3
"""On a GPU: a kernel is its code, not its name (issue 44). tests/apps/jit_variants loads two
NVRTC modules whose kernel jitScale has one name and launch shape and different code (one
global load per thread, or two), unloads the first and loads it again; jitLoop's work depends
on an argument. Under exec's --replay=auto, rotate and kernel, jitScale must be two variants,
each launch's instruction-determined counters equal to ncu's for the same launch, each code's
first launch given its own first-launch treatment, and jitLoop's varying counts noted with
their range. --source patches each code. tests/apps/torch_compile.py (PyTorch and Triton, when
they are installed): Inductor's autotuned configurations must show as variants, each one's
counters equal to those of ncu's launches of the same code. The comparisons with ncu (and
ncu's run of the torch.compile loop, about 80 s on an H200) are in the ncu tier (make
test-ncu). Skips without a GPU."""
import csv
import io
import os
import subprocess
import sys
import tempfile

import tap
from gpuprof import BIN, app, ncu_tier, require_gpu
from memory_paths import ncu_path
from schema import validate
from test_exec import EXACT, exec_json, launches

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TORCH_APP = os.path.join(ROOT, "tests", "apps", "torch_compile.py")
LAUNCHES, LOOPS = 4, 300
WARPS = (1 << 20) // 32           # jitScale's warps: one load request per warp per load
LD_REQUESTS = "smsp__sass_inst_executed_op_global_ld.sum"


def exact_counters(launch):
    """The instruction-determined counters a launch carries, by name."""
    out = {}
    for m in (launch.get("metrics") or {}).values():
        for c, v in m["inputs"].items():
            if any(e in c for e in EXACT) and v is not None:
                out[c] = v
    return out


def near(a, b, tol=0.01):
    return a is not None and b is not None and abs(a - b) <= tol * max(abs(a), abs(b), 1.0)


def same_counters(ours, theirs):
    """Every counter of ours equal within 1 % to ncu's (ncu has each one)."""
    return bool(ours) and all(near(v, theirs.get(c)) for c, v in ours.items())


def ncu_rows(argv, counters, kernel_regex, log):
    """ncu --clock-control none on argv, only the kernels the regex names: [(kernel name,
    {counter: value})] in launch order; (rows, stderr)."""
    cmd = [ncu_path(), "--clock-control", "none", "-k", "regex:" + kernel_regex, "--csv",
           "--page", "raw", "--print-units", "base", "--metrics", ",".join(sorted(counters)),
           "--log-file", log] + argv
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    rows = []
    if os.path.exists(log):
        with open(log) as f:
            body = "\n".join(l for l in f.read().splitlines() if l.startswith('"'))
        for r in csv.DictReader(io.StringIO(body)):
            if not (r.get("ID") or "").strip().isdigit():
                continue
            values = {}
            for c in counters:
                text = (r.get(c) or "").replace(",", "").strip()
                try:
                    values[c] = float(text)
                except ValueError:
                    pass
            rows.append((r.get("Kernel Name", ""), values))
    return rows, p.stderr


def kernels_named(doc, name):
    return [k for k in (doc or {}).get("exec", {}).get("kernels", []) if k["kernel"] == name]


# ---- jit_variants ------------------------------------------------------------------------

def check_variants(mode, doc):
    scale = launches(doc, "jitScale")
    codes = {l.get("code") for l in scale}
    entries = kernels_named(doc, "jitScale")
    tap.ok(len(scale) == 3 * LAUNCHES and len(codes) == 2 and None not in codes,
           "%s: jitScale's %d launches ran 2 codes, each known" % (mode, 3 * LAUNCHES),
           sorted(str(c) for c in codes))
    first, second = (entries + [{}, {}])[:2]
    tap.ok(len(entries) == 2 and first.get("variant") == 1 and second.get("variant") == 2 and
           first.get("variants") == 2 and first.get("calls") == 2 * LAUNCHES and
           second.get("calls") == LAUNCHES,
           "%s: two variants, module A's (launched before and after its unload and reload: "
           "one code) first with %d calls, module B's with %d" % (mode, 2 * LAUNCHES, LAUNCHES),
           [(k.get("variant"), k.get("calls"), k.get("code")) for k in entries])
    by_code = {}
    for l in scale:
        v = exact_counters(l).get(LD_REQUESTS)
        if v is not None:
            by_code.setdefault(l["code"], set()).add(v)
    a, b = first.get("code"), second.get("code")
    tap.ok(by_code.get(a) == {WARPS} and by_code.get(b) == {2 * WARPS},
           "%s: variant 1 loads once per warp (%d requests), variant 2 twice, each from its "
           "own launches" % (mode, WARPS), by_code)
    if mode == "auto":
        replayed = [l for l in scale if l.get("passes") == [0, 1]]
        tap.ok(len(replayed) == 2 and {l["code"] for l in replayed} == {a, b},
               "auto: each code's first launch replayed, the reloaded module's not again",
               [(l["id"], l.get("code"), l.get("passes")) for l in scale])


def check_against_ncu(mode, doc, rows):
    """Launch by launch: jitScale is deterministic, its k-th launch is ncu's k-th."""
    scale = sorted(launches(doc, "jitScale"), key=lambda l: l["id"])
    theirs = [v for name, v in rows if name == "jitScale"]
    pairs = [(exact_counters(l), t) for l, t in zip(scale, theirs) if exact_counters(l)]
    bad = [(o, t) for o, t in pairs if not same_counters(o, t)]
    tap.ok(len(theirs) == len(scale) and pairs and not bad,
           "%s: every jitScale launch's instruction-determined counters equal ncu's for the "
           "same launch (%d compared)" % (mode, len(pairs)), bad[:2] or (len(theirs), len(scale)))


def check_varying(mode, doc):
    loop = kernels_named(doc, "jitLoop")
    m = (loop[0].get("metrics") or {}).get("gld_transactions_per_request", {}) if loop else {}
    note = m.get("note") or ""
    tap.ok(len(loop) == 1 and "between launches of one code and shape" in note and
           " to " in note,
           "%s: jitLoop, whose loop bound is an argument: its counts vary, the note gives "
           "their range" % mode, note or loop)
    if mode == "auto":
        ls = sorted(launches(doc, "jitLoop"), key=lambda l: l["id"])
        passes = [l.get("passes") for l in ls]
        tap.ok(len(ls) == LOOPS and passes[0] == [0, 1] and passes[256] == [0] and
               passes[257] == [1] and passes.count([0]) == 1,
               "auto: jitLoop's 257th launch begins its second round (its SASS group again), "
               "its 258th returns to the uninstrumented group", passes[255:259])


def test_jit_variants():
    """jit_variants under each replay mode: {mode: its report}, for jit_against_ncu."""
    docs = {}
    for mode in ("auto", "rotate", "kernel"):
        rc, doc, out, err = exec_json("--replay=" + mode, app("jit_variants"), str(LAUNCHES),
                                      str(LOOPS))
        if not tap.ok(rc == 0 and doc and "jit_variants: ok" in out,
                      "%s: jit_variants ran under exec, its results right" % mode, err[-400:]):
            continue
        valid, why = validate(doc, "gpuprof-report-v1.schema.json")
        tap.ok(valid, "%s: the report is valid against the schema" % mode, why)
        docs[mode] = doc
        check_variants(mode, doc)
        check_varying(mode, doc)
    return docs


def jit_against_ncu(docs, tmp):
    if not ncu_path():
        tap.skip("jit_variants against ncu", "ncu is not on the PATH")
        return
    counters = set()
    for doc in docs.values():
        for l in launches(doc, "jitScale"):
            counters.update(exact_counters(l))
    rows, err = ncu_rows([app("jit_variants"), str(LAUNCHES), "3"], counters, "jitScale",
                         os.path.join(tmp, "ncu-jit.csv"))
    if not tap.ok(rows, "ncu profiled jit_variants' jitScale launches", err[-400:]):
        return
    for mode, doc in docs.items():
        check_against_ncu(mode, doc, rows)


def test_source():
    rc, doc, out, err = exec_json("--source", app("jit_variants"), "3", "3")
    views = [v for v in (doc or {}).get("exec", {}).get("source_lines", [])
             if v.get("kernel") == "jitScale" and v.get("lines")]
    tap.ok(rc == 0 and len(views) == 2 and len({v.get("code") for v in views}) == 2,
           "--source: each of jitScale's codes patched, a view each", err[-400:])
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(__import__("json").dumps(doc or {}))
    try:
        text = subprocess.run([BIN, "report", f.name], capture_output=True, text=True).stdout
        wide = subprocess.run([BIN, "report", f.name, "--wide"], capture_output=True,
                              text=True).stdout
    finally:
        os.unlink(f.name)
    tap.ok("jitScale [variant 1 of 2] (process" in text and
           "jitScale [variant 2 of 2] (process" not in text and "1 more view" in text and
           "jitScale [variant 2 of 2] (process" in wide,
           "--source text: the most-run variant's view, --wide every variant's")


# ---- torch.compile ---------------------------------------------------------------------

def torch_missing():
    p = subprocess.run([sys.executable, "-c", "import torch, triton; "
                        "assert torch.cuda.is_available()"], capture_output=True, text=True)
    return p.returncode != 0 and (p.stderr.strip().splitlines() or ["no GPU"])[-1]


def variant_vectors(doc, name):
    """{code: the instruction-determined counters of its launches that have them}."""
    out = {}
    for l in launches(doc):
        if l["kernel"] == name and exact_counters(l):
            out.setdefault(l.get("code"), exact_counters(l))
    return out


def test_torch_compile():
    """The torch.compile loop under exec: (its report, its Triton kernels) for
    torch_against_ncu, None when it did not run."""
    missing = torch_missing()
    if missing:
        tap.skip("torch.compile loop", "no PyTorch with Triton and a GPU: %s" % missing)
        return None
    rc, doc, out, err = exec_json("--", sys.executable, TORCH_APP, "20")
    if not tap.ok(rc == 0 and doc and "torch_compile: ok" in out,
                  "torch.compile: the loop ran under exec, its result right", err[-400:]):
        return None
    triton = sorted({l["kernel"] for l in launches(doc) if l["kernel"].startswith("triton_")})
    with_variants = [n for n in triton if len(kernels_named(doc, n)) > 1]
    tap.ok(triton and with_variants,
           "torch.compile: %d Triton kernels, %d autotuned into variants" %
           (len(triton), len(with_variants)), with_variants)
    calls_right = all(sum(k["calls"] for k in kernels_named(doc, n)) ==
                      len([l for l in launches(doc) if l["kernel"] == n]) and
                      all(k.get("variants") == len(kernels_named(doc, n))
                          for k in kernels_named(doc, n))
                      for n in with_variants)
    tap.ok(calls_right, "torch.compile: each autotuned kernel's variants with their calls, "
                        "adding up to its launches")
    return doc, triton


def torch_against_ncu(doc, triton, tmp):
    if not ncu_path():
        tap.skip("torch.compile against ncu", "ncu is not on the PATH")
        return
    counters = set()
    for n in triton:
        for v in variant_vectors(doc, n).values():
            counters.update(v)
    rows, nerr = ncu_rows([sys.executable, TORCH_APP, "20"], counters, "triton_",
                          os.path.join(tmp, "ncu-torch.csv"))
    if not tap.ok(rows, "ncu profiled the loop's Triton kernels (%d launches)" % len(rows),
                  nerr[-400:]):
        return
    theirs = {}
    for name, values in rows:
        theirs.setdefault(name, []).append(values)
    unmatched, compared = [], 0
    for n in triton:
        for code, vec in variant_vectors(doc, n).items():
            compared += 1
            if not any(same_counters(vec, t) for t in theirs.get(n, [])):
                unmatched.append((n, code))
    tap.ok(compared and not unmatched,
           "torch.compile: every variant's instruction-determined counters equal those of "
           "ncu's launches of the same code (%d variants of %d kernels)" %
           (compared, len(triton)), unmatched[:4])
    told_apart = [n for n in triton
                  if len({tuple(sorted(t.items())) for t in theirs.get(n, [])}) >
                  len(kernels_named(doc, n))]
    tap.ok(not told_apart, "torch.compile: where ncu's launches of a kernel counted k "
                           "different ways, exec shows at least k variants", told_apart)
    steady_checked, steady_bad = 0, []
    for n in triton:
        last = max((l for l in launches(doc) if l["kernel"] == n), key=lambda l: l["id"])
        vec = variant_vectors(doc, n).get(last.get("code"))
        if not vec or not theirs.get(n):
            continue
        ncu_last = theirs[n][-1]
        others = [v for c, v in variant_vectors(doc, n).items() if c != last.get("code")]
        if not same_counters(vec, ncu_last) and any(same_counters(o, ncu_last) for o in others):
            print("# %s: ncu's run kept another autotuned configuration" % n)
            continue
        steady_checked += 1
        if not same_counters(vec, ncu_last):
            steady_bad.append(n)
    tap.ok(steady_checked and not steady_bad,
           "torch.compile: the steady-state variant (the code of each kernel's last launch) "
           "equals ncu's last launch of it (%d kernels)" % steady_checked, steady_bad)


def main():
    require_gpu("jit_variants")
    docs = test_jit_variants()
    test_source()
    compiled = test_torch_compile()
    if ncu_tier("jit_variants' and torch.compile's counters against ncu's launches of the "
                "same code"):
        with tempfile.TemporaryDirectory() as tmp:
            jit_against_ncu(docs, tmp)
            if compiled:
                torch_against_ncu(*compiled, tmp)
    tap.done()


if __name__ == "__main__":
    main()
