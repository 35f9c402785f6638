#!/bin/sh
# bench/nvtx_probe/run.sh: the NVTX probe of issue 48 (bench/README.md, "NVTX ranges: the
# probe"). Builds nvtx_tool.c (the probe library), nvtx_host.c with nvtx_host_lib.c (NVTX
# only, no CUDA; two NVTX instances) and nvtx_app.cu (sm_90), then runs each case under each
# way of taking NVTX:
#   off         no tool
#   own         NVTX_INJECTION64_PATH=tool: the tool is NVTX's injection, its own handlers
#   cupti       NVTX_INJECTION64_PATH=libcupti (the one the tool is bound to), the tool loaded
#               by CUDA_INJECTION64_PATH and fed by CUPTI_CB_DOMAIN_NVTX
#   fwd         NVTX_INJECTION64_PATH=tool with NVTX_PROBE_FORWARD=1: the tool hands NVTX's
#               init on to its libcupti's InitializeInjectionNvtx2 and subscribes first
#   cuda-only   CUDA_INJECTION64_PATH=tool alone: does CUPTI see NVTX at all without it?
# and writes what each saw against the programs' own ground truth (nvtx_check.py), the
# costs, and a table at the end. Logs in $OUT (default $NVTX_PROBE_BUILD/out).
#   NVTX_PROBE_ONLY=host,app,torch   which groups run (host needs no GPU)
#   TORCH_PY=/opt/torch/.venv/bin/python
# Each run has a time limit (host 30 s, app 60 s, torch 120 s): a hang costs one case.
set -u
cd "$(dirname "$0")/../.." || exit 1
P=bench/nvtx_probe
CUDA=${CUDA_HOME:-/usr/local/cuda}
CUPTI_INC=$(ls -d $CUDA/extras/CUPTI/include 2>/dev/null || echo $CUDA/include)
CUPTI_LIB=$(ls -d $CUDA/extras/CUPTI/lib64 2>/dev/null || echo $CUDA/lib64)
B=${NVTX_PROBE_BUILD:-/tmp/nvtx-probe}
OUT=${OUT:-$B/out}
ONLY=${NVTX_PROBE_ONLY:-host,app,torch}
TORCH_PY=${TORCH_PY:-/opt/torch/.venv/bin/python}
PY=$(command -v python3 || echo "$TORCH_PY")
CC=${CC:-$(command -v cc || command -v gcc)}
mkdir -p "$B" "$OUT" || exit 1
ROWS=$OUT/rows.txt
: > "$ROWS"
want() { case ",$ONLY," in *",$1,"*) return 0;; esac; return 1; }

echo "== machine"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -2 ||
    echo "(no nvidia-smi)"
$CUDA/bin/nvcc --version 2>/dev/null | tail -1
date -u +%Y-%m-%dT%H:%MZ

echo "== build"
$CC -std=c11 -O2 -Wall -Wextra -shared -fPIC -I$CUDA/include -I$CUPTI_INC $P/nvtx_tool.c \
    -o $B/libnvtx_probe_tool.so -L$CUPTI_LIB -lcupti -ldl -lpthread -Wl,-rpath,$CUPTI_LIB || exit 1
$CC -std=c11 -O2 -Wall -Wextra -shared -fPIC -I$CUDA/include $P/nvtx_host_lib.c \
    -o $B/libnvtx_host_lib.so || exit 1
$CC -std=c11 -O2 -Wall -Wextra -I$CUDA/include $P/nvtx_host.c -o $B/nvtx_host \
    -L$B -lnvtx_host_lib -Wl,-rpath,$B -ldl -lpthread || exit 1
if want app; then
    $CUDA/bin/nvcc -arch=sm_90 -O2 -std=c++17 -Xcompiler -Wall $P/nvtx_app.cu -o $B/nvtx_app \
        -ldl -lpthread || exit 1
fi
TOOL=$B/libnvtx_probe_tool.so
CUPTI_SO=$(ldd $TOOL | awk '/libcupti/ {print $3; exit}')
echo "tool $TOOL, bound to $CUPTI_SO"

# run NAME KIND SECONDS VAR=VALUE... COMMAND ARGS...
run() {
    name=$1 kind=$2 secs=$3
    shift 3
    log=$OUT/$name.tool.log
    rm -f "$log"
    start=$(date +%s%N)
    NVTX_PROBE_LOG=$log timeout "$secs" env "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "== $name (rc=$rc, ${ms} ms)"
    [ $rc -ne 0 ] && tail -5 "$OUT/$name.err"
    $PY $P/nvtx_check.py "$kind" "$name" "$OUT/$name.out" "$log" "$rc" > "$OUT/$name.check"
    grep -v '^ROW' "$OUT/$name.check"
    grep '^ROW' "$OUT/$name.check" | sed "s/\$/ wall_ms=$ms/" >> "$ROWS"
}

if want host; then
    H=$B/nvtx_host
    run host.off app 30 $H
    run host.own app 30 NVTX_INJECTION64_PATH=$TOOL $H
    # CUPTI as the NVTX tool with no CUDA: the tool preloaded, subscribed when loaded
    run host.cupti app 30 LD_PRELOAD=$TOOL NVTX_PROBE_SUBSCRIBE_AT_LOAD=1 \
        NVTX_INJECTION64_PATH=$CUPTI_SO $H
    run host.fwd app 30 NVTX_PROBE_FORWARD=1 NVTX_INJECTION64_PATH=$TOOL $H
fi

if want app; then
    A=$B/nvtx_app
    run app.off app 60 $A
    run app.own-nvtx-only app 60 NVTX_INJECTION64_PATH=$TOOL $A
    run app.cupti-nvtx-only app 60 NVTX_INJECTION64_PATH=$CUPTI_SO $A
    run app.cuda-only app 60 CUDA_INJECTION64_PATH=$TOOL $A
    run app.own app 60 NVTX_INJECTION64_PATH=$TOOL CUDA_INJECTION64_PATH=$TOOL $A
    run app.cupti app 60 NVTX_INJECTION64_PATH=$CUPTI_SO CUDA_INJECTION64_PATH=$TOOL $A
    run app.cupti-cudafirst app 60 NVTX_INJECTION64_PATH=$CUPTI_SO CUDA_INJECTION64_PATH=$TOOL \
        $A --cuda-first
    run app.fwd app 60 NVTX_PROBE_FORWARD=1 NVTX_INJECTION64_PATH=$TOOL \
        CUDA_INJECTION64_PATH=$TOOL $A
fi

if want torch; then
    if ! "$TORCH_PY" -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
        echo "== torch: no PyTorch with CUDA at $TORCH_PY: skipped"
    else
        T="$TORCH_PY $P/torch_nvtx.py"
        run torch.plain torch 120 $T --no-emit
        run torch.emit torch 120 $T
        run torch.own torch 120 NVTX_PROBE_QUIET=1 NVTX_INJECTION64_PATH=$TOOL \
            CUDA_INJECTION64_PATH=$TOOL $T
        run torch.fwd torch 120 NVTX_PROBE_QUIET=1 NVTX_PROBE_FORWARD=1 \
            NVTX_INJECTION64_PATH=$TOOL CUDA_INJECTION64_PATH=$TOOL $T
        run torch.own-trace torch 120 NVTX_PROBE_TRACE=1 NVTX_PROBE_ALL_LAUNCHES=1 \
            NVTX_INJECTION64_PATH=$TOOL CUDA_INJECTION64_PATH=$TOOL $T --graph
        run torch.fwd-trace torch 120 NVTX_PROBE_TRACE=1 NVTX_PROBE_ALL_LAUNCHES=1 \
            NVTX_PROBE_FORWARD=1 NVTX_INJECTION64_PATH=$TOOL CUDA_INJECTION64_PATH=$TOOL $T --graph
        # CUPTI as NVTX's tool: the libcupti the process really uses (torch's own may come
        # first), as the tool logged it in the run before
        TC=$(sed -n 's/^CUPTI subscribe=[A-Z_]* libcupti=\([^ ]*\).*/\1/p' \
            "$OUT/torch.own-trace.tool.log" | head -1)
        echo "torch's process bound the tool to ${TC:-?}"
        [ -n "$TC" ] && run torch.cupti-trace torch 120 NVTX_PROBE_TRACE=1 \
            NVTX_PROBE_ALL_LAUNCHES=1 NVTX_INJECTION64_PATH=$TC CUDA_INJECTION64_PATH=$TOOL \
            $T --graph
    fi
fi

echo "== table (ranges: launches whose path is as expected; graph: graph launches as expected,"
echo "   graph kernels whose capture-time path is as expected; costs in ns; torch: ms per step)"
$PY $P/nvtx_check.py table "$ROWS"
