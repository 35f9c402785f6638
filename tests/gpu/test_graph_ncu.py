#!/usr/bin/env python3
"""On a GPU with ncu: the instruction-determined counters of CUDA-graph kernel nodes that
gpuprof exec shadow-launched (--graph-profiling=node, issue 27) equal ncu's for the same nodes
(ncu --graph-profiling node), kernel by kernel; and a node's sampled DRAM reads agree with the
DRAM reads of the same kernel profiled by ncu within the accuracy the man page states (3 % for
nodes of 5 µs or more that overlap nothing). The same for the kernel nodes before the host node
of graph_samples (NVIDIA's simpleCudaGraphs shape: its last node is a host function) and of
graph_host, whose kernel after the host node is sampled, never shadow-launched (issue 35).
gpuprof and ncu run one after the other, so gpuprof never holds CUPTI while ncu profiles.
All of it in the ncu tier (make test-ncu): skips outside it, without a GPU or without ncu."""
import os
import tempfile

import memory_paths as mp
import tap
from gpuprof import ncu_tier_only, require_gpu

# (program, arguments, the kernels shadow-launched, those after a host node, whether its
# sampled DRAM reads are compared: graph_nodes' kernels are long and overlap little)
PROGRAMS = (
    ("graph_nodes", ["3"], {"nodesFill", "nodesScale", "nodesOffset", "nodesCombine",
                            "nodesTick"}, set(), True),
    ("graph_samples", ["2"], {"samplesBlockSums", "samplesFinalSum"}, set(), False),
    ("graph_host", ["2"], {"hostBefore"}, {"hostAfter"}, False),
)
SAMPLED_READ_TOLERANCE = 0.03   # man page: reads of nodes >= 5 µs within ~3 %


def instruction_metrics(cat):
    """The default set's metrics every input of which is an instruction-level (SASS) counter:
    requests, sectors, data bytes and their ratios, identical from run to run."""
    return [m for m in mp.group_metrics(cat, "default")
            if m.get("ncu_metric") and m["inputs"] and
            all(i.startswith("smsp__sass_") for i in m["inputs"])]


def shadowed_nodes(doc):
    """{kernel base name: a graph-node launch with shadow-launched counters}."""
    out = {}
    for l in doc.get("exec", {}).get("launches", []):
        if l.get("graph_node") and "shadow" in (l.get("how") or []) and l.get("metrics"):
            out.setdefault(mp.base_name(l["kernel"]), []).append(l)
    return out


def by_kernel(rows):
    out = {}
    for r in rows:
        out.setdefault(mp.base_name(r.get("Kernel Name", "")), []).append(r)
    return out


def compare_instructions(ours, theirs, metrics):
    """Each metric's SASS input counters, whole numbers, exactly: ncu prints a ratio with two
    decimals (3.82 for 3.8235), its counters in full."""
    for name in sorted(ours):
        if not tap.ok(name in theirs, "%s: ncu profiled the node too" % name):
            continue
        row = theirs[name][0]
        for m in metrics:
            for launch in ours[name]:
                inputs = ((launch.get("metrics") or {}).get(m["key"]) or {}).get("inputs") or {}
                if all(inputs.get(i) is not None for i in m["inputs"]):
                    break
            else:
                continue  # no shadow launch of this node collected the metric's group
            for counter in m["inputs"]:
                mine, ref = inputs[counter], mp.number(row.get(counter))
                tap.ok(ref is not None and mine == ref,
                       "%s: %s (of %s) of the shadow-launched node equals ncu's (gpuprof %s, "
                       "ncu %s)" % (name, counter, m["key"], mine, ref))


def dram_read_bytes(launch):
    for key in ("dram_read_bytes",):
        v = mp.value_of(launch, key)
        if v is not None:
            return v
    entry = (launch.get("metrics") or {}).get("dram_read_throughput") or {}
    return (entry.get("inputs") or {}).get("dram__bytes_read.sum")


def compare_sampled_reads(doc, theirs):
    checked = 0
    for l in doc.get("exec", {}).get("launches", []):
        how, note = l.get("how") or [], l.get("note") or ""
        if not l.get("graph_node") or "sampled" not in how or "n/a" in note or \
                "DRAM approximate" in note or l.get("duration_ms", 0) < 0.005:
            continue
        mine, name = dram_read_bytes(l), mp.base_name(l["kernel"])
        refs = [mp.number(r.get("dram__bytes_read.sum")) for r in theirs.get(name, [])]
        refs = [r for r in refs if r]
        if mine is None or not refs:
            continue
        ref = sorted(refs)[len(refs) // 2]
        checked += 1
        tap.ok(abs(mine - ref) <= SAMPLED_READ_TOLERANCE * ref,
               "%s (node %s): sampled DRAM reads %.0f bytes, ncu's %.0f (within 3 %%)"
               % (name, l["graph_node"], mine, ref))
    tap.ok(checked > 0, "at least one sampled node was compared with ncu (%d)" % checked)


def after_host(doc):
    """{kernel base name} of the graph-node launches noted as after a host node."""
    return {mp.base_name(l["kernel"]) for l in doc.get("exec", {}).get("launches", [])
            if l.get("graph_node") and "after a host node" in (l.get("note") or "")}


def check_program(program, args, shadowed, after, sampled, metrics, tmp):
    rc, doc, out, err = mp.run_exec(program, args, "default", os.path.join(tmp, "g.json"))
    if not tap.ok(rc == 0 and doc, "gpuprof exec on %s exits 0 with a report" % program,
                  err[-2000:]):
        return
    ours = shadowed_nodes(doc)
    tap.ok(set(ours) == shadowed, "%s: exactly %s were shadow-launched (%s)"
           % (program, sorted(shadowed), sorted(ours)))
    tap.ok(after_host(doc) == after, "%s: the kernels after a host node say so in their note: "
           "%s (%s)" % (program, sorted(after), sorted(after_host(doc))))
    names = sorted({i for m in metrics for i in m["inputs"]} | {"dram__bytes_read.sum"})
    nrc, rows, nerr = mp.run_ncu(program, args, names, os.path.join(tmp, "ncu.csv"),
                                 options=("--graph-profiling", "node"))
    if not tap.ok(nrc == 0 and rows, "ncu --graph-profiling node on %s" % program,
                  nerr[-2000:]):
        return
    theirs = by_kernel(rows)
    compare_instructions(ours, theirs, metrics)
    if sampled:
        compare_sampled_reads(doc, theirs)


def main():
    ncu_tier_only()
    require_gpu()
    if mp.ncu_path() is None:
        tap.skip_all("ncu not installed")
    cat = mp.catalogue()
    metrics = instruction_metrics(cat)
    tap.ok(metrics, "the default set has instruction-level metrics (%d)" % len(metrics))
    for program, args, shadowed, after, sampled in PROGRAMS:
        with tempfile.TemporaryDirectory() as tmp:
            check_program(program, args, shadowed, after, sampled, metrics, tmp)
    tap.done()


if __name__ == "__main__":
    main()
