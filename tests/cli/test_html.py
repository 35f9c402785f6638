#!/usr/bin/env python3
"""--html (issue 21): one self-contained page per report, merged report and comparison.

Static checks on every page: exit 0, a doctype, nothing that could load anything (no URL, no
script, no src=), a Content-Security-Policy, well-formed markup (every element closed in
order, no duplicate attribute), text escaped, the charts there with as many bars and points
as the report has results and values, axis titles with units, the exact numbers in tables.

Then in a real browser (Debian's chromium, headless, driven over the DevTools protocol on a
pipe, tests/lib/browser.py): no console error, no request besides the page itself, the
rendered DOM has the same bars and points, and a screenshot of each page goes to
BUILD/html/<name>.png. Without chromium those report skip; the static checks still run."""
import copy
import glob
import html.parser
import os
import re
import struct
import tempfile

import tap
from gpuprof import BUILD, run
from kernel_names import qualified_name
from reports import Files, load

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE_DIR = os.path.join(ROOT, "tests", "fixtures")
SAXPY = os.path.join(FIXTURE_DIR, "saxpy-2p26-nometrics.json")
FIXTURES = sorted(glob.glob(os.path.join(FIXTURE_DIR, "*.json")))
REDUCE = os.path.join(FIXTURE_DIR, "reduce-default.json")
TRANSPOSE = os.path.join(FIXTURE_DIR, "transpose-4096.json")
TRANSPOSE_SWEEP = os.path.join(FIXTURE_DIR, "transpose-sweep.json")
OUT_DIR = os.path.join(BUILD, "html")
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
HOSTILE = "<script>alert('x')</script> & \"q\""
METRIC_CHARTS = {
    "efficiency": ("gld_efficiency", "gst_efficiency"),
    "transactions": ("gld_transactions_per_request", "gst_transactions_per_request"),
    "shared": ("shared_load_transactions_per_request", "shared_store_transactions_per_request"),
}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


# ---- a small DOM, and the markup's faults --------------------------------------------------

class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children, self.text = [], ""

    def classes(self):
        return set((self.attrs.get("class") or "").split())

    def all(self, tag=None, cls=None, id=None):
        """Descendants with the tag, every class of `cls` (space-separated) and the id."""
        want = set(cls.split()) if cls else set()
        for child in self.children:
            if ((tag is None or child.tag == tag) and want <= child.classes() and
                    (id is None or child.attrs.get("id") == id)):
                yield child
            yield from child.all(tag, cls, id)

    def first(self, tag=None, cls=None, id=None):
        return next(self.all(tag, cls, id), None)

    def count(self, tag=None, cls=None, id=None):
        return sum(1 for _ in self.all(tag, cls, id))

    def all_text(self):
        return self.text + "".join(c.all_text() for c in self.children)


class Strict(html.parser.HTMLParser):
    """Builds the tree and lists what a browser would have to guess about."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", [], None)
        self.node = self.root
        self.errors = []

    def handle_starttag(self, tag, attrs):
        names = [a for a, _ in attrs]
        if len(names) != len(set(names)):
            self.errors.append("duplicate attribute in <%s>" % tag)
        node = Node(tag, attrs, self.node)
        self.node.children.append(node)
        if tag not in VOID:
            self.node = node

    def handle_startendtag(self, tag, attrs):
        self.node.children.append(Node(tag, attrs, self.node))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.node.tag != tag:
            self.errors.append("</%s> closes <%s> (line %d)" % (tag, self.node.tag,
                                                               self.getpos()[0]))
            return
        self.node = self.node.parent

    def handle_data(self, data):
        self.node.text += data

    def close(self):
        super().close()
        if self.node is not self.root:
            self.errors.append("<%s> never closed" % self.node.tag)


def parse(page):
    p = Strict()
    p.feed(page)
    p.close()
    return p.root, p.errors


# ---- what any page must be -----------------------------------------------------------------

def fetches(page):
    """What could make a browser load something, or run something."""
    found = []
    for pattern in (r"https?://", r"<script", r"\bsrc\s*=", r"\burl\(", r"@import", r"<link",
                    r"<iframe", r"<object", r"<embed", r"\bon[a-z]+\s*=", r"javascript:"):
        found += re.findall(pattern, page, re.I)
    return found


def static_checks(name, rc, page, err):
    tap.ok(rc == 0 and page.startswith("<!DOCTYPE html>"),
           "%s: exit 0, starts with <!DOCTYPE html>" % name, err)
    tap.ok(not fetches(page), "%s: no URL, script, src= or handler" % name, fetches(page)[:5])
    root, errors = parse(page)
    tap.ok(not errors, "%s: well-formed (every element closed in order)" % name, errors[:10])
    meta = [m for m in root.all("meta") if m.attrs.get("http-equiv") == "Content-Security-Policy"]
    tap.ok(len(meta) == 1 and meta[0].attrs.get("content") == CSP,
           "%s: a Content-Security-Policy that blocks every fetch" % name)
    negative = re.findall(r'(?:width|height)="-', page)
    tap.ok(not negative, "%s: no negative width or height in the charts" % name)
    figures = list(root.all("figure", "chart"))
    tap.ok(all(f.first("svg") and f.first("figcaption") and f.first("svg").first("title")
               for f in figures),
           "%s: every chart an inline <svg> with a title, in a <figure> with a caption" % name)
    return root


def valid_values(results, keys):
    return sum(1 for r in results for k in keys
               if (r.get("metrics") or {}).get(k, {}).get("value") is not None)


def expected_kernel_charts(doc):
    """The bars of each chart, counted from the report."""
    results = doc["results"]
    want = {"bandwidth": len(results)}
    for chart, keys in METRIC_CHARTS.items():
        want[chart] = valid_values(results, keys)
    return want


def sweep_values(r):
    """What a result may sweep: block (threads), n, and the parameters pad, group, grid."""
    block = r["launch"]["block"] or [0, 0, 0]  # null: a library call's own shape
    b = [d or 1 for d in block[1:]]
    params = r.get("params") or {}
    return (block[0] * b[0] * b[1], r["size"]["n"],
            params.get("pad"), params.get("group"), params.get("grid"))


def expected_sweeps(doc):
    """(points, lines) of the line charts: the results of one family, variant and type that
    differ in exactly one of the sweep values make a line."""
    groups = {}
    for r in doc["results"]:
        groups.setdefault((r["family"], r["variant"], r["type"]), []).append(sweep_values(r))
    points = lines = 0
    for values in groups.values():
        varied = [i for i in range(5) if len(set(v[i] for v in values)) > 1]
        if len(values) > 1 and len(varied) == 1:
            points, lines = points + len(values), lines + 1
    return points, lines


def heatmap_dims(r):
    """What a heatmap's axes can be: the block's shape, n, and each parameter."""
    shape = r["launch"]["block"]  # null: a library call's own shape
    block = "x".join(str(d) for d in shape[:2]) if shape and shape[0] else None
    dims = {"block": block, "n": r["size"]["n"]}
    dims.update(r.get("params") or {})
    return dims


def expected_heatmap_cells(doc):
    """The cells of the heatmaps: the results of one family, variant and type that differ in
    exactly two of block shape, n and the parameters, each pair once."""
    groups = {}
    for r in doc["results"]:
        groups.setdefault((r["family"], r["variant"], r["type"]), []).append(heatmap_dims(r))
    cells = 0
    for dims in groups.values():
        names = [k for k in dims[0] if len(set(d.get(k) for d in dims)) > 1]
        pairs = set(tuple(d.get(k) for k in names) for d in dims)
        if len(names) == 2 and len(pairs) == len(dims) and None not in sum(pairs, ()):
            cells += len(dims)
    return cells


def spread(r):
    t = r["timing"]
    return t.get("min_ms") and t.get("max_ms") and t["max_ms"] > t["min_ms"]


def check_kernel_page(name, root, doc, sweep_points=None, sweep_lines=None):
    if sweep_points is None:
        sweep_points, sweep_lines = expected_sweeps(doc)
    want = expected_kernel_charts(doc)
    for chart, bars in want.items():
        fig = root.first("figure", "chart chart-" + chart)
        if bars == 0 and chart != "bandwidth":
            tap.ok(fig is None, "%s: no %s chart (no result has those metrics)" % (name, chart))
            continue
        got = fig.count("rect", "bar") if fig else -1
        tap.ok(got == bars, "%s: %s chart has %d bars" % (name, chart, bars), "got %d" % got)
    fig = root.first("figure", "chart chart-bandwidth")
    axis = fig.first("text", "axis-title").all_text() if fig else ""
    tap.ok("GB/s" in axis and fig.first("line", "ref peak") is not None,
           "%s: bandwidth axis in GB/s, a line at the GPU's peak" % name, axis)
    points = sum(f.count("circle", "point") for f in root.all("figure", "chart-sweep"))
    lines = sum(f.count("polyline", "line") for f in root.all("figure", "chart-sweep"))
    tap.ok(points == sweep_points and lines == sweep_lines,
           "%s: sweep charts have %d points on %d lines" % (name, sweep_points, sweep_lines),
           "got %d points, %d lines" % (points, lines))
    whiskers = fig.count("g", "whisker") if fig else -1
    want_whiskers = sum(1 for r in doc["results"] if spread(r))
    tap.ok(whiskers == want_whiskers and (not whiskers or "whisker spans" in fig.all_text()),
           "%s: a noise whisker on each bandwidth bar whose repeats spread (%d), said in the "
           "caption" % (name, want_whiskers), "got %d" % whiskers)
    cells = sum(f.count("rect", "cell") for f in root.all("figure", "chart-heatmap"))
    want_cells = expected_heatmap_cells(doc)
    tap.ok(cells == want_cells, "%s: heatmaps have a cell per two-parameter result (%d)"
           % (name, want_cells), "got %d" % cells)
    tables = " ".join(t.all_text() for t in root.all("table", "results"))
    missing = [r["variant"] for r in doc["results"]
               if "%.4f" % r["timing"]["median_ms"] not in tables or
               "%.1f" % r["bandwidth_gbps"] not in tables]
    tap.ok(not missing, "%s: the tables carry each result's time_ms and GB/s" % name, missing)
    if not any(r.get("metrics") for r in doc["results"]):
        tap.ok("No metric charts" in root.all_text(),
               "%s: no metrics: the page says why there are no metric charts" % name)


def check_exec_bandwidth(name, root, doc):
    """Each kernel's DRAM bandwidth against the peak: a bar per kernel that has it, its share
    of the peak after it, the peak line and its value in the caption, whiskers over the
    launches' spread."""
    kernels = doc["exec"]["kernels"][:20]
    with_dram = [k for k in kernels if (k.get("metrics") or {}).get("dram_throughput")]
    copies = doc["exec"].get("copies", [])
    timed_copies = [c for c in copies if c.get("gbps") is not None]
    fig = root.first("figure", "chart chart-exec-bandwidth")
    if not any(k.get("metrics") for k in kernels) and not copies:
        tap.ok(fig is None and "No bandwidth chart" in root.all_text(),
               "%s: no kernel metrics, no copies: no bandwidth chart, and the page says why"
               % name)
        return 0, 0, 0
    bars = fig.count("rect", "bar") if fig else -1
    want_bars = len(with_dram) + len(timed_copies)
    labels_shown = (len(kernels) if any(k.get("metrics") for k in kernels) else 0) + len(copies)
    copy_labels = [t.all_text() for t in fig.all("text", "label")][-len(copies):] if copies else []
    tap.ok(not copies or all(c["kind"].split()[-1] in l for c, l in zip(copies, copy_labels)),
           "%s: a bar per kind of copy and memset below the kernels" % name, copy_labels)
    if not with_dram:
        tap.ok(bars == want_bars, "%s: copies only: a bar per timed kind (%d)"
               % (name, want_bars), "got %d" % bars)
        return bars, 0, labels_shown
    peak = doc["exec"]["devices"][0]["peak_bandwidth_gbps"]
    tap.ok(bars == want_bars and fig.first("line", "ref peak") is not None and
           "peak %.1f GB/s" % peak in fig.first("figcaption").all_text(),
           "%s: a bandwidth bar per kernel with dram_throughput (%d) and per timed kind of "
           "copy (%d), the peak drawn and stated" % (name, len(with_dram), len(timed_copies)),
           "got %d" % bars)
    values = [t.all_text() for t in fig.all("text", "value")] if fig else []
    want = ["%.1f %% of peak" % (100 * k["metrics"]["dram_throughput"]["average"] / peak)
            for k in with_dram]
    tap.ok(all(any(w in v for v in values) for w in want),
           "%s: each bandwidth bar says its share of the peak" % name, (want, values))
    spreads = sum(1 for k in with_dram
                  if k["metrics"]["dram_throughput"]["max"] > k["metrics"]["dram_throughput"]["min"])
    tap.ok(fig.count("g", "whisker") == spreads,
           "%s: a whisker on each bandwidth bar whose launches spread (%d)" % (name, spreads))
    labels = list(fig.all("text", "label"))
    # a long label wraps into lines (tspans)
    texts = ["".join(t.text or "" for t in l.all("tspan")) or l.text or "" for l in labels]
    # a variant (one of a kernel's codes) says which after its name
    variants = ["" if "variant" not in k else " [variant %d of %d]" % (k["variant"], k["variants"])
                for k in kernels]
    shorts = [re.sub(r"^#\d+ ", "", t) for t in texts]
    shorts = [s[:-len(v)] if v and s.endswith(v) else s if not v else "" for s, v in
              zip(shorts, variants)]
    # a label is the kernel's qualified name (no return type, anonymous namespaces, template
    # arguments or parameters), then only what tells it from kernels of that name; on two
    # lines at most, a longer one's second line cut in its middle
    tap.ok(labels and all(l.first("title").text == k["kernel"] and t.startswith("#") and
                          (s.startswith(qualified_name(k["kernel"])) or
                           "\u2026" in s and qualified_name(k["kernel"]).startswith(
                               s.split("\u2026")[0]))
                          for l, t, s, k in zip(labels, texts, shorts, kernels)),
           "%s: kernels labelled #N and their labels, the full name in each label's <title>"
           % name,
           [(l.text, l.first("title").text) for l in labels][:3])
    return want_bars, spreads, labels_shown


def write_page(name, page):
    os.makedirs(OUT_DIR, exist_ok=True)
    path = os.path.join(OUT_DIR, name + ".html")
    with open(path, "w") as f:
        f.write(page)
    return path


# ---- reports made from the fixtures --------------------------------------------------------


def block_sweep(variants, blocks):
    """reduce results of a few variants at several block sizes (GB/s rising with the block,
    so the lines are not flat)."""
    base = load(REDUCE)
    by_name = {r["variant"]: r for r in base["results"]}
    results = []
    for v in variants:
        for i, b in enumerate(blocks):
            r = copy.deepcopy(by_name[v])
            r["launch"]["block"] = [b, 1, 1]
            scale = 0.6 + 0.1 * i
            r["timing"]["median_ms"] /= scale
            r["bandwidth_gbps"] *= scale
            r["percent_of_peak"] *= scale
            results.append(r)
    base["results"] = results
    return base


def size_sweep(variant, exponents):
    base = load(REDUCE)
    proto = [r for r in base["results"] if r["variant"] == variant][0]
    results = []
    for k in exponents:
        r = copy.deepcopy(proto)
        r["size"]["n"] = 1 << k
        r["bytes_moved"] = 4 << k
        r["launch"]["grid"] = [max(1, (1 << k) // 512), 1, 1]
        results.append(r)
    base["results"] = results
    return base


def exec_report(n_kernels, hostile):
    """An exec report with n kernels (one with a name that is markup), each launched twice."""
    dev = load(REDUCE)["device"]
    launches, kernels = [], []
    for k in range(n_kernels):
        name = hostile if k == 0 else "kernel_%02d(float *, int)" % k
        if k == 2:
            name = "bell\x07kernel(int)"
        if k % 5 == 1:   # a C++ template name, as long as real ones get
            name = ("void cub::DeviceReduceKernel<cub::DeviceReducePolicy<float, float, int>"
                    "::Policy600, float *, float *, int, cub::Sum>(float *, float *, int, "
                    "cub::GridEvenShare<int>, cub::Sum) #%d" % k)
        metrics = {"gld_efficiency": {"value": 50.0 + k, "unit": "%", "inputs": {}},
                   "gld_transactions_per_request": {"value": 8.0, "unit": "sectors/request",
                                                    "inputs": {}}}
        for call in range(2):
            launches.append({"pid": 7, "id": 2 * k + call + 1, "kernel": name, "mangled": None,
                             "device": 0, "context": 1, "stream": 7, "grid": [64, 1, 1],
                             "block": [256, 1, 1], "shared_bytes": 0,
                             "duration_ms": 0.01 * (k + 1), "profiled": True, "graph": 0,
                             "graph_node": 0, "metrics": metrics})
        stats = {key: {"unit": m["unit"], "min": m["value"], "average": m["value"],
                       "max": m["value"], "launches": 2} for key, m in metrics.items()}
        kernels.append({"kernel": name, "calls": 2, "profiled": 2, "timed": 2,
                        "total_ms": 0.02 * (k + 1), "total_estimated": False,
                        "average_ms": 0.01 * (k + 1), "min_ms": 0.01 * (k + 1),
                        "max_ms": 0.01 * (k + 1), "time_percent": None, "metrics": stats})
    total = sum(k["total_ms"] for k in kernels)
    for k in kernels:
        k["time_percent"] = 100.0 * k["total_ms"] / total
    kernels.sort(key=lambda k: -k["total_ms"])
    return {"schema_version": 1, "tool": {"name": "gpuprof", "version": "0.1.0"},
            "command": "exec", "command_line": ["gpuprof", "exec", "--json", "--", "./app"],
            "device": dev,
            "profiler": {"state": "ok", "reason": None, "chip": "GH100", "passes": 2,
                         "metric_set": "default",
                         "api": "CUPTI range profiler, auto range, kernel replay",
                         "cache_control": "none (the program's own cache state)",
                         "clock_control": "none (clocks not locked)"},
            "results": [], "warnings": ["a warning with <markup> & \"quotes\""],
            "exec": {"program": ["./app", HOSTILE], "pid": 7, "exit_status": 0, "signal": None,
                     "processes": 1,
                     "filters": {"kernel": None, "launch_skip": 0, "launch_count": None,
                                 "per_kernel": None},
                     "devices": [dev], "launches": launches, "kernels": kernels}}


# ---- the tests -------------------------------------------------------------------------------

def test_fixtures(pages):
    for path in FIXTURES:
        name = os.path.splitext(os.path.basename(path))[0]
        doc = load(path)
        rc, page, err = run("report", path, "--html")
        root = static_checks(name, rc, page, err)
        if doc.get("command") == "exec":
            kernels = [k for k in doc["exec"]["kernels"] if k["total_ms"] is not None]
            fig = root.first("figure", "chart chart-exec-time")
            bars = fig.count("rect", "bar") if fig else -1
            tap.ok(bars == min(20, len(kernels)),
                   "%s: a time bar per timed kernel (at most 20)" % name, "got %d" % bars)
            bars, whiskers, labels = check_exec_bandwidth(name, root, doc)
            pages.append((name, write_page(name, page),
                          {"rect.bar": None, "figure.chart-exec-bandwidth rect.bar": bars,
                           "figure.chart-exec-bandwidth g.whisker": whiskers,
                           "figure.chart-exec-bandwidth text.label title": labels}))
            continue
        check_kernel_page(name, root, doc)
        pages.append((name, write_page(name, page),
                      {"figure.chart-bandwidth rect.bar": len(doc["results"]),
                       "figure.chart-bandwidth g.whisker": sum(map(bool, map(spread,
                                                                             doc["results"]))),
                       "figure.chart-sweep circle.point": expected_sweeps(doc)[0],
                       "figure.chart-heatmap rect.cell": expected_heatmap_cells(doc)}))


def test_escaping(files, pages):
    doc = exec_report(25, HOSTILE)
    path = files.write(doc, "a&b<c>'d\".json")
    rc, page, err = run("report", path, "--html")
    root = static_checks("exec (25 kernels, markup in names)", rc, page, err)
    tap.ok("<script>alert" not in page and "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; "
           "&amp; &quot;q&quot;" in page,
           "a kernel name that is markup is shown as text, & < > \" ' escaped")
    fig = root.first("figure", "chart chart-exec-time")
    tap.ok(fig is not None and fig.count("rect", "bar") == 20,
           "exec: the time chart keeps the 20 kernels that took most")
    table = root.first("table", "kernels")
    tap.ok(table is not None and table.count("tr") == 26,
           "exec: the kernel table has all 25 kernels")
    eff = root.first("figure", "chart chart-efficiency")
    tap.ok(eff is not None and eff.count("rect", "bar") == 20 and
           root.first("figure", "chart chart-transactions").count("rect", "bar") == 20,
           "exec: metric charts of the kernels' averages (loads only: 20 bars each)")
    tap.ok("a warning with &lt;markup&gt; &amp; &quot;quotes&quot;" in page,
           "warnings are listed, escaped")
    tap.ok("\x07" not in page and "bell\ufffdkernel" in page,
           "a control character in a name is shown as U+FFFD")
    labels = list(fig.all("text", "label")) if fig else []
    long_ones = [l for l in labels if l.first("title").text.startswith("void cub::")]
    tap.ok(long_ones and all(re.fullmatch(r"#\d+ cub::DeviceReduceKernel #\d+", l.text) and
                             l.first("title").text.endswith(l.text.split()[-1])
                             for l in long_ones),
           "a long kernel name is labelled by its qualified name, the one after it kept (#N), "
           "the full name on hover", [(l.text, l.first("title").text) for l in long_ones][:2])
    cells = [td for td in table.all("td", "kernel")] if table else []
    tap.ok(len(cells) == 25 and all(td.attrs.get("title") and td.first("b") for td in cells) and
           any(td.first("div", "full") and td.first("div", "full").all_text() ==
               td.attrs["title"] for td in cells),
           "exec table: each kernel's short name, the full name under it and on hover")
    pages.append(("exec-synthetic", write_page("exec-synthetic", page),
                  {"figure.chart-exec-time rect.bar": 20}))
    rc, page, err = run("report", path, REDUCE, "--html")
    tap.ok(rc == 2 or rc == 1, "exec and kernel reports do not merge (exit %d)" % rc, err)
    other = files.write(load(TRANSPOSE), "t&<x>.json")
    rc, page, err = run("report", REDUCE, other, "--html")
    static_checks("merged, a file name with markup", rc, page, err)
    tap.ok("t&amp;&lt;x&gt;.json" in page and "t&<x>" not in page,
           "a file name is escaped in the sources table")


def test_sweeps(files, pages):
    blocks = [64, 128, 256, 512, 1024]
    variants = ["interleaved", "unrolling8", "shfl"]
    doc = block_sweep(variants, blocks)
    rc, page, err = run("report", files.write(doc), "--html")
    root = static_checks("block sweep", rc, page, err)
    check_kernel_page("block sweep", root, doc, sweep_points=15, sweep_lines=3)
    fig = root.first("figure", "chart-sweep")
    tap.ok(fig is not None and fig.attrs.get("data-param") == "block" and
           "block size" in fig.first("svg").all_text() and
           all(v in fig.all_text() for v in variants),
           "block sweep: x axis block size, a legend entry per variant")
    sweep_table = root.first("table", "sweep")
    tap.ok(sweep_table is not None and sweep_table.count("tr") == len(blocks) + 1,
           "block sweep: a table under the chart, a row per block size")
    pages.append(("sweep-block", write_page("sweep-block", page),
                  {"figure.chart-sweep circle.point": 15, "figure.chart-sweep polyline.line": 3}))
    doc = size_sweep("shfl", [16, 18, 20, 22, 24])
    rc, page, err = run("report", files.write(doc), "--html")
    root = static_checks("size sweep", rc, page, err)
    check_kernel_page("size sweep", root, doc, sweep_points=5, sweep_lines=1)
    fig = root.first("figure", "chart-sweep")
    tap.ok(fig is not None and fig.attrs.get("data-param") == "n" and "2^24" in fig.all_text(),
           "size sweep: x axis in powers of two")
    both = block_sweep(["shfl"], [256, 512])
    extra = copy.deepcopy(both["results"][0])
    extra["size"]["n"] = 1 << 20
    both["results"].append(extra)
    rc, page, err = run("report", files.write(both), "--html")
    root = static_checks("two parameters varied", rc, page, err)
    tap.ok(root.first("figure", "chart-sweep") is None,
           "results that differ in two parameters draw no line chart")


def test_heatmaps(files, pages):
    """transpose --pad=0,1,2 --block=32x8,32x16,16x16: a heatmap per variant, block by pad,
    on one colour scale, the GB/s in each cell and on hover."""
    doc = load(TRANSPOSE_SWEEP)
    rc, page, err = run("report", TRANSPOSE_SWEEP, "--html")
    root = static_checks("pad x block", rc, page, err)
    figs = list(root.all("figure", "chart-heatmap"))
    tap.ok(len(figs) == 1 and figs[0].attrs.get("data-rows") == "block" and
           figs[0].attrs.get("data-cols") == "pad",
           "pad x block: one heatmap figure, blocks as rows, pads as columns")
    fig = figs[0] if figs else root
    svgs = list(fig.all("svg", "heatmap"))
    variants = sorted(set(r["variant"] for r in doc["results"]))
    tap.ok(len(svgs) == len(variants) and
           sorted(t.all_text() for t in fig.all("div", "multiple-title")) == variants,
           "pad x block: a heatmap per variant, each named (small multiples)")
    titles = {c.first("title").text for c in fig.all("rect", "cell")}
    want = {"block=%s, pad=%d: %.1f GB/s" % ("x".join(map(str, r["launch"]["block"][:2])),
                                              r["params"]["pad"], r["bandwidth_gbps"])
            for r in doc["results"]}
    tap.ok(titles == want, "pad x block: each cell's exact GB/s, block and pad on hover",
           sorted(want - titles)[:3])
    values = sorted(t.text for t in fig.all("text", "cell-value"))
    tap.ok(values == sorted("%.0f" % r["bandwidth_gbps"] for r in doc["results"]),
           "pad x block: each cell's GB/s written in it")
    fills = [c.attrs.get("fill") for c in fig.all("rect", "cell")]
    lo = min(doc["results"], key=lambda r: r["bandwidth_gbps"])
    hi = max(doc["results"], key=lambda r: r["bandwidth_gbps"])
    cells = {c.first("title").text: c.attrs.get("fill") for c in fig.all("rect", "cell")}
    name = lambda r: "block=%s, pad=%d: %.1f GB/s" % ("x".join(map(str, r["launch"]["block"][:2])),
                                                      r["params"]["pad"], r["bandwidth_gbps"])
    tap.ok(len(set(fills)) > 5 and cells.get(name(lo)) == "#440154" and
           cells.get(name(hi)) == "#fde725",
           "pad x block: one colour scale over the variants, its ends at the least and most "
           "GB/s", (cells.get(name(lo)), cells.get(name(hi))))
    tap.ok(all(s.first("g", "legend") and s.first("g", "legend").count("rect", "step") == 8 and
               s.first("desc") and "GB/s" in s.first("desc").text for s in svgs) and
           "%.0f GB/s" % hi["bandwidth_gbps"] in fig.first("figcaption").all_text(),
           "pad x block: a legend of the scale and a description in words in each heatmap; "
           "the scale's ends in the caption")
    pages.append(("heatmap", write_page("heatmap", page),
                  {"figure.chart-heatmap rect.cell": len(doc["results"]),
                   "figure.chart-heatmap svg g.legend": len(variants),
                   "figure.chart-heatmap rect.cell title": len(doc["results"])}))


def heatmap_axes(files, name, doc):
    """The page's first heatmap as (rows, columns, cells); None when it has none."""
    rc, page, err = run("report", files.write(doc), "--html")
    fig = static_checks(name, rc, page, err).first("figure", "chart-heatmap")
    return fig and (fig.attrs.get("data-rows"), fig.attrs.get("data-cols"),
                    fig.count("rect", "cell"))


def test_heatmap_axes(files):
    """What makes a heatmap's axes: exactly two parameters varied, each pair once."""
    doc = load(TRANSPOSE_SWEEP)
    gap = copy.deepcopy(doc)
    gap["results"].pop(4)
    rc, page, err = run("report", files.write(gap), "--html")
    root = static_checks("pad x block, one result missing", rc, page, err)
    tap.ok(root.count("rect", "cell none") == 1 and
           root.count("rect", "cell") == len(doc["results"]),
           "a pair not run: its cell is drawn empty, no value")
    three = copy.deepcopy(doc)
    three["results"] = [r for r in three["results"] if r["variant"] == "smem"]
    three["results"][0]["size"]["n"] = 1 << 20
    rc, page, err = run("report", files.write(three), "--html")
    root = static_checks("three parameters varied", rc, page, err)
    tap.ok(root.first("figure", "chart-heatmap") is None,
           "results that differ in three parameters draw no heatmap")
    sizes = block_sweep(["shfl"], [256, 512])
    for k, r in enumerate(list(sizes["results"])):
        bigger = copy.deepcopy(r)
        bigger["size"]["n"] = 1 << 20
        bigger["bandwidth_gbps"] /= 2 + k
        sizes["results"].append(bigger)
    tap.ok(heatmap_axes(files, "block x size", sizes) == ("block", "n", 4),
           "block x size: a heatmap of the block by the problem size")
    saxpy = load(SAXPY)
    proto, saxpy["results"] = saxpy["results"][0], []
    for b in (256, 512):
        for k in (20, 22):
            r = copy.deepcopy(proto)
            r["launch"]["block"], r["size"]["n"] = [b, 1, 1], 1 << k
            r["params"]["grid"] = None      # a parameter that applies to none of them
            saxpy["results"].append(r)
    tap.ok(heatmap_axes(files, "saxpy block x size", saxpy) == ("block", "n", 4),
           "saxpy block x size: a heatmap; a parameter that applies to no result (grid) and "
           "one that does not vary (alpha) are no axes")
    saxpy["results"][0]["params"]["grid"] = 64
    tap.ok(heatmap_axes(files, "saxpy, grid given for one result", saxpy) is None,
           "a parameter that some results lack: no heatmap")


def test_merged(files, pages):
    a, b = load(REDUCE), load(TRANSPOSE)
    rc, page, err = run("report", REDUCE, TRANSPOSE, "--html")
    root = static_checks("merged", rc, page, err)
    merged = dict(a, results=a["results"] + b["results"])
    check_kernel_page("merged", root, merged)
    sources = root.first("table", "sources")
    tap.ok(sources is not None and sources.count("tr") == 3 and
           REDUCE in sources.all_text() and TRANSPOSE in sources.all_text(),
           "merged: the sources table lists both files")
    fig = root.first("figure", "chart chart-bandwidth")
    tap.ok(fig.count("text", "group") == 2, "merged: the bandwidth chart has a heading per "
                                            "problem")
    pages.append(("merged", write_page("merged", page),
                  {"figure.chart-bandwidth rect.bar": len(merged["results"])}))
    b["device"]["name"] = "NVIDIA H200"
    b["device"]["peak_bandwidth_gbps"] = 4800.0
    rc, page, err = run("report", REDUCE, files.write(b), "--html")
    root = static_checks("merged, different GPUs", rc, page, err)
    labels = [t.text for t in root.first("figure", "chart-bandwidth").all("text", "label")]
    peaks = root.first("figure", "chart-bandwidth").count("line", "ref peak")
    tap.ok(all(re.search(r"\[[12]\]$", l) for l in labels) and peaks == 2,
           "different GPUs: every bar labelled [file], a peak line per GPU", labels[:3])


def slowed(doc, index, factor):
    doc = copy.deepcopy(doc)
    doc["results"][index]["timing"]["median_ms"] *= factor
    return doc


def test_compare(files, pages):
    base_doc = load(REDUCE)
    for r in base_doc["results"]:
        r["timing"]["noise_pct"] = 1.0
    base = files.write(base_doc, "base.json")
    new_doc = slowed(slowed(base_doc, 2, 1.5), 0, 0.5)
    gone = new_doc["results"].pop(5)
    extra = copy.deepcopy(new_doc["results"][1])
    extra["launch"]["block"] = [128, 1, 1]
    new_doc["results"].append(extra)
    new_doc["device"]["name"] = "NVIDIA H200"
    new = files.write(new_doc, "new.json")
    rc, page, err = run("compare", base, new, "--html")
    tap.ok(rc == 1, "compare --html with a regression: exit 1", err)
    root = static_checks("compare", 0, page, err)
    matched = len(base_doc["results"]) - 1
    fig = root.first("figure", "chart chart-compare")
    tap.ok(fig is not None and fig.count("rect", "bar") == 2 * matched,
           "compare: a before and an after bar per matched result (%d)" % matched)
    slower = list(fig.all("g", "significant slower")) if fig else []
    faster = list(fig.all("g", "significant faster")) if fig else []
    tap.ok(len(slower) == 1 and "\u25b2" in slower[0].all_text() and
           base_doc["results"][2]["variant"] in slower[0].all_text(),
           "compare: the slower result marked (class, \u25b2)")
    tap.ok(len(faster) == 1 and "\u25bc" in faster[0].all_text(),
           "compare: the faster result marked (class, \u25bc)")
    only_base, only_new = root.first("table", id="only-base"), root.first("table", id="only-new")
    tap.ok(only_base is not None and gone["variant"] in only_base.all_text() and
           only_new is not None and "128" in only_new.all_text(),
           "compare: unmatched results in 'only in BASE' and 'only in NEW' tables")
    header = root.first("header").all_text()
    tap.ok("base.json" in header and "new.json" in header and "NVIDIA H200" in header and
           "different GPUs" in header and "5 %" in header,
           "compare header: both files, their GPUs, 'different GPUs', the threshold")
    tap.ok("REGRESSION" in root.all_text(), "compare: REGRESSION said in words")
    pages.append(("compare", write_page("compare", page),
                  {"figure.chart-compare rect.bar": 2 * matched,
                   "figure.chart-compare g.significant.slower": 1}))
    whiskers = fig.count("g", "whisker") if fig else -1
    want = sum(1 for i, r in enumerate(base_doc["results"]) if spread(r) and i != 5) + \
        sum(1 for r in new_doc["results"][:-1] if spread(r))
    tap.ok(whiskers == want and "whisker" in fig.first("figcaption").all_text(),
           "compare: a whisker from the fastest to the slowest repeat on each time bar (%d), "
           "said in the caption" % want, "got %d" % whiskers)
    cub = [l for l in fig.all("text", "label") if l.text.startswith("cub")]
    tap.ok("0x0x0" not in page and cub and cub[0].text == "cub",
           "compare: cub's unknown block (0x0x0) is left out of its label and table row",
           [(l.text, l.first("title").text) for l in cub])
    rc, page, err = run("compare", base, base, "--html")
    root = static_checks("compare, identical", rc, page, err)
    tap.ok(rc == 0 and root.count("g", "significant") == 0 and
           "REGRESSION" not in root.all_text(),
           "compare A A --html: exit 0, nothing marked")


def test_long_names(files, pages):
    """Names too long for a label even when short: two lines broken at a readable place, the
    rest cut; a name with no space still fits the table."""
    doc = exec_report(3, "plain(int)")
    long_name = ("void ns::a_kernel_whose_own_name_is_far_too_long_for_any_label_of_a_chart"
                 "_at_all(float *, int)")
    mangled = "_Z" + "x" * 300
    renames = {"void cub": long_name, "bell": mangled}
    for item in doc["exec"]["launches"] + doc["exec"]["kernels"]:
        for old, new in renames.items():
            if item["kernel"].startswith(old):
                item["kernel"] = new
    rc, page, err = run("report", files.write(doc), "--html")
    root = static_checks("long names", rc, page, err)
    fig = root.first("figure", "chart-exec-time")
    wrapped = [l for l in fig.all("text", "label") if l.count("tspan") == 2]
    tap.ok(len(wrapped) == 2 and
           all(l.first("title").text in (long_name, mangled) for l in wrapped),
           "a label too long for one line takes two, the full name on hover",
           [l.all_text() for l in fig.all("text", "label")])
    mangled_label = [l for l in wrapped if l.first("title").text == mangled]
    lines = [t.text for t in mangled_label[0].all("tspan")] if mangled_label else []
    first = re.sub(r"^#\d+ ", "", lines[0]) if lines else ""
    tap.ok(len(lines) == 2 and lines[0].startswith("#") and first == mangled[:len(first)] and
           "\u2026" in lines[1],
           "a name with no readable break: its first line cut at the width, the second cut "
           "in the middle", lines)
    pages.append(("long-names", write_page("long-names", page),
                  {"figure.chart-exec-time text.label tspan": 4}))


def test_compare_exec(files, pages):
    base_doc = exec_report(6, "plain(int)")
    new_doc = copy.deepcopy(base_doc)
    for launch in new_doc["exec"]["launches"]:
        if launch["kernel"] == "kernel_03(float *, int)":
            launch["duration_ms"] *= 2
    rc, page, err = run("compare", files.write(base_doc), files.write(new_doc), "--html")
    tap.ok(rc == 1, "compare of exec reports --html, one kernel twice as slow: exit 1", err)
    root = static_checks("compare exec", 0, page, err)
    fig = root.first("figure", "chart chart-compare")
    slower = list(fig.all("g", "significant slower")) if fig else []
    tap.ok(fig is not None and fig.count("rect", "bar") == 12 and len(slower) == 1 and
           "kernel_03" in slower[0].all_text(),
           "compare exec: two bars per kernel, the slower one marked")
    labels = list(fig.all("text", "label")) if fig else []
    kernels = [k["kernel"] for k in base_doc["exec"]["kernels"]]
    tap.ok(any(re.fullmatch(r"#\d+ cub::DeviceReduceKernel #1", l.text) for l in labels) and
           all(re.sub(r"^#\d+ ", "", l.first("title").text.split(" grid=")[0])
               .replace("\ufffd", "\x07") in kernels for l in labels) and
           fig.count("g", "whisker") == 0,
           "compare exec: kernels labelled as in every view, the full name and shape on hover; "
           "no whisker where the launches took the same time",
           [(l.text, l.first("title").text) for l in labels][:3])
    pages.append(("compare-exec", write_page("compare-exec", page),
                  {"figure.chart-compare rect.bar": 12}))
    spread_doc = copy.deepcopy(base_doc)
    for i, launch in enumerate(spread_doc["exec"]["launches"]):
        launch["duration_ms"] *= 1 + 0.5 * (i % 2)
    rc, page, err = run("compare", files.write(spread_doc), files.write(spread_doc), "--html")
    root = static_checks("compare exec, launches spread", rc, page, err)
    tap.ok(root.count("g", "whisker") == 12,
           "compare exec: a whisker on each bar whose launches took different times")


# ---- in the browser ------------------------------------------------------------------------

def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def test_browser(pages):
    import browser
    try:
        b = browser.Browser()
    except browser.Unavailable as e:
        for name, _, _ in pages:
            tap.skip("%s in chromium: no console error, no request, DOM, screenshot" % name,
                     str(e))
        return
    try:
        with b:
            in_browser(b, pages)
            control(b)
    except browser.BrowserError as e:
        tap.ok(False, "chromium ran the page checks", str(e))


# Each table's container, and the page, wider inside than it shows: [class, scroll, client].
TOO_WIDE = ("Array.from(document.querySelectorAll('table')).map(t => t.parentElement)"
            ".concat([document.documentElement])"
            ".filter(e => e.scrollWidth > e.clientWidth)"
            ".map(e => [e.className || e.tagName, e.scrollWidth, e.clientWidth])")


def in_browser(b, pages):
    """Each page in chromium: nothing logged or requested, the charts in the DOM, a PNG."""
    import browser
    for name, path, counts in pages:
        shot = os.path.join(OUT_DIR, name + ".png")
        if os.path.exists(shot):
            os.remove(shot)
        page = b.load(path, screenshot=shot)
        tap.ok(not page.console, "%s in chromium: no console error or CSP report" % name,
               page.console)
        tap.ok(not page.requests and not page.failed,
               "%s in chromium: no request besides the page itself" % name,
               page.requests + page.failed)
        for selector, want in counts.items():
            got = b.count(selector)
            tap.ok(got == want if want is not None else got > 0,
                   "%s in chromium: %s %s" % (name, selector,
                                              want if want is not None else "present"),
                   "got %d" % got)
        wide = b.evaluate(TOO_WIDE)
        tap.ok(wide == [], "%s in chromium: at %d px no table scrolls sideways, nor the page"
               % (name, browser.WIDTH), wide)
        size = png_size(shot) if os.path.exists(shot) else None
        tap.ok(size == (browser.WIDTH, browser.HEIGHT) and os.path.getsize(shot) > 20000,
               "%s: screenshot %s (%dx%d)" % (name, os.path.relpath(shot), browser.WIDTH,
                                              browser.HEIGHT), size)


def control(b):
    """The harness sees what it must: a page that breaks the rules is caught."""
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "bad.html")
        with open(bad, "w") as f:
            f.write("<!DOCTYPE html><html><head><meta http-equiv=\"Content-Security-Policy\" "
                    "content=\"%s\"></head><body><img src=\"http://127.0.0.1:9/x.png\">"
                    "<script>console.error('x')</script></body></html>" % CSP)
        page = b.load(bad)
        tap.ok(len(page.console) >= 2 and any("Content Security Policy" in t
                                              for _, t in page.console),
               "control: a page with a fetch and a script is caught (CSP reports logged)",
               page.console)


def test_merged_exec_programs():
    """A merged exec report's page names every file's program, not only the first."""
    fixtures = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "fixtures")
    a, b = os.path.join(fixtures, "exec-copy.json"), os.path.join(fixtures, "exec-auto.json")
    rc, page, err = run("report", a, b, "--html")
    programs = re.findall(r"<dt>program (\d+)</dt><dd><code>([^<]*)</code> \(([^)]*)\)", page)
    tap.ok(rc == 0 and [p[0] for p in programs] == ["1", "2"] and
           programs[0][2].endswith("exec-copy.json") and
           programs[1][1].endswith("copy both 2^22 3"),
           "merged exec page: every file's program, with its file", programs or err)


def test_graph_nodes(files):
    """exec-graph.json's page: a row per graph node and way, each note a tooltip and a
    footnote once, a hostile note escaped; no graph section without graph nodes."""
    fixtures = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "fixtures")
    doc = load(os.path.join(fixtures, "exec-graph.json"))
    hostile = "<b>x</b> & \"q\" 'a'"
    doc["exec"]["launches"][7]["note"] = hostile
    rc, page, err = run("report", files.write(doc), "--html")
    root = static_checks("exec-graph (hostile note)", rc, page, err)
    table = root.first("table", "graph-nodes")
    rows = [r for r in table.all("tr") if r.first("td")] if table else []
    nodes = {(l["graph"], l["graph_node"], "+".join(l["how"]) or "timed", l["note"])
             for l in doc["exec"]["launches"] if l["graph_node"]}
    tap.ok(len(rows) == len(nodes), "graph page: a row per graph node, way and note",
           "%d rows for %d" % (len(rows), len(nodes)))
    notes = {l["note"] for l in doc["exec"]["launches"] if l["note"]}
    titles = {td.attrs.get("title") for r in rows for td in r.all("td")
              if td.attrs.get("title") and "kernel" not in td.attrs.get("class", "")}
    footnotes = [p.all_text() for p in root.all("p", "note") if re.match(r"\[\d+\] ", p.all_text())]
    tap.ok(titles == notes and sorted(f.split("] ", 1)[1] for f in footnotes) == sorted(notes),
           "graph page: each note a tooltip and one footnote", footnotes)
    tap.ok("<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt; &amp; &quot;q&quot;" in page,
           "graph page: the note escaped")
    rc, page, err = run("report", os.path.join(fixtures, "exec-copy.json"), "--html")
    tap.ok(rc == 0 and "graph-nodes" not in page and "graph nodes" not in page,
           "exec page without graph nodes: no graph section or column", err)


def main():
    test_merged_exec_programs()
    pages = []
    with tempfile.TemporaryDirectory() as tmp:
        files = Files(tmp)
        test_fixtures(pages)
        test_escaping(files, pages)
        test_sweeps(files, pages)
        test_merged(files, pages)
        test_compare(files, pages)
        test_compare_exec(files, pages)
        test_heatmaps(files, pages)
        test_heatmap_axes(files)
        test_long_names(files, pages)
        test_graph_nodes(files)
        test_browser(pages)
    tap.done()


if __name__ == "__main__":
    main()
