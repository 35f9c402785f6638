#!/bin/sh
# nokernel.sh: a program without any CUDA (no kernel, no context), for the test that
# `gpuprof exec` runs it, passes its output and exit status 0 through and reports no launches.
echo "nokernel: no CUDA here"
exit 0
