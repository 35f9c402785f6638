#!/usr/bin/env python3
"""On a GPU: what the injected library cannot profile is said, never left out in silence
(issue 34). The library keeps 64 CUDA contexts; tests/apps/contexts creates 65, all alive at
once, and runs a kernel in each: the 65th context's launch is timed, not profiled, and a
warning names that context and why; with 64 contexts there is no such warning. (Which of the
64 get counters is CUPTI's to say: the range profiler of a device serves one context at a
time, the others' launches are timed with a warning that the counters are busy.) Skips
without a GPU."""
import tap
from gpuprof import app, require_gpu
from test_exec import exec_json, launches

METRIC = "gst_transactions_per_request"
FULL = "gpuprof's library keeps 64 contexts at most"


def run_contexts(n):
    rc, doc, out, err = exec_json("--metrics=" + METRIC, "--", app("contexts"), str(n))
    ls = launches(doc, "contextTouch")
    warnings = [w for w in (doc or {}).get("warnings", []) if FULL in w]
    return rc, out, err, ls, warnings


def test_beyond_the_table():
    rc, out, err, ls, warnings = run_contexts(65)
    contexts = sorted({l["context"] for l in ls})
    tap.ok(rc == 0 and "contexts: ok (65 contexts)" in out,
           "contexts 65 under exec: the program's result and exit status kept",
           "rc=%d out=%r err=%r" % (rc, out, err[-500:]))
    tap.ok(len(ls) == 65 and len(contexts) == 65,
           "65 launches of contextTouch reported, in 65 contexts (%d, %d)"
           % (len(ls), len(contexts)))
    last = [l for l in ls if contexts and l["context"] == contexts[-1]]
    tap.ok(len(last) == 1 and not last[0]["profiled"] and last[0]["duration_ms"] and
           last[0]["duration_ms"] > 0,
           "the last context's launch (the 65th context) is timed, not profiled", last)
    want = "CUDA context %s on device 0 is timed, not profiled" % (contexts or ["?"])[-1]
    tap.ok(len(warnings) == 1 and warnings[0].startswith(want),
           "one warning names that context and why: %s" % (warnings or ["none"])[0])


def test_within_the_table():
    rc, out, err, ls, warnings = run_contexts(64)
    tap.ok(rc == 0 and len(ls) == 64 and all(l["duration_ms"] > 0 for l in ls) and
           not warnings,
           "contexts 64 under exec: every launch timed, no warning of a full table (%d "
           "launches, %d such warnings)" % (len(ls), len(warnings)),
           "rc=%d err=%r" % (rc, err[-500:]))


def main():
    require_gpu("contexts")
    test_beyond_the_table()
    test_within_the_table()
    tap.done()


if __name__ == "__main__":
    main()
