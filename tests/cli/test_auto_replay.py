#!/usr/bin/env python3
"""--replay=auto's decision by footprint in a saved report (issue 35): the profiler section's
auto_replay (replay, held, free, total and budget bytes) reads back whole through `gpuprof
report --json`, the text and HTML say what auto decided and on which figures, and the text
names the kernels that lack a pass; a malformed auto_replay is refused with its path. Reports
without it (an older gpuprof, or no decision) say nothing of it."""
import os
import re
import tempfile

import tap
from gpuprof import run, run_json
from reports import Files, load

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AUTO = os.path.join(ROOT, "tests", "fixtures", "exec-auto.json")
GIB = 2 ** 30
DECLINED = {"replay": False, "held_bytes": 100 * GIB, "free_bytes": 40 * GIB,
            "total_bytes": 140 * GIB, "budget_bytes": 16 * GIB}


def declined_report():
    """exec-auto.json under a declined decision, its copyStrided launches reduced to the
    first, which collected one pass: that kernel lacks the other."""
    doc = load(AUTO)
    doc["profiler"]["auto_replay"] = dict(DECLINED)
    kept, seen = [], False
    for l in doc["exec"]["launches"]:
        if l["kernel"].startswith("copyStrided("):
            if seen:
                continue
            seen = True
            l["passes"] = [0]
        kept.append(l)
    doc["exec"]["launches"] = kept
    return doc


def main():
    with tempfile.TemporaryDirectory() as tmp:
        files = Files(tmp)
        path = files.write(declined_report())
        rc, doc, err = run_json("report", path, "--json")
        tap.ok(rc == 0 and doc and doc["profiler"].get("auto_replay") == DECLINED,
               "report --json: auto_replay reads back whole", (err, doc and
                                                               doc["profiler"].get("auto_replay")))
        rc, out, err = run("report", path, "--wide")
        tap.ok(rc == 0 and "--replay=auto did not replay: a replay saves the 100.0 GiB of "
               "device memory in use, which does not fit in the 40.0 GiB free" in out and
               "--replay=kernel would save and restore 100.0 GiB" in out,
               "report (text): what auto decided, and the figures", out[:3000])
        tap.ok(re.search(r"1 kernel lacks passes \(.*?\): #1 copyStrided \(1/2\)", out,
                         re.S) is not None,
               "report (text): the kernel that lacks a pass is named", out[:3000])
        rc, out, err = run("report", path, "--html")
        tap.ok(rc == 0 and "did not replay" in out and "100.0 GiB" in out,
               "report --html: what auto decided, and the figures", err)
        budget = declined_report()
        budget["profiler"]["auto_replay"].update(held_bytes=20 * GIB, free_bytes=120 * GIB)
        rc, out, err = run("report", files.write(budget), "--wide")
        tap.ok(rc == 0 and "over the 16.0 GiB auto saves" in out,
               "report (text): a decision for the budget says so", out[:2000])
        rc, out, err = run("report", AUTO)
        tap.ok(rc == 0 and "did not replay" not in out and "replayed each" not in out,
               "report (text) of a report without auto_replay says nothing of it")
        bad = declined_report()
        bad["profiler"]["auto_replay"]["held_bytes"] = -1
        rc, out, err = run("report", files.write(bad))
        tap.ok(rc != 0 and "auto_replay.held_bytes" in err and len(err.strip().splitlines()) == 1,
               "report: a malformed auto_replay is refused, with its path", err)
    tap.done()


if __name__ == "__main__":
    main()
