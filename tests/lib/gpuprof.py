"""Run the gpuprof binary from tests: exit code, stdout, stderr; and what the GPU tests need
first: a GPU, the test programs of tests/apps."""
import json
import os
import subprocess

import tap

BUILD = os.environ.get("GPUPROF_BUILD", "build")
BIN = os.path.join(BUILD, "gpuprof")
APPS = os.path.join(BUILD, "tests", "apps")


def run(*args, env=None, timeout=600):
    """(exit code, stdout, stderr) of `gpuprof args...`."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    p = subprocess.run([BIN] + list(args), capture_output=True, text=True, env=full_env,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def run_json(*args, **kw):
    rc, out, err = run(*args, **kw)
    try:
        doc = json.loads(out) if out.strip() else None
    except ValueError:
        doc = None
    return rc, doc, err


def has_gpu():
    """(True, '') when a CUDA device is usable, else (False, reason)."""
    rc, _, err = run("device", "--device=0", "--json")
    if rc == 0:
        return True, ""
    return False, (err.strip().splitlines() or ["gpuprof device failed"])[-1]


def app(name):
    """A test program of tests/apps, as `make apps` builds it."""
    return os.path.join(APPS, name)


def require_gpu(*programs, missing="the test programs are not built (make apps)"):
    """Skip the whole script (TAP's plan of zero, exit 0) without a usable GPU, and with
    `missing` as the reason when one of the test programs named is not built."""
    gpu, reason = has_gpu()
    if not gpu:
        tap.skip_all("no GPU: " + reason)
    if not all(os.path.exists(app(p)) for p in programs):
        tap.skip_all(missing)
