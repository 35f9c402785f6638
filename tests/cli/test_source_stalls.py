#!/usr/bin/env python3
"""The per-line view beside the warp stalls (issue 47): `gpuprof report SOURCE.json
STALLS.json` of tests/fixtures/exec-source-transpose.json (an exec --source report, hand-made
from the recording by tests/fixtures/make_source_transpose.py) and
tests/fixtures/exec-stalls-transpose.json (exec --stalls of the same program, recorded on an
H200).

- Each line and instruction of a view whose kernel code (mangled name and cubin CRC) was
  sampled gets the samples the stalls hold at it (by file and line, by offset), their share
  of the code's samples and their group of the most, worked out here from exec.stalls.pcs:
  JSON (schema-valid, read back and written the same, a changed count refused), CSV --source
  (stall_samples, stall_percent, stall_group), text and Markdown (%stalls and the group's
  heading beside the sectors, a line that moves no memory listed from 1 % of the samples,
  every Markdown row its header's cells), the page (% of stalls, the group's name on hover).
- The stall section keeps its kernel table, names the kernels whose lines the view shows and
  lists only the others' lines (the fill kernel, which has no view).
- A kernel with one of the two prints as before: exec-source.json with the stall recording
  (other kernels) has no stall column; the lines of each kernel stay the stall section's.
- exec --source --stalls: a usage error that says how to get both; a kernel command's
  --source --stalls parses and, without a GPU, fails at the device; its CSV is two views.
- The man page, --help and README say how."""
import collections
import csv
import io
import json
import os
import re
import tempfile

import tap
import test_html
import test_markdown
from gpuprof import as_typed, run, run_json
from test_stalls import man_text
from schema import validate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = as_typed(os.path.join(ROOT, "tests", "fixtures"))
SOURCE = os.path.join(FIXTURES, "exec-source-transpose.json")
STALLS = os.path.join(FIXTURES, "exec-stalls-transpose.json")
OTHER_SOURCE = os.path.join(FIXTURES, "exec-source.json")
GROUPS = [("memory_latency", "mem lat", {"long_scoreboard"}),
          ("memory_throughput", "mem thru", {"lg_throttle", "tex_throttle", "drain"}),
          ("shared_memory", "shared", {"short_scoreboard", "mio_throttle"}),
          ("synchronisation", "sync", {"barrier", "membar", "sleeping", "warpgroup_arrive"}),
          ("instruction_issue", "issue", {"wait", "not_selected", "selected",
                                          "math_pipe_throttle", "dispatch_stall",
                                          "no_instructions", "imc_miss", "branch_resolving",
                                          "gmma"}),
          ("other", "other", None)]


def group_of(reason):
    return next(i for i, (_, _, names) in enumerate(GROUPS) if names is None or reason in names)


class Samples:
    """A place's samples by group, and their total."""

    def __init__(self):
        self.groups = [0] * len(GROUPS)

    def add(self, samples):
        for reason, n in samples.items():
            self.groups[group_of(reason)] += n

    @property
    def total(self):
        return sum(self.groups)

    def top(self):
        """The group of the most samples, the first on ties; None without samples."""
        return max(range(len(GROUPS)), key=lambda g: (self.groups[g], -g)) if self.total else None


def expected(doc):
    """Per kernel code (mangled, code): its total, and its samples by (file, line) and pc."""
    codes = collections.defaultdict(lambda: {"total": 0,
                                             "lines": collections.defaultdict(Samples),
                                             "pcs": collections.defaultdict(Samples)})
    for p in doc["exec"]["stalls"]["pcs"]:
        k = codes[(p["kernel"], p.get("code"))]
        k["total"] += sum(p["samples"].values())
        k["lines"][(p.get("file"), p.get("line"))].add(p["samples"])
        k["pcs"][p["pc"]].add(p["samples"])
    return codes


def want_keys(s, total):
    keys = {"stall_samples": s.total, "stall_percent": 100.0 * s.total / total}
    if s.top() is not None:
        keys["stall_group"] = GROUPS[s.top()][0]
    return keys


def got_keys(row):
    return {k: row[k] for k in ("stall_samples", "stall_percent", "stall_group") if k in row}


def close(a, b):
    return a.keys() == b.keys() and all(
        abs(a[k] - b[k]) < 1e-9 if isinstance(a[k], float) else a[k] == b[k] for k in a)


def check_json(doc, want):
    views = doc["exec"]["source_lines"]
    bad = []
    for v in views:
        k = want.get((v["kernel"], v.get("code")))
        for line in v["lines"]:
            s = k["lines"].get((line["file"], line["line"]), Samples()) if k else None
            if not close(got_keys(line), want_keys(s, k["total"]) if k else {}):
                bad.append((v["kernel"][-24:], line["line"], got_keys(line)))
        for p in v["instructions"]:
            s = k["pcs"].get(p["pc"], Samples()) if k else None
            if not close(got_keys(p), want_keys(s, k["total"]) if k else {}):
                bad.append((v["kernel"][-24:], p["pc"], got_keys(p)))
    tap.ok(len(views) == 6 and not bad,
           "json: each line's and instruction's stall_samples, stall_percent and stall_group "
           "as the stalls hold them", bad[:5])
    valid, errors = validate(doc, "gpuprof-report-v1.schema.json")
    tap.ok(valid, "json: schema-valid", errors)


def check_round_trip(doc):
    with tempfile.TemporaryDirectory() as tmp:
        saved = os.path.join(tmp, "joined.json")
        with open(saved, "w") as f:
            json.dump(doc, f)
        rc, again, err = run_json("report", saved, "--json")
        tap.ok(rc == 0 and again == doc, "json: read back, written the same", err)
        changed = json.loads(json.dumps(doc))
        line = changed["exec"]["source_lines"][0]["lines"][0]
        line["stall_samples"] += 1
        with open(saved, "w") as f:
            json.dump(changed, f)
        rc, _, err = run("report", saved)
        tap.ok(rc != 0 and "source_lines[0].lines[0].stall_samples" in err and
               "exec.stalls" in err, "json: a line's samples other than the stalls' are "
               "refused, named", err)
        alone = json.loads(json.dumps(doc))
        del alone["exec"]["stalls"]
        with open(saved, "w") as f:
            json.dump(alone, f)
        rc, _, err = run("report", saved)
        tap.ok(rc != 0 and "stall_samples" in err, "json: stall keys without the stalls are "
               "refused", err)


def line_rows(section):
    """The per-line view's rows in text: (view heading, label, %stalls, group)."""
    rows, heading = [], None
    for line in section.split("\n"):
        if line.startswith("#"):
            heading = line
        m = re.match(r"^(\S+:\d+) .* (\d+\.\d%|-) (mem lat|mem thru|shared|sync|issue|other|-)$",
                     line)
        if m:
            rows.append((heading, m.group(1), m.group(2), m.group(3)))
    return rows


def within_width(text, width=120):
    """Every line within `width` columns, but for an input file's "[N] FILE:" alone on its
    line: the paths are the checkout's (CI's are longer than a developer's)."""
    return all(len(l) <= width or re.match(r"^  \[\d+\] \S+:$", l)
               for l in text.split("\n"))


def check_text(want, doc):
    rc, out, err = run("report", SOURCE, STALLS)
    tap.ok(rc == 0 and within_width(out), "text: the joined report within 120 columns", err)
    tap.ok(not within_width("  [1] %s: %s" % ("x" * 100, "y " * 30)) and
           within_width("  [1] %s:" % ("/x" * 70)), "the width check fails on a long line of "
           "words and passes a long file alone")
    view = out[out.find("where memory moves"):]
    rows = line_rows(view)
    names = {v["kernel"]: v for v in doc["exec"]["source_lines"]}
    wrong = []
    for heading, label, share, group in rows:
        name = heading.split()[2]   # "#1 [1] naiveGmem (...)": in the mangled name, its length
        kernel = next(k for k in names if "%d%s" % (len(name), name) in k)
        k = want[(kernel, names[kernel].get("code"))]
        s = next(s for (f, n), s in k["lines"].items()
                 if f and "%s:%d" % (os.path.basename(f), n) == label)
        if share != "%.1f%%" % (100.0 * s.total / k["total"]) or group != GROUPS[s.top()][1]:
            wrong.append((label, share, group))
    tap.ok(len(rows) > 20 and not wrong, "text: %%stalls and stall beside each line's sectors "
           "(%d rows)" % len(rows), wrong[:5])
    tap.ok("%stalls stall" in view and "with warp stalls (--stalls)" in view,
           "text: the columns and their legend")
    naive = view[view.find("naiveGmem"):view.find("transposeSmem")]
    tap.ok(re.search(r"^transpose\.cu:57 .* -  +63\.9% mem thru$", naive, re.M),
           "text: a line that moves no memory but holds 64 % of the samples is listed (the "
           "naive transpose's end, waiting on its stores to drain)")
    stalls = out[out.find("Warp stalls:"):out.find("where memory moves")]
    tap.ok(re.search(r"^ .*  #1 \[1,2\] naiveGmem$", stalls, re.M) and
           "each line's stalls beside its sectors in the per-line view below" in stalls,
           "text: the stall section keeps its kernel table and names the kernels of the view")
    listed = re.findall(r"^#(\d+) \S+: \d+ samples, its lines", stalls, re.M)
    tap.ok(listed == ["7"], "text: it lists only the lines of the kernel without a view "
           "(its fill kernel)", listed)
    rc, sass, err = run("report", SOURCE, STALLS, "--sass")
    tap.ok(rc == 0 and re.search(r"^  \+0x02a0 +2097152 .* 63\.8% mem thru$", sass, re.M),
           "text --sass: an instruction's samples under its line", err)


def check_markdown():
    rc, md, err = run("report", SOURCE, STALLS, "--markdown", "--sass")
    found, problems = test_markdown.tables(md)
    joined = [h for h, _ in found if h[-2:] == ["%stalls", "stall"]]
    tap.ok(rc == 0 and len(joined) == 6 and not problems,
           "markdown: each view's table with the stall columns, every row its header's cells",
           problems[:5] or err)


def check_csv(want):
    rc, out, err = run("report", SOURCE, STALLS, "--csv", "--source")
    rows = list(csv.DictReader(io.StringIO(out)))
    with open(SOURCE) as f:
        codes = {v["kernel"]: v.get("code") for v in json.load(f)["exec"]["source_lines"]}
    wrong = []
    for r in rows:
        k = want[(r["mangled"], codes[r["mangled"]])]
        s = k["lines"].get((r["file"], int(r["line"])), Samples())
        group = GROUPS[s.top()][0] if s.top() is not None else ""
        if int(r["stall_samples"]) != s.total or r["stall_group"] != group or \
                abs(float(r["stall_percent"]) - 100.0 * s.total / k["total"]) > 1e-6:
            wrong.append((r["line"], r["stall_samples"], r["stall_group"]))
    header = out.split("\n")[0].split(",")
    tap.ok(rc == 0 and rows and header[-4:] == ["excess_sectors", "stall_samples",
                                               "stall_percent", "stall_group"] and not wrong,
           "csv --source: each line's stall_samples, stall_percent and stall_group after the "
           "counts (%d rows)" % len(rows), wrong[:5] or err)


def check_html():
    rc, page, err = run("report", SOURCE, STALLS, "--html")
    test_html.static_checks("html", rc, page, err)
    view = page[page.find("<h2>Where memory moves"):]
    tap.ok(view.count("<th class=\"num\">% of stalls</th><th>top stall</th>") == 6 and
           '<td title="memory throughput">mem thru</td>' in view,
           "html: each view's % of stalls and top stall, the group's name on hover")
    stalls = page[page.find("<h2>Warp stalls</h2>"):page.find("<h2>Where memory moves")]
    tap.ok(stalls.count("<h3>") == 1 and "#7 gp_seeded_fill_kernel" in stalls and
           "per-line view have their stalls there" in stalls,
           "html: the stall section lists only the lines of the kernel without a view")


def check_one_of_two():
    rc, out, err = run("report", OTHER_SOURCE, STALLS)
    view = out[out.find("where memory moves"):]
    stalls = out[out.find("Warp stalls:"):out.find("where memory moves")]
    tap.ok(rc == 0 and view and "%stalls" not in view and "with warp stalls" not in view and
           "beside its sectors" not in stalls and
           len(re.findall(r"^#\d+ \S+: \d+ samples, its lines", stalls, re.M)) == 7,
           "one of two: views of other kernels print without stall columns, every sampled "
           "kernel's lines stay in the stall section", err)
    rc, doc, err = run_json("report", OTHER_SOURCE, STALLS, "--json")
    keys = [k for v in (doc or {}).get("exec", {}).get("source_lines", [])
            for row in v["lines"] + v["instructions"] for k in row if k.startswith("stall")]
    tap.ok(rc == 0 and doc and not keys, "one of two: no stall keys in their JSON", err)
    rc, out, err = run("report", OTHER_SOURCE, STALLS, "--csv", "--source")
    rows = list(csv.DictReader(io.StringIO(out)))
    tap.ok(rc == 0 and rows and all(r["stall_samples"] == "" for r in rows),
           "one of two: their CSV rows leave the stall columns empty", err)


def check_commands():
    no_gpu = {"CUDA_VISIBLE_DEVICES": ""}
    rc, out, err = run("exec", "--stalls", "--source", "true", env=no_gpu)
    tap.ok(rc == 2 and not out and err.count("\n") == 1 and "once with each" in err and
           "gpuprof report A.json B.json" in err,
           "exec --stalls --source: a usage error that says how to get both", err)
    for args in (("transpose", "--stalls", "--source"),
                 ("reduce", "--source", "--stalls", "--sass", "--size=1024")):
        rc, out, err = run(*args, env=no_gpu)
        tap.ok(rc not in (0, 2) and not out and "--source" not in err and "--stalls" not in err,
               "%s: parsed, and without a GPU the device's error" % " ".join(args), err)
    rc, out, err = run("transpose", "--stalls", "--source", "--csv", env=no_gpu)
    tap.ok(rc == 2 and "two CSV views" in err, "transpose --stalls --source --csv: two CSV "
           "views (a usage error)", err)


def check_docs():
    man = man_text()
    tap.ok("gpuprof report A.json B.json" in man and "%stalls" in man and
           "transpose --source --stalls" in man,
           "man page: how the two come together, and the columns")
    entries = []
    for command in ("exec", "transpose", "report"):
        _, text, _ = run(command, "--help")
        entry = re.search(r"^  --stalls .*?(?=^  --)", text, re.M | re.S)
        entries.append(" ".join(entry.group(0).split()) if entry else "")
    tap.ok(all("beside --source's sectors where a report holds both" in e for e in entries),
           "--help: --stalls says its lines go beside --source's", entries)
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    tap.ok("gpuprof report source.json stalls.json" in readme,
           "README: one line on the joined view")


def main():
    rc, doc, err = run_json("report", SOURCE, STALLS, "--json")
    if not tap.ok(rc == 0 and doc, "report SOURCE STALLS --json", err):
        return tap.done()
    want = expected(doc)
    check_json(doc, want)
    check_round_trip(doc)
    check_text(want, doc)
    check_markdown()
    check_csv(want)
    check_html()
    check_one_of_two()
    check_commands()
    check_docs()
    return tap.done()


if __name__ == "__main__":
    main()
