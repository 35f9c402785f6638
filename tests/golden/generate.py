#!/usr/bin/env python3
"""Write the golden outputs (tests/golden/out/) that tests/cli/test_golden.py holds the
binary to, byte for byte: every case of cases.txt, run without a GPU.

    generate.py [BUILD]           rewrite out/ from BUILD/gpuprof (default: build)
    generate.py --inputs [BUILD]  also rewrite inputs/, the synthetic reports some cases read

Regenerate only for a change of output that is meant; the diff of out/ is then the review
of that change."""
import copy
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(HERE, "out")
INPUTS = os.path.join(HERE, "inputs")


def cases():
    """(name, argv) of every line of cases.txt: `NAME ARG...`, # comments."""
    with open(os.path.join(HERE, "cases.txt")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                words = shlex.split(line)
                yield words[0], words[1:]


def run_case(binary, argv):
    """(exit code, stdout bytes, stderr bytes) of the binary, from the repository's root,
    with no GPU visible."""
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", LC_ALL="C")
    p = subprocess.run([binary] + argv, cwd=ROOT, capture_output=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


def expected_bytes(rc, out, err):
    """What a case's file holds: the exit code, then standard error, then standard output."""
    return b"exit %d\n--- stderr\n%s--- stdout\n%s" % (rc, err, out)


def load(name):
    with open(os.path.join(ROOT, "tests", "fixtures", name)) as f:
        return json.load(f)


CP_ASYNC_NOTE = ("loads via cp.async (LDGSTS) are not counted here: --metrics=async counts them "
                 "(cp_async_*)")
BROADCAST_NOTE = ("above 100 %: more bytes asked for than the transfers moved; ncu's metric "
                  "reads the same (docs/cupti.md, 7.4)")


def with_notes(doc):
    """The reduce fixture's first two results as a GEMM would show them: loads through
    cp.async (no LDG: gld/req n/a, with the note) and shared efficiency above 100 %."""
    doc = json.loads(json.dumps(doc))
    doc["results"] = doc["results"][:2]
    for sets in [[r["metrics"]] + [l["metrics"] for l in r["launches"]] for r in doc["results"]]:
        for m in sets:
            gld = m["gld_transactions_per_request"]
            gld["value"], gld["reason"], gld["note"] = None, "no requests", CP_ASYNC_NOTE
            for k in gld["inputs"]:
                gld["inputs"][k] = 0
            m["gld_efficiency"]["note"] = CP_ASYNC_NOTE
            m["gld_throughput"].update(value=0.0, note=CP_ASYNC_NOTE)
            m["shared_efficiency"].update(value=150.0, note=BROADCAST_NOTE)
            m["shared_efficiency"].pop("reason", None)
    return doc


def write_inputs():
    sys.path.insert(0, os.path.join(ROOT, "tests", "cli"))
    sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
    import test_html  # noqa: E402 (its report builders)
    os.makedirs(INPUTS, exist_ok=True)
    docs = {
        "exec-synthetic.json": test_html.exec_report(7, "<b>k</b>&\"x\"(int)"),
        "sweep-block.json": test_html.block_sweep(["interleaved", "shfl"], [64, 128, 256, 512]),
        "sweep-size.json": test_html.size_sweep("shfl", [20, 22, 24, 26]),
        "reduce-slower.json": test_html.slowed(load("reduce-default.json"), 2, 1.5),
        "notes.json": with_notes(load("reduce-default.json")),
        "reduce-nodevice.json": dict(load("reduce-default.json"), device=None),
        # second files of the same reports, for merges of one program's report twice (one
        # file named twice is refused)
        "exec-source-again.json": load("exec-source.json"),
        "exec-activities-again.json": load("exec-activities.json"),
    }
    for name, doc in docs.items():
        with open(os.path.join(INPUTS, name), "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")


def main():
    args = [a for a in sys.argv[1:] if a != "--inputs"]
    build = os.path.abspath(args[0] if args else os.path.join(ROOT, "build"))
    if "--inputs" in sys.argv[1:]:
        write_inputs()
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        os.remove(os.path.join(OUT, old))
    for name, argv in cases():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(expected_bytes(*run_case(os.path.join(build, "gpuprof"), argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
