#!/bin/sh
# Builds and runs bench/pcsamp_together_probe.cu on GPU 0 (issue 47, "Probe first": what can
# run beside PC sampling in one CUDA context, and in which order). One device call of under
# 3 minutes: the build (about 10 s), then the cases within PROBE_BUDGET_S (default 130 s; a
# case within PROBE_CASE_S, default 15 s), the whole run cut at 170 s.
# The full log (every call's result and time, the FINDING lines, the table) goes to
# $OUT/pcsamp_together_probe.txt when OUT is set, and only the summary table is printed;
# without OUT it is printed as it runs and kept in ${BENCH_OUT:-bench-out}/.
#   bash bench/pcsamp_together_probe.sh [CASE-PREFIX...]      (--list: the cases)
set -u
cd "$(dirname "$0")/.."
CUDA=${CUDA_HOME:-/usr/local/cuda}
CUPTI_LIB=$CUDA/lib64
ls $CUDA/extras/CUPTI/lib64/libcupti.so* > /dev/null 2>&1 && CUPTI_LIB=$CUDA/extras/CUPTI/lib64
INCLUDE=
[ -d $CUDA/extras/CUPTI/include ] && INCLUDE=-I$CUDA/extras/CUPTI/include
BIN=${TMPDIR:-/tmp}/pcsamp_together_probe
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
$CUDA/bin/nvcc --version | tail -1
start=$(date +%s)
$CUDA/bin/nvcc -O2 -arch=${CUDA_ARCH:-sm_90} $INCLUDE -o $BIN bench/pcsamp_together_probe.cu \
    -L$CUPTI_LIB -lcupti -lcuda -Xlinker -rpath,$CUPTI_LIB || { echo "build failed"; exit 1; }
echo "built in $(( $(date +%s) - start )) s"
start=$(date +%s)
if [ -n "${OUT:-}" ]; then
    LOG=$OUT/pcsamp_together_probe.txt
    timeout -k 5 170 $BIN "$@" > $LOG 2>&1
    rc=$?
else
    mkdir -p ${BENCH_OUT:-bench-out}
    LOG=${BENCH_OUT:-bench-out}/pcsamp_together_probe.txt
    timeout -k 5 170 $BIN "$@" 2>&1 | tee $LOG
    rc=0
fi
echo "probe rc=$rc in $(( $(date +%s) - start )) s; log: $LOG ($(wc -l < $LOG) lines)"
if [ -n "${OUT:-}" ]; then
    # the table; when the run was cut short, each finished case's verdict line instead
    if grep -q "^== summary" $LOG; then sed -n '/^== summary/,$p' $LOG; else grep "^== " $LOG; fi
fi
