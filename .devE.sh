export PATH=/usr/local/cuda/bin:$PATH GPUPROF_BUILD=$PWD/build PYTHONPATH=$PWD/tests/lib
D=smsp__sass_data_bytes_mem_shared
W=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared
R=$D.sum,$W.sum,smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum
for op in ld st ldsm ldgsts gmma atom stsm; do R=$R,${D}_op_$op.sum; done
for op in ld st ldsm ldgsts atom stsm; do R=$R,${W}_op_$op.sum; done
for app in gemm broadcast; do
build/gpuprof exec --replay=kernel --metrics=shared_efficiency,$R --json --output=$OUT/$app.json -- build/tests/apps/$app > /dev/null; echo "$app rc=$?"
python3 - $OUT/$app.json <<'PY'
import json, sys
for l in json.load(open(sys.argv[1]))["exec"]["launches"]:
    m = l.get("metrics") or {}
    print("==", l["kernel"][:90])
    for k in sorted(m):
        print("   %-64s %s" % (k.replace("smsp__sass_", ""), m[k].get("value")))
PY
done
python3 tests/gpu/test_notes.py 2>&1 | cut -c1-200
python3 tests/cli/test_csv.py 2>&1 | grep -E "not ok|good --csv-columns"
