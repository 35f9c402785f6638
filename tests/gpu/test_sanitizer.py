#!/usr/bin/env python3
"""On a GPU: compute-sanitizer memcheck and racecheck report nothing for any variant, at
sizes with tails. Skips without a GPU or without compute-sanitizer."""
import shutil
import subprocess

import tap
from gpuprof import BIN, require_gpu, run_json

SIZES = {"reduce": "1000003", "transpose": "1000x333", "reduce2d": "1000x333", "saxpy": "100003"}


def sanitize(tool, family, variants, extra):
    cmd = ["compute-sanitizer", "--tool", tool, "--error-exitcode", "99", BIN, family,
           "--variant=" + ",".join(variants), "--size=" + SIZES[family], "--metrics=none",
           "--repeat=1", "--warmup=0", "--csv"] + extra
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    clean = "0 errors" in p.stdout + p.stderr or "0 hazards" in p.stdout + p.stderr
    return p.returncode == 0 and clean, (p.stdout + p.stderr)[-3000:]


def main():
    require_gpu()
    if not shutil.which("compute-sanitizer"):
        tap.skip_all("compute-sanitizer not installed")
    rc, doc, _ = run_json("list", "--json")
    for fam in doc["families"]:
        names = [v["name"] for v in fam["variants"]]
        for tool in ("memcheck", "racecheck"):
            for extra in ([], ["--type=float32"]) if fam["name"] == "reduce" else ([],):
                ok, log = sanitize(tool, fam["name"], names, extra)
                tap.ok(ok, "%s %s %s: clean" % (tool, fam["name"], " ".join(extra)), log)
    tap.done()


if __name__ == "__main__":
    main()
