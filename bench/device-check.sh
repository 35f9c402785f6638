#!/bin/sh
# One device call: the test suites, both tiers, each timed (TIERS="default ncu" by default:
# `make test`'s, SUITES=unit,cli,gpu, default all; then `make test-ncu`'s, the comparisons with
# ncu and the job on two GPUs; GPU_JOBS=N runs the default tier's GPU programs N at a time,
# taking turns with the counters), then the benchmarks (BENCHES="ncu rotation ...":
# bench/bench_ncu.py's quick agreement, bench/bench_NAME.py), then the probes (PROBES="pcsamp
# nvtx": bench/pcsamp_together_probe.sh, bench/nvtx_probe/run.sh; none by default); logs in
# $OUT, the short tables last.
# (Built beforehand where the build machine has cJSON: `make CUDA_ARCH=90 all apps`; the build
# folder travels.)
export PATH=/usr/local/cuda/bin:$PATH GPUPROF_BUILD=build BENCH_OUT=/tmp/bench-out
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
for tier in ${TIERS-default ncu}; do
    start=$(date +%s)
    case $tier in
    default) python3 tests/run_tests.py build ${SUITES:+--suites=$SUITES} \
                 --gpu-jobs=${GPU_JOBS:-1} ;;
    *) python3 tests/run_tests.py build --tier=$tier ;;
    esac > $OUT/tests-$tier.log 2>&1
    echo "tests, $tier tier: $(tail -1 $OUT/tests-$tier.log) in $(( $(date +%s) - start )) s"
    grep -E "FAIL|^  #" $OUT/tests-$tier.log | head -40
done
for b in ${BENCHES-ncu}; do
    start=$(date +%s)
    case $b in
    ncu) python3 bench/bench_ncu.py --agreement-only --kernel-metrics-only ;;
    *) python3 bench/bench_$b.py ;;
    esac > $OUT/bench_$b.log 2>&1
    echo "== bench $b: $(( $(date +%s) - start )) s"
    grep -v "^  state\|^  rate" $OUT/bench_$b.log | tail -40
done
for probe in ${PROBES-}; do
    start=$(date +%s)
    case $probe in
    pcsamp) bash bench/pcsamp_together_probe.sh ;;
    nvtx) sh bench/nvtx_probe/run.sh ;;
    *) echo "no probe $probe (pcsamp, nvtx)" ;;
    esac > $OUT/probe_$probe.log 2>&1
    echo "== probe $probe: $(( $(date +%s) - start )) s"
    tail -30 $OUT/probe_$probe.log
done
tar czf $OUT/bench-out.tgz -C /tmp bench-out 2>/dev/null
