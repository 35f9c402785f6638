"""Saved reports for tests: read one, and write derived ones into a temporary folder."""
import json
import os


def load(path):
    with open(path) as f:
        return json.load(f)


class Files:
    """Numbered files in `tmp` (or named): a report's JSON, or text as given."""

    def __init__(self, tmp):
        self.tmp, self.count = tmp, 0

    def write(self, doc, name=None):
        self.count += 1
        path = os.path.join(self.tmp, name or "r%d.json" % self.count)
        with open(path, "w") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))
        return path


def as_written_now(doc):
    """The report as this gpuprof writes it back: an exec report recorded before graph
    profiling gains what an absent key means, "graph_profiling": "node" and each launch's
    "how": [] and "note": null; one recorded before the NVTX filters, empty lists of them."""
    if "exec" not in doc:
        return doc
    doc = json.loads(json.dumps(doc))
    doc["exec"].setdefault("graph_profiling", "node")
    doc["exec"]["filters"].setdefault("nvtx_include", [])
    doc["exec"]["filters"].setdefault("nvtx_exclude", [])
    for launch in doc["exec"]["launches"]:
        launch.setdefault("how", [])
        launch.setdefault("note", None)
    return doc
