#!/usr/bin/env bash
# Coverage-guided fuzzing of the server's input surfaces with libFuzzer (swiftc -sanitize=fuzzer,address).
#
#   Tools/fuzz.sh [--seconds N] [--merge] [--no-build] [TARGET...]
#
# Builds `axfuzz` with libFuzzer and AddressSanitizer in its own scratch path (.build-fuzz, release), then runs
# each TARGET (default: all, one after the other) for N seconds (default 600) starting from the checked-in corpus
# Tests/Fuzz/corpus/TARGET/. New inputs go to .build-fuzz/work/TARGET/ (the checked-in corpus is not touched
# unless --merge: then the new inputs are minimized into it with libFuzzer's -merge=1). A crash or a broken
# invariant is written to Tests/Fuzz/crashes/TARGET/ (libFuzzer's crash-<sha1>; rename it open-<sha1> while the
# bug is open elsewhere, keep it crash-<sha1> once fixed: the unit tests replay every crash-* file).
# Ends with one line: `fuzz: N targets, M inputs, K crashes` (exit status 1 when K > 0).
# Targets: `swift run axfuzz --list` (json framing router selector patch snapshot appium-xml dbus).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH

seconds=600
merge=0
build=1
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --merge) merge=1; shift ;;
        --no-build) build=0; shift ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
if [ ${#targets[@]} -eq 0 ]; then
    targets=(json framing router selector patch snapshot appium-xml dbus)
fi

scratch=.build-fuzz
if [ "$build" = 1 ]; then
    echo "== building axfuzz with libFuzzer + AddressSanitizer ($scratch)" >&2
    swift build -c release --scratch-path "$scratch" --product axfuzz \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DAXFUZZ_LIBFUZZER >&2
fi
bin="$scratch/release/axfuzz"

# Swift's crash backtracer would wait on its own helper inside libFuzzer's crash handling; leaks are not findings.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:symbolize=1"

total_inputs=0
total_crashes=0
for target in "${targets[@]}"; do
    work="$scratch/work/$target"
    crashes="Tests/Fuzz/crashes/$target"
    mkdir -p "$work" "$crashes"
    log="$scratch/work/$target.log"
    before=$(ls "$crashes" | wc -l)
    status=0
    "$bin" "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -print_final_stats=1 -detect_leaks=0 -artifact_prefix="$crashes/" \
        "$work" "Tests/Fuzz/corpus/$target" >"$log" 2>&1 || status=$?
    inputs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    after=$(ls "$crashes" | wc -l)
    found=$((after - before))
    if [ "$status" != 0 ] && [ "$found" = 0 ]; then found=1; fi
    echo "fuzz: $target: ${inputs:-0} inputs, ${rate:-0} exec/s, $found crashes (log $log)" >&2
    if [ "$found" != 0 ]; then
        grep -E "ERROR|invariant broken|Fatal error|SUMMARY" "$log" | head -5 >&2 || true
    fi
    total_inputs=$((total_inputs + ${inputs:-0}))
    total_crashes=$((total_crashes + found))
    if [ "$merge" = 1 ]; then
        mkdir -p "$scratch/merged/$target"
        rm -f "$scratch/merged/$target"/*
        "$bin" "$target" -merge=1 -max_len=8192 -detect_leaks=0 "$scratch/merged/$target" \
            "Tests/Fuzz/corpus/$target" "$work" >>"$log" 2>&1
        rm -f "Tests/Fuzz/corpus/$target"/*
        cp "$scratch/merged/$target"/* "Tests/Fuzz/corpus/$target/"
    fi
done
echo "fuzz: ${#targets[@]} targets, $total_inputs inputs, $total_crashes crashes"
[ "$total_crashes" = 0 ]
