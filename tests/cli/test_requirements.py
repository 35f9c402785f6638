#!/usr/bin/env python3
"""The tests need the Python standard library only: every module a Python file under tests/
imports (code held in strings for a subprocess included) is in the standard library or one of
the tests' own. An optional module (OPTIONAL) is imported only inside `try: ... except
ImportError`, by a test that reports skip without it, and the README's Requirements name its
package as optional."""
import ast
import glob
import importlib.util
import os
import re
import sys
import sysconfig

import tap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMPORT = re.compile(r"^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)|^\s*from\s+([\w.]+)\s+import\b", re.M)
# module: (its Debian package, what uses it)
OPTIONAL = {
    "jsonschema": ("python3-jsonschema", "tests/cli/test_schema.py cross-checks "
                   "tests/lib/schema.py against it"),
    "torch": ("PyTorch", "tests/apps/torch_train.py, the training loop behind "
              "tests/fixtures/exec-torch.json, is recorded with it on a GPU, and "
              "tests/gpu/test_ddp.py runs tests/apps/ddp_train.py with it on two GPUs"),
    "triton": ("Triton", "tests/apps/torch_compile.py's torch.compile generates its kernels "
               "with it (tests/gpu/test_variants.py, on a GPU)"),
}


def imported(text):
    """Top-level names of the modules a file imports, in lines of code or of code strings."""
    names = set()
    for m in IMPORT.finditer(text):
        if m.group(1):
            names.update(n.split(".")[0].strip() for n in m.group(1).split(","))
        elif not m.group(2).startswith("."):
            names.add(m.group(2).split(".")[0])
    return names


def node_in(node, body):
    return any(node is n or any(node is c for c in ast.walk(n)) for n in body)


def catches_import_error(try_node):
    for handler in try_node.handlers:
        kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        if any(isinstance(k, ast.Name) and k.id in ("ImportError", "ModuleNotFoundError")
               for k in kinds):
            return True
    return False


def guarded(text, name):
    """True when every import of module `name` in the file is a statement inside a try whose
    handlers catch ImportError, and no import of it hides in a string."""
    tree = ast.parse(text)
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    statements = 0
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        if not any(n.split(".")[0] == name for n in names):
            continue
        statements += 1
        up = parents.get(node)
        while up is not None and not (isinstance(up, ast.Try) and node_in(node, up.body) and
                                      catches_import_error(up)):
            up = parents.get(up)
        if up is None:
            return False
    written = sum(1 for m in IMPORT.finditer(text)
                  if name in (m.group(2) or "").split(".")[:1] or
                  name in [n.split(".")[0].strip() for n in (m.group(1) or "").split(",")])
    return statements == written


def is_stdlib(name):
    if hasattr(sys, "stdlib_module_names"):            # Python 3.10 and later
        return name in sys.stdlib_module_names
    if name in sys.builtin_module_names:
        return True
    spec = importlib.util.find_spec(name)
    origin = getattr(spec, "origin", None) or ""
    stdlib = sysconfig.get_paths()["stdlib"]
    return origin.startswith(stdlib) and "site-packages" not in origin


def is_local(name, folder):
    """A module of the tests' own: beside the file, in tests/lib, or in another tests/ folder
    that the file puts on its path."""
    for where in [folder] + sorted(glob.glob(os.path.join(ROOT, "tests", "*"))):
        if os.path.exists(os.path.join(where, name + ".py")) or \
           os.path.exists(os.path.join(where, name, "__init__.py")):
            return True
    return False


def main():
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "**", "*.py"), recursive=True))
    tap.ok(len(files) >= 5, "Python files under tests/ found (%d)" % len(files))
    for path in files:
        rel = os.path.relpath(path, ROOT)
        with open(path) as f:
            text = f.read()
        for name in sorted(imported(text)):
            where = ("the standard library" if is_stdlib(name) else
                     "the tests' own" if is_local(name, os.path.dirname(path)) else
                     "optional (%s), under try/except ImportError" % OPTIONAL[name][0]
                     if name in OPTIONAL and guarded(text, name) else None)
            tap.ok(where is not None, "%s imports %s: %s" % (rel, name, where or "from nowhere"),
                   "the tests may need the standard library only; an optional module is "
                   "listed in OPTIONAL and imported only under try/except ImportError, by a "
                   "test that reports skip without it")

    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    requirements = readme.split("## Requirements", 1)[-1].split("\n## ", 1)[0]
    tap.ok("standard library" in requirements,
           "the README's Requirements say the tests need Python's standard library only")
    for module, (package, why) in sorted(OPTIONAL.items()):
        tap.ok(package in requirements, "the README's Requirements name %s (optional: %s)"
               % (package, why))
    tap.done()


if __name__ == "__main__":
    main()
