#!/usr/bin/env python3
"""Lines as they were (issue 46): a per-line view keeps each line's text, and a hash of each
file its lines name, when the report is recorded. `report` shows the recorded text, and says
when the file on disk has changed since or is not there; a report from before lines kept their
text still shows the file's lines as they are. The recorded form is made here the way gpuprof
records it (tests/unit/test_source_record.c checks gpuprof's own recording against a file),
with the hash computed by this test's own FNV-1a."""
import copy
import json
import os
import tempfile

import tap
from gpuprof import run
from schema import validate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "reduce-source.json")
SCHEMA = "gpuprof-report-v1.schema.json"


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "fnv1a64:%016x" % h


def source_file(lines):
    """A source file whose line N reads `    code_N();` (indented), N up to `lines`."""
    return "".join("    code_%d();  // line %d\n" % (n, n) for n in range(1, lines + 1))


def recorded(path, text):
    """The fixture's per-line view as if recorded from `path` holding `text`."""
    doc = copy.deepcopy(load(FIXTURE))
    for view in doc["results"][0]["source_lines"]:
        view["files"] = [{"file": path, "hash": fnv1a64(text.encode())}]
        lines = []
        for line in view["lines"]:
            entry = {}
            for key, value in line.items():
                entry[key] = path if key == "file" else value
                if key == "line":
                    entry["text"] = "code_%d();  // line %d" % (value, value)
            lines.append(entry)
        view["lines"] = lines
    return doc


def load(path):
    with open(path) as f:
        return json.load(f)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def deepest_line():
    return max(l["line"] for v in load(FIXTURE)["results"][0]["source_lines"] for l in v["lines"])


def test_as_recorded(tmp):
    src = os.path.join(tmp, "kernel.cu")
    text = source_file(deepest_line())
    write(src, text)
    doc = recorded(src, text)
    valid, why = validate(doc, SCHEMA)
    tap.ok(valid, "a report with recorded lines and files is valid against the schema", why)
    report = os.path.join(tmp, "r.json")
    write(report, json.dumps(doc))
    # A line the view shows: one that moves memory.
    moving = [l for l in doc["results"][0]["source_lines"][0]["lines"] if l["sectors"]]
    line = moving[0]["text"]

    rc, out, err = run("report", report, "--source")
    tap.ok(rc == 0 and line in out and "has changed" not in out and "is not here" not in out,
           "the file as recorded: its lines' text, no note", out + err)

    write(src, text.replace("code_", "edited_"))
    rc, out, err = run("report", report, "--source")
    tap.ok(rc == 0 and line in out and "edited_" not in out and
           "kernel.cu has changed since the report was recorded: its lines show the text they "
           "had then" in " ".join(out.split()),
           "the file edited since: the recorded text, and a note saying so", out + err)
    rc, html, err = run("report", report, "--source", "--html")
    tap.ok(rc == 0 and "<code>%s</code>" % line in html and
           "has changed since the report was recorded" in html and "edited_" not in html,
           "HTML: the recorded text in the line's cell, and the note", err)

    os.unlink(src)
    rc, out, err = run("report", report, "--source")
    tap.ok(rc == 0 and line in out and "is not here" in out,
           "the file gone: the recorded text, and a note saying it is not here", out + err)

    rc, out, err = run("report", report, "--json")
    back = json.loads(out) if rc == 0 else {}
    views = back.get("results", [{}])[0].get("source_lines", [])
    tap.ok(views and views[0].get("files") == doc["results"][0]["source_lines"][0]["files"] and
           [l.get("text") for l in views[0]["lines"]] ==
           [l["text"] for l in doc["results"][0]["source_lines"][0]["lines"]],
           "JSON read back keeps the files' hashes and the lines' recorded text", err)


def test_unread_when_recorded(tmp):
    src = os.path.join(tmp, "gone.cu")
    doc = recorded(src, "")
    for view in doc["results"][0]["source_lines"]:
        view["files"][0]["hash"] = None
        for line in view["lines"]:
            line["text"] = None
    write(src, source_file(deepest_line()))  # there now, but not when recorded
    report = os.path.join(tmp, "unread.json")
    write(report, json.dumps(doc))
    rc, out, err = run("report", report, "--source")
    tap.ok(rc == 0 and "could not be read when the report was recorded" in " ".join(out.split())
           and "code_" not in out,
           "a file unread when recorded: no text (not today's), and a note", out + err)


def test_bad_input(tmp):
    src = os.path.join(tmp, "k.cu")
    text = source_file(deepest_line())
    cases = []
    bad_hash = recorded(src, text)
    bad_hash["results"][0]["source_lines"][0]["files"][0]["hash"] = "md5:abc"
    cases.append(("a hash not fnv1a64:<16 hex digits>", bad_hash, "hash"))
    stray = load(FIXTURE)
    stray["results"][0]["source_lines"][0]["lines"][0]["text"] = "x"
    cases.append(("a line's text in a kernel without files", stray, "text"))
    for what, doc, key in cases:
        valid, _ = validate(doc, SCHEMA)
        path = os.path.join(tmp, "bad.json")
        write(path, json.dumps(doc))
        rc, out, err = run("report", path, "--source")
        tap.ok(rc != 0 and key in err and len(err.strip().splitlines()) == 1 and not out,
               "%s: refused in one line naming %s" % (what, key), err)
        if what.startswith("a hash"):
            tap.ok(not valid, "the schema refuses %s too" % what)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_as_recorded(tmp)
        test_unread_when_recorded(tmp)
        test_bad_input(tmp)
    tap.done()


if __name__ == "__main__":
    main()
