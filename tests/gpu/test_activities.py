#!/usr/bin/env python3
"""On a GPU: gpuprof exec's GPU activities besides kernels (issue 28) on the programs of
tests/apps: every copy and memset counted and sized as the program made it, per direction and
host memory, with --metrics=none and with counters; pinned copies faster than pageable ones;
unified memory's page faults and migrations; copies in issue order among --launches' rows;
the JSON valid against the schema. Skips without a GPU."""
import csv
import io
import json
import os
import subprocess
import tempfile

import tap
from gpuprof import BIN, app, require_gpu
from schema import validate

BYTES = 1 << 24
ROUNDS = 3


def exec_report(*args, fmt="--json"):
    """(exit status, the report's text, the program's stdout, stderr) of gpuprof exec FMT
    --output=FILE ARGS: the report in a file, apart from the program's output."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "report")
        p = subprocess.run([BIN, "exec"] + ([fmt] if fmt else []) + ["--output=" + path] +
                           list(args), capture_output=True, text=True, timeout=600)
        text = None
        if os.path.exists(path):
            with open(path) as f:
                text = f.read()
        return p.returncode, text, p.stdout, p.stderr


def exec_json(*args):
    rc, text, out, err = exec_report(*args)
    try:
        doc = json.loads(text) if text else None
    except ValueError:
        doc = None
    return rc, doc, out, err


def activities(doc, kind, host=None):
    """The report's copies or memsets of `kind` ("memcpy HtoD"), from or to `host` memory."""
    side = {"memcpy HtoD": "src", "memcpy DtoH": "dst"}
    return [a for a in doc["exec"].get("activities", [])
            if a["kind"] == kind and (host is None or a[side[kind]] == host)]


def row(doc, kind):
    rows = [r for r in doc["exec"].get("copies", []) if r["kind"] == kind]
    return rows[0] if rows else None


def check_copies(doc, label):
    """What copies.cu did, exactly: calls and bytes per direction and host memory."""
    want = {("memset", None): ROUNDS, ("memcpy HtoD", "pageable"): ROUNDS,
            ("memcpy HtoD", "pinned"): ROUNDS, ("memcpy DtoD", None): ROUNDS,
            ("memcpy DtoH", "pageable"): ROUNDS, ("memcpy DtoH", "pinned"): ROUNDS}
    for (kind, host), calls in want.items():
        got = activities(doc, kind, host)
        tap.ok(len(got) == calls and all(a["bytes"] == BYTES for a in got),
               "%s: %d %s%s of %d bytes each" % (label, calls, kind, " " + host if host else "",
                                                  BYTES),
               "%d of bytes %s" % (len(got), sorted({a["bytes"] for a in got})))
    kinds = {a["kind"] for a in doc["exec"].get("activities", [])}
    tap.ok(kinds == {"memset", "memcpy HtoD", "memcpy DtoD", "memcpy DtoH"},
           "%s: no other kind of copy" % label, str(kinds))
    htod = row(doc, "memcpy HtoD")
    tap.ok(htod is not None and htod["calls"] == 2 * ROUNDS and htod["bytes"] == 2 * ROUNDS * BYTES,
           "%s: the HtoD summary row: %d calls, %d bytes" % (label, 2 * ROUNDS, 2 * ROUNDS * BYTES),
           json.dumps(htod))
    return htod


def test_copies():
    rc, doc, out, err = exec_json("--metrics=none", app("copies"), str(BYTES), str(ROUNDS))
    if not tap.ok(rc == 0 and doc and "copies: ok" in out, "exec --metrics=none copies: exit 0, "
                  "a report, the program's check passed", err):
        return
    valid, why = validate(doc, "gpuprof-report-v1.schema.json")
    tap.ok(valid, "exec JSON with activities is valid against the report schema", why)
    htod = check_copies(doc, "--metrics=none")
    memory = (htod or {}).get("host_memory", {})
    pinned, pageable = memory.get("pinned", {}).get("gbps"), memory.get("pageable", {}).get("gbps")
    tap.ok(pinned is not None and pageable is not None and pinned > pageable,
           "pinned HtoD throughput (%s GB/s) greater than pageable (%s GB/s)" % (pinned, pageable))
    tap.ok(doc["exec"].get("pageable_percent") == 50.0,
           "half the bytes copied between host and device were pageable",
           str(doc["exec"].get("pageable_percent")))
    tap.ok(len([l for l in doc["exec"]["launches"] if "copiesScale" in l["kernel"]]) == ROUNDS,
           "the kernels are still there: %d launches of copiesScale" % ROUNDS)


def test_copies_with_counters():
    rc, doc, out, err = exec_json(app("copies"), str(BYTES), str(ROUNDS))
    if tap.ok(rc == 0 and doc, "exec copies (default metrics): exit 0, a report", err):
        check_copies(doc, "default metrics (kernel replay adds no copy)")


def test_text_and_csv():
    rc, text, out, err = exec_report("--metrics=none", app("copies"), str(BYTES), "1", fmt=None)
    tap.ok(rc == 0 and text and "GPU activities:" in text and "[CUDA memcpy HtoD]" in text and
           "[CUDA memset]" in text and "pageable: 50.0%" in text,
           "text: the GPU activities table and the pageable share", err + (text or ""))
    rc, text, out, err = exec_report("--metrics=none", app("copies"), str(BYTES), "1", fmt="--csv")
    rows = list(csv.DictReader(io.StringIO(text or "")))
    kinds = {(r["kind"], r["host_memory"]): r for r in rows}
    tap.ok(rc == 0 and ("memcpy HtoD", "pinned") in kinds and
           kinds[("memcpy HtoD", "pinned")]["calls"] == "1" and
           kinds[("memcpy HtoD", "pinned")]["bytes"] == str(BYTES),
           "CSV: the activities' rows after the kernels, under the same header", text or err)


def test_launches_in_order():
    rc, text, out, err = exec_report("--metrics=none", "--launches", app("copies"), str(BYTES),
                                     "1", fmt=None)
    order = ["[CUDA memset]", "[CUDA memcpy HtoD] 16.78MB pageable",
             "[CUDA memcpy HtoD] 16.78MB pinned", "copiesScale", "[CUDA memcpy DtoD]",
             "[CUDA memcpy DtoH] 16.78MB pageable", "[CUDA memcpy DtoH] 16.78MB pinned"]
    at, found = 0, []
    for name in order:
        i = (text or "").find(name, at)
        if i < 0:
            break
        found.append(name)
        at = i + len(name)
    tap.ok(rc == 0 and found == order, "--launches: the copies and memsets in issue order "
           "around the kernel", text or err)


def test_unified_memory():
    rc, doc, out, err = exec_json("--metrics=none", app("umfaults"))
    if not tap.ok(rc == 0 and doc and "umfaults: ok" in out, "exec umfaults: exit 0, a report",
                  err):
        return
    um = doc["exec"].get("unified_memory", {})
    count = lambda key: um.get(key, {}).get("total", 0)
    tap.ok(count("cpu_page_faults") > 0 or count("gpu_page_faults") > 0,
           "managed memory: page faults > 0 (CPU %d, GPU fault groups %d)"
           % (count("cpu_page_faults"), count("gpu_page_faults")),
           json.dumps(um) + " " + json.dumps(doc["warnings"]))
    tap.ok(count("bytes_htod") > 0 and count("bytes_dtoh") > 0,
           "managed memory: bytes migrated both ways (HtoD %d, DtoH %d)"
           % (count("bytes_htod"), count("bytes_dtoh")), json.dumps(um))
    valid, why = validate(doc, "gpuprof-report-v1.schema.json")
    tap.ok(valid, "exec JSON with unified memory is valid against the report schema", why)


def test_many_activities():
    rc, doc, out, err = exec_json("--metrics=none", app("activities"), "1000")
    if not tap.ok(rc == 0 and doc, "exec activities 1000: exit 0, a report", err):
        return
    tap.ok(len(activities(doc, "memcpy HtoD")) == 500 and len(doc["exec"]["launches"]) == 500 and
           len(activities(doc, "memset")) == 1 and len(activities(doc, "memcpy DtoH")) == 1,
           "activities 1000: 500 HtoD copies and 500 launches, a memset and the result's copy")


def main():
    require_gpu("copies")
    test_copies()
    test_copies_with_counters()
    test_text_and_csv()
    test_launches_in_order()
    test_unified_memory()
    test_many_activities()
    tap.done()


if __name__ == "__main__":
    main()
