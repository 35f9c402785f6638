export PATH=/usr/local/cuda/bin:$PATH GPUPROF_BUILD=$PWD/build PYTHONPATH=$PWD/tests/lib BENCH_OUT=/tmp/bench-out
mkdir -p $BENCH_OUT
CUDA_VISIBLE_DEVICES= build/gpuprof reduce; echo "no GPU visible: rc=$?"
cuobjdump -sass build/tests/apps/broadcast | grep -oE '\bLDS[.A-Z0-9]*|\bSTS[.A-Z0-9]*' | sort | uniq -c
for t in test_notes test_activities test_exec_output test_memory_paths test_csv_columns; do s=$(date +%s); python3 tests/gpu/$t.py > $OUT/$t.log 2>&1; echo "$t rc=$? $(grep -c '^ok' $OUT/$t.log) ok $(grep -c '^not ok' $OUT/$t.log) notok $(( $(date +%s)-s ))s"; grep -A3 '^not ok' $OUT/$t.log | head -12; done
grep -E "^ok.*(shared_efficiency|gld_efficiency|gemm|page faults|migrated)" $OUT/test_notes.log $OUT/test_activities.log | cut -c1-200
s=$(date +%s); python3 bench/bench_activities.py --runs=5 > $OUT/bench_activities.log 2>&1; echo "bench_activities $(( $(date +%s)-s ))s"; tail -6 $OUT/bench_activities.log
s=$(date +%s); python3 bench/bench_memory_paths.py --ncu-runs=3 > $OUT/bench_memory_paths.log 2>&1; echo "bench_memory_paths rc=$? $(( $(date +%s)-s ))s"; cp $BENCH_OUT/memory-paths.md $OUT/ 2>/dev/null; tail -3 $OUT/bench_memory_paths.log
