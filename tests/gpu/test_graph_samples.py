#!/usr/bin/env python3
"""On a GPU: --graph-samples (issue 35), on graph_loop (one graph of a memset, loopAxpy,
loopSum, a copy and loopCount, launched LAUNCHES times). Under node, each graph's first N
launches are sampled (their kernel nodes carry DRAM bytes) and the later ones only timed;
the first launches are still shadow-launched while a node lacks a group of counters, whatever
N (0 included); under graph, only the first N launches get a whole-graph range. The program
keeps its result in every case. Skips without a GPU."""
import tap
from gpuprof import app, require_gpu
from test_exec import exec_json, launches, metric

LAUNCHES = 24
KERNELS = ("loopAxpy", "loopSum", "loopCount")


def how_of(launch):
    return set(launch.get("how") or [])


def graph_launch_ids(doc, predicate):
    """The graph launches (correlation ids) with a kernel node for which predicate holds."""
    return {l["id"] for l in launches(doc) if l["graph_node"] and predicate(l)}


def run(*options):
    rc, doc, out, err = exec_json(*options, "--", app("graph_loop"), str(LAUNCHES))
    ok = tap.ok(rc == 0 and doc and "graph_loop: ok (%d launches)" % LAUNCHES in out,
                "graph_loop %d under %s: exit 0, the program's result right, a report"
                % (LAUNCHES, " ".join(options) or "the defaults"), err[-2000:])
    return doc if ok else None


def every_launch_timed(doc, label):
    ls = [l for l in launches(doc) if l["graph_node"]]
    tap.ok(len(ls) == 3 * LAUNCHES and all(l["duration_ms"] is not None and
                                           l["duration_ms"] > 0 for l in ls),
           "%s: all %d kernel-node launches reported and timed" % (label, 3 * LAUNCHES),
           len(ls))


def test_node(samples, want_sampled):
    option = "--graph-samples=%s" % samples
    doc = run(option)
    if not doc:
        return
    every_launch_timed(doc, option)
    sampled = graph_launch_ids(doc, lambda l: "sampled" in how_of(l))
    tap.ok(len(sampled) == want_sampled,
           "%s: the nodes of %d graph launches are DRAM-sampled (%d)"
           % (option, want_sampled, len(sampled)))
    ordered = sorted({l["id"] for l in launches(doc) if l["graph_node"]})
    tap.ok(sorted(sampled) == ordered[:len(sampled)],
           "%s: the sampled launches are the graph's first ones" % option)
    shadowed = graph_launch_ids(doc, lambda l: "shadow" in how_of(l))
    tap.ok(shadowed and sorted(shadowed) == ordered[:len(shadowed)] and len(shadowed) <= 2,
           "%s: the graph's first launches are shadow-launched (one group each) whatever the "
           "cap (%d)" % (option, len(shadowed)))
    later = [l for l in launches(doc) if l["graph_node"] and l["id"] not in sampled | shadowed]
    tap.ok(len(later) == 3 * (LAUNCHES - len(sampled | shadowed)) and
           all(not l["metrics"] for l in later),
           "%s: the later launches' nodes are timed, with no metrics" % option,
           [sorted((l["metrics"] or {}).keys()) for l in later[:3]])
    axpy = [metric(l, "dram_read_bytes") for l in launches(doc, "loopAxpy(")
            if "sampled" in how_of(l)]
    known = [v for v in axpy if v is not None]
    # loopAxpy reads x and y (8 MiB) and writes y; part of it may sit in the 50 MB L2 from the
    # previous launch, so only a loose bound.
    tap.ok(want_sampled == 0 or (known and all(0 <= v <= 1.5 * 8 * 2 ** 20 for v in known)),
           "%s: sampled loopAxpy launches carry their DRAM reads" % option, axpy[:4])


def test_graph_mode():
    doc = run("--graph-profiling=graph", "--graph-samples=3")
    if not doc:
        return
    ranges = [l for l in launches(doc) if "graph" in how_of(l)]
    tap.ok(len(ranges) == 3, "--graph-profiling=graph --graph-samples=3: 3 whole-graph ranges "
           "(%d)" % len(ranges))


def test_text_says_so():
    doc = run()
    if not doc:
        return
    tap.ok(doc["exec"].get("graph_samples") == 10,
           "the report keeps --graph-samples' default (10)", doc["exec"].get("graph_samples"))
    sampled = graph_launch_ids(doc, lambda l: "sampled" in how_of(l))
    tap.ok(len(sampled) == 10, "by default the graph's first 10 launches are sampled (%d)"
           % len(sampled))


def main():
    require_gpu("graph_loop")
    test_node("all", LAUNCHES)
    test_node("5", 5)
    test_node("0", 0)
    test_graph_mode()
    test_text_says_so()
    tap.done()


if __name__ == "__main__":
    main()
