#!/usr/bin/env python3
"""The tests need nothing the README does not list: every module a Python file under tests/
imports (code held in strings for a subprocess included) is in the standard library, one of
the tests' own, or listed in third_party/python-modules.txt, whose packages the README names
and `make test` stages when the interpreter lacks them."""
import glob
import importlib.util
import os
import re
import subprocess
import sys
import sysconfig

import pydeps
import tap

ROOT = pydeps.ROOT
BUILD = os.environ.get("GPUPROF_BUILD", os.path.join(ROOT, "build"))
IMPORT = re.compile(r"^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)|^\s*from\s+([\w.]+)\s+import\b", re.M)


def imported(path):
    """Top-level names of the modules a file imports, in lines of code or of code strings."""
    with open(path) as f:
        text = f.read()
    names = set()
    for m in IMPORT.finditer(text):
        if m.group(1):
            names.update(n.split(".")[0].strip() for n in m.group(1).split(","))
        elif not m.group(2).startswith("."):
            names.add(m.group(2).split(".")[0])
    return names


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
    listed = dict(pydeps.modules())
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "**", "*.py"), recursive=True))
    tap.ok(len(files) >= 5, "Python files under tests/ found (%d)" % len(files))
    for path in files:
        rel = os.path.relpath(path, ROOT)
        for name in sorted(imported(path)):
            where = ("the standard library" if is_stdlib(name) else
                     "the tests' own" if is_local(name, os.path.dirname(path)) else
                     "staged by the build (%s)" % listed[name] if name in listed else None)
            tap.ok(where is not None, "%s imports %s: %s" % (rel, name, where or "from nowhere"),
                   "add its Debian package to third_party/python-modules.txt and the README")

    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    requirements = readme.split("## Requirements", 1)[-1].split("\n## ", 1)[0]
    for module, package in sorted(listed.items()):
        tap.ok(package in requirements, "the README's Requirements name %s (for %s)"
               % (package, module))

    # What the runner gave this interpreter (its own modules, or the staged copy).
    tap.ok(pydeps.imports(sys.executable, list(listed)),
           "%s imports %s here" % (sys.executable, ", ".join(listed)), pydeps.how_to_install(BUILD))
    site = pydeps.staged_site(BUILD)
    if site is None:
        tap.skip("the staged copy imports on its own", "nothing staged: the interpreter has "
                 "the modules")
    else:
        # -S -s: no site-packages at all, only the staged folder.
        code = "import sys\nsys.path.insert(0, %r)\n" % site + \
               "".join("import %s\nassert %s.__file__.startswith(%r)\n" % (m, m, site)
                       for m in listed)
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        p = subprocess.run([sys.executable, "-S", "-s", "-c", code], capture_output=True,
                           text=True, env=env)
        tap.ok(p.returncode == 0, "the staged copy in %s imports on its own (no site-packages)"
               % os.path.relpath(site, ROOT), p.stderr)
    tap.done()


if __name__ == "__main__":
    main()
