#!/usr/bin/env python3
"""HACKING.md stays true: every path it names exists, every folder of src/ is in its floor
plan, and every layer rule about printing and exiting still holds in the code it names."""
import glob
import os
import re

import tap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOP = ("src/", "include/", "kernels/", "tests/", "bench/", "docs/", "schemas/", "man/", ".ci/",
       "third_party/")


def named_paths(text):
    """The repository's paths written in backquotes (from its top: src/..., man/gpuprof.1),
    less the patterns (kernels/X.cu, src/commands/cmd_*.c)."""
    out = []
    for token in re.findall(r"`([^`\s]+)`", text):
        if not token.startswith(TOP) or "*" in token or re.search(r"(^|[/_])X(\.|/|$)", token):
            continue
        out.append(token)
    return sorted(set(out))


def code_of(path):
    """A C file's text without its comments."""
    with open(path) as f:
        return re.sub(r"/\*.*?\*/|//[^\n]*", "", f.read(), flags=re.S)


def main():
    path = os.path.join(ROOT, "HACKING.md")
    if not tap.ok(os.path.exists(path), "HACKING.md exists"):
        tap.done()
    with open(path) as f:
        text = f.read()
    paths = named_paths(text)
    tap.ok(len(paths) >= 40, "HACKING.md names files by their paths (%d)" % len(paths))
    for p in paths:
        tap.ok(os.path.exists(os.path.join(ROOT, p)), "HACKING.md names %s, which exists" % p)
    for folder in sorted(glob.glob(os.path.join(ROOT, "src", "*", ""))):
        rel = os.path.relpath(folder, ROOT) + "/"
        tap.ok("`%s`" % rel in text, "HACKING.md's floor plan has %s" % rel)
    # "Only src/main.c prints errors or exits."
    offenders = []
    for f in glob.glob(os.path.join(ROOT, "src", "**", "*.c"), recursive=True):
        if f.endswith(os.path.join("src", "main.c")):
            continue
        code = code_of(f)
        if re.search(r"(?<![\w.])(exit|abort)\s*\(", code):
            offenders.append(os.path.relpath(f, ROOT))
        if re.search(r"\bf?printf\s*\(\s*stderr", code):
            offenders.append(os.path.relpath(f, ROOT))
    tap.ok(not offenders, "only src/main.c exits or prints to stderr", offenders)
    tap.done()


if __name__ == "__main__":
    main()
