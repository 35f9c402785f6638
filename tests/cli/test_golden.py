#!/usr/bin/env python3
"""Golden outputs: every case of tests/golden/cases.txt (reports, merges and comparisons in
every format, list, metrics, help, usage errors) gives exactly the exit code, standard error
and standard output recorded in tests/golden/out/. A change of layout is a visible diff there
(tests/golden/generate.py rewrites them)."""
import difflib
import os
import sys

import tap
from gpuprof import BIN

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "golden"))
import generate  # noqa: E402


def first_difference(want, got):
    diff = difflib.unified_diff(want.decode("utf-8", "replace").splitlines(),
                                got.decode("utf-8", "replace").splitlines(),
                                "recorded", "now", lineterm="", n=1)
    return "\n".join(list(diff)[:16])


def main():
    names = set()
    for name, argv in generate.cases():
        names.add(name)
        path = os.path.join(generate.OUT, name)
        if not os.path.exists(path):
            tap.ok(False, "golden %s: recorded" % name, "run tests/golden/generate.py")
            continue
        with open(path, "rb") as f:
            want = f.read()
        got = generate.expected_bytes(*generate.run_case(BIN, argv))
        tap.ok(got == want, "golden %s: gpuprof %s" % (name, " ".join(argv))[:160],
               first_difference(want, got))
    stale = sorted(set(os.listdir(generate.OUT)) - names)
    tap.ok(not stale, "every recorded output has its case in cases.txt", " ".join(stale))
    tap.done()


if __name__ == "__main__":
    main()
