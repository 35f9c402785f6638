#!/usr/bin/env python3
"""On a GPU: `gpuprof exec --source` (issue 36, exec half) on the programs of tests/apps (make
apps), which are built with -O2 -lineinfo.

- copy both 2^20 3: each kernel's view has its copy.cu lines; the launch counted is one of its
  own, its second (--replay=auto: the first is replayed for every pass), not profiled, its
  note saying it was patched; copyStrided's store line holds all of its excess, its store
  instructions 32 sectors per request against an ideal of 4 (copyCoalesced's 4 against 4),
  one request per warp of one launch (2^15); `gpuprof report` of the JSON names that line
  first under the kernel's heading, which names the launch as the JSON does.
- Against ncu's source page, instruction by instruction (exact: instruction-determined): for
  copy's two kernels, streams' four (four streams, in place, dynamic shared memory) and spill's
  two (local memory), `ncu -k regex:KERNEL --launch-skip S --launch-count 1` profiles the very
  launch gpuprof patched (S: the kernel's launches before it in its process, from
  exec.launches) of the same program; the memory instructions' executions, global sectors and
  their ideal, shared wavefronts and theirs equal ncu's, and so does every instruction's
  execution count. gpuprof and ncu run one after the other, never one under the other.
  In the ncu tier (make test-ncu) only, like the graph nodes' comparison below; skipped, with
  the reason, without ncu (PATH or CUDA_HOME/bin).
- Other programs: streams (a view per stream's kernel, shared wavefronts on streamDelta's
  lines), spill 2 (local sectors on spillHeavy's lines, none on noPressure's), threads (two
  host threads), many 8 2 (template kernels; one warp of one launch counted).
- Which launch is patched, as the man page says: a kernel's first launch once its signature
  has every counter group. --replay=rotate: after the launches that collected one group each
  (with --per-kernel=1 too, which still profiles a kernel until it has every group);
  --per-kernel=1 under auto: the second launch, the later ones only timed; --kernel=REGEX:
  the kernels it leaves out have no view. A kernel launched once has no view, and the text
  says why.
- Graph kernel nodes (graph_loop 20): each node's lines from a shadow launch of it, patched,
  its view's note saying so; the graph's own node launches unpatched and timed; against ncu
  --graph-profiling node, instruction by instruction.
- Programs keep their results and exit status: inplace (in place, checked; text output with
  --sass), exit3 (exit 3), abort (134 after its 4 launches, its view kept).
With GPUPROF_TEST_KEEP=FOLDER, every report and ncu output is kept there. Skips without a
GPU."""
import collections
import json
import os
import re
import subprocess
import tempfile

import tap
from gpuprof import BIN, app, ncu_tier, require_gpu
from kernel_names import qualified_name
from memory_paths import base_name, ncu_path
from schema import validate
from test_source_lines import ncu_instructions

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
APPS_SRC = os.path.join(ROOT, "tests", "apps")
PROGRAMS = ("copy", "streams", "spill", "threads", "many", "inplace", "exit3", "abort",
            "graph_loop")
GRAPH_KERNELS = ("loopAxpy", "loopSum", "loopCount")
SHADOW_NOTE = "lines from a shadow launch of its graph node"
COPY = ("both", "2^20", "3")
WARPS = 2 ** 20 // 32          # copy at 2^20 floats: one store request per warp
PATCHED_NOTE = "patched by --source"
# A folder to keep every report and ncu output in (for a first run's post-mortem); unset: none.
KEEP = os.environ.get("GPUPROF_TEST_KEEP")

# A kernel's patched launch: its view (exec.source_lines[]), the kernel's launches in the
# view's process by id, how many came before the patched one (ncu's --launch-skip) and the
# patched launch itself (None when the view names no launch of the kernel).
Patch = collections.namedtuple("Patch", "view launches skip launch")


class Exec:
    """gpuprof exec --source --json --output=FOLDER/TAG.json OPTIONS -- PROGRAM ARGS."""

    def __init__(self, folder, tag, options, program, args=()):
        self.path = os.path.join(folder, tag + ".json")
        self.argv = [BIN, "exec", "--source", "--json", "--output=" + self.path] + \
            list(options) + ["--", app(program)] + list(args)
        p = subprocess.run(self.argv, capture_output=True, text=True, timeout=300)
        self.rc, self.out, self.err = p.returncode, p.stdout, p.stderr
        self.doc = None
        if os.path.exists(self.path):
            with open(self.path) as f:
                text = f.read()
            keep(tag + ".json", text)
            try:
                self.doc = json.loads(text)
            except ValueError:
                self.doc = None

    def views(self):
        return ((self.doc or {}).get("exec") or {}).get("source_lines") or []

    def diag(self):
        return "%s\nexit %d\n%s" % (" ".join(self.argv), self.rc, self.err[-1500:])


def keep(name, text):
    if KEEP:
        os.makedirs(KEEP, exist_ok=True)
        with open(os.path.join(KEEP, name), "w") as f:
            f.write(text)


def kernel_launches(doc, name):
    """The launches of the kernel whose base name is `name`, by process and id."""
    ls = [l for l in ((doc or {}).get("exec") or {}).get("launches", [])
          if base_name(l["kernel"]) == name]
    return sorted(ls, key=lambda l: (l["pid"], l["id"]))


def patch_of(run, name):
    """The Patch of the kernel `name` in the run, None when it has no view (or several)."""
    ls = kernel_launches(run.doc, name)
    if not ls:
        return None
    mangled = ls[0].get("mangled") or ls[0]["kernel"]
    views = [v for v in run.views() if v["kernel"] == mangled]
    if len(views) != 1:
        return None
    v = views[0]
    mine = [l for l in ls if l["pid"] == v["pid"]]
    ids = [l["id"] for l in mine]
    if v["launch"] not in ids:
        return Patch(v, mine, None, None)
    at = ids.index(v["launch"])
    return Patch(v, mine, at, mine[at])


def lines_in(p, file_suffix):
    """Whether the view has lines, every line that moves memory named, in a file ending with
    `file_suffix`."""
    if not p or not p.view["has_lines"] or not p.view["lines"]:
        return False
    moving = [l for l in p.view["lines"] if l["global_loads"] or l["global_stores"] or
              l["shared_loads"] or l["shared_stores"] or l["local_loads"] or l["local_stores"]]
    return bool(moving) and all(l["file"] and l["file"].endswith(file_suffix) for l in moving)


def patched_as_documented(p, skip):
    """The patched launch is the kernel's own, the (skip + 1)-th of its process, not profiled,
    and its note says it was patched."""
    return bool(p and p.launch and p.skip == skip and not p.launch["profiled"] and
                PATCHED_NOTE in (p.launch.get("note") or ""))


def worst_line(view):
    """The line with the most global sectors over the ideal."""
    return max(view["lines"], key=lambda l: l["excess_sectors"]) if view["lines"] else None


def instructions_of_line(view, line, key):
    at = view["lines"].index(line)
    return [i for i in view["instructions"] if i["line"] == at and i[key]]


def source_line(name, number):
    """Line `number` of tests/apps/NAME as the repository holds it."""
    with open(os.path.join(APPS_SRC, name)) as f:
        text = f.read().splitlines()
    return text[number - 1] if 0 < number <= len(text) else ""


def report_text(path, *options):
    p = subprocess.run([BIN, "report", path] + list(options), capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def view_text(text, launch):
    """The text of the kernel's view in a report's per-line section, from its heading (which
    names its launch) to the next heading: (the heading's match, the view's text)."""
    section = text.split("where memory moves, by source line", 1)
    if len(section) != 2:
        return None, ""
    heading = re.compile(r"^#\d+ %s(?:<.*>)? \(process (\d+), launch (\d+) of the kernel, "
                         r"id (\d+)\)" % re.escape(qualified_name(launch["kernel"])), re.M)
    m = heading.search(section[1])
    if not m:
        return None, ""
    rest = section[1][m.end():]
    rest = rest[rest.find("\n") + 1:] if "\n" in rest else ""  # past the heading's line
    nxt = re.search(r"^#\d+ ", rest, re.M)
    return m, rest[:nxt.start()] if nxt else rest


# ---- copy both 2^20 3 ----------------------------------------------------------------------

def test_copy(copy):
    valid, why = validate(copy.doc, "gpuprof-report-v1.schema.json") if copy.doc else \
        (False, "no report")
    tap.ok(copy.rc == 0 and copy.doc and valid,
           "exec --source copy both 2^20 3: exit 0, a report valid against the schema",
           copy.diag() + "\n" + why)
    tap.ok("copy: ok" in copy.out and "copy: mode=both n=1048576 launches=3" in copy.err,
           "exec --source: the program's own output passes through, its result checked",
           copy.out[-300:] + copy.err[-300:])
    for name in ("copyCoalesced", "copyStrided"):
        p = patch_of(copy, name)
        tap.ok(lines_in(p, "copy.cu"),
               "%s: a view with its copy.cu lines (has_lines)" % name, p and p.view)
        tap.ok(patched_as_documented(p, 1) and len(p.launches) == 3 and
               p.launches[0]["profiled"],
               "%s: the launch counted is its second of 3 (--replay=auto replayed the first, "
               "profiled), one of its own in exec.launches, not profiled, its note says "
               "patched" % name, p and (p.view["launch"], p.skip, p.launch,
                                        [l["id"] for l in p.launches]))
    strided, coalesced = patch_of(copy, "copyStrided"), patch_of(copy, "copyCoalesced")
    if not (strided and coalesced and strided.view["lines"] and coalesced.view["lines"]):
        tap.ok(False, "copy: the views hold lines to look at")
        return
    worst = worst_line(strided.view)
    stores = instructions_of_line(strided.view, worst, "global_stores")
    loads = instructions_of_line(strided.view, worst, "global_loads")
    total = sum(l["excess_sectors"] for l in strided.view["lines"])
    tap.ok(worst["line"] and "out[d] = in[i];" in source_line("copy.cu", worst["line"]) and
           worst["excess_sectors"] == total == 28 * WARPS,
           "copyStrided: the worst line is its store line (out[d] = in[i];), with all of the "
           "kernel's excess, 28 sectors per request over the ideal of 2^15 requests",
           (worst, total))
    tap.ok(stores and sum(i["global_stores"] for i in stores) == WARPS and
           all(i["sectors"] == 32 * i["global_stores"] and
               i["ideal_sectors"] == 4 * i["global_stores"] for i in stores),
           "copyStrided: its store instructions take 32 sectors per request against an ideal "
           "of 4, one request per warp of one launch (2^15)", stores)
    tap.ok(loads and sum(i["global_loads"] for i in loads) == WARPS and
           all(i["sectors"] == 4 * i["global_loads"] == i["ideal_sectors"] for i in loads),
           "copyStrided: the loads on that line stay coalesced, 4 sectors per request", loads)
    cstores = [i for i in coalesced.view["instructions"] if i["global_stores"]]
    tap.ok(cstores and sum(i["global_stores"] for i in cstores) == WARPS and
           all(i["sectors"] == 4 * i["global_stores"] == i["ideal_sectors"] for i in cstores) and
           all(l["excess_sectors"] == 0 for l in coalesced.view["lines"]),
           "copyCoalesced: its stores take 4 sectors per request against 4, no line has excess",
           cstores)
    rc, text, err = report_text(copy.path)
    m, view = view_text(text, strided.launch)
    first = re.search(r"^(\S+:\d+)\s", view, re.M)
    tap.ok(rc == 0 and m and int(m.group(1)) == strided.view["pid"] and
           int(m.group(2)) == strided.skip + 1 and int(m.group(3)) == strided.view["launch"],
           "report of the JSON: copyStrided's view headed by its process, its launch's place "
           "among the kernel's (2) and its id, as the JSON says", (err, text[-2500:]))
    tap.ok(first and first.group(1) == "copy.cu:%d" % worst["line"],
           "report of the JSON: copyStrided's store line (copy.cu:%d) named first"
           % worst["line"], view[:1500])
    if worst["file"] and os.path.exists(worst["file"]):
        tap.ok("out[d] = in[i];" in view, "report: the line's text under it (%s is readable)"
               % worst["file"], view[:1500])
    else:
        tap.skip("report: the line's text under it", "%s is not readable here" % worst["file"])


# ---- against ncu ---------------------------------------------------------------------------

def ncu_source_page(ncu, p, program, args, name, pattern=None, ncu_options=()):
    """ncu's source page of the launch gpuprof patched (Patch `p`): (the finished process,
    {pc offset: (instructions, sectors, ideal, shared wavefronts, ideal)})."""
    # After gpuprof's run has ended: ncu never profiles a program gpuprof holds.
    q = subprocess.run([ncu, "--clock-control", "none", "--section", "SourceCounters",
                        "--page", "source", "--print-source", "sass", "--csv",
                        "-k", pattern or "regex:" + name, "--launch-skip", str(p.skip),
                        "--launch-count", "1"] + list(ncu_options) + [app(program)] +
                       list(args),
                       capture_output=True, text=True, timeout=600)
    keep("ncu-%s.csv" % name, q.stdout + q.stderr)
    return q, ncu_instructions(q.stdout, name.split("<")[0])


def our_instructions(p):
    """{pc offset: (instructions, sectors, ideal, shared wavefronts, ideal)} of Patch `p`."""
    return {i["pc"]: (i["instructions"], i["sectors"], i["ideal_sectors"],
                      i["shared_wavefronts"], i["shared_ideal_wavefronts"])
            for i in p.view["instructions"]}


def against_ncu(ncu, run, program, args, name, pattern=None, label=None, ncu_options=()):
    """Whether the kernel's patched launch in `run` (gpuprof exec --source of PROGRAM ARGS)
    equals ncu's source page of the same launch, instruction by instruction; two TAP lines.
    `pattern`: ncu's -k (default regex:NAME); `label`: the program's name in the lines."""
    label = label or program
    p = patch_of(run, name)
    if not tap.ok(p and p.launch is not None and p.view["instructions"],
                  "%s: %s has a patched launch to set against ncu" % (label, name), run.diag()):
        return False
    q, theirs = ncu_source_page(ncu, p, program, args, name, pattern, ncu_options)
    ours = our_instructions(p)
    moving = {pc: v for pc, v in theirs.items() if any(v[1:])}
    diff = [(pc, ours.get(pc), v) for pc, v in sorted(moving.items()) if ours.get(pc) != v]
    ok = tap.ok(q.returncode == 0 and moving and not diff,
                "%s %s: launch %d of the kernel: %d memory instructions' executions, global "
                "sectors and their ideal, shared wavefronts and their ideal equal ncu's source "
                "page of the same launch" % (label, name, p.skip + 1, len(moving)),
                (q.stderr[-800:], diff[:5], "" if theirs else q.stdout[:1500]))
    executions = [(pc, ours.get(pc, (0,))[0], theirs.get(pc, (0,))[0])
                  for pc in sorted(set(ours) | set(theirs))
                  if ours.get(pc, (0,))[0] != theirs.get(pc, (0,))[0]]
    return tap.ok(theirs and not executions,
                  "%s %s: every instruction's execution count equals ncu's (%d instructions)"
                  % (label, name, len(theirs)), executions[:5]) and ok


AGAINST_NCU = "per-instruction counts of the patched launches, graph nodes' too, against " \
    "ncu's source page"


def test_against_ncu(runs, graph):
    """The patched launches of `runs`, then graph_loop's nodes in `graph` (its Exec) against
    ncu --graph-profiling node: the same node launch, instruction by instruction (the
    kernels' counts do not depend on the data)."""
    ncu = ncu_path()
    if not ncu:
        tap.skip(AGAINST_NCU, "ncu not found on PATH or in CUDA_HOME/bin")
        return
    agreed = sum(against_ncu(ncu, run, program, args, name)
                 for run, program, args, names in runs for name in names)
    tap.ok(agreed >= 6, "at least six kernels of tests/apps agree with ncu instruction for "
           "instruction (%d)" % agreed)
    for name in GRAPH_KERNELS:
        against_ncu(ncu, graph, "graph_loop", ("20",), name,
                    ncu_options=("--graph-profiling", "node"))


# ---- graph kernel nodes ----------------------------------------------------------------------

def test_graph_nodes(folder):
    """graph_loop 20: a graph of three kernels (with a memset and a copy) launched 20 times.
    Each kernel node's lines come from a shadow launch of it, patched, once its counters are
    complete; the program's own launches ran unpatched (timed, no patched note), its result
    right. The run, for test_against_ncu."""
    run = Exec(folder, "graph_loop", (), "graph_loop", ("20",))
    tap.ok(run.rc == 0 and "graph_loop: ok (20 launches)" in run.out,
           "exec --source graph_loop 20: exit 0, its result right", run.diag())
    for name in GRAPH_KERNELS:
        p = patch_of(run, name)
        tap.ok(lines_in(p, "graph_loop.cu") and p.launch and p.launch.get("graph") and
               SHADOW_NOTE in (p.view.get("note") or "") and
               PATCHED_NOTE not in (p.launch.get("note") or "") and
               p.launch.get("duration_ms") is not None,
               "graph node %s: its graph_loop.cu lines from a shadow launch, its note says so; "
               "the graph node launch it names ran unpatched and timed" % name,
               p and (p.view.get("note"), p.launch, p.view["lines"][:2]))
    axpy = patch_of(run, "loopAxpy")
    ins = axpy.view["instructions"] if axpy else []
    loads = sum(i["global_loads"] for i in ins)
    stores = sum(i["global_stores"] for i in ins)
    tap.ok(loads == 2 * 2 ** 15 and stores == 2 ** 15 and
           all(i["sectors"] == i["ideal_sectors"] == 4 * (i["global_loads"] + i["global_stores"])
               for i in ins if i["global_loads"] or i["global_stores"]),
           "graph node loopAxpy: two loads and a store per warp of 2^20 ints, 4 sectors each, "
           "the ideal", (loads, stores))
    return run


# ---- other programs ------------------------------------------------------------------------

def test_streams(streams):
    tap.ok(streams.rc == 0 and "streams: ok" in streams.out,
           "exec --source streams 3: in-place kernels on 4 streams keep their results, exit 0",
           streams.diag())
    names = ("streamAlpha", "streamBeta", "streamGamma", "streamDelta")
    ps = {n: patch_of(streams, n) for n in names}
    tap.ok(all(lines_in(ps[n], "streams.cu") and patched_as_documented(ps[n], 1) for n in names),
           "streams: each stream's kernel has its streams.cu lines, from its second launch",
           {n: p and (p.skip, p.view["launch"]) for n, p in ps.items()})
    delta = ps["streamDelta"]
    shared = [l for l in delta.view["lines"] if l["shared_loads"] or l["shared_stores"]] \
        if delta else []
    tap.ok(shared and all(l["shared_wavefronts"] > 0 for l in shared),
           "streams: streamDelta's staging through shared memory shows on its lines (shared "
           "loads and stores, wavefronts)", shared)


def test_spill(spill):
    tap.ok(spill.rc == 0 and "spill: ok" in spill.out,
           "exec --source spill 2: exit 0, the result checked", spill.diag())
    heavy, light = patch_of(spill, "spillHeavy"), patch_of(spill, "noPressure")
    tap.ok(lines_in(heavy, "spill.cu") and lines_in(light, "spill.cu") and
           patched_as_documented(heavy, 1) and patched_as_documented(light, 1),
           "spill: both kernels have their spill.cu lines, from their second launch",
           (heavy and heavy.skip, light and light.skip))
    local = [l for l in heavy.view["lines"] if l["local_sectors"]] if heavy else []
    tap.ok(local and all(l["local_loads"] + l["local_stores"] > 0 for l in local),
           "spill: spillHeavy's register spills show as local sectors on its lines (%d lines)"
           % len(local), heavy and heavy.view["lines"][:5])
    tap.ok(light and all(l["local_sectors"] == 0 and l["local_loads"] + l["local_stores"] == 0
                         for l in light.view["lines"]),
           "spill: noPressure moves no local memory on any line")


def test_threads_and_templates(folder):
    run = Exec(folder, "threads", (), "threads")
    ps = [patch_of(run, n) for n in ("threadWorkerAdd", "threadWorkerMul")]
    tap.ok(run.rc == 0 and "threads: ok" in run.out and
           all(lines_in(p, "threads.cu") and patched_as_documented(p, 1) for p in ps),
           "exec --source threads: two host threads' kernels each have their lines, from their "
           "second launch; the results are right", run.diag())
    run = Exec(folder, "many", (), "many", ("8", "2"))
    ps = [patch_of(run, n) for n in ("manyTiny<0>", "manyTiny<1>")]
    tap.ok(run.rc == 0 and
           all(lines_in(p, "many.cu") and patched_as_documented(p, 1) for p in ps),
           "exec --source many 8 2: each template instantiation has its many.cu lines, from its "
           "second launch; the counts the program checks are right (exit 0)",
           (run.diag(), [p and (p.skip, p.view["kernel"]) for p in ps]))
    stores = [[i for i in p.view["instructions"] if i["global_stores"]] for p in ps if p]
    tap.ok(len(stores) == 2 and all(s and sum(i["global_stores"] for i in s) == 1 and
                                    all(i["sectors"] == i["ideal_sectors"] for i in s)
                                    for s in stores),
           "many: one store request per kernel, the one warp of the one launch patched, not "
           "the sum of its launches", stores)


# ---- which launch is patched ---------------------------------------------------------------

def test_which_launch(folder):
    # --replay=rotate --per-kernel=1, 4 launches of each kernel: the first launches collect one
    # group each (beyond --per-kernel while the signature lacks one), then the patched one,
    # then only timed.
    run = Exec(folder, "rotate", ("--replay=rotate", "--per-kernel=1"), "copy",
               ("both", "2^20", "4"))
    tap.ok(run.rc == 0 and "copy: ok" in run.out,
           "exec --source --replay=rotate --per-kernel=1 copy both 2^20 4: exit 0, result "
           "right", run.diag())
    for name in ("copyCoalesced", "copyStrided"):
        p = patch_of(run, name)
        before = p.launches[:p.skip] if p and p.skip is not None else []
        groups = sorted({g for l in (p.launches if p else []) for g in (l.get("passes") or [])})
        tap.ok(p and p.launch and lines_in(p, "copy.cu") and p.skip == len(groups) >= 2 and
               all(l["profiled"] and len(l.get("passes") or []) == 1 for l in before) and
               sorted(g for l in before for g in l["passes"]) == groups and
               patched_as_documented(p, len(groups)),
               "rotate, --per-kernel=1: %s's patched launch follows the %d launches that "
               "collected one group each (profiled beyond --per-kernel until every group)"
               % (name, len(groups)),
               p and [(l["id"], l["profiled"], l.get("passes")) for l in p.launches])
        after = p.launches[p.skip + 1:] if p and p.skip is not None else []
        tap.ok(p and len(p.launches) == 4 and after and not any(l["profiled"] for l in after),
               "rotate, --per-kernel=1: %s's launches after the patched one are timed only"
               % name, p and [(l["id"], l["profiled"]) for l in p.launches])
    # --per-kernel=1 under auto: the first launch replayed, the second patched, the third
    # timed only.
    run = Exec(folder, "per-kernel", ("--per-kernel=1",), "copy", COPY)
    for name in ("copyCoalesced", "copyStrided"):
        p = patch_of(run, name)
        tap.ok(run.rc == 0 and lines_in(p, "copy.cu") and patched_as_documented(p, 1) and
               [l["profiled"] for l in p.launches] == [True, False, False],
               "--per-kernel=1 (auto): %s profiled once, its second launch patched, the third "
               "timed only" % name,
               (run.diag(), p and [(l["id"], l["profiled"], l.get("note")) for l in p.launches]))
    # --kernel: only the kernels it names are patched.
    run = Exec(folder, "kernel", ("--kernel=copyStrided",), "copy", COPY)
    strided = patch_of(run, "copyStrided")
    coalesced = kernel_launches(run.doc, "copyCoalesced")
    tap.ok(run.rc == 0 and lines_in(strided, "copy.cu") and patched_as_documented(strided, 1) and
           len(run.views()) == 1 and len(coalesced) == 3 and
           not any(l["profiled"] or PATCHED_NOTE in (l.get("note") or "") for l in coalesced),
           "--kernel=copyStrided: copyStrided's second launch patched; copyCoalesced, left out "
           "by the filter, neither profiled nor patched, and without a view",
           (run.diag(), run.views() and [v["kernel"] for v in run.views()]))


# ---- results and exit statuses -------------------------------------------------------------

def test_results_and_exit(folder):
    text = os.path.join(folder, "inplace.txt")
    argv = [BIN, "exec", "--source", "--sass", "--output=" + text, "--", app("inplace"), "5"]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    with open(text) if os.path.exists(text) else open(os.devnull) as f:
        out = f.read()
    keep("inplace.txt", out)
    tap.ok(p.returncode == 0 and "inplace: ok" in p.stdout,
           "exec --source inplace 5: an in-place kernel still computes its result (the patched "
           "launch runs once), exit 0", p.stderr[-1000:])
    tap.ok(re.search(r"^#1 scaleInPlace \(process \d+, launch 2 of the kernel, id \d+\)",
                     out, re.M) and re.search(r"^inplace\.cu:\d+ ", out, re.M) and
           re.search(r"^  \+0x[0-9a-f]+ global store ", out, re.M),
           "exec --source --sass, text: the kernel's view after the report, from its second "
           "launch, inplace.cu's lines with their store instruction under them", out[-2500:])
    run = Exec(folder, "exit3", (), "exit3")
    tap.ok(run.rc == 3 and "exit3: exiting with status 3" in run.err and run.doc and
           run.doc["exec"]["exit_status"] == 3 and run.views() == [],
           "exec --source exit3: exit status 3 kept; its kernel, launched once, has no view",
           (run.diag(), run.views()))
    rc, out, err = report_text(run.path)
    tap.ok(rc == 0 and re.search(r"^#1 beforeExit3: no lines: no patched launch: it was "
                                 r"launched too few times", out, re.M),
           "report: the kernel launched once says why it has no lines", out[-1500:])
    run = Exec(folder, "abort", (), "abort")
    p = patch_of(run, "beforeAbort")
    tap.ok(run.rc == 134 and "abort: calling abort()" in run.err and lines_in(p, "abort.cu") and
           patched_as_documented(p, 1) and len(p.launches) == 4,
           "exec --source abort: exit status 134 kept, its result checked before the crash, "
           "its view (the second of its 4 launches) reported", run.diag())


def main():
    require_gpu(*PROGRAMS)
    with tempfile.TemporaryDirectory() as folder:
        copy = Exec(folder, "copy", (), "copy", COPY)
        test_copy(copy)
        streams = Exec(folder, "streams", (), "streams", ("3",))
        test_streams(streams)
        spill = Exec(folder, "spill", (), "spill", ("2",))
        test_spill(spill)
        test_threads_and_templates(folder)
        test_which_launch(folder)
        test_results_and_exit(folder)
        graph = test_graph_nodes(folder)
        if ncu_tier(AGAINST_NCU):
            test_against_ncu([
                (copy, "copy", COPY, ("copyCoalesced", "copyStrided")),
                (streams, "streams", ("3",),
                 ("streamAlpha", "streamBeta", "streamGamma", "streamDelta")),
                (spill, "spill", ("2",), ("spillHeavy", "noPressure")),
            ], graph)
    tap.done()


if __name__ == "__main__":
    main()
