#!/usr/bin/env python3
"""Seed corpus for fuzz_cli: every literal command line of the tests and the README, one file
each, one argument a line (without argv[0]).

    cli_seeds.py OUT tests/cli/test_cli.py tests/unit/test_cli.c README.md

From test_cli.py: the USAGE_ERRORS lists and run()/run_json() calls whose arguments are all
string literals. From test_cli.c: parse(...) and refused(why, ...) calls of literals only.
From a Markdown file: `gpuprof ...` lines of its sh blocks (up to a # comment, no pipes)."""
import ast
import hashlib
import os
import re
import shlex
import sys


def from_python(path):
    tree = ast.parse(open(path).read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "USAGE_ERRORS"
                                                for t in node.targets):
            for args, _ in ast.literal_eval(node.value):
                yield list(args)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("run", "run_json"):
            if node.args and all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                                 for a in node.args):
                yield [a.value for a in node.args]


LITERAL = r'"(?:[^"\\]|\\.)*"'
CALL = re.compile(r"\b(parse|refused)\(\s*((?:%s\s*,\s*)*)(?:NULL\s*,\s*)?NULL\s*\)" % LITERAL)


def from_c(path):
    text = open(path).read()
    for m in CALL.finditer(text):
        args = [ast.literal_eval(s) for s in re.findall(LITERAL, m.group(2))]
        yield args[1:] if m.group(1) == "refused" else args


def from_markdown(path):
    for block in re.findall(r"```sh\n(.*?)```", open(path).read(), re.S):
        block = block.replace("\\\n", " ")  # a backslash at a line's end continues it
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if line.startswith("gpuprof ") and not re.search(r"[|;>$]", line):
                yield shlex.split(line)[1:]


def main():
    out, sources = sys.argv[1], sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    seen = set()
    for src in sources:
        read = from_python if src.endswith(".py") else from_c if src.endswith(".c") else from_markdown
        for args in read(src):
            data = "".join(a + "\n" for a in args).encode()
            if data in seen:
                continue
            seen.add(data)
            name = "seed-" + hashlib.sha1(data).hexdigest()[:12]
            with open(os.path.join(out, name), "wb") as f:
                f.write(data)
    print("cli_seeds: %d command lines into %s" % (len(seen), out))


if __name__ == "__main__":
    main()
