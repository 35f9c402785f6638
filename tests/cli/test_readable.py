#!/usr/bin/env python3
"""Reports a person acts on in ten seconds (issue 46), on the recorded PyTorch training loop
(tests/fixtures/exec-torch.json, 24 kernels):
- the default exec text is the summary and one metric table, each a row per kernel, and the
  GPU activities list each kernel no more (one row of them all): at most 100 lines;
- the ideal beside each per-request value in every format, where the report has it. The
  recording predates the ideal metrics, so the test adds them to each launch as gpuprof derives
  them (data bytes / 32 / requests), from the counters the launch recorded for its other
  metrics: the vectorised kernels' 16 sectors per request then read against an ideal of 16."""
import copy
import csv
import io
import json
import os
import re
import tempfile

import tap
from gpuprof import run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TORCH = os.path.join(ROOT, "tests", "fixtures", "exec-torch.json")
NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}
# Each ideal: (its key, its per-request metric, the metric holding its data bytes, that
# counter, the requests' counter).
IDEALS = (("gld_ideal_per_request", "gld_transactions_per_request", "gld_efficiency",
           "smsp__sass_data_bytes_mem_global_op_ld.sum",
           "smsp__sass_inst_executed_op_global_ld.sum"),
          ("gst_ideal_per_request", "gst_transactions_per_request", "gst_efficiency",
           "smsp__sass_data_bytes_mem_global_op_st.sum",
           "smsp__sass_inst_executed_op_global_st.sum"))


def with_ideals(metrics):
    """A launch's metrics with each ideal after its per-request metric, as gpuprof derives it
    from the counters the launch recorded: null, with the reason, where there were no
    requests."""
    out = {}
    for key, value in metrics.items():
        out[key] = value
        for ideal, of, holder, data, requests in IDEALS:
            if key != of or holder not in metrics:
                continue
            nbytes = metrics[holder]["inputs"].get(data)
            nreq = value["inputs"].get(requests)
            if nbytes is None or nreq is None:
                continue
            out[ideal] = {"value": nbytes / 32.0 / nreq if nreq else None,
                          "unit": "sectors/request", "inputs": {data: nbytes, requests: nreq}}
            if not nreq:
                out[ideal]["reason"] = "no requests"
    return out


def ideal_report(tmp):
    with open(TORCH) as f:
        doc = json.load(f)
    doc = copy.deepcopy(doc)
    for launch in doc["exec"]["launches"]:
        if launch.get("metrics"):
            launch["metrics"] = with_ideals(launch["metrics"])
    path = os.path.join(tmp, "torch-ideal.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def test_default_text():
    rc, out, err = run("report", TORCH, env=NO_GPU)
    lines = out.splitlines()
    numbers = {}
    for line in lines:
        if line.startswith("* "):  # a note, naming the kernels it is about
            continue
        for n in re.findall(r"(?:^|\s)(#\d+) ", line):
            numbers[n] = numbers.get(n, 0) + 1
    tap.ok(rc == 0 and len(lines) <= 100,
           "the default exec text of a 24-kernel PyTorch loop: %d lines, at most 100"
           % len(lines), err)
    tap.ok(len(numbers) == 24 and set(numbers.values()) == {2},
           "each kernel's #N twice: its summary row and its metric row", numbers)
    kernel_rows = [l for l in lines if "kernels: each in the summary]" in l]
    tap.ok(len(kernel_rows) == 1 and kernel_rows[0].split()[2] == "92",
           "the GPU activities list the 24 kernels as one row of their 92 calls", out)
    rc, wide, _ = run("report", TORCH, "--wide", env=NO_GPU)
    tap.ok(rc == 0 and not any("each in the summary]" in l for l in wide.splitlines()) and
           len(re.findall(r"(?m)^\s*\d+\.\d\d% .*#1 ", wide)) == 1,
           "--wide: the GPU activities list each kernel", wide)


def row_of(lines, head, number):
    """A table's cells by heading (the first of two alike), in the row of kernel #number."""
    cols = head.split()
    for line in lines:
        if re.search(r"\s#%d " % number, line):
            return dict(reversed(list(zip(cols, line.split()))))
    return {}


def test_ideal_everywhere(tmp):
    path = ideal_report(tmp)
    rc, out, err = run("report", path, env=NO_GPU)
    lines = out.splitlines()
    heads = [l for l in lines if l.startswith("gld/req")]
    head = heads[0] if heads else ""
    tap.ok(rc == 0 and head.split()[:4] == ["gld/req", "ideal", "gst/req", "ideal"],
           "text: each per-request column with its ideal beside it", out or err)
    table = lines[lines.index(head) + 1:] if head else []
    vector = row_of(table, head, 5)  # a multi_tensor_apply kernel: 16-byte loads and stores
    tap.ok([vector.get(k) for k in ("gld/req", "gst/req")] == ["16.00", "16.00"] and
           head.split()[1] == "ideal" and table[4].split()[1] == "16.00",
           "text: the vectorised kernel's 16 sectors per request beside an ideal of 16", out)
    strided = [l.split()[:4] for l in table if re.search(r"\s#18 ", l)]
    tap.ok(strided and strided[0][2] == "32.00" and strided[0][3] == "4.00",
           "text: a strided store's 32 sectors per request beside an ideal of 4", strided)

    rc, md, err = run("report", path, "--markdown", env=NO_GPU)
    tap.ok(rc == 0 and re.search(r"^\| gld/req \| ideal \| gst/req \| ideal \|", md, re.M),
           "Markdown: the ideal columns beside their values", md or err)

    rc, doc_text, err = run("report", path, "--json", env=NO_GPU)
    doc = json.loads(doc_text) if rc == 0 else {}
    kernels = {k["number"]: k for k in doc.get("exec", {}).get("kernels", [])}
    five = kernels.get(5, {}).get("metrics", {})
    tap.ok(abs(five.get("gld_ideal_per_request", {}).get("average", 0) - 16.0) < 1e-9 and
           abs(five.get("gld_transactions_per_request", {}).get("average", 0) - 16.0) < 1e-9,
           "JSON: a kernel's ideal beside its sectors per request, 16 and 16", five)

    rc, text_csv, err = run("report", path, "--csv", env=NO_GPU)
    rows = list(csv.DictReader(io.StringIO(text_csv))) if rc == 0 else []
    head = list(rows[0].keys()) if rows else []
    sixteen = [r for r in rows if r.get("gld_transactions_per_request_avg") == "16"]
    tap.ok(len([r for r in sixteen if r["gld_ideal_per_request_avg"] == "16"]) >= 8 and "gld_transactions_per_request_max" in head and
           head[head.index("gld_transactions_per_request_max") + 1] == "gld_ideal_per_request_min",
           "CSV: the ideal's columns right after gld/req's, 16 beside the vectorised kernels' 16",
           head)

    rc, html, err = run("report", path, "--html", env=NO_GPU)
    at = html.find(">gld/req<")
    tap.ok(rc == 0 and at >= 0 and html.find(">ideal<", at) > at and
           html.find(">ideal<", at) < html.find(">gst/req<", at),
           "HTML: the ideal column beside gld/req in the kernels' table", err)


def test_cp_async_column(tmp):
    """A kernel that loads through cp.async shows its async sectors in its row: a column only
    where a kernel has a value. The recording predates the default set's cp.async sectors:
    the test gives the two cuBLAS cp.async kernels' launches the metric (16 sectors per
    request, 16-byte copies) to see where the table puts it."""
    with open(TORCH) as f:
        doc = json.load(f)
    plain = os.path.join(tmp, "torch-plain.json")
    with open(plain, "w") as f:
        json.dump(doc, f)
    rc, out, _ = run("report", plain, env=NO_GPU)
    tap.ok(rc == 0 and "cpasync/req" not in out,
           "no kernel with cp.async sectors: no cpasync/req column", out)
    for launch in doc["exec"]["launches"]:
        m = launch.get("metrics") or {}
        if "cp.async" in (m.get("gld_efficiency") or {}).get("note", ""):
            m["cp_async_sectors_per_request"] = {
                "value": 16.0, "unit": "sectors/request",
                "inputs": {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum": 1600,
                           "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum": 100}}
    path = os.path.join(tmp, "torch-cpasync.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    rc, out, _ = run("report", path, env=NO_GPU)
    lines = out.splitlines()
    head = [l for l in lines if l.startswith("gld/req")]
    cols = head[0].split() if head else []
    at = cols.index("cpasync/req") if "cpasync/req" in cols else -1
    table = lines[lines.index(head[0]) + 1:] if head else []
    table = table[:[i for i, l in enumerate(table) if l.startswith("columns:")][0]]
    rows = [l.split() for l in table if re.search(r"\s#[1-4] ", l)]
    others = [l.split() for l in table if not re.search(r"\s#[1-4] ", l)]
    tap.ok(at > 0 and len(rows) == 4 and all(r[at] == "16.00" for r in rows) and
           others and all(r[at] == "-" for r in others),
           "the cp.async kernels' rows show their cp.async sectors per request", out)


def test_results_wide(tmp):
    """A kernel command's table keeps its 120 columns; --wide adds the ideals."""
    with open(os.path.join(ROOT, "tests", "fixtures", "reduce-default.json")) as f:
        doc = json.load(f)
    for res in doc["results"]:
        if res.get("metrics"):
            res["metrics"] = with_ideals(res["metrics"])
    path = os.path.join(tmp, "reduce-ideal.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    rc, out, err = run("report", path, env=NO_GPU)
    tap.ok(rc == 0 and "ideal" not in out.split("columns:")[1].split("\n\n")[0] and
           max(len(l) for l in out.splitlines()) <= 120,
           "a kernel command's table: its 120 columns, without the ideals", out or err)
    rc, out, err = run("report", path, "--wide", env=NO_GPU)
    head = [l.split() for l in out.splitlines() if l.startswith("variant")]
    cols = head[0] if head else []
    at = cols.index("gld_transactions_per_request") if "gld_transactions_per_request" in cols else -2
    rows = {l.split()[0]: l.split() for l in out.splitlines() if l.split()[:1] == ["shfl"]}
    tap.ok(cols[at + 1:at + 2] == ["gld_ideal_per_request"] and
           rows.get("shfl", [])[at + 1:at + 2] == ["16.00"],
           "--wide: the ideal beside gld/req, 16 for shfl's 16-byte loads", out or err)


def main():
    test_default_text()
    with tempfile.TemporaryDirectory() as tmp:
        test_ideal_everywhere(tmp)
        test_results_wide(tmp)
        test_cp_async_column(tmp)
    tap.done()


if __name__ == "__main__":
    main()
