export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import jsonschema" 2>&1 | tail -1
find build -exec touch -h {} +
s=$(date +%s); timeout 560 make CUDA_ARCH=90 test > $OUT/make-test.log 2>&1; echo "make test rc=$? $(grep -E 'passed' $OUT/make-test.log | tail -1) $(( $(date +%s)-s ))s"
grep -E "FAIL" -A4 $OUT/make-test.log | head -40
grep -E "^ok.*(sharedBroadcast|sharedDistinct|gemm|page faults|migrated)" -r build/../ 2>/dev/null | head -0
GPUPROF_BUILD=$PWD/build PYTHONPATH=$PWD/tests/lib python3 tests/gpu/test_notes.py 2>&1 | cut -c1-220
GPUPROF_BUILD=$PWD/build PYTHONPATH=$PWD/tests/lib python3 tests/gpu/test_activities.py 2>&1 | grep -E "page faults|migrated|pinned" | cut -c1-200
