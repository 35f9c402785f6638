#!/usr/bin/env python3
"""exec --stalls (issue 47): why warps wait, from the sampled instructions of the recording
tests/fixtures/exec-stalls.json (a copy bound by long_scoreboard, a tiled transpose by barrier
and shared memory, a kernel of too few samples, instructions without a line).

- The summaries agree with the same sums worked out here from exec.stalls.pcs: a row per
  kernel code with its samples, share and groups' shares (reasons grouped memory first, as
  the man page lists them), its lines worst first, those under 1 % summed in one row.
- Text has the Warp stalls section within 120 columns, the kernels as the kernel table numbers
  them, a kernel of fewer than 100 samples without shares and said so, the groups' legend
  once; --sass each line's instructions, --wide three reasons by ncu's names.
- CSV with --stalls: a row per kernel and line (every line), a column per reason whose counts
  add up to the row's samples.
- JSON: schema-valid, read back and written the same; a merged report keeps both inputs'
  instructions with their source, reasons mapped by name.
- HTML: well-formed, a bar per kernel and per line shown, within the page; Markdown tables.
- The usage errors of --stalls and --stall-period: one line, exit 2.
- The man page's WARP STALLS section gives each group's sentence as the legend does."""
import csv
import io
import json
import os
import re
import tempfile

import tap
import test_html
import test_markdown
from gpuprof import run, run_json
from schema import validate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "exec-stalls.json")
NO_STALLS = os.path.join(ROOT, "tests", "fixtures", "exec-copy.json")
GROUPS = [
    ("memory_latency", {"long_scoreboard"}),
    ("memory_throughput", {"lg_throttle", "tex_throttle", "drain"}),
    ("shared_memory", {"short_scoreboard", "mio_throttle"}),
    ("synchronisation", {"barrier", "membar", "sleeping"}),
    ("instruction_issue", {"wait", "not_selected", "selected", "math_pipe_throttle",
                           "dispatch_stall", "no_instructions", "imc_miss",
                           "branch_resolving", "gmma"}),
    ("other", None),
]
FEW = 100


def group_of(reason):
    for key, reasons in GROUPS:
        if reasons is None or reason in reasons:
            return key


def expected(doc):
    """{(kernel, code): {"samples", "groups", "lines": {(file, line): {reason: n}}}}."""
    kernels = {}
    for p in doc["exec"]["stalls"]["pcs"]:
        k = kernels.setdefault((p["kernel"], p.get("code", "")), {"lines": {}})
        line = k["lines"].setdefault((p.get("file", ""), p.get("line", "")), {})
        for reason, n in p["samples"].items():
            line[reason] = line.get(reason, 0) + n
    for k in kernels.values():
        k["samples"] = sum(sum(l.values()) for l in k["lines"].values())
        k["groups"] = {}
        for l in k["lines"].values():
            for reason, n in l.items():
                k["groups"][group_of(reason)] = k["groups"].get(group_of(reason), 0) + n
    return kernels


def check_json(doc):
    valid, errors = validate(doc, "gpuprof-report-v1.schema.json")
    stalls = doc["exec"].get("stalls")
    tap.ok(valid and stalls, "json: exec.stalls present and schema-valid", errors)
    reasons = set(stalls["reasons"])
    tap.ok(all(set(p["samples"]) <= reasons and all(p["samples"].values())
               for p in stalls["pcs"]),
           "json: each instruction's samples sparse, by the reasons' names")
    tap.ok(any("file" not in p for p in stalls["pcs"]) and
           all(("file" in p) == ("line" in p) for p in stalls["pcs"]),
           "json: an instruction without line information has neither file nor line")


def kernel_rows(lines):
    """The Warp stalls section's kernel rows: {label: [cells]} and the line it starts at."""
    start = next(i for i, l in enumerate(lines) if l.startswith("Warp stalls:"))
    head = next(i for i in range(start, len(lines)) if lines[i].startswith("%samples"))
    rows = {}
    for l in lines[head + 1:]:
        m = re.match(r"\s*([\d.]+%)\s+(\d+)\s+(.*?)\s+(#\d+ \S+)$", l)
        if not m:
            break
        rows[m.group(4)] = (m.group(1), int(m.group(2)), m.group(3).split())
    return rows, head


def check_text(doc, want):
    rc, out, err = run("report", FIXTURE)
    lines = out.split("\n")
    tap.ok(rc == 0 and max(len(l) for l in lines) <= 120 and "Warp stalls:" in out,
           "text: exit 0, a Warp stalls section within 120 columns", err)
    rows, head = kernel_rows(lines)
    first = next(i for i, l in enumerate(lines) if l.startswith("%kernels"))
    table = {}
    for l in lines[first + 1:]:
        m = re.search(r"(#\d+) (\S+)$", l)
        if not m:
            break
        table[m.group(2)] = m.group(1)
    total = sum(k["samples"] for k in want.values())
    ok_rows = len(rows) == len(want)
    for (mangled, _), k in want.items():
        name = {"_Z4copyPfPKfm": "copy", "_Z14transposeTiledPfPKfi": "transposeTiled",
                "_Z4initPfmf": "init"}[mangled]
        label = "%s %s" % (table.get(name, "?"), name)
        row = rows.get(label)
        if not row or row[1] != k["samples"] or row[0] != "%.1f%%" % (100.0 * k["samples"] / total):
            ok_rows = False
            continue
        if k["samples"] < FEW:
            ok_rows = ok_rows and row[2][:6] == ["-"] * 6
        else:
            shares = ["%.1f%%" % (100.0 * k["groups"].get(g, 0) / k["samples"]) for g, _ in GROUPS]
            ok_rows = ok_rows and row[2][:6] == shares
    tap.ok(ok_rows, "text: a row per kernel code, labelled as the kernel table, its samples, "
                    "share and groups' shares as summed here", rows)
    tap.ok(re.search(r"^-: too few samples for shares \(fewer than 100\): #\d+ init", out, re.M),
           "text: a kernel of too few samples said so")
    tap.ok(out.count("legend: %samples") == 1 and out.count("mem lat = memory latency") == 1,
           "text: the groups' legend once")
    check_text_lines(out, want)


def check_text_lines(out, want):
    """Each kernel's table: its lines of 1 % or more worst first, the rest in one row."""
    ok = True
    for (mangled, _), k in want.items():
        if k["samples"] < FEW:
            continue
        name = {"_Z4copyPfPKfm": "copy", "_Z14transposeTiledPfPKfi": "transposeTiled"}[mangled]
        block = re.search(r"^#\d+ %s: %d samples.*?\n\n|^#\d+ %s: %d samples.*\Z"
                          % (name, k["samples"], name, k["samples"]), out, re.M | re.S)
        if not block:
            ok = False
            continue
        rows = [l for l in block.group(0).split("\n")[2:] if l.strip()]
        counts = sorted((sum(l.values()) for l in k["lines"].values()), reverse=True)
        shown = [c for c in counts if 100.0 * c / k["samples"] >= 1.0]
        got = [int(r.split()[1]) for r in rows]
        others = counts[len(shown):]
        want_rows = shown + ([sum(others)] if others else [])
        ok = ok and got == want_rows and (not others or rows[-1].endswith(
            "%d other line%s" % (len(others), "" if len(others) == 1 else "s")))
    tap.ok(ok, "text: each kernel's lines of 1 %% or more, worst first, the others summed")
    tap.ok("(no line)" in out, "text: the instructions without a line are one line")
    rc, sass, err = run("report", FIXTURE, "--sass")
    pcs = re.findall(r"^\s.*\s+\+0x[0-9a-f]{4}$", sass, re.M)
    tap.ok(rc == 0 and len(pcs) > 0 and all(len(l) <= 120 for l in sass.split("\n")),
           "text --sass: each line's instructions under it", err)
    rc, wide, err = run("report", FIXTURE, "--wide")
    tap.ok(rc == 0 and re.search(r"top reason\s+2nd\s+3rd", wide) and
           "/home/user/stalls/copy.cu:10" in wide, "text --wide: three reasons, whole paths",
           err)


def check_csv(doc, want):
    rc, out, err = run("report", FIXTURE, "--stalls", "--csv")
    reader = csv.DictReader(io.StringIO(out))
    rows = list(reader)
    reasons = doc["exec"]["stalls"]["reasons"]
    fixed = ["kernel_id", "kernel", "name", "code", "file", "line", "samples", "share"] + \
        [g for g, _ in GROUPS]
    tap.ok(rc == 0 and reader.fieldnames == fixed + reasons,
           "csv: its columns, then a column per reason by ncu's name", reader.fieldnames)
    n_lines = sum(len(k["lines"]) for k in want.values())
    tap.ok(len(rows) == n_lines, "csv: a row per kernel and line, every line (%d)" % n_lines)
    ok = True
    for r in rows:
        k = want.get((r["kernel"], r["code"]))
        line = k and k["lines"].get((r["file"], int(r["line"]) if r["line"] else ""))
        ok = ok and line is not None and int(r["samples"]) == sum(line.values()) and \
            all(int(r[x]) == line.get(x, 0) for x in reasons)
    tap.ok(ok, "csv: each row's samples and reasons as summed here")
    rc, out, err = run("report", FIXTURE, "--stalls", "--csv", "--no-header")
    tap.ok(rc == 0 and len(out.strip().split("\n")) == n_lines, "csv --no-header: rows only",
           err)


def merged_input(tmp, doc):
    """A second recording: its reasons in another order, one more that gpuprof does not know."""
    other = json.loads(json.dumps(doc))
    stalls = other["exec"]["stalls"]
    stalls["reasons"] = list(reversed(stalls["reasons"])) + ["a_later_reason"]
    stalls["pcs"][0]["samples"]["a_later_reason"] = 5
    path = os.path.join(tmp, "again.json")
    with open(path, "w") as f:
        json.dump(other, f)
    return path


def check_round_trip_and_merge(doc):
    with tempfile.TemporaryDirectory() as tmp:
        saved = os.path.join(tmp, "r.json")
        with open(saved, "w") as f:
            f.write(run("report", FIXTURE, "--json")[1])
        rc, again, err = run_json("report", saved, "--json")
        tap.ok(rc == 0 and again == doc, "json: read back, written the same", err)
        second = merged_input(tmp, doc)
        rc, merged, err = run_json("report", FIXTURE, second, "--json")
        stalls = merged and merged["exec"].get("stalls")
        n = len(doc["exec"]["stalls"]["pcs"])
        ok = rc == 0 and stalls and len(stalls["pcs"]) == 2 * n and \
            [p.get("source") for p in stalls["pcs"]] == [0] * n + [1] * n
        tap.ok(ok, "merge: both inputs' instructions, each with its source", err)
        same = ok and all(a["samples"] == b["samples"] for a, b in
                          zip(stalls["pcs"][1:n], stalls["pcs"][n + 1:]))
        tap.ok(same and stalls["pcs"][n]["samples"].get("a_later_reason") == 5 and
               stalls["samples"] == 2 * doc["exec"]["stalls"]["samples"],
               "merge: reasons mapped by name, an unknown one kept, totals added")
        valid, errors = validate(merged, "gpuprof-report-v1.schema.json") if merged else (0, "")
        tap.ok(valid, "merge: schema-valid", errors)
        rc, out, err = run("report", FIXTURE, second)
        section = out[out.find("Warp stalls:"):]
        tap.ok(rc == 0 and re.search(r"^ .*%\s+\d+ .*  #1 \[1,2\] transposeTiled$", section,
                                     re.M),
               "merge: text labels each kernel with its files", err)
        broken = os.path.join(tmp, "broken.json")
        with open(FIXTURE) as f:
            text = f.read().replace('"samples":\t{', '"samples":\t{"no_such_reason": 1, ', 1)
        with open(broken, "w") as f:
            f.write(text)
        rc, _, err = run("report", broken)
        tap.ok(rc != 0 and "no_such_reason" in err and "not one of the reasons" in err,
               "json: a sample of a reason not listed is refused, named", err)


def check_html_markdown(want):
    rc, page, err = run("report", FIXTURE, "--html")
    root = test_html.static_checks("html", rc, page, err)
    section = page[page.find("<h2>Warp stalls</h2>"):]
    shown = sum(1 for k in want.values() if k["samples"] >= FEW)
    bars = len(re.findall(r'<svg width="160"', section))
    lines = sum(1 for k in want.values() if k["samples"] >= FEW
                for l in k["lines"].values()
                if 100.0 * sum(l.values()) / k["samples"] >= 1.0)
    others = sum(1 for k in want.values() if k["samples"] >= FEW and
                 any(100.0 * sum(l.values()) / k["samples"] < 1.0 for l in k["lines"].values()))
    tap.ok(root is not None and "<h2>Warp stalls</h2>" in page and
           bars == shown + lines + others,
           "html: a stacked bar per kernel of enough samples and per line shown (%d)" % bars)
    widths = [int(w) for w in re.findall(r'<svg width="(\d+)"', section)]
    tap.ok(widths and max(widths) <= 1240 and section.count("<th") <= 13 * (1 + shown),
           "html: the bars and tables within the page's 1280 px")
    tap.ok(all(name in section for name in ("memory latency (long_scoreboard)",
                                            "synchronisation (barrier, membar, sleeping, warpgroup_arrive)")),
           "html: the groups' legend below")
    rc, md, err = run("report", FIXTURE, "--markdown", "--sass")
    found, problems = test_markdown.tables(md)
    tap.ok(rc == 0 and found and not problems,
           "markdown: every row has its header's column count", problems[:5])
    tap.ok(any(h[-1] == "kernel" and h[0] == "%samples" for h, _ in found) and
           any(h[-1] == "line" for h, _ in found), "markdown: the kernels' and lines' tables")


def check_usage():
    no_gpu = {"CUDA_VISIBLE_DEVICES": ""}
    cases = [(("report", NO_STALLS, "--stalls"), "was not recorded with --stalls"),
             (("report", FIXTURE, NO_STALLS, "--stalls", "--csv"), None),
             (("report", FIXTURE, "--stalls", "--csv", "--csv-columns=kernel"), "--csv-columns"),
             (("report", FIXTURE, "--stalls", "--csv", "--launches"), "two CSV views"),
             (("report", FIXTURE, "--stalls", "--csv", "--source"), "two CSV views"),
             (("exec", "--stall-period=10", "true"), "applies to --stalls only"),
             (("exec", "--stalls", "--stall-period=4", "true"), "from 5 to 31"),
             (("exec", "--stalls", "--stall-period=32", "true"), "from 5 to 31"),
             (("exec", "--stalls", "--stall-period=x", "true"), "--stall-period"),
             (("exec", "--stalls", "--source", "true"), "a run of its own"),
             (("exec", "--stalls", "--metrics=l2", "true"), "without counters"),
             (("exec", "--stalls", "--require-metrics", "true"), "--require-metrics"),
             (("exec", "--stalls", "--csv", "--by-range", "--nvtx", "true"), "two CSV views"),
             (("exec", "--sass", "true"), "--stalls"),
             (("exec", "--stalls", "--sass", "--json", "true"), "text and Markdown"),
             (("transpose", "--stalls", "--metrics=default"), "without counters"),
             (("transpose", "--stalls", "--html"), "no page of its own"),
             (("reduce", "--stalls", "--require-metrics"), "--require-metrics"),
             (("saxpy", "--stall-period=12"), "applies to --stalls only")]
    for args, words in cases:
        rc, out, err = run(*args, env=no_gpu)
        if words is None:   # the merge: one input recorded with --stalls is enough
            tap.ok(rc == 0 and out, "report --stalls of a merge with one sampled input", err)
            continue
        tap.ok(rc == 2 and not out and words in err and err.count("\n") == 1,
               "usage error: %s" % " ".join(os.path.basename(a) for a in args), err)
    for period in ("5", "31"):
        rc, _, err = run("exec", "--stalls", "--stall-period=" + period, "true", env=no_gpu)
        tap.ok(rc != 2 and "stall-period" not in err,
               "--stall-period=%s is within its bounds (no usage error)" % period, err)
    # A kernel command's --stalls runs it again under exec: without a GPU, exec's own error.
    rc, out, err = run("reduce", "--stalls", "--stall-period=12", env=no_gpu)
    tap.ok(rc != 2 and not out and "stall" not in err,
           "reduce --stalls --stall-period=12: no usage error, the device's error", err)


def man_text():
    with open(os.path.join(ROOT, "man", "gpuprof.1")) as f:
        text = f.read()
    text = re.sub(r"\\f[BIRP]", "", text).replace("\\-", "-")
    text = re.sub(r"^\.(?:B|BR|RB) ", "", text, flags=re.M)
    return " ".join(text.split())


def check_docs():
    _, out, _ = run("report", FIXTURE, "--wide")
    legend = re.findall(r"^  \S.* = ([a-z ]+) \(([^)]*)\): (.*)$", out, re.M)
    man = man_text()
    section = man[man.find(".SH WARP STALLS"):man.find(".SH EXIT STATUS")]
    missing = [name for name, reasons, fix in legend
               if name not in section or ("(%s): %s." % (reasons, fix)) not in section]
    tap.ok(len(legend) == len(GROUPS) and not missing,
           "man page: WARP STALLS gives each group, its reasons and its sentence as the legend",
           missing or len(legend))


def main():
    rc, doc, err = run_json("report", FIXTURE, "--json")
    if not tap.ok(rc == 0 and doc, "report --json of the fixture", err):
        return tap.done()
    want = expected(doc)
    check_json(doc)
    check_text(doc, want)
    check_csv(doc, want)
    check_round_trip_and_merge(doc)
    check_html_markdown(want)
    check_usage()
    check_docs()
    return tap.done()


if __name__ == "__main__":
    main()
