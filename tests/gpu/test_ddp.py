#!/usr/bin/env python3
"""On two GPUs: a distributed job under its own launcher (issue 38). tests/apps/ddp_train.py,
a PyTorch DDP loop over NCCL with an uneven last rank, run by torchrun alone, then with every
rank under `gpuprof exec --output=r%q{RANK}.json`: each rank prints the same result as alone
and exits 0; its report holds NCCL's collective kernels, none of whose launches was replayed
(each collected at most one counter group, and says so in its note), nor any launch after
the first collective (a replay would restore memory a collective in flight writes), while
every kernel has counters; under --replay=kernel (one launch of each kernel) the collectives, and every launch
after the first of them, are timed without counters and a warning says why. In the ncu tier
(make test-ncu) only; skips with the reason outside it, where there are fewer than two GPUs,
or no PyTorch with NCCL."""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import tap
from gpuprof import BIN, ncu_tier_only, require_gpu

HERE = os.path.dirname(os.path.abspath(__file__))
APP = os.path.join(os.path.dirname(HERE), "apps", "ddp_train.py")
STEPS = "12"
RESULT = re.compile(r"^ddp_train: rank (\d+) of 2 ok .*$", re.M)
COLLECTIVE = re.compile(r"ncclDevKernel_|ncclKernel_")


def why_not():
    """Why the job cannot run here; None when it can."""
    probe = ("import torch, torch.distributed as d\n"
             "print(torch.cuda.device_count() if torch.cuda.is_available() else 0, "
             "int(d.is_available() and d.is_nccl_available()))")
    try:
        p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return "PyTorch could not be probed: %s" % e
    if p.returncode != 0:
        return "no PyTorch for %s" % sys.executable
    gpus, nccl = (int(w) for w in p.stdout.split()[-2:])
    if gpus < 2:
        return "%d GPU(s) visible: the job needs two" % gpus
    return None if nccl else "PyTorch has no NCCL"


def torchrun(*words, timeout=300):
    """(exit status, stdout, stderr) of a two-process torchrun on this machine; status None
    when it did not finish in `timeout` seconds."""
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2"]
    start = time.monotonic()
    p = subprocess.Popen(cmd + list(words), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)  # the ranks too: they hold the GPUs
        try:
            p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            pass  # a rank in a session of its own still holds the pipes: leave it
        return None, "", "did not finish in %d s" % timeout
    print("# %.1f s: torchrun %s" % (time.monotonic() - start, " ".join(words[:4])))
    return p.returncode, out, err


def results(out):
    return sorted(m.group(0) for m in RESULT.finditer(out))


def run_profiled(tmp, *options, timeout=300):
    rc, out, err = torchrun("--no-python", BIN, "exec", *options, "--json",
                            "--output=" + os.path.join(tmp, "r%q{RANK}.json"), "--",
                            sys.executable, APP, STEPS, "--uneven", timeout=timeout)
    docs = {}
    keep = os.environ.get("GPUPROF_KEEP")  # a folder to keep the reports in (bench, fixtures)
    for path in sorted(glob.glob(os.path.join(tmp, "r*.json"))):
        if keep:
            os.makedirs(keep, exist_ok=True)
            shutil.copy(path, os.path.join(keep, "-".join(options + (os.path.basename(path),))))
        with open(path) as f:
            docs[os.path.basename(path)] = json.load(f)
    return rc, out, err, docs


def groups_of(launch):
    return launch.get("passes") or []


def check_rank(name, doc, label):
    ls = doc["exec"]["launches"]
    coll = [l for l in ls if COLLECTIVE.search(l.get("mangled") or l["kernel"])]
    tap.ok(coll, "%s %s: NCCL's collective kernels are among its %d launches"
           % (label, name, len(ls)))
    replayed = [l for l in coll if len(groups_of(l)) > 1]
    tap.ok(coll and not replayed, "%s %s: no collective launch replayed (%d of %d collected "
           "more than one group)" % (label, name, len(replayed), len(coll)))
    tap.ok(coll and all("never replayed" in (l.get("note") or "") for l in coll),
           "%s %s: every collective launch says so in its note" % (label, name))
    kernels = {}
    for l in ls:
        kernels.setdefault(l["kernel"], []).append(l)
    without = [k for k, kl in kernels.items() if not any(l["metrics"] for l in kl)]
    tap.ok(not without, "%s %s: every one of its %d kernels has counters"
           % (label, name, len(kernels)), "\n".join(without[:5]))
    return coll


def check_rank_view(tmp):
    """`report` of both ranks: each kernel's slowest rank; the uneven rank's extra tanh runs on
    rank 1 only, and rank 0's all-reduce waits for it (its time includes the wait)."""
    paths = [os.path.join(tmp, "r%d.json" % r) for r in (0, 1)]
    p = subprocess.run([BIN, "report", "--json"] + paths, capture_output=True, text=True,
                       timeout=120)
    try:
        view = json.loads(p.stdout)["ranks"]
    except (ValueError, KeyError, TypeError):
        tap.ok(False, "report of both ranks: a rank view", p.stderr[-1500:])
        return
    kernels = view["kernels"]
    tap.ok(view["world_size"] == 2 and kernels and
           all(k["slowest_rank"] in (0, 1) for k in kernels if k["time_ms"]["ranks"]),
           "report of both ranks: %d kernels, each timed one with its slowest rank" % len(kernels))
    tanh = [k for k in kernels if "tanh" in k["kernel"]]
    tap.ok(tanh and all([c["rank"] for c in k["by_rank"] if c["calls"]] == [1] for k in tanh),
           "the uneven rank's own kernel (tanh) ran on rank 1 only",
           [(k["kernel"][:60], k["by_rank"]) for k in tanh])
    reduce_ = [k for k in kernels if k["collective"] and "AllReduce" in k["kernel"]]
    tap.ok(reduce_ and reduce_[0]["slowest_rank"] == 0,
           "the all-reduce is slowest on rank 0, which waits for the uneven rank",
           [(k["kernel"][:60], k["time_ms"]) for k in reduce_])
    text = subprocess.run([BIN, "report"] + paths, capture_output=True, text=True, timeout=120)
    print("\n".join("# " + line for line in text.stdout.splitlines()[:24]))


def main():
    ncu_tier_only("the job on two GPUs: make test-ncu")
    require_gpu()
    reason = why_not()
    if reason:
        tap.skip_all(reason)
    rc, out, err = torchrun(APP, STEPS, "--uneven")
    alone = results(out)
    if not tap.ok(rc == 0 and len(alone) == 2, "ddp_train alone: both ranks ok", err[-2000:]):
        tap.done()
    with tempfile.TemporaryDirectory() as tmp:
        rc, out, err, docs = run_profiled(tmp)
        tap.ok(rc == 0 and results(out) == alone, "under per-rank exec: exit 0 and both ranks' "
               "results unchanged", "alone %s\nexec %s\n%s" % (alone, results(out), err[-1500:]))
        tap.ok(sorted(docs) == ["r0.json", "r1.json"], "a report per rank, named by RANK",
               sorted(docs))
        for name, doc in sorted(docs.items()):
            rank = int(name[1])
            got = (doc["exec"].get("rank") or {})
            tap.ok(got.get("rank") == rank and got.get("size") == 2 and got.get("from") == "RANK",
                   "%s: its rank recorded from torchrun's RANK, of 2" % name, got)
        check_rank_view(tmp)
        for name, doc in sorted(docs.items()):
            check_rank(name, doc, "auto")
            warned = [w for w in doc.get("warnings") or []
                      if "replays no launch once a collective kernel ran" in w]
            tap.ok(warned, "auto %s: a warning says no launch is replayed after the first "
                   "collective" % name, "\n".join(doc.get("warnings") or []))
    with tempfile.TemporaryDirectory() as tmp:
        # One launch of each kernel at most: none replayed after the first collective
        rc, out, err, docs = run_profiled(tmp, "--replay=kernel", "--per-kernel=1", timeout=120)
        tap.ok(rc == 0 and results(out) == alone,
               "--replay=kernel --per-kernel=1: exit 0 and both ranks' "
               "results unchanged", err[-1500:])
        for name, doc in sorted(docs.items()):
            ls = doc["exec"]["launches"]
            coll = [l for l in ls if COLLECTIVE.search(l.get("mangled") or l["kernel"])]
            first = min((l["id"] for l in coll), default=None)
            after = [l for l in ls if first is not None and l["id"] > first]
            tap.ok(coll and all(not l["metrics"] and l["duration_ms"] for l in coll),
                   "--replay=kernel %s: collectives timed, without counters" % name)
            tap.ok(after and not any(l["metrics"] for l in after),
                   "--replay=kernel %s: no launch after the first collective replayed (%d "
                   "timed only)" % (name, len(after)))
            warned = [w for w in doc.get("warnings") or []
                      if "does not replay collective kernels, nor any launch once one ran" in w]
            tap.ok(warned, "--replay=kernel %s: a warning says why" % name,
                   "\n".join(doc.get("warnings") or []))
    tap.done()


if __name__ == "__main__":
    main()
