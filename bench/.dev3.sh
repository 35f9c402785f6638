#!/bin/sh
export PATH=/usr/local/cuda/bin:$PATH GPUPROF_BUILD=build PYTHONPATH=$PWD/tests/lib:$PWD/tests/gpu
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
s=$(date +%s)
make -j32 CUDA_ARCH=90 all > $OUT/build.log 2>&1 && make -j32 CUDA_ARCH=90 build/tests/apps/copy >> $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "build $(( $(date +%s) - s )) s"
s=$(date +%s)
timeout 60 python3 tests/gpu/test_ranks.py > $OUT/test_ranks.log 2>&1; echo "test_ranks rc=$? $(( $(date +%s) - s )) s: $(grep -c '^ok' $OUT/test_ranks.log) ok"
grep -E "^not ok" -A3 $OUT/test_ranks.log | head -12
s=$(date +%s)
GPUPROF_KEEP=$OUT/ddp timeout 300 python3 tests/gpu/test_ddp.py > $OUT/test_ddp.log 2>&1; echo "test_ddp rc=$? $(( $(date +%s) - s )) s: $(grep -c '^ok' $OUT/test_ddp.log) ok"
grep -E "^not ok|^# [0-9.]+ s:" $OUT/test_ddp.log | head -20
grep -E "^# " $OUT/test_ddp.log | grep -v "OMP\|\*\*\*\|s: torchrun" | head -30
