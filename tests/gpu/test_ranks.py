#!/usr/bin/env python3
"""On a GPU: a distributed job's ranks (issue 38). gpuprof exec records the rank the launcher's
variables give (RANK and WORLD_SIZE as torchrun sets them, OMPI_COMM_WORLD_RANK, PMI_RANK,
SLURM_PROCID, each with its size), or --rank; a malformed value is a warning naming the
variable, not an error; a process with none records none. Two processes run as two ranks
(`copy` with different lengths, rank 1 the longer) make a rank view whose every kernel names
rank 1 slowest. Skips without a GPU."""
import json
import os
import subprocess
import tempfile

import tap
from gpuprof import APPS, BIN, require_gpu


def exec_rank(tmp, name, env, *options, program=("coalesced",)):
    """(exit status, the report, stderr) of exec --json --output of `copy` under env."""
    path = os.path.join(tmp, name)
    clean = {k: v for k, v in os.environ.items()
             if k not in ("RANK", "WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
                          "PMI_RANK", "PMI_SIZE", "SLURM_PROCID", "SLURM_NTASKS")}
    p = subprocess.run([BIN, "exec", "--json", "--metrics=none", "--output=" + path] +
                       list(options) + ["--", os.path.join(APPS, "copy")] + list(program),
                       capture_output=True, text=True, timeout=600, env=dict(clean, **env))
    doc = None
    if os.path.exists(path):
        with open(path) as f:
            doc = json.load(f)
    return p.returncode, doc, p.stderr


def rank_of(doc):
    return (doc or {}).get("exec", {}).get("rank")


def test_sources(tmp):
    cases = [
        ({"RANK": "1", "WORLD_SIZE": "2"}, [], {"rank": 1, "size": 2, "from": "RANK"}),
        ({"OMPI_COMM_WORLD_RANK": "3", "OMPI_COMM_WORLD_SIZE": "4"}, [],
         {"rank": 3, "size": 4, "from": "OMPI_COMM_WORLD_RANK"}),
        ({"PMI_RANK": "0", "PMI_SIZE": "2"}, [], {"rank": 0, "size": 2, "from": "PMI_RANK"}),
        ({"SLURM_PROCID": "5", "SLURM_NTASKS": "8"}, [],
         {"rank": 5, "size": 8, "from": "SLURM_PROCID"}),
        ({"RANK": "1", "WORLD_SIZE": "2"}, ["--rank=0"], {"rank": 0, "size": 2, "from": "--rank"}),
        ({}, ["--rank=7"], {"rank": 7, "size": None, "from": "--rank"}),
    ]
    for i, (env, options, want) in enumerate(cases):
        rc, doc, err = exec_rank(tmp, "r%d.json" % i, env, *options)
        tap.ok(rc == 0 and rank_of(doc) == want, "exec %s %s: exec.rank %s"
               % (" ".join("%s=%s" % kv for kv in env.items()), " ".join(options), want),
               err[-400:])
    rc, doc, err = exec_rank(tmp, "none.json", {})
    tap.ok(rc == 0 and doc and rank_of(doc) is None, "exec without a launcher: no rank", err)
    rc, doc, err = exec_rank(tmp, "bad.json", {"RANK": "x", "SLURM_PROCID": "2"})
    tap.ok(rc == 0 and rank_of(doc) and rank_of(doc)["from"] == "SLURM_PROCID" and
           "RANK='x'" in err and any("RANK='x'" in w for w in doc["warnings"]),
           "exec RANK=x: a warning naming RANK, the rank from SLURM_PROCID", err[-400:])
    p = subprocess.run([BIN, "report", os.path.join(tmp, "r0.json")], capture_output=True,
                       text=True)
    # The header is a paragraph fitted to 120 columns: the words count, not where it wraps.
    tap.ok(p.returncode == 0 and "rank 1 of 2 (from RANK)" in " ".join(p.stdout.split()),
           "the text header says the rank", p.stdout[:300])


def test_two_ranks(tmp):
    rc0, d0, e0 = exec_rank(tmp, "job0.json", {"RANK": "0", "WORLD_SIZE": "2"},
                            program=("both", "2^20", "3"))
    rc1, d1, e1 = exec_rank(tmp, "job1.json", {"RANK": "1", "WORLD_SIZE": "2"},
                            program=("both", "2^24", "3"))
    tap.ok(rc0 == rc1 == 0, "two ranks of copy, rank 1 with 16 times the data", e0 + e1)
    p = subprocess.run([BIN, "report", os.path.join(tmp, "job1.json"),
                        os.path.join(tmp, "job0.json"), "--json"], capture_output=True,
                       text=True)
    view = json.loads(p.stdout) if p.returncode == 0 else {}
    kernels = view.get("ranks", {}).get("kernels", [])
    tap.ok(len(kernels) == 2 and all(k["slowest_rank"] == 1 and k["fastest_rank"] == 0
                                     for k in kernels),
           "the rank view names rank 1 slowest for both kernels", p.stderr)


def main():
    require_gpu("copy")
    with tempfile.TemporaryDirectory() as tmp:
        test_sources(tmp)
        test_two_ranks(tmp)
    tap.done()


if __name__ == "__main__":
    main()
