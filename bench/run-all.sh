#!/bin/sh
# Run every benchmark (needs a GPU). Raw JSON goes to $OUT (or bench-out/).
set -e
BUILD=${1:-build}
export GPUPROF_BUILD="$BUILD"
cd "$(dirname "$0")/.."
for b in bench/bench_*.py; do
    echo "== $b"
    python3 "$b"
    echo
done
