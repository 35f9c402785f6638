#!/usr/bin/env python3
"""Kernel identity (issue 37): every exec view numbers kernels #1..#N in the summary's order
and names them so that no two share a label, in every text view (120 columns, --wide,
--launches, each --kernel-name style), also once the "#N" is taken off; long names are cut
in the middle, keeping their start and end, never to nothing. A synthetic report from a
fixture holds PyTorch-like names that differ deep in their template arguments, two cuBLAS
names that differ in their tail, and a name with no break point wider than the column.

Labels that name the kernel (issue 46): over every exec report of tests/fixtures (exec-*.json,
the ranks of ranks/) and the golden inputs, in every view that labels kernels (the text's
summary, metric blocks, GPU activities, --launches, --source; Markdown; the HTML page's
charts and kernel table; compare; the rank view), each label holds the function's qualified
name (where a 120-column table has no room for it, its own name, or for a name wider than
the column, a cut of it), and no two kernels of one report share a label."""
import copy
import glob
import html
import json
import os
import re
import tempfile

import tap
from gpuprof import run
from kernel_names import own_name, qualified_name

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
INPUTS = os.path.join(ROOT, "tests", "golden", "inputs")
NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}

MTA = ("void at::native::<unnamed>::multi_tensor_apply_kernel<at::native::<unnamed>::"
       "TensorListMetadata<%d>, at::native::<unnamed>::%s<float, %d, 1, 1>, %s, float>"
       "(at::native::<unnamed>::TensorListMetadata<%d>, at::native::<unnamed>::%s<float, %d, "
       "1, 1>, %s, float)")
PYTORCH = [MTA % (lists, op, depth, fn, lists, op, depth, fn) for lists, op, depth, fn in [
    (2, "BinaryOpListAlphaFunctor", 2, "std::plus<float>"),
    (2, "BinaryOpListAlphaFunctor", 2, "std::minus<float>"),
    (3, "BinaryOpListAlphaFunctor", 2, "std::plus<float>"),
    (2, "BinaryOpScalarFunctor", 2, "std::multiplies<float>"),
    (2, "BinaryOpScalarFunctor", 2, "std::divides<float>"),
    (1, "UnaryOpFunctor", 1, "at::native::<unnamed>::Sqrt<float>"),
    (1, "UnaryOpFunctor", 1, "at::native::<unnamed>::Exp<float>"),
]]
CUBLAS = ["sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_"
          "aligna4_alignc4_execute_kernel__5x_cublas",
          "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_"
          "aligna4_alignc4_execute_kernel__5x_cublas_splitk"]
UNBROKEN = "k" * 150
NAMES = PYTORCH + CUBLAS + [UNBROKEN]

VIEWS = [[], ["--wide"], ["--launches"], ["--launches", "--wide"]] + [
    ["--kernel-name=%s" % s] + extra for s in ("base", "function", "full")
    for extra in ([], ["--launches"], ["--wide"])]

TAGGED = re.compile(r"(?:^Kernel #(\d+): |  #(\d+) )(.*)$")


def synthetic(tmp):
    """exec-auto.json with each launch copied under every name, the times spread."""
    with open(os.path.join(FIXTURES, "exec-auto.json")) as f:
        doc = json.load(f)
    first = doc["exec"]["launches"][0]
    launches = []
    for i, name in enumerate(NAMES):
        for j in range(2):
            l = copy.deepcopy(first)
            l["kernel"], l["mangled"] = name, None
            l["id"] = 100 + 2 * i + j
            l["duration_ms"] = 0.01 * (i + 1)
            launches.append(l)
    doc["exec"]["launches"] = launches
    doc["exec"]["kernels"] = []
    path = os.path.join(tmp, "names.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def blocks(out):
    """The output's paragraphs and tables: runs of lines between blank lines."""
    return [b.splitlines() for b in out.split("\n\n")]


def check_block(name, lines):
    """In one table: each number one label, each label one number, none empty; the rest after
    the number differs too."""
    by_number, by_label = {}, {}
    for line in lines:
        m = TAGGED.search(line)
        if not m:
            continue
        number, label = m.group(1) or m.group(2), m.group(3).strip()
        if not label.strip("…") or label.startswith("Kernel:"):
            return "%s: an empty label: %r" % (name, line)
        if by_number.setdefault(number, label) != label:
            return "%s: #%s shown as %r and %r" % (name, number, by_number[number], label)
        if by_label.setdefault(label, number) != number:
            return "%s: #%s and #%s both %r" % (name, by_label[label], number, label)
    return None


def test_every_view(reports):
    for path in reports:
        for view in VIEWS:
            name = "%s %s" % (os.path.basename(path), " ".join(view))
            rc, out, err = run("report", path, *view, env=NO_GPU)
            tagged = [l for l in out.splitlines() if TAGGED.search(l)]
            problems = [p for p in (check_block(name, b) for b in blocks(out)) if p]
            tap.ok(rc == 0 and tagged and not problems,
                   "%s: %d kernel rows, no two alike, none empty" % (name, len(tagged)),
                   problems[0] if problems else err)


def test_numbers_agree(path):
    """The summary's #N is the metric block's and the activities' for the same kernel."""
    rc, out, _ = run("report", path, "--wide", env=NO_GPU)
    summary = {}
    for line in out.splitlines():
        m = TAGGED.search(line)
        if m and m.group(2):
            summary.setdefault(m.group(3).strip(), m.group(2))
        elif m:
            tap.ok(summary.get(m.group(3).strip()) == m.group(1),
                   "Kernel #%s's block names the summary's #%s" % (m.group(1), m.group(1)))
    numbers = [int(n) for n in summary.values()]
    tap.ok(rc == 0 and numbers == list(range(1, len(numbers) + 1)),
           "%s: kernels numbered #1..#%d, most time first" % (os.path.basename(path),
                                                               len(numbers)), out)


def test_cuts(path):
    rc, out, _ = run("report", path, env=NO_GPU)
    rows = [TAGGED.search(l).group(3) for l in out.splitlines() if TAGGED.search(l)]
    cublas = [r for r in rows if r.startswith("sm80_xmma_gemm_")]
    tap.ok(cublas and all("tilesize128x128x8" in r and "…" in r for r in cublas),
           "cuBLAS names keep their start and tile shape, cut in the middle", "\n".join(rows))
    torch = [r for r in rows if "multi_tensor_apply_kernel" in r]
    tap.ok(len(torch) >= 14 and all(r.startswith(("at::native::multi", "\u2026")) for r in torch),
           "PyTorch names keep the function's own name", "\n".join(torch))
    unbroken = [r for r in rows if r.startswith("kkkk")]
    tap.ok(unbroken and all(len(r) >= 16 and r.endswith("k") and "…" in r for r in unbroken),
           "a name with no break point is cut in its middle, not to nothing", "\n".join(rows))
    rc, out, _ = run("report", path, "--kernel-name=base", env=NO_GPU)
    base = [TAGGED.search(l).group(3) for l in out.splitlines() if TAGGED.search(l)]
    tap.ok("multi_tensor_apply_kernel" not in base,
           "--kernel-name=base: kernels of one base name shown fuller, not alike",
           "\n".join(base))


def test_merged():
    """A merged report's rows say their file, by the header's index (issue 37)."""
    copy_, synthetic_ = (os.path.join(FIXTURES, "exec-copy.json"),
                         os.path.join(INPUTS, "exec-synthetic.json"))
    for view in ([], ["--launches"]):
        rc, out, _ = run("report", copy_, synthetic_, *view, env=NO_GPU)
        rows = [TAGGED.search(l).group(3) for l in out.splitlines() if TAGGED.search(l)]
        tap.ok(rc == 0 and "  [1] %s" % copy_ in out and "  [2] %s" % synthetic_ in out and
               rows and all(re.match(r"\[[12]\] ", r) for r in rows) and
               all(r.startswith("[1] ") == ("copyCoalesced" in r) for r in rows),
               "merged exec %s: the files listed with their index, each kernel row tagged "
               "with its file's" % " ".join(view), out)
    a, b = (os.path.join(FIXTURES, f) for f in ("reduce-default.json", "reduce-blocks.json"))
    rc, out, _ = run("report", a, b, env=NO_GPU)
    heads = [(b, [l.startswith("variant ") for l in b].index(True)) for b in blocks(out)
             if any(l.startswith("variant ") for l in b)]
    body = [l for b, at in heads for l in b[at + 1:] if not l.startswith(" ")]
    tap.ok(rc == 0 and body and all(re.search(r"^\S+( \S+=\S+)* \[[12]\] ", l) for l in body),
           "merged kernel reports: every result row tagged [1] or [2]", out)


# ---- labels that name the kernel (issue 46) ------------------------------------------------

TEXT_VIEWS = [[], ["--launches"], ["--metrics-detail"]]
WHOLE_VIEWS = [["--wide"], ["--wide", "--launches"], ["--markdown"], ["--markdown", "--launches"]]
# "#3 label" in a table, "Kernel #3: label" above a block, "#3 label (process 1, ...)" above
# a per-line view, "#3 grid=1x1x1 block=32x1x1 label" in compare; a merged report's "[2] "
LABELLED = re.compile(r"(?:^Kernel #|(?:^|  |\| )(?:new)?#)(\d+):? (?:\[[\d,]+\] )?"
                      r"(?:grid=\S+ block=\S+ )?(.*?)(?: \(process \d+,.*)?(?: \|)?$")


def printable(name):
    return re.sub(r"[\x00-\x1f\x7f]", "?", name)


def kernels_of(paths):
    """Each kernel's full name by its #N in the report of `paths`, from its JSON."""
    rc, out, _ = run("report", *paths, "--json", env=NO_GPU)
    doc = json.loads(out) if rc == 0 else {}
    kernels = (doc.get("ranks") or {}).get("kernels") or (doc.get("exec") or {}).get("kernels")
    return {k["number"]: printable(k["kernel"]) for k in kernels or []}


def unmarked(line):
    """A Markdown table row's text as the text view would print it."""
    return re.sub(r"\\([\\`*_{}\[\]<>()#+\-.!|])", r"\1", line)


def labels_in(out, whole):
    """(number, label, room) of each labelled line of a text or Markdown view, by table."""
    for block in out.split("\n\n"):
        found = []
        for line in block.splitlines():
            line = unmarked(line) if line.startswith("|") else line
            m = LABELLED.search(line)
            if m and m.group(2).strip() and not m.group(2).startswith(("[CUDA", "Kernel:")):
                room = len(line) - m.start(2) if whole else 120 - m.start(2)
                found.append((int(m.group(1)), m.group(2).rstrip(), room))
        yield found


def names_the_kernel(full, label, room, whole):
    """The label holds the qualified name; where it was cut to fit 120 columns, the own name,
    or where the column has no room for the own name and 16 columns of what tells it apart (and
    an ellipsis and a "<"), something of it."""
    name = printable(qualified_name(full))
    if name in label or not label:
        return bool(label)
    own = printable(own_name(full))
    return not whole and (own in label or "\u2026" in label and len(own) + 18 > room)


def check_labels(what, kernels, out, whole):
    """Every label of every table of `out` names its kernel; no two kernels share one."""
    problems, count = [], 0
    # a table wider than the page repeats each label in its parts, as fitted to the narrowest
    least = {}
    for found in labels_in(out, whole):
        for number, label, room in found:
            least[number, label] = min(room, least.get((number, label), room))
    for found in labels_in(out, whole):
        by_label = {}
        for number, label, room in ((n, l, least[n, l]) for n, l, _ in found):
            count += 1
            full = kernels.get(number)
            if full is None:
                problems.append("#%d is no kernel of the report" % number)
            elif not names_the_kernel(full, label, room, whole):
                problems.append("#%d %r does not name %r" % (number, label, qualified_name(full)))
            if by_label.setdefault(label, number) != number:
                problems.append("#%d and #%d both %r" % (by_label[label], number, label))
    tap.ok(count and not problems, "%s: %d labels name their kernels, none shared"
           % (what, count), "\n".join(problems[:5]))


def html_labels(page):
    """(number, label) of the page's chart labels and kernel table cells."""
    for m in re.finditer(r'<text class="label"[^>]*><title>[^<]*</title>(.*?)</text>', page):
        text = html.unescape(re.sub(r"<[^>]*>", "", m.group(1)))
        if re.match(r"#\d+ ", text):
            yield int(text.split()[0][1:]), text.split(" ", 1)[1], text.count("\u2026") > 0
    for m in re.finditer(r'<td class="kernel" title="[^"]*"><b>#(\d+) ([^<]*)</b>', page):
        yield int(m.group(1)), html.unescape(m.group(2)), False


def check_page(what, kernels, page):
    """The page's labels name their kernels (a chart's label of two lines at most may be cut
    in its second line: its start then); no two kernels share a table cell's label."""
    problems, cells = [], {}
    for number, label, cut in html_labels(page):
        name = qualified_name(kernels.get(number, ""))
        start = label.split("\u2026")[0].split(" [variant")[0]
        if name not in label and not (cut and name.startswith(start)):
            problems.append("#%d %r does not name %r" % (number, label, name))
        if not cut and cells.setdefault(label, number) != number:
            problems.append("#%d and #%d both %r" % (cells[label], number, label))
    tap.ok(cells and not problems, "%s --html: %d labels name their kernels, none shared"
           % (what, len(cells)), "\n".join(problems[:5]))


def test_names_the_kernel(reports, rank_sets):
    for paths in [[p] for p in reports] + rank_sets:
        what = " ".join(os.path.basename(p) for p in paths)
        kernels = kernels_of(paths)
        views = TEXT_VIEWS + WHOLE_VIEWS
        if len(paths) > 1:
            views = [[], ["--wide"], ["--markdown"], ["--by-rank"], ["--by-rank", "--wide"]]
        elif source_views(paths[0]):
            views = views + [["--source"], ["--source", "--sass", "--wide"]]
        for view in views:
            rc, out, err = run("report", *paths, *view, env=NO_GPU)
            whole = "--wide" in view or "--markdown" in view
            if rc == 0:
                check_labels("%s %s" % (what, " ".join(view)), kernels, out, whole)
            else:
                tap.ok(False, "%s %s" % (what, " ".join(view)), err)
        rc, page, err = run("report", *paths, "--html", env=NO_GPU)
        check_page(what, kernels, page) if rc == 0 else tap.ok(False, what + " --html", err)
        if len(paths) > 1:
            continue
        for view in ([], ["--wide"]):
            rc, out, err = run("compare", paths[0], paths[0], *view, env=NO_GPU)
            check_labels("compare %s %s" % (what, " ".join(view)), kernels, out, bool(view))
        rc, page, err = run("compare", paths[0], paths[0], "--html", env=NO_GPU)
        tap.ok(rc == 0 and all(qualified_name(kernels.get(n, "")) in label or cut
                               for n, label, cut in html_labels(page)),
               "compare %s --html: its chart's labels name their kernels" % what, err)


def source_views(path):
    with open(path) as f:
        return bool(json.load(f)["exec"].get("source_views"))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        names = synthetic(tmp)
        reports = sorted(glob.glob(os.path.join(FIXTURES, "exec-*.json")) +
                         glob.glob(os.path.join(INPUTS, "exec-*.json"))) + [names]
        test_every_view(reports)
        fixture_reports = [r for r in reports if r != names]
        ranks = sorted(glob.glob(os.path.join(FIXTURES, "ranks", "rank*.json")))
        test_names_the_kernel(fixture_reports + [names], [ranks, ranks[:2]])
        test_numbers_agree(names)
        test_numbers_agree(os.path.join(FIXTURES, "exec-graph.json"))
        test_cuts(names)
        test_merged()
    tap.done()


if __name__ == "__main__":
    main()
