#!/usr/bin/env python3
"""On a GPU: --graph-profiling (issue 27) reaches the program's environment, where the
injected library reads it: each mode by name, node when not given. (What each mode does to
a CUDA graph is the library's test.) Skips without a GPU."""
import os

import tap
from gpuprof import require_gpu
from test_exec import exec_json

PRINT_MODE = ["sh", "-c", "printf 'mode=%s\\n' \"$GPUPROF_EXEC_GRAPH_PROFILING\""]


def test_mode_reaches_the_program():
    cases = [([], "node"), (["--graph-profiling=node"], "node"),
             (["--graph-profiling=graph"], "graph"), (["--graph-profiling", "time"], "time"),
             (["--graph-profiling=graph", "--metrics=none"], "graph")]
    for opts, want in cases:
        rc, doc, out, err = exec_json(*(opts + ["--"] + PRINT_MODE))
        tap.ok(rc == 0 and doc is not None and out.strip() == "mode=" + want,
               "exec %s: the program sees GPUPROF_EXEC_GRAPH_PROFILING=%s"
               % (" ".join(opts) or "(no option)", want), "rc=%d out=%r err=%r" % (rc, out, err))


def main():
    require_gpu()
    test_mode_reaches_the_program()
    tap.done()


if __name__ == "__main__":
    main()
