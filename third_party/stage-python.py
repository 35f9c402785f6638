#!/usr/bin/env python3
"""Stage the Python modules the tests need from the distribution's packages, without root.

    stage-python.py DEST LIST

LIST (third_party/python-modules.txt) names each module with its Debian package. When this
interpreter (the one the tests run with) or /usr/bin/python3 imports every module already,
nothing is staged. Otherwise the packages and the python3-* packages they depend on are
fetched with `apt-get download` and unpacked with `dpkg-deb -x` (no root), and their
dist-packages folders are copied into DEST/site: plain files, no symbolic links, so the
folder can travel with the build to a machine without a package manager or network.
DEST/PACKAGES lists what was staged and is written last: a DEST with it is complete, and is
used as it is. Dependencies on the interpreter itself (python3, python3:any, libc6, ...)
are not staged; an alternative such as `python3-importlib-resources | python3 (>> 3.9)` is
decided by this interpreter's version. Exits 1, saying what to install, when staging is
needed and impossible (no apt-get, no network)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Packages that are parts of the interpreter itself, never staged.
BASE = {"python3", "python3-minimal", "python3-distutils", "python3-lib2to3", "python3-venv"}


def say(msg):
    print("stage-python: " + msg, file=sys.stderr)


def read_list(path):
    pairs = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if len(line) == 2:
                pairs.append((line[0], line[1]))
    return pairs


def imports(python, modules, path=None, isolated=False):
    """True when `python` imports every module (from `path` first when given)."""
    if not python or not os.path.exists(python):
        return False
    code = "import sys\n"
    if path:
        code += "sys.path.insert(0, %r)\n" % path
    code += "".join("import %s\n" % m for m in modules)
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    argv = [python] + (["-S", "-s"] if isolated else []) + ["-c", code]
    return subprocess.run(argv, env=env, capture_output=True).returncode == 0


def version_ok(op, wanted):
    """Does this interpreter satisfy `python3 (op wanted)`? Compares numeric parts only."""
    want = tuple(int(x) for x in re.findall(r"\d+", wanted.split("-")[0].split("~")[0])[:3])
    have = tuple(sys.version_info[:3])
    return {">>": have > want, ">=": have >= want, "=": have == want,
            "<=": have <= want, "<<": have < want}.get(op, False)


def depends(package):
    """(version, [[(name, op, version), ...alternatives], ...]) of the candidate version."""
    p = subprocess.run(["apt-cache", "show", "--no-all-versions", package],
                       capture_output=True, text=True)
    if p.returncode != 0 or not p.stdout.strip():
        raise RuntimeError("apt-cache knows no package %s" % package)
    fields, key = {}, None
    for line in p.stdout.splitlines():
        if line[:1] in (" ", "\t") and key:
            fields[key] += " " + line.strip()
        elif ":" in line:
            key, value = line.split(":", 1)
            fields[key] = value.strip()
    clauses = []
    for field in ("Pre-Depends", "Depends"):
        for clause in filter(None, (c.strip() for c in fields.get(field, "").split(","))):
            alts = []
            for alt in clause.split("|"):
                m = re.match(r"\s*([^\s(:]+)(?::\S+)?\s*(?:\(\s*([<>=]+)\s*([^)\s]+)\s*\))?", alt)
                if m:
                    alts.append((m.group(1), m.group(2), m.group(3)))
            clauses.append(alts)
    return fields.get("Version", "?"), clauses


def closure(roots):
    """The python3-* packages to stage for roots, with their versions, in a stable order."""
    todo, seen, order = list(roots), {}, []
    while todo:
        pkg = todo.pop(0)
        if pkg in seen:
            continue
        version, clauses = depends(pkg)
        seen[pkg] = version
        order.append(pkg)
        for alts in clauses:
            # Satisfied by the interpreter itself (any version constraint checked)?
            if any(name in BASE and (not op or version_ok(op, ver)) for name, op, ver in alts):
                continue
            wanted = [name for name, _, _ in alts
                      if name.startswith("python3-") and name not in BASE]
            if wanted:
                todo.append(wanted[0])
            # Anything else (libc6, python3.11, ...) is the system's, not staged.
    return [(p, seen[p]) for p in order]


def main():
    if len(sys.argv) != 3:
        say("usage: stage-python.py DEST LIST")
        return 2
    dest, listing = sys.argv[1], sys.argv[2]
    pairs = read_list(listing)
    modules = [m for m, _ in pairs]
    if os.path.exists(os.path.join(dest, "PACKAGES")):
        return 0
    if imports(sys.executable, modules) or imports("/usr/bin/python3", modules):
        return 0
    how = ("install %s (apt-get install %s, or pip install %s), or copy a staged %s from a "
           "machine with apt-get" % (" ".join(p for _, p in pairs), " ".join(p for _, p in pairs),
                                     " ".join(modules), dest))
    missing = [t for t in ("apt-get", "apt-cache", "dpkg-deb") if not shutil.which(t)]
    if missing:
        say("%s has no %s and no %s to stage: %s" % (sys.executable, ", ".join(modules),
                                                     " or ".join(missing), how))
        return 1
    try:
        packages = closure([p for _, p in pairs])
    except RuntimeError as e:
        say("%s: %s" % (e, how))
        return 1
    work = tempfile.mkdtemp(prefix="stage-python.")
    try:
        apt = ["apt-get", "download", "-q"]
        if os.geteuid() == 0:     # root: apt would warn that its _apt user cannot write here
            apt += ["-o", "APT::Sandbox::User=root"]
        p = subprocess.run(apt + [p for p, _ in packages], cwd=work, capture_output=True,
                           text=True)
        if p.returncode != 0:
            last = (p.stderr.strip().splitlines() or ["no message"])[-1]
            say("apt-get download failed (no network?): %s" % last)
            say(how)
            return 1
        root = os.path.join(work, "root")
        for deb in sorted(f for f in os.listdir(work) if f.endswith(".deb")):
            subprocess.run(["dpkg-deb", "-x", os.path.join(work, deb), root], check=True)
        tmp = dest + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(os.path.join(root, "usr", "lib", "python3", "dist-packages"),
                        os.path.join(tmp, "site"), symlinks=False,
                        ignore=shutil.ignore_patterns("__pycache__"))
        os.makedirs(os.path.join(tmp, "copyright"))
        for pkg, _ in packages:
            src = os.path.join(root, "usr", "share", "doc", pkg, "copyright")
            if os.path.exists(src):
                shutil.copy(src, os.path.join(tmp, "copyright", pkg))
        site = os.path.join(tmp, "site")
        if not imports(sys.executable, modules, site, isolated=True):
            say("the staged %s does not import with %s (version %s): %s"
                % (", ".join(modules), sys.executable, sys.version.split()[0], how))
            return 1
        with open(os.path.join(tmp, "PACKAGES"), "w") as f:
            for pkg, version in packages:
                f.write("%s %s\n" % (pkg, version))
        shutil.rmtree(dest, ignore_errors=True)
        os.rename(tmp, dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    say("staged %s into %s for %s" % (", ".join("%s %s" % pv for pv in packages), dest,
                                      sys.executable))
    return 0


if __name__ == "__main__":
    sys.exit(main())
