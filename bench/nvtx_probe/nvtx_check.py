#!/usr/bin/env python3
"""Reads what bench/nvtx_probe's programs printed and what nvtx_tool.c logged; prints the
comparison and one ROW line for run.sh's table.

  nvtx_check.py app NAME APP_STDOUT TOOL_LOG RC    nvtx_app or nvtx_host against its truth
  nvtx_check.py torch NAME TORCH_STDOUT TOOL_LOG RC  what PyTorch's emit_nvtx ranges were
  nvtx_check.py table ROWS                          the rows as an aligned table

The tool's log lines (nvtx_tool.c):
  INIT nvtx|cuda|load ...; CUPTI key=result ...; NVTX instance=K when=... RangePushA_handler_in=LIB
  LAUNCH tag=N tid=T via=CALL capture=0|1|-1 corr=C kernel=NAME path=PATH
  GRAPHLAUNCH corr=C tid=T path=PATH
  NODE created|cloned id=... tag=N ... path=PATH
  GKERNEL tag=N node=ID graph=G corr=C ns=NS node_known=0|1 launch_known=0|1 kernel=NAME
          launch_path=PATH<TAB>capture_path=PATH
  EV op=push|pop|start|end tid=T domain=D depth|id=N label=TEXT     (NVTX_PROBE_TRACE=1)
  MARKER flags=... name=... domain=...                              (CUPTI's marker records)
  SUMMARY key=value ...
"""
import collections
import re
import sys

LAUNCH = re.compile(r"^LAUNCH tag=(-?\d+) tid=(\d+) via=(\S+) capture=(-?\d+) corr=(\d+) "
                    r"kernel=(\S*) path=(.*)$")
GRAPHLAUNCH = re.compile(r"^GRAPHLAUNCH corr=(\d+) tid=(\d+) path=(.*)$")
GKERNEL = re.compile(r"^GKERNEL tag=(-?\d+) node=(\d+) graph=(\d+) corr=(\d+) ns=(-?\d+) "
                     r"node_known=(\d) launch_known=(\d) kernel=(\S*) launch_path=(.*)\t"
                     r"capture_path=(.*)$")
EV = re.compile(r"^EV op=(\w+) tid=(\d+) domain=(\S+) (?:depth|id)=(-?\d+) label=(.*)$")
SEQ = re.compile(r"(stashed )?seq ?= ?(\d+)")


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return []


def summary(lines):
    out = {}
    for line in lines:
        if line.startswith("SUMMARY "):
            for kv in line.split()[1:]:
                k, _, v = kv.partition("=")
                out[k] = v
    return out


def kv_line(lines, prefix):
    for line in lines:
        if line.startswith(prefix + " "):
            return dict(kv.partition("=")[::2] for kv in line.split()[1:])
    return {}


def app(name, out_path, log_path, rc):
    out, log = read(out_path), read(log_path)
    truth = {}
    for line in out:
        m = re.match(r"^TRUTH tag=(\d+) tid=(\d+) expect=(.*)$", line)
        if m:
            truth[int(m.group(1))] = (m.group(2), m.group(3))
    nodes = dict((int(m.group(1)), m.group(2)) for m in
                 (re.match(r"^TRUTH_NODE tag=(\d+) expect=(.*)$", l) for l in out) if m)
    graphs = [m.group(3) for m in
              (re.match(r"^TRUTH_GRAPH i=(\d+) tid=(\d+) expect=(.*)$", l) for l in out) if m]
    seen = {}
    for line in log:
        m = LAUNCH.match(line)
        if m and int(m.group(1)) >= 0:
            seen.setdefault(int(m.group(1)), []).append(m.groups())
    ok = tid_bad = 0
    bad = []
    for tag, (tid, expect) in sorted(truth.items()):
        got = seen.get(tag)
        if not got:
            bad.append("tag %d: no launch seen (expected %s)" % (tag, expect))
            continue
        g = got[0]
        if g[1] != tid:
            tid_bad += 1
        if g[6] == expect:
            ok += 1
        else:
            bad.append("tag %d: got %s, expected %s" % (tag, g[6], expect))
    if log:
        print("[%s] launches: %d of %d paths as expected%s" %
              (name, ok, len(truth),
               ", %d on another thread than expected" % tid_bad if tid_bad else ""))
        if truth and not seen:
            print("  no probe point or launch of the probe kernel was seen")
        else:
            for b in bad[:12]:
                print("  " + b)
    else:
        print("[%s] no tool log: costs only" % name)
    captured = [g for t in (40, 41) for g in seen.get(t, [])]
    if captured:
        print("  captured launches (40, 41): capture=%s" % ",".join(g[3] for g in captured))

    # graphs: each launch's path, each kernel node's capture-time path
    glaunch = [(m.group(1), m.group(3)) for m in (GRAPHLAUNCH.match(l) for l in log) if m]
    gk = [m.groups() for m in (GKERNEL.match(l) for l in log) if m]
    g_ok = sum(1 for i, e in enumerate(graphs) if i < len(glaunch) and glaunch[i][1] == e)
    graph_cell = "-"
    if graphs and log:
        path_of = dict(glaunch)
        node_ok = sum(1 for k in gk if int(k[0]) in nodes and k[9] == nodes[int(k[0])])
        corr_ok = sum(1 for k in gk if k[6] == "1" and k[8] == path_of.get(k[3]))
        want = len(graphs) * len(nodes)
        print("[%s] graph launches: %d of %d paths as expected; graph kernels seen %d of %d, "
              "node known %d, capture path as expected %d, launch path by correlation %d" %
              (name, g_ok, len(graphs), len(gk), want, sum(k[5] == "1" for k in gk), node_ok,
               corr_ok))
        for i, e in enumerate(graphs):
            got = glaunch[i][1] if i < len(glaunch) else "(none)"
            if got != e:
                print("  graph launch %d: got %s, expected %s" % (i, got, e))
        for k in gk[:6]:
            print("  GKERNEL tag=%s node=%s launch=%s capture=%s" % (k[0], k[1], k[8], k[9]))
        graph_cell = "%d/%d,cap%d/%d" % (g_ok, len(graphs), node_ok, want)

    s = summary(log)
    cost = kv_line(out, "COST")
    inits = [l for l in log if l.startswith(("INIT", "CUPTI subscribe", "NVTX instance", "NOTE"))]
    for l in inits[:8]:
        print("  " + l)
    if s:
        print("  tool: mode=%s nvtx_inits=%s own_events=%s cupti_nvtx=%s push=%s pop=%s "
              "unmatched_pop=%s unmatched_end=%s start_without_id=%s "
              "markers(start/end/instant)=%s/%s/%s"
              % tuple(s.get(k, "?") for k in ("mode", "nvtx_inits", "own_events", "cupti_nvtx",
                                               "push", "pop", "unmatched_pop", "unmatched_end",
                                               "start_without_id", "markers_start",
                                               "markers_end", "markers_instant")))
    ranges_cell = "%d/%d" % (ok, len(truth)) if log else "-"
    costs = " ".join("%s=%s" % kv for kv in cost.items() if kv[0] not in ("iters", "bare"))
    print("ROW %s rc=%s ranges=%s graph=%s mode=%s %s" %
          (name, rc, ranges_cell, graph_cell, s.get("mode", "-"), costs or "cost=-"))
    return 0


def torch(name, out_path, log_path, rc):
    out, log = read(out_path), read(log_path)
    s = summary(log)
    t = kv_line(out, "TORCH")
    launches = [m.groups() for m in (LAUNCH.match(l) for l in log) if m]
    evs = [m.groups() for m in (EV.match(l) for l in log) if m]
    print("[%s] torch: %s" % (name, " ".join("%s=%s" % kv for kv in t.items())))
    tg = kv_line(out, "TORCH_GRAPH")
    if tg:
        print("  graph: %s" % " ".join("%s=%s" % kv for kv in tg.items()))
    for l in [l for l in log if l.startswith(("INIT", "CUPTI subscribe", "NVTX instance"))][:8]:
        print("  " + l)
    if s:
        print("  tool: mode=%s nvtx_inits=%s push=%s pop=%s unmatched_pop=%s start=%s end=%s "
              "launches=%s in_range=%s captured=%s graph_launches=%s graph_kernels=%s "
              "kernel_ns=%s kernel_ns_in_range=%s truncated=%s" %
              tuple(s.get(k, "?") for k in ("mode", "nvtx_inits", "push", "pop", "unmatched_pop",
                                             "start", "end", "launches", "in_range", "captured",
                                             "graph_launches", "graph_kernels", "kernel_ns",
                                             "kernel_ns_in_range", "truncated")))
    share = "-"
    if s.get("kernel_ns") not in (None, "0"):
        share = "%.1f%%" % (100.0 * int(s["kernel_ns_in_range"]) / int(s["kernel_ns"]))
        print("  kernel time in a named range: %s" % share)
    if evs:
        per_tid = collections.defaultdict(collections.Counter)
        forward_seq, backward_seq = {}, {}
        for op, tid, dom, n, label in evs:
            if op != "push":
                continue
            per_tid[tid]["push"] += 1
            m = SEQ.search(label)
            if m:
                per_tid[tid]["with seq"] += 1
                (backward_seq if "Backward" in label else forward_seq)[int(m.group(2))] = label
        for tid, c in per_tid.items():
            first = [e[4] for e in evs if e[1] == tid and e[0] == "push"][:4]
            print("  thread %s: %d pushes, %d with a seq number; first: %s" %
                  (tid, c["push"], c["with seq"], " | ".join(x[:70] for x in first)))
        matched = sum(1 for q in backward_seq if q in forward_seq)
        print("  backward ranges with a seq: %d distinct seqs, %d of them equal to a forward "
              "range's seq" % (len(backward_seq), matched))
        for q in list(backward_seq)[:3]:
            print("    seq %d: backward %r <- forward %r" % (q, backward_seq[q][:60],
                                                           forward_seq.get(q, "(none)")[:60]))
    if launches:
        per_tid = collections.defaultdict(lambda: [0, 0, 0, 0, 0])
        for l in launches:
            c = per_tid[l[1]]
            c[0] += 1
            c[1] += l[6] != "-"
            inner = l[6].split(";")[0].split("/")[-1]
            c[2] += bool(SEQ.search(inner))
            c[3] += bool(SEQ.search(l[6]))
            c[4] += "Backward" in l[6]
        for tid, (n, ranged, seq, any_seq, bwd) in per_tid.items():
            print("  launches on thread %s: %d, %d in a range, %d whose innermost range has a "
                  "seq, %d with a seq anywhere in the path, %d inside a *Backward* range"
                  % (tid, n, ranged, seq, any_seq, bwd))
        opt = sum(1 for l in launches if "optimizer_step" in l[6])
        print("  launches inside optimizer_step: %d" % opt)
        for l in launches[:3] + [l for l in launches if "Backward" in l[6]][:3]:
            print("    %s tid=%s %s" % (l[5][:50], l[1], l[6][:160]))
    gk = [m.groups() for m in (GKERNEL.match(l) for l in log) if m]
    if gk:
        print("  graph kernels: %d; node known %d; with a capture path %d; first: %s" %
              (len(gk), sum(k[5] == "1" for k in gk), sum(k[9] not in ("-", "?") for k in gk),
               gk[0][9][:160]))
    print("ROW %s rc=%s ranges=%s graph=%s mode=%s ms_per_step=%s in_range_share=%s" %
          (name, rc, s.get("in_range", "-") + "/" + s.get("launches", "-") if s else "-",
           s.get("graph_kernels", "-") if s else "-", s.get("mode", "-"),
           t.get("ms_per_step", "-"), share))
    return 0


def table(rows_path):
    rows = []
    for line in read(rows_path):
        if not line.startswith("ROW "):
            continue
        parts = line.split()[1:]
        rows.append([parts[0]] + parts[1:])
    if not rows:
        print("(no rows)")
        return 0
    widths = collections.defaultdict(int)
    for r in rows:
        for i, c in enumerate(r):
            widths[i] = max(widths[i], len(c))
    for r in rows:
        print("  ".join(c.ljust(widths[i]) for i, c in enumerate(r)))
    return 0


def main(argv):
    if len(argv) >= 6 and argv[1] == "app":
        return app(argv[2], argv[3], argv[4], argv[5])
    if len(argv) >= 6 and argv[1] == "torch":
        return torch(argv[2], argv[3], argv[4], argv[5])
    if len(argv) == 3 and argv[1] == "table":
        return table(argv[2])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
