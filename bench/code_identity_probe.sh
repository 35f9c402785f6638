#!/bin/sh
# The device run of bench/code_identity_probe.c (issue 44): its library under tests/apps'
# jit_variants (NVRTC modules, cuModuleLoadData, an unload and reload), copy (cudart, lazy
# loading) and torch_compile.py (Triton's autotuned kernels); ncu's per-launch global loads of
# jit_variants and of torch_compile's Triton kernels beside them. Logs in $OUT.
set -u
CUDA=${CUDA_HOME:-/usr/local/cuda}
CUPTI_LIB=$(ls -d $CUDA/extras/CUPTI/lib64 2>/dev/null || echo $CUDA/lib64)
T=/tmp/code-probe; mkdir -p $T
cc -shared -fPIC -O2 -I$CUDA/include -I$CUDA/extras/CUPTI/include bench/code_identity_probe.c \
   -o $T/probe.so -L$CUPTI_LIB -L$CUDA/lib64/stubs -lcupti -lcuda -lpthread -Wl,-rpath,$CUPTI_LIB || exit 1
nvcc -arch=sm_90 -O2 -std=c++17 -lineinfo -o $T/jit_variants tests/apps/jit_variants.cu -lnvrtc -lcuda || exit 1
nvcc -arch=sm_90 -O2 -std=c++17 -o $T/copy tests/apps/copy.cu || exit 1
echo "CUDA_MODULE_LOADING=${CUDA_MODULE_LOADING:-unset}"
probe() { log=$1; shift; rm -f $OUT/$log; CODE_PROBE_LOG=$OUT/$log CUDA_INJECTION64_PATH=$T/probe.so "$@"; echo "rc=$?"; grep -E "^(SUMMARY|KERNEL|TOTAL|REBIND)" $OUT/$log | head -40; }
echo "== jit_variants under the probe"; probe jit.log $T/jit_variants 4 20
echo "== copy (cudart) under the probe"; probe copy.log $T/copy both 2^20 2
start=$(date +%s%N); python3 tests/apps/torch_compile.py 20; echo "torch_compile alone: $(( ($(date +%s%N) - start) / 1000000 )) ms"
start=$(date +%s%N); echo "== torch_compile under the probe"; probe torch.log python3 tests/apps/torch_compile.py 20; echo "under the probe: $(( ($(date +%s%N) - start) / 1000000 )) ms"
M=smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__inst_executed.sum
echo "== ncu jit_variants"; ncu --clock-control none --metrics $M --csv $T/jit_variants 2 8 > $OUT/ncu_jit.csv 2>$OUT/ncu_jit.err; echo "rc=$?"
grep -c '"jit' $OUT/ncu_jit.csv
start=$(date +%s%N); echo "== ncu torch_compile (triton kernels)"
timeout 330 ncu --clock-control none -k regex:triton --metrics $M --csv python3 tests/apps/torch_compile.py 20 > $OUT/ncu_torch.csv 2>$OUT/ncu_torch.err; echo "rc=$? $(( ($(date +%s%N) - start) / 1000000 )) ms"
python3 - <<'PY'
import csv, collections, os
rows = list(csv.reader(open(os.environ["OUT"] + "/ncu_torch.csv")))
hdr = next((i for i, r in enumerate(rows) if r and r[0] == "ID"), None)
if hdr is None:
    print("ncu torch: no table"); raise SystemExit
h = rows[hdr]; k = h.index("Kernel Name"); m = h.index("Metric Name"); v = h.index("Metric Value")
per = collections.defaultdict(lambda: collections.defaultdict(list))
for r in rows[hdr + 1:]:
    if len(r) > v and r[m].endswith("global_ld.sum"):
        per[r[k]][r[v]].append(int(r[0]))
for name, vals in per.items():
    print(name[:70], {val: (len(ids), ids[0], ids[-1]) for val, ids in vals.items()})
PY
