#!/usr/bin/env python3
"""Issue 46's smaller cuts, each held here: --source and --sass on a report without lines, one
file merged with itself, --launches (labels, one legend, copies in its CSV), exec --html, and
`list` and the rank view within 120 columns. Every refusal: exit 2, one line on stderr,
nothing on stdout."""
import csv
import io
import json
import os
import re
import subprocess
import tempfile

import tap
from gpuprof import BIN, as_typed, run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
EXEC = os.path.join(FIXTURES, "exec-copy.json")
REDUCE = os.path.join(FIXTURES, "reduce-default.json")
SOURCE = os.path.join(FIXTURES, "exec-source.json")
REDUCE_SOURCE = os.path.join(FIXTURES, "reduce-source.json")
RANKS = [as_typed(os.path.join(FIXTURES, "ranks", "rank%d.json" % r)) for r in (0, 1, 3)]
NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}


def refused(args, words, env=None):
    """gpuprof ARGS exits 2 with one line on stderr holding each of `words` (besides the
    reports' own warnings), nothing on stdout."""
    rc, out, err = run(*args, env=env or NO_GPU)
    lines = [l for l in err.strip().splitlines() if not l.startswith("gpuprof: warning: ")]
    return tap.ok(rc == 2 and out == "" and len(lines) == 1 and
                  lines[0].startswith("gpuprof: ") and all(w in lines[0] for w in words),
                  "%s: exit 2, one line naming %s" % (" ".join(os.path.relpath(a, ROOT)
                                                               if os.path.isabs(a) else a
                                                               for a in args), words),
                  "rc=%d stderr=%r stdout=%r" % (rc, err, out[:200]))


def test_source_without_lines():
    """--source and --sass, in any format, on a report recorded without --source: a usage
    error naming the file and how to get lines, not a header alone and exit 0."""
    for report, command in ((EXEC, "gpuprof exec --source"), (REDUCE, "gpuprof reduce --source")):
        for option in (["--source"], ["--source", "--csv"], ["--source", "--json"],
                       ["--source", "--html"], ["--sass"]):
            refused(["report", report] + option, [option[0], report, "no per-line view",
                                                  command])
    refused(["report", EXEC, os.path.join(FIXTURES, "exec-graph.json"), "--source", "--csv"],
            ["--source", "none of", EXEC, "1 other report", "per-line view"])
    refused(["report"] + RANKS + ["--source"], ["--source does not apply to ranks' reports"])
    for report in (SOURCE, REDUCE_SOURCE):
        rc, out, err = run("report", report, "--source", "--csv")
        tap.ok(rc == 0 and len(out.splitlines()) > 1,
               "report %s --source --csv: a report with lines writes them" %
               os.path.basename(report), err)
    rc, out, err = run("report", SOURCE, EXEC, "--source", "--csv")
    tap.ok(rc == 0 and len(out.splitlines()) > 1,
           "a merge of which one report has lines writes them", err)


def test_one_file_twice():
    """One file named twice, by the same path, another spelling of it, a symbolic link or
    standard input: a usage error naming both, not every kernel counted twice."""
    with tempfile.TemporaryDirectory() as tmp:
        link = os.path.join(tmp, "link.json")
        os.symlink(EXEC, link)
        spelled = os.path.join(FIXTURES, "..", "fixtures", "exec-copy.json")
        refused(["report", EXEC, EXEC], [EXEC, "is named twice", "name each report once"])
        for again in (spelled, link, os.path.relpath(EXEC)):
            refused(["report", EXEC, again], [again, "is the same file as", EXEC,
                                             "name each report once"])
        refused(["report", REDUCE, EXEC, os.path.relpath(REDUCE), "--csv"],
                [REDUCE, "same file"])
        refused(["report", RANKS[0], RANKS[1], link, EXEC], [EXEC, "same file as", link])
        with open(EXEC) as stdin:
            p = subprocess.run([BIN, "report", "-", EXEC], stdin=stdin, capture_output=True,
                               text=True)
        tap.ok(p.returncode == 2 and "same file as -" in p.stderr and not p.stdout,
               "standard input and the file it reads: the same file", p.stderr)
    rc, out, err = run("report", EXEC, os.path.join(FIXTURES, "exec-graph.json"))
    tap.ok(rc == 0 and "report of 2 files" in out, "two files: merged as before", err)


def test_exec_html():
    """exec --html is refused as before (exit 2), now naming the way to the page: JSON saved
    with --json --output, then report --html; exec --help says it too."""
    refused(["exec", "--html", "true"], ["'--html' does not apply to 'exec'",
                                         "--json --output=r.json",
                                         "gpuprof report r.json --html"])
    rc, out, err = run("exec", "--help")
    tap.ok(rc == 0 and "No --html: for the page, save the report as JSON (--json "
           "--output=r.json), then run 'gpuprof report r.json --html'." in out,
           "exec --help: the way to HTML", out[-400:])
    refused(["list", "--html"], ["'--html' does not apply to 'list'", "gpuprof list --help"])


def columns(line):
    """The columns a line takes on a terminal (one per character: the text is UTF-8)."""
    return len(line)


def test_list_within_120():
    """`gpuprof list`: no line over 120 columns, and each variant's row whole on one line with
    every fact CSV has (its default block, its blocks, its summary); a library call's blocks
    "-", the line under its family's table saying why."""
    rc, text, err = run("list")
    rc_csv, table, err_csv = run("list", "--csv")
    lines = text.splitlines()
    tap.ok(rc == 0 and lines and all(columns(l) <= 120 for l in lines),
           "list: every line within 120 columns",
           "\n".join(l for l in lines if columns(l) > 120) or err)
    rows = list(csv.DictReader(io.StringIO(table))) if rc_csv == 0 else []
    tap.ok(len(rows) >= 20, "list --csv: the variants", err_csv)
    families = {}
    for line in lines:
        if line and not line.startswith(" "):
            family = line.split(":")[0]
        elif line.startswith("  ") and line.strip():
            families.setdefault(family, []).append(line)
    wrong = []
    for row in rows:
        own = families.get(row["family"], [])
        mine = [l for l in own if l.split()[0] == row["variant"]]
        blocks = row["blocks"].replace("XxY, ", "")
        library = blocks.startswith("- (")
        want = [row["default_block"], "-" if library else blocks, row["summary"]]
        if len(mine) != 1 or not all(w in mine[0] for w in want):
            wrong.append((row["family"], row["variant"], mine))
        if library and ("  default, blocks -: " + blocks[3:-1]) not in text:
            wrong.append((row["variant"], "no line says what its '-' means"))
    tap.ok(rows and not wrong, "list: each variant's default, blocks and summary on its one row",
           wrong[:5])


def estimated_ranks(folder):
    """The rank fixtures with, in each kernel of three or more launches (the collective
    aside), one launch untimed and one not profiled: every time and DRAM spread an estimate
    ("~296.93us"), each cell a column wider. Their paths."""
    paths = []
    for source in RANKS:
        with open(source) as f:
            doc = json.load(f)
        by_kernel = {}
        for launch in doc["exec"]["launches"]:
            by_kernel.setdefault(launch["kernel"], []).append(launch)
        for kernel, launches in by_kernel.items():
            if len(launches) >= 3 and not kernel.startswith("nccl"):
                launches[1]["duration_ms"] = None
                launches[2].update(profiled=False, metrics=None, passes=[], how=[])
        paths.append(os.path.join(folder, os.path.basename(source)))
        with open(paths[-1], "w") as f:
            json.dump(doc, f)
    return paths


def one_table(text, what):
    """The rank view's table whole within 120 columns: one heading line holding every column
    through the kernel's, no line wider, no column split off into a second table."""
    lines = text.splitlines()
    headings = [l for l in lines if l.startswith("ranks ") or l.lstrip().startswith("DRAM")
                or l.lstrip().startswith("max ")]
    wide = [l for l in lines if columns(l) > 120]
    tap.ok(len(headings) == 1 and headings[0].split()[-1] == "kernel" and
           "slowest" in headings[0] and headings[0].count("max") >= 3 and not wide,
           "rank view, %s: one table, every column within 120 columns" % what,
           "\n".join(headings + wide) or text[:2000])


def test_rank_view_within_120():
    """The rank view's table within 120 columns with no column split off: the fixtures', and
    with every spread an estimate (each value "~" wider)."""
    rc, out, err = run("report", *RANKS)
    tap.ok(rc == 0, "report of the ranks' files", err)
    one_table(out, "the fixtures")
    with tempfile.TemporaryDirectory() as tmp:
        rc, out, err = run("report", *estimated_ranks(tmp))
    tap.ok(rc == 0 and "~" in out, "the ranks' files with launches untimed and unprofiled: "
           "estimates", err)
    one_table(out, "every spread estimated")
    rows = [l for l in out.splitlines() if l.lstrip().startswith("3/3 ")]
    tap.ok(len(rows) >= 20 and all(len(l.split(" #")[0].split()) == 9 for l in rows),
           "... each kernel's row: ranks, three times, max/med, slowest, three DRAM bytes, "
           "then its name", rows[:3])


ROW = re.compile(r"^\s*\d+\s+\d+\s")     # a --launches row: pid and id first


def launch_rows(text):
    """The rows of --launches' tables (every part of a wrapped one)."""
    return [l for l in text.splitlines() if ROW.match(l)]


def summary_labels(report):
    """#N -> the kernel's label as the summary gives it, whole (--wide)."""
    rc, out, _ = run("report", report, "--wide")
    labels = {}
    for line in out.splitlines():
        m = re.search(r"  #(\d+) (?:\[[\d,]+\] )?(.*)$", line)
        if m and m.group(1) not in labels and not line.startswith("Kernel"):
            labels[m.group(1)] = m.group(2)
    return labels


def test_launches_labels():
    """--launches in text: every row, in every part of a table wider than the page, ends in
    its kernel's #N and label (a copy's: its kind); in CSV a label column of the summary's."""
    for name in ("exec-graph.json", "exec-torch.json", "exec-rotate.json"):
        report = os.path.join(FIXTURES, name)
        rc, out, err = run("report", report, "--launches")
        rows = launch_rows(out)
        parts = sum(1 for l in out.splitlines() if re.match(r"^\s*pid\s+id\s", l))
        unnamed = [l for l in rows if not re.search(r"  (#\d+ |\[CUDA )", l)]
        tap.ok(rc == 0 and parts >= 2 and rows and not unnamed,
               "%s --launches: %d parts, every row of each names its kernel" % (name, parts),
               unnamed[:3] or out[:1500])
    report = os.path.join(FIXTURES, "exec-variants.json")
    labels = summary_labels(report)
    rc, out, err = run("report", report, "--launches", "--csv")
    rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
    wrong = [(r["kernel_id"], r.get("label")) for r in rows
             if r["kind"] == "kernel" and labels.get(r["kernel_id"]) != r.get("label")]
    tap.ok(len(labels) == 4 and rows and not wrong,
           "--launches --csv: each launch's label is its kernel's, as the summary gives it",
           (wrong[:3], labels))


def legend_of(text):
    """The text's legends: each paragraph that starts "legend:", its lines joined."""
    found, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("legend:"):
            words = [line]
            for more in lines[i + 1:]:
                if not more.startswith("  "):
                    break
                words.append(more.strip())
            found.append(" ".join(words))
    return found


def headings(text):
    """Every column heading of --launches' tables (each part's heading line)."""
    found = []
    for line in text.splitlines():
        if re.match(r"^\s*pid\s+id\s", line):
            found += [h for h in line.split() if h not in found]
    return found


def test_launches_legend():
    """--launches: one legend under the table, naming each column it prints (each heading
    explained, the metrics' abbreviations with their keys) and none it does not (the summary's
    %kernels, passes); no columns: line apart. Rotated reports name p0, p1 and all."""
    for name in ("exec-copy.json", "exec-graph.json", "exec-rotate.json", "exec-auto.json",
                 "exec-activities.json", "exec-torch.json"):
        rc, out, err = run("report", os.path.join(FIXTURES, name), "--launches")
        legends = legend_of(out)
        legend = legends[0] if legends else ""
        names = headings(out)
        unexplained = [h for h in names
                       if not re.search(r"(^|[;,] |legend: )%s(:| =|, )" % re.escape(h),
                                        legend)]
        tap.ok(rc == 0 and len(legends) == 1 and names and not unexplained and
               "columns:" not in out and "%kernels" not in legend and "passes:" not in out,
               "%s --launches: one legend, of exactly its columns" % name,
               (unexplained, legends, names))
        rotated = "--replay=" in out.splitlines()[1] and re.search(r"\sp[01]\s", out)
        if rotated:
            tap.ok(re.search(r"p0, p1, \.\.\.", legend) and "all: every group" in legend,
                   "%s --launches: the legend says what p0, p1 and all are" % name, legend)
    rc, out, err = run("report", os.path.join(FIXTURES, "exec-graph.json"), "--launches",
                       "--wide")
    legend = " ".join(legend_of(out))
    tap.ok(rc == 0 and "gld_transactions_per_request" in out and "gld/req" not in out,
           "--launches --wide: the metrics headed by their keys, no abbreviation to explain",
           legend)
    with open(os.path.join(ROOT, "man", "gpuprof.1")) as f:
        man = f.read()
    entry = man[man.index(".B \\-\\-launches\nexec, and report"):]
    entry = entry[:entry.index(".TP")]
    tap.ok(".BR p0 ," in entry and ".BR p1 ," in entry and ".B all" in entry and
           "exec.launches[].passes" in entry,
           "the man page's --launches says what p0, p1 and all are", entry[:600])
    rc, out, err = run("report", "--help")
    tap.ok("p0, p1, ..., all" in " ".join(out.split()),
           "report --help: --launches names p0, p1 and all", out)


def test_launches_csv_activities():
    """--launches --csv: a row per copy and memset as well as per launch, in the order the
    program issued them, as the text lists them, their kind in kind; what the text's row says
    of a copy (its bytes and host memory) in columns of their own, the header's last."""
    report = os.path.join(FIXTURES, "exec-activities.json")
    with open(report) as f:
        doc = json.load(f)
    activities = doc["exec"]["activities"]
    launches = doc["exec"]["launches"]
    rc, out, err = run("report", report, "--launches", "--csv")
    rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
    header = out.splitlines()[0].split(",") if out else []
    tap.ok(header[-3:] == ["label", "bytes", "host_memory"],
           "--launches --csv: label, bytes and host_memory last, no earlier column moved",
           header[-6:])
    ids = sorted([(a["pid"], a["id"]) for a in activities] +
                 [(l["pid"], l["id"]) for l in launches])
    tap.ok(len(rows) == len(activities) + len(launches) and
           [(int(r["pid"]), int(r["id"])) for r in rows] == ids,
           "--launches --csv: every launch, copy and memset, in issue order (%d rows)"
           % len(rows), [(r["kind"], r["id"]) for r in rows])
    by_id = {a["id"]: a for a in activities}
    wrong = []
    for r in rows:
        a = by_id.get(int(r["id"]))
        if "label" not in r:
            ok = False
        elif r["kind"] == "kernel":
            ok = r["kernel"] and r["label"] and r["bytes"] == "" and r["host_memory"] == ""
        else:
            ms = (a["end_ns"] - a["start_ns"]) * 1e-6
            ok = (a and r["kind"] == a["kind"] and int(r["bytes"]) == a["bytes"] and
                  r["kernel"] == "" and r["grid"] == "" and r["device"] == str(a["device"]) and
                  r["stream"] == str(a["stream"]) and r["label"].startswith("[CUDA ") and
                  abs(float(r["duration_ms"]) - ms) < 1e-9)
        if not ok:
            wrong.append(r)
    tap.ok(rows and not wrong, "--launches --csv: each copy's kind, bytes, time and place",
           wrong[:2])
    _, text, _ = run("report", report, "--launches")
    hosts = [r["host_memory"] for r in rows if r.get("host_memory")]
    text_ids = [int(l.split()[1]) for l in launch_rows(text)]
    tap.ok(hosts and all(h in ("pageable", "pinned", "managed") for h in hosts) and
           text_ids == [int(r["id"]) for r in rows],
           "--launches: the text lists the rows the CSV has, in the same order; the copies' "
           "host memory", (hosts, text_ids))


def main():
    test_source_without_lines()
    test_one_file_twice()
    test_exec_html()
    test_list_within_120()
    test_rank_view_within_120()
    test_launches_labels()
    test_launches_legend()
    test_launches_csv_activities()
    tap.done()


if __name__ == "__main__":
    main()
