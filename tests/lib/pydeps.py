"""Where the tests' third-party Python modules come from (stdlib only): the interpreter's
own, else the copy `make test` stages from Debian's packages into
BUILD/third_party/python/site (third_party/stage-python.py). The modules and their packages
are listed in third_party/python-modules.txt."""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LISTING = os.path.join(ROOT, "third_party", "python-modules.txt")


def modules():
    """[(module, Debian package), ...] from third_party/python-modules.txt."""
    pairs = []
    with open(LISTING) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if len(words) == 2:
                pairs.append((words[0], words[1]))
    return pairs


def staged_site(build):
    """The staged dist-packages folder of a build, or None when nothing complete is there."""
    stage = os.path.join(build, "third_party", "python")
    if os.path.exists(os.path.join(stage, "PACKAGES")):
        return os.path.abspath(os.path.join(stage, "site"))
    return None


def imports(python, names, env=None):
    """True when `python` imports every module in names under env."""
    if not python or not os.path.exists(python):
        return False
    code = "".join("import %s\n" % n for n in names)
    p = subprocess.run([python, "-c", code], capture_output=True, env=env)
    return p.returncode == 0


def with_path(env, folder):
    """A copy of env with folder first on PYTHONPATH."""
    rest = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    return dict(env, PYTHONPATH=os.pathsep.join([folder] + rest))


def how_to_install(build):
    pkgs = " ".join(p for _, p in modules())
    mods = " ".join(m for m, _ in modules())
    return ("`make test` stages %s into %s with apt-get download when the interpreter lacks "
            "it; that was not possible here (no apt-get or no network): install %s "
            "(apt-get install %s, or pip install %s), or copy a staged %s from a machine "
            "with apt-get" % (pkgs, os.path.join(build, "third_party", "python"), pkgs, pkgs,
                              mods, os.path.join(build, "third_party", "python")))
