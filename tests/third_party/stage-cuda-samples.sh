#!/bin/sh
# Build NVIDIA's cuda-samples programs that tests/gpu/test_exec_source_samples.py profiles, with
# line information (-lineinfo), from a checkout of https://github.com/NVIDIA/cuda-samples:
#
#   sh tests/third_party/stage-cuda-samples.sh CHECKOUT [OUT]     (OUT: build/third_party/cuda-samples)
#
# Third-party kernels for issue 36's comparison with ncu's source page: the transpose sample
# (six kernels) and matrixMul; and globalToShmemAsyncCopy, whose cp.async (LDGSTS) kernels
# issue 47 asks about. Nothing of theirs is kept in this repository; the binaries travel
# with build/third_party to a GPU machine without network.
set -eu
checkout=${1:?usage: stage-cuda-samples.sh CHECKOUT [OUT]}
out=${2:-build/third_party/cuda-samples}
nvcc=${NVCC:-${CUDA_HOME:-/usr/local/cuda}/bin/nvcc}
arch=${CUDA_ARCH:-90}
for f in Common/helper_cuda.h Samples/6_Performance/transpose/transpose.cu \
         Samples/0_Introduction/matrixMul/matrixMul.cu \
         Samples/3_CUDA_Features/globalToShmemAsyncCopy/globalToShmemAsyncCopy.cu; do
    [ -f "$checkout/$f" ] || { echo "stage-cuda-samples.sh: $checkout/$f: no such file" >&2; exit 2; }
done
mkdir -p "$out"
build() { # NAME SOURCE
    "$nvcc" -O2 -lineinfo -gencode=arch=compute_$arch,code=sm_$arch -I"$checkout/Common" \
        -o "$out/$1" "$checkout/$2"
    echo "built $out/$1"
}
build transpose Samples/6_Performance/transpose/transpose.cu
build matrixMul Samples/0_Introduction/matrixMul/matrixMul.cu
build globalToShmemAsyncCopy Samples/3_CUDA_Features/globalToShmemAsyncCopy/globalToShmemAsyncCopy.cu
