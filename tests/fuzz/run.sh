#!/bin/sh
# Run libFuzzer harnesses for a bounded time (make fuzz-run):
#   run.sh FUZZ_BUILD SECONDS HARNESS...
# For each harness: the inputs saved in tests/fuzz/regressions/HARNESS/ run once first (each
# a past finding that must stay fixed); then FUZZ_BUILD/fuzz_HARNESS fuzzes for SECONDS
# from FUZZ_BUILD/corpus/HARNESS (seeds made by make; new inputs are added there) and
# tests/fuzz/corpus/HARNESS (hand-written seeds), with the dictionary FUZZ_BUILD/HARNESS.dict
# when there is one. A crash, leak, timeout or sanitizer report
# fails the run: the input is kept as FUZZ_BUILD/artifacts/HARNESS-*, the log in
# FUZZ_BUILD/logs/HARNESS.log and its end printed. Prints the executions of each run.
set -u
build=$1
seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$build/artifacts" "$build/logs"
export UBSAN_OPTIONS=print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}
status=0
for h in "$@"; do
    bin=$build/fuzz_$h
    log=$build/logs/$h.log
    regressions=$here/regressions/$h
    n=$(find "$regressions" -type f ! -name '.*' 2>/dev/null | wc -l)
    if [ "$n" -gt 0 ]; then
        if find "$regressions" -type f ! -name '.*' -exec "$bin" {} + >"$log" 2>&1; then
            echo "fuzz-run: $h: $n saved regression inputs pass"
        else
            tail -n 60 "$log"
            echo "fuzz-run: $h: a saved regression input fails (log: $log)"
            status=1
            continue
        fi
    fi
    mkdir -p "$build/corpus/$h"
    dict=
    [ ! -f "$build/$h.dict" ] || dict=-dict=$build/$h.dict
    "$bin" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 $dict \
        -artifact_prefix="$build/artifacts/$h-" "$build/corpus/$h" "$here/corpus/$h" \
        >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    units=$(sed -n 's/^stat::new_units_added: *//p' "$log")
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
    if [ "$rc" -ne 0 ]; then
        tail -n 60 "$log"
        echo "fuzz-run: $h: FAILED (exit $rc) after ${runs:-?} executions; input in" \
             "$build/artifacts/, log $log"
        status=1
    else
        echo "fuzz-run: $h: ${runs:-?} executions in $seconds s (${rate:-?}/s)," \
             "${units:-?} new inputs, peak RSS ${rss:-?} MB, no findings"
    fi
done
exit $status
