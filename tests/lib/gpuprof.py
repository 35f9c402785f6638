"""Run the gpuprof binary from tests: exit code, stdout, stderr."""
import json
import os
import subprocess

BUILD = os.environ.get("GPUPROF_BUILD", "build")
BIN = os.path.join(BUILD, "gpuprof")


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
