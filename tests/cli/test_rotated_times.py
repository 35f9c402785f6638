#!/usr/bin/env python3
"""Honest times under rotation (issue 35): a kernel's total is its calls at the mean of its
timed launches (a launch whose counter group lacks the duration is untimed), marked as an
estimate where some were untimed; the time shares come from those totals. `gpuprof report`
of a saved report shows it in text (the kernel table and the GPU activities, "~" and a
timed column explained under the table), JSON (timed, total_estimated) and CSV."""
import copy
import csv
import io
import os
import tempfile

import tap
from gpuprof import run, run_json
from reports import Files, load

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
ROTATE = os.path.join(FIXTURES, "exec-rotate.json")
ACTIVITIES = os.path.join(FIXTURES, "exec-activities.json")
AUTO = os.path.join(FIXTURES, "exec-auto.json")
STRIDED = "copyStrided(float *, const float *, unsigned long)"
COALESCED = "copyCoalesced(float *, const float *, unsigned long)"
NOTE = "~: an estimate, calls x the mean of the timed launches"


def rotated_report():
    """exec-rotate.json's launches as templates: copyStrided launched 10 times, 4 of them
    timed (0.1, 0.2, 0.3, 0.4 ms: a total of 10 x 0.25 = 2.5 ms, estimated); copyCoalesced 3
    times, all timed at 0.5 ms (1.5 ms). By the timed launches' sums copyStrided (1.0 ms)
    would come second with 40 %; by the totals it comes first with 62.5 %. With the copies
    and memsets of exec-activities.json, for the GPU activities table."""
    doc = load(ROTATE)
    by_kernel = {}
    for launch in doc["exec"]["launches"]:
        timed = launch["duration_ms"] is not None
        by_kernel.setdefault((launch["kernel"], timed), launch)
    plan = [(STRIDED, ms) for ms in (0.1, None, 0.2, None, None, 0.3, None, 0.4, None, None)]
    plan += [(COALESCED, 0.5)] * 3
    launches = []
    for i, (kernel, ms) in enumerate(plan):
        launch = copy.deepcopy(by_kernel[(kernel, ms is not None)])
        launch.update(id=i + 1, duration_ms=ms)
        launches.append(launch)
    doc["exec"]["launches"] = launches
    doc["exec"]["kernels"] = []  # the summary is derived from the launches when rendered
    extra = load(ACTIVITIES)["exec"]
    for key in ("activities", "copies", "pageable_percent", "unified_memory"):
        doc["exec"][key] = extra[key]
    return doc


def table_rows(out, first_title):
    """The rows (split in words) of the table whose header begins with first_title, up to
    the blank line or the legend after it."""
    lines = out.splitlines()
    start = [i for i, l in enumerate(lines) if l.split()[:1] == [first_title]]
    rows = []
    for line in lines[start[0]:] if start else []:
        if not line.strip() or line.startswith(("~:", "legend:")):
            break
        rows.append(line.split())
    return rows


def shares(rows):
    """The first column's percentages of a table's rows, summed."""
    return sum(float(r[0].rstrip("%")) for r in rows[1:])


def test_text(path):
    rc, out, err = run("report", path)
    rows = table_rows(out, "%kernels")
    tap.ok(rc == 0 and rows[:1] == [["%kernels", "time", "calls", "timed", "profiled", "passes",
                                     "avg", "min", "max", "kernel"]],
           "text: a timed column where a total is an estimate", out or err)
    tap.ok(rows[1:2] and rows[1][:9] == ["62.5%", "~2.50ms", "10", "4", "10", "2/2",
                                          "250.00us", "100.00us", "400.00us"],
           "text: the estimate marked, 10 calls of which 4 timed, their mean, min and max", out)
    tap.ok(rows[2:3] and rows[2][:5] == ["37.5%", "1.50ms", "3", "3", "3"],
           "text: a kernel timed whole is no estimate, and comes second", out)
    tap.ok(len(rows) == 3 and abs(shares(rows) - 100.0) < 0.05,
           "text: the kernels' shares add up to 100 %", "%.1f" % shares(rows))
    lines = out.splitlines()
    notes = [i for i, l in enumerate(lines) if l.startswith(NOTE)]
    tap.ok(len(notes) == 2 and lines[notes[0] - 1].split()[-4:] == rows[2][-4:],
           "text: the '~' explained right under the kernel table and the GPU activities", out)
    gpu = table_rows(out, "%GPU")
    kernels = [r for r in gpu if "[2" in r]
    tap.ok(gpu[:1] and gpu[0][:5] == ["%GPU", "Time", "Calls", "Timed", "Avg"] and
           kernels and kernels[0][1:4] == ["~4.00ms", "13", "7"] and
           not [r for r in gpu if "copyStrided" in r],
           "text: the GPU activities' one row of the kernels sums their estimate and timed "
           "counts; no kernel listed again", out)
    tap.ok(abs(shares(gpu) - 100.0) < 0.05, "text: the GPU activities' shares add up to 100 %",
           "%.2f" % shares(gpu))
    rc, out, err = run("report", path, "--wide")
    gpu = table_rows(out, "%GPU")
    strided = [r for r in gpu if "copyStrided" in r]
    tap.ok(strided and strided[0][1:5] == ["~2.50ms", "10", "4", "250.00us"],
           "text --wide: the GPU activities' kernel row has the same estimate and timed count",
           out)
    tap.ok(abs(shares(gpu) - 100.0) < 0.05,
           "text --wide: the GPU activities' shares add up to 100 %", "%.2f" % shares(gpu))


def test_json(path):
    rc, doc, err = run_json("report", path, "--json")
    kernels = doc["exec"]["kernels"] if rc == 0 and doc else []
    want = [(STRIDED, 10, 4, 2.5, True, 0.25, 0.1, 0.4, 62.5),
            (COALESCED, 3, 3, 1.5, False, 0.5, 0.5, 0.5, 37.5)]
    keys = ("kernel", "calls", "timed", "total_ms", "total_estimated", "average_ms", "min_ms",
            "max_ms", "time_percent")
    got = [tuple(k.get(key) for key in keys) for k in kernels]
    close = len(got) == 2 and all(
        g[:3] == w[:3] and g[4] == w[4] and
        all(abs(a - b) < 1e-9 for a, b in zip(g[3:4] + g[5:], w[3:4] + w[5:]))
        for g, w in zip(got, want))
    tap.ok(close, "json: timed, the estimated total, total_estimated and the shares", got or err)
    tap.ok(abs(sum(k["time_percent"] for k in kernels) - 100.0) < 1e-9,
           "json: the shares of the kernels add up to 100 %")


def test_csv(path):
    rc, out, err = run("report", path, "--csv")
    rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
    kernels = [r for r in rows if r["kind"] == "kernel"]
    got = [tuple(r.get(key) for key in ("kernel", "calls", "timed", "total_ms",
                                         "total_estimated", "avg_ms", "time_percent"))
           for r in kernels]
    tap.ok(got == [(STRIDED, "10", "4", "2.5", "1", "0.25", "62.5"),
                   (COALESCED, "3", "3", "1.5", "0", "0.5", "37.5")],
           "csv: timed, the estimated total, total_estimated and the shares", got or err)
    header = out.splitlines()[0].split(",") if out else []
    tap.ok(header[-5:] == ["timed", "total_estimated", "kernel_id", "row", "variant"],
           "csv: the columns added later last, so that no earlier column moves", header[-5:])
    others = [r for r in rows if r["kind"] != "kernel"]
    tap.ok(others and all(r.get("timed") == r.get("total_estimated") == "" for r in others),
           "csv: empty on the copies', memsets' and unified memory's rows")
    tap.ok(abs(sum(float(r["time_percent"]) for r in kernels) - 100.0) < 1e-6,
           "csv: the shares of the kernels add up to 100 %")


def test_html(path):
    rc, page, err = run("report", path, "--html")
    tap.ok(rc == 0 and "<th class=\"num\">timed</th>" in page and ">~2.5000</td>" in page and
           "~: an estimate" in page, "html: the timed column, the marked total, the legend",
           err)


def test_fully_timed():
    rc, out, _ = run("report", AUTO)
    tap.ok(rc == 0 and "~" not in out and "timed" not in table_rows(out, "%kernels")[0],
           "every launch timed: no mark, no timed column, no legend", out)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        path = Files(tmp).write(rotated_report(), "rotated.json")
        test_text(path)
        test_json(path)
        test_csv(path)
        test_html(path)
        test_fully_timed()
    tap.done()


if __name__ == "__main__":
    main()
