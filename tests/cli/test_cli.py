#!/usr/bin/env python3
"""The real binary without a GPU: usage errors and exit codes, --help, list, the man page
and --help against the tables, report on recorded fixtures, JSON against the schemas,
metrics for a named chip, and what happens with no GPU."""
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile

import tap
from gpuprof import BIN, BUILD, has_gpu, run, run_json
from reports import as_written_now
from schema import validate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = sorted(glob.glob(os.path.join(ROOT, "tests", "fixtures", "*.json")))
NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}  # a usage error must not need (or touch) a GPU


def kernel_commands():
    rc, doc, _ = run_json("list", "--json")
    return [f["name"] for f in doc["families"]] if rc == 0 and doc else []


def help_options(command):
    """Options a command's --help lists, e.g. ['--block', '--json', ...]."""
    rc, out, _ = run(command, "--help")
    return rc, re.findall(r"^  (--[a-z-]+)", out, re.M)


def test_help_and_version():
    rc, out, err = run("--help")
    tap.ok(rc == 0 and "Usage: gpuprof <command>" in out and not err, "--help prints usage, exit 0")
    for cmd in kernel_commands() + ["list", "device", "metrics", "report", "exec"]:
        tap.ok(cmd in out, "--help names the command %s" % cmd)
        rc, out_c, _ = run(cmd, "--help")
        tap.ok(rc == 0 and out_c.startswith("Usage: gpuprof %s" % cmd), "%s --help, exit 0" % cmd)
    rc, out, _ = run("help", "reduce")
    tap.ok(rc == 0 and out.startswith("Usage: gpuprof reduce"), "help reduce")
    rc, out, _ = run("--version")
    tap.ok(rc == 0 and re.match(r"^gpuprof \d+\.\d+\.\d+\n$", out), "--version", out)


USAGE_ERRORS = [
    ([], "no command"),
    (["bogus"], "unknown command 'bogus'"),
    (["--bogus"], "unknown option"),
    (["reduce", "--bogus"], "unknown option '--bogus'"),
    (["reduce", "--variant=nope"], "valid: neighbored"),
    (["reduce", "--block=32", "--variant=unrollwarps8"], "not allowed"),
    (["reduce", "--block=48"], "not allowed"),
    (["reduce", "--block=abc"], "invalid block"),
    (["reduce", "--size=0"], "at least 1"),
    (["reduce", "--size=-3"], "invalid size"),
    (["reduce", "--size=1e6"], "invalid size"),
    (["reduce", "--size=99999999999999999999999"], "invalid size"),
    (["reduce", "--type=double"], "invalid type"),
    (["reduce", "--repeat=0"], "must be from 1"),
    (["reduce", "--warmup=x"], "whole number"),
    (["reduce", "--device=-1"], "whole number"),
    (["reduce", "--json", "--csv"], "cannot be combined"),
    (["reduce", "--no-header"], "--csv"),
    (["reduce", "stray"], "unexpected argument"),
    (["reduce", "--metrics=bogus"], "unknown metric"),
    (["reduce", "--metrics=l3"], "did you mean 'l2'"),
    (["reduce", "--metrics=default,sysmm"], "did you mean 'sysmem'"),
    (["reduce", "--metrics=l2,all"], "cannot be combined"),
    (["exec", "--metrics=asynch", "true"], "did you mean 'async'"),
    (["reduce", "--metrics=none", "--require-metrics"], "contradicts"),
    (["exec", "--source", "--metrics=none", "--", "./app"], "cannot go with --metrics=none"),
    (["reduce", "--repeat"], "needs a value"),
    (["reduce", "--json=yes"], "takes no value"),
    (["list", "--block=5"], "option '--block' does not apply to 'list'"),
    (["report"], "needs FILE"),
    (["metrics", "--chip=GH100", "--device=0"], "cannot be combined"),
    # Variant-specific: only the launch arithmetic shows them, still before any device.
    (["saxpy", "--variant=monolithic", "--block=1", "--size=2^32"], "more than a grid holds"),
    (["reduce", "--variant=neighbored", "--block=32", "--size=2^36"], "more than a grid holds"),
    (["reduce2d", "--group=3"], "power of two"),
    (["transpose", "--pad=0,33"], "must be from 0 to 32"),
    (["exec"], "needs [--] PROGRAM"),
    (["exec", "--bogus", "true"], "unknown option '--bogus'"),
    (["exec", "--kernel=(", "true"], "invalid value '(' for --kernel"),
    (["report", "x.json", "--launches", "--html"], "--launches does not apply to --html"),
    (["exec", "--output=%x", "true"], "unknown '%x'"),
    (["exec", "--output=%q{GPUPROF_SURELY_UNSET}", "true"], "is not set"),
    (["exec", "--launch-count=0", "true"], "must be from 1"),
    (["exec", "--per-kernel=x", "true"], "whole number"),
    (["exec", "--rank=x", "true"], "invalid value 'x' for --rank: expected a whole number"),
    (["exec", "--rank=-1", "true"], "invalid value '-1' for --rank"),
    (["exec", "--rank=2147483648", "true"], "must be from 0 to 2147483647"),
    (["exec", "--", ""], "empty program name"),
    (["exec", "--json", "true"], "exec --json needs --output=FILE"),
    (["exec", "--csv", "--launches", "--", "true"], "exec --csv needs --output=FILE"),
    (["exec", "--force", "true"], "--force applies to --output only"),
    (["exec", "--output=README.md", "true"], "README.md exists (--force replaces it)"),
    (["reduce", "-f"], "unknown option '-f' for 'reduce'"),
]


def test_usage_errors():
    # (The list stays literal: tests/fuzz/cli_seeds.py reads it.)
    long_pattern = (["exec", "--kernel=" + "k" * 256, "true"],
                    "--kernel: longer than 255 characters")
    for args, message in USAGE_ERRORS + [long_pattern]:
        rc, out, err = run(*args, env=NO_GPU)
        lines = err.strip().splitlines()
        good = rc == 2 and not out and len(lines) == 1 and lines[0].startswith("gpuprof: ")
        tap.ok(good and message in err, "usage error, exit 2, one line: %s" % " ".join(args),
               "rc=%d stderr=%r stdout=%r" % (rc, err, out[:200]))


def test_list():
    rc, doc, _ = run_json("list", "--json")
    tap.ok(rc == 0 and doc is not None, "list --json parses")
    valid, why = validate(doc, "gpuprof-catalog-v1.schema.json")
    tap.ok(valid, "list --json is valid against the catalogue schema", why)
    rc, text, _ = run("list")
    rc2, csv, _ = run("list", "--csv")
    rc3, csv_nh, _ = run("list", "--csv", "--no-header")
    variants = [(f["name"], v["name"]) for f in doc["families"] for v in f["variants"]]
    for fam, var in variants:
        tap.ok(re.search(r"^  %s\s" % re.escape(var), text, re.M) is not None,
               "list shows %s %s" % (fam, var))
    tap.ok(rc2 == 0 and len(csv.strip().splitlines()) == len(variants) + 1,
           "list --csv: header + one row per variant")
    tap.ok(rc3 == 0 and len(csv_nh.strip().splitlines()) == len(variants),
           "list --csv --no-header: one row per variant")


def man_text():
    """The man page with roff escapes removed, so '\\-\\-block' reads '--block'."""
    with open(os.path.join(ROOT, "man", "gpuprof.1")) as f:
        text = f.read()
    text = re.sub(r"\\f[BIRP]", "", text)
    return text.replace("\\-", "-").replace("\\(em", "-").replace("\\e", "\\")


def test_man_page_and_help_cover_everything():
    man = man_text()
    rc, doc, _ = run_json("list", "--json")
    commands = kernel_commands() + ["list", "device", "metrics", "report", "exec"]
    all_options = set()
    for cmd in commands:
        tap.ok(re.search(r"^\.SS %s\b" % cmd, man, re.M) is not None,
               "man page has a section for the command %s" % cmd)
        _, opts = help_options(cmd)
        all_options.update(opts)
        for opt in opts:
            tap.ok(opt in man, "man page documents %s %s" % (cmd, opt))
    # Each option the parser accepts for a command appears in that command's --help.
    for cmd in commands:
        _, listed = help_options(cmd)
        for opt in sorted(all_options):
            rc, _, err = run(cmd, opt + "=1" if opt != "--help" else opt, env=NO_GPU)
            accepted = re.search(r"unknown option|option '--[a-z-]+' does not apply to", err) is None
            # An unambiguous prefix of a listed option is accepted by design (GNU style), but
            # never when it is another command's option in full (report --metrics).
            expected = opt in listed
            tap.ok(accepted == expected,
                   "%s %s: accepted by the parser iff listed in --help" % (cmd, opt), err)
    for fam in doc["families"]:
        rc, help_text, _ = run(fam["name"], "--help")
        for v in fam["variants"]:
            tap.ok(re.search(r"^\.TP\n\.B %s$" % re.escape(v["name"]), man, re.M) is not None
                   or ("\n.B %s\n" % v["name"]) in man,
                   "man page documents variant %s %s" % (fam["name"], v["name"]))
            tap.ok(re.search(r"^  %s\s" % re.escape(v["name"]), help_text, re.M) is not None,
                   "%s --help lists variant %s" % (fam["name"], v["name"]))
    rc, metrics, _ = run_json("metrics", "--chip=GH100", "--json")
    for m in (metrics or {}).get("metrics", []):
        tap.ok(m["key"] in man, "man page documents metric %s" % m["key"])
    for code in range(4):
        tap.ok(re.search(r"^\.B %d$|^\.IP %d\b|^%d\s" % (code, code, code), man, re.M) is not None,
               "man page documents exit status %d" % code)


def activity_rows(exec_doc):
    """exec's CSV rows besides the kernels': a kind of copy or memset, a kind and host
    memory, a unified-memory counter."""
    copies = exec_doc.get("copies", [])
    return ([c["kind"] for c in copies] +
            [(c["kind"], h) for c in copies for h in c.get("host_memory", {})] +
            list(exec_doc.get("unified_memory", {})))


def test_fixtures_and_report():
    tap.ok(len(FIXTURES) >= 1, "recorded fixtures exist", "tests/fixtures/*.json")
    for path in FIXTURES:
        name = os.path.basename(path)
        with open(path) as f:
            fixture = json.load(f)
        valid, why = validate(fixture, "gpuprof-report-v1.schema.json")
        tap.ok(valid, "%s is valid against the report schema" % name, why)
        if "exec" in fixture:
            broken = dict(fixture, exec=dict(fixture["exec"], launches="none"))
        else:
            broken = dict(fixture, results=[dict(fixture["results"][0], check="passed")])
        valid, _ = validate(broken, "gpuprof-report-v1.schema.json")
        tap.ok(not valid, "%s with a malformed part is rejected by the validator" % name)
        rc, out, err = run("report", path)
        tap.ok(rc == 0 and fixture["device"]["name"] in out, "report %s: text" % name, err)
        rows = fixture["results"] or fixture["exec"]["kernels"] + activity_rows(fixture["exec"])
        names = [r["variant"] for r in fixture["results"]] or \
            [k["kernel"].split("(")[0] for k in fixture["exec"]["kernels"]]
        # names whole with --wide --kernel-name=function: at 120 columns long ones are cut in
        # the middle
        rc, wide, err = run("report", path, "--wide", "--kernel-name=function")
        for row_name in names:
            tap.ok(row_name in wide, "report %s --wide: row for %s" % (name, row_name))
        rc, again, err = run_json("report", path, "--json")
        tap.ok(rc == 0 and again == as_written_now(fixture),
               "report %s --json reproduces the fixture" % name, err)
        rc, csv, _ = run("report", path, "--csv")
        tap.ok(rc == 0 and len(csv.splitlines()) == len(rows) + 1,
               "report %s --csv: header + one row per result or kernel" % name)
        if "exec" in fixture:
            rc, csv, _ = run("report", path, "--csv", "--launches")
            every = len(fixture["exec"]["launches"]) + len(fixture["exec"].get("activities", []))
            tap.ok(rc == 0 and len(csv.splitlines()) == every + 1,
                   "report %s --csv --launches: header + one row per launch, copy and memset"
                   % name)
        rc, detail, _ = run("report", path, "--metrics-detail")
        if fixture["profiler"]["state"] == "ok":
            head = "Kernel #1: " if "exec" in fixture else "Kernel: "
            tap.ok(rc == 0 and head in detail, "report %s --metrics-detail" % name)


def test_report_errors():
    rc, _, err = run("report", "/nonexistent/report.json")
    tap.ok(rc == 1 and "cannot open" in err, "report of a missing file: exit 1", err)
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as f:
            f.write("{not json")
        rc, _, err = run("report", bad)
        tap.ok(rc == 1 and "not valid JSON" in err, "report of invalid JSON: exit 1", err)
        with open(bad, "w") as f:
            json.dump({"schema_version": 99, "results": []}, f)
        rc, _, err = run("report", bad)
        tap.ok(rc == 1 and "schema_version 99" in err, "report of a future schema: exit 1", err)
        with open(bad, "w") as f:
            json.dump({"schema_version": 1}, f)
        rc, _, err = run("report", bad)
        tap.ok(rc == 1 and "bad.json: tool: missing" in err, "report without tool: exit 1", err)
        with open(bad, "w") as f:
            json.dump({"results": []}, f)
        rc, _, err = run("report", bad)
        tap.ok(rc == 1 and "not a gpuprof report" in err, "report without schema_version: exit 1",
               err)


def test_write_failure():
    """A full disk or a closed pipe is the run's failure: one line, exit 1."""
    if not os.path.exists("/dev/full"):
        tap.skip("writing to a full device", "no /dev/full here")
        return
    fixture = FIXTURES[0]
    for args in (["report", fixture, "--metrics-detail"], ["report", fixture, "--json"],
                 ["list"], ["metrics", "--chip=GH100"], ["--help"]):
        with open("/dev/full", "w") as full:
            p = subprocess.run([BIN] + args, stdout=full, stderr=subprocess.PIPE, text=True)
        lines = p.stderr.strip().splitlines()
        tap.ok(p.returncode == 1 and len(lines) == 1 and
               "cannot write the output: No space left on device" in lines[0],
               "%s > /dev/full: exit 1, one line naming the cause" % " ".join(args[:1] + args[2:]),
               p.stderr)


def test_exec_without_running():
    """exec refuses what cannot run before anything starts: 127 for a program that is not
    there, 126 for one that cannot be run (as env(1)), 3 with no GPU."""
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "not-executable")
        with open(plain, "w") as f:
            f.write("#!/bin/sh\necho hi\n")
        cases = [(["exec", os.path.join(tmp, "missing")], 127, "No such file or directory"),
                 (["exec", "gpuprof-surely-no-such-command"], 127, "command not found"),
                 (["exec", tmp], 126, "Is a directory"),
                 (["exec", "--", plain], 126, "Permission denied")]
        for args, code, message in cases:
            rc, out, err = run(*args, env=NO_GPU)
            lines = err.strip().splitlines()
            tap.ok(rc == code and not out and len(lines) == 1 and message in err,
                   "exec %s: exit %d, one line" % (os.path.basename(args[-1]), code), err)
    gpu, _ = has_gpu()
    if gpu:
        tap.skip("exec without a GPU: exit 3", "a GPU is present")
        return
    rc, out, err = run("exec", "--", "true")
    tap.ok(rc == 3 and "no usable CUDA device" in err and not out,
           "exec without a GPU: exit 3 before the program starts", err)


# The groups of issue 28 and their metrics: `gpuprof metrics` lists each with its group,
# counters and ncu metric, and --metrics takes the groups.
GROUPS = {
    "local": ["local_load_transactions", "local_store_transactions",
              "local_load_transactions_per_request", "local_store_transactions_per_request",
              "local_memory_overhead"],
    "l2": ["l2_read_transactions", "l2_write_transactions", "l2_read_throughput",
           "l2_write_throughput", "l2_hit_rate", "l2_tex_hit_rate", "global_hit_rate"],
    "atomics": ["atomic_transactions", "atomic_transactions_per_request"],
    "sysmem": ["sysmem_read_bytes", "sysmem_write_bytes", "sysmem_read_throughput",
               "sysmem_write_throughput"],
    "async": ["cp_async_requests", "cp_async_sectors_per_request", "cp_async_efficiency",
              "tma_load_bytes", "tma_store_bytes", "tma_load_throughput", "tma_store_throughput"],
}


def test_metrics_for_a_chip():
    rc, out, err = run("metrics", "--chip=GH100")
    m = re.search(r"passes per kernel: ((?:[a-z0-9]+ \d+, )+)all (\d+)", out)
    tap.ok(rc == 0 and m is not None, "metrics --chip=GH100 counts passes", err)
    if m:
        per_group = {g: int(n) for g, n in re.findall(r"([a-z0-9]+) (\d+)", m.group(1))}
        everything = int(m.group(2))
        tap.ok(set(per_group) == {"default"} | set(GROUPS),
               "a pass count per group: %s" % m.group(0))
        tap.ok(all(1 <= n <= everything <= 8 for n in per_group.values()),
               "pass counts are plausible: %s" % m.group(0))
        # Each pass replays every kernel: the default set is chosen to fit in two on an H100.
        tap.ok(per_group.get("default") == 2,
               "the default set takes 2 passes on GH100 (%s)" % per_group.get("default"))
    tap.ok("NOT AVAILABLE" not in out, "every catalogue metric exists on GH100")
    rc, doc, _ = run_json("metrics", "--chip=GH100", "--json")
    valid, why = validate(doc, "gpuprof-catalog-v1.schema.json") if doc else (False, "no JSON")
    tap.ok(rc == 0 and valid, "metrics --chip=GH100 --json is valid", why)
    rows = {r["key"]: r for r in (doc or {}).get("metrics", [])}
    for group, keys in GROUPS.items():
        for key in keys:
            r = rows.get(key)
            block = re.search(r"^%s\s.*\n((?:    .*\n)+)" % key, out, re.M)
            listed = block is not None and all(c in block.group(1) for c in (r or {}).get(
                "inputs", ["?"])) and "ncu: " in block.group(1)
            tap.ok(r is not None and r["set"] == group and r["available"] and listed,
                   "metrics --chip=GH100 lists %s in %s, with its counters and ncu metric"
                   % (key, group), r)
    rc, doc, _ = run_json("metrics", "--chip=GA102", "--json")
    valid, why = validate(doc, "gpuprof-catalog-v1.schema.json") if doc else (False, "no JSON")
    tap.ok(rc == 0 and valid, "metrics --chip=GA102 --json is valid", why)
    rc, _, err = run("metrics", "--chip=NOPE100")
    tap.ok(rc == 2 and "unknown chip" in err, "an unknown chip is a usage error", err)


def test_metric_groups_accepted():
    """Groups, alone, together and with keys, pass the parser: without a GPU the command
    gets as far as looking for one (exit 3), never a usage error."""
    gpu, _ = has_gpu()
    if gpu:
        tap.skip("--metrics groups reach the GPU check", "a GPU is present")
        return
    for value in ["local", "l2", "atomics", "sysmem", "async", "default,l2",
                  "l2,atomics,gld_efficiency", "default,local,l2,atomics,sysmem,async"]:
        rc, out, err = run("reduce", "--metrics=" + value)
        tap.ok(rc == 3 and "no usable CUDA device" in err and not out,
               "--metrics=%s is accepted" % value, err)


def test_without_gpu():
    gpu, reason = has_gpu()
    if gpu:
        for what in ("reduce exits 3", "device exits 3", "metrics shows the catalogue"):
            tap.skip("without a GPU: " + what, "a GPU is present")
        return
    rc, out, err = run("reduce")
    tap.ok(rc == 3 and "no usable CUDA device" in err and not out,
           "reduce without a GPU: exit 3, one reason", err)
    rc, out, err = run("device")
    tap.ok(rc == 3 and "no usable CUDA device" in err, "device without a GPU: exit 3", err)
    rc, out, err = run("metrics")
    tap.ok(rc == 0 and "gld_efficiency" in out and "--chip" in err,
           "metrics without a GPU: the catalogue, and a hint to use --chip", err)


def test_install():
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run(["make", "-s", "install", "BUILD=" + BUILD, "DESTDIR=" + tmp,
                            "PREFIX=/usr"], cwd=ROOT, capture_output=True, text=True)
        binary = os.path.join(tmp, "usr", "bin", "gpuprof")
        man = os.path.join(tmp, "usr", "share", "man", "man1", "gpuprof.1")
        tap.ok(p.returncode == 0 and os.path.exists(binary) and os.path.exists(man),
               "make install DESTDIR=... PREFIX=/usr installs the binary and the man page",
               p.stderr)
        # The schemas go where --help and the man page's FILES say, under PREFIX.
        _, help_text, _ = run("reduce", "--help")
        said = re.search(r"JSON Schema in PREFIX(/\S+/)\)", help_text)
        folder = said.group(1) if said else "(not in --help)"
        tap.ok("PREFIX%sgpuprof-report-v1.schema.json" % folder in man_text(),
               "the man page's FILES name the folder --help names (%s)" % folder)
        for name in sorted(os.listdir(os.path.join(ROOT, "schemas"))):
            installed = os.path.join(tmp, "usr", folder.strip("/"), name)
            with open(os.path.join(ROOT, "schemas", name)) as f:
                source = f.read()
            copy = None
            if os.path.exists(installed):
                with open(installed) as f:
                    copy = f.read()
            tap.ok(copy == source, "make install puts %s in PREFIX%s" % (name, folder),
                   installed)
        p = subprocess.run(["make", "-s", "uninstall", "BUILD=" + BUILD, "DESTDIR=" + tmp,
                            "PREFIX=/usr"], cwd=ROOT, capture_output=True, text=True)
        left = [os.path.join(d, f) for d, _, fs in os.walk(tmp) for f in fs]
        tap.ok(p.returncode == 0 and not left, "make uninstall removes every file", left)
        if os.path.exists(binary):
            # Moved away from the build folder, it must still find cJSON.
            q = subprocess.run([binary, "--version"], capture_output=True, text=True)
            tap.ok(q.returncode == 0 and q.stdout.startswith("gpuprof "),
                   "the installed binary runs on its own", q.stderr)


def main():
    if not tap.ok(os.path.exists(BIN), "the binary exists at %s (make builds it)" % BIN):
        tap.done()
    test_help_and_version()
    test_usage_errors()
    test_list()
    test_man_page_and_help_cover_everything()
    test_fixtures_and_report()
    test_report_errors()
    test_write_failure()
    test_exec_without_running()
    test_metrics_for_a_chip()
    test_without_gpu()
    test_install()
    tap.done()


if __name__ == "__main__":
    main()
