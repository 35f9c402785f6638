#!/bin/sh
export PATH=/usr/local/cuda/bin:$PATH GPUPROF_BUILD=build PYTHONPATH=$PWD/tests/lib:$PWD/tests/gpu
s=$(date +%s)
make -j32 CUDA_ARCH=90 all > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "build $(( $(date +%s) - s )) s"
s=$(date +%s)
GPUPROF_KEEP=$OUT/ddp timeout 330 python3 tests/gpu/test_ddp.py > $OUT/test_ddp.log 2>&1; echo "test_ddp rc=$? $(( $(date +%s) - s )) s"
grep -E "^not ok|^#|SKIP" $OUT/test_ddp.log | grep -v "OMP_NUM\|\*\*\*\*" | head -30; grep -c "^ok" $OUT/test_ddp.log
ls $OUT/ddp
