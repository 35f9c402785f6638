#!/usr/bin/env python3
"""On a GPU: what the injected library cannot profile is said, never left out in silence
(issue 34). The library keeps 64 CUDA contexts; tests/apps/contexts creates 65, all alive at
once, and runs a kernel in each: the 65th context's launch is timed, not profiled, and a
warning names that context and why; with 64 contexts there is no such warning and every launch
is profiled. Skips without a GPU."""
import tap
from gpuprof import app, require_gpu
from test_exec import exec_json, launches

METRIC = "gst_transactions_per_request"
FULL = "gpuprof's library keeps 64 contexts at most"


def run_contexts(n):
    rc, doc, out, err = exec_json("--metrics=" + METRIC, "--", app("contexts"), str(n))
    ls = launches(doc, "contextTouch")
    profiled = [l for l in ls if l["metrics"] and l["metrics"].get(METRIC)]
    warnings = [w for w in (doc or {}).get("warnings", []) if FULL in w]
    return rc, out, err, ls, profiled, warnings


def test_beyond_the_table():
    rc, out, err, ls, profiled, warnings = run_contexts(65)
    tap.ok(rc == 0 and "contexts: ok (65 contexts)" in out,
           "contexts 65 under exec: the program's result and exit status kept",
           "rc=%d out=%r err=%r" % (rc, out, err[-500:]))
    tap.ok(len(ls) == 65 and len({l["context"] for l in ls}) == 65,
           "65 launches of contextTouch reported, in 65 contexts (%d, %d)"
           % (len(ls), len({l["context"] for l in ls})))
    tap.ok(len(profiled) == 64, "the 64 contexts the library keeps are profiled (%d)"
           % len(profiled))
    unprofiled = [l for l in ls if l not in profiled]
    tap.ok(len(unprofiled) == 1 and unprofiled[0]["duration_ms"] is not None and
           unprofiled[0]["duration_ms"] > 0,
           "the 65th context's launch is timed, not profiled", unprofiled)
    context = "CUDA context %s " % unprofiled[0]["context"] if unprofiled else "?"
    tap.ok(len(warnings) == 1 and warnings[0].startswith(context) and
           "timed, not profiled" in warnings[0],
           "one warning names that context and why: %s" % (warnings or ["none"])[0])


def test_within_the_table():
    rc, out, err, ls, profiled, warnings = run_contexts(64)
    tap.ok(rc == 0 and len(ls) == 64 and len(profiled) == 64 and not warnings,
           "contexts 64 under exec: every launch profiled, no warning (%d launches, %d "
           "profiled, %d warnings)" % (len(ls), len(profiled), len(warnings)),
           "rc=%d err=%r" % (rc, err[-500:]))


def main():
    require_gpu("contexts")
    test_beyond_the_table()
    test_within_the_table()
    tap.done()


if __name__ == "__main__":
    main()
