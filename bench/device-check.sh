#!/bin/sh
# One device call: the test suites (SUITES=unit,cli,gpu, default all), then the benchmarks
# (BENCHES="ncu rotation ...": bench/bench_ncu.py's quick agreement, bench/bench_NAME.py);
# logs in $OUT, the short tables last.
# (Built beforehand where the build machine has cJSON: `make CUDA_ARCH=90 all apps`; the build
# folder travels.)
export PATH=/usr/local/cuda/bin:$PATH GPUPROF_BUILD=build BENCH_OUT=/tmp/bench-out
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
start=$(date +%s)
python3 tests/run_tests.py build ${SUITES:+--suites=$SUITES} > $OUT/tests.log 2>&1
echo "tests: $(tail -1 $OUT/tests.log) in $(( $(date +%s) - start )) s"
grep -E "FAIL|^  #" $OUT/tests.log | head -40
for b in ${BENCHES-ncu}; do
    start=$(date +%s)
    case $b in
    ncu) python3 bench/bench_ncu.py --agreement-only --kernel-metrics-only ;;
    *) python3 bench/bench_$b.py ;;
    esac > $OUT/bench_$b.log 2>&1
    echo "== bench $b: $(( $(date +%s) - start )) s"
    grep -v "^  state\|^  rate" $OUT/bench_$b.log | tail -40
done
tar czf $OUT/bench-out.tgz -C /tmp bench-out 2>/dev/null
