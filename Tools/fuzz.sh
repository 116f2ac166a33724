#!/usr/bin/env bash
# Coverage-guided fuzzing of the server's input surfaces with libFuzzer (swiftc -sanitize=fuzzer,address).
#
#   Tools/fuzz.sh [--seconds N] [--keep-going] [--merge] [--no-build] [--unoptimized] [TARGET...]
#
# Builds `axfuzz` with libFuzzer and AddressSanitizer in its own scratch path (.build-fuzz, release; --unoptimized:
# .build-fuzz-onone, below), then runs
# each TARGET (default: all, one after the other) for N seconds (default 600) starting from the checked-in corpus
# Tests/Fuzz/corpus/TARGET/. New inputs go to .build-fuzz/work/TARGET/ (the checked-in corpus is not touched
# unless --merge: then the new inputs are minimized into it with libFuzzer's -merge=1). --keep-going restarts
# a target after a crash until its time is used (at most 10 restarts; every crash is saved). A crash or a broken
# invariant is written to Tests/Fuzz/crashes/TARGET/ (libFuzzer's crash-<sha1>; rename it open-<sha1> while the
# bug is open elsewhere, keep it crash-<sha1> once fixed: the unit tests replay every crash-* file).
# A crash whose log matches a line of Tests/Fuzz/known-open.txt for its target (a bug being fixed elsewhere) is
# renamed open-<sha1> and not counted. Ends with one line: `fuzz: N targets, M inputs, K crashes` (exit status 1
# when K > 0).
# Targets: `swift run axfuzz --list` (json framing router selector patch snapshot appium-xml dbus connections atspi-model
# mcp-lines webdriver-http).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH

seconds=600
optimize=1
merge=0
build=1
keep_going=0
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --merge) merge=1; shift ;;
        --keep-going) keep_going=1; shift ;;
        --no-build) build=0; shift ;;
        --unoptimized) optimize=0; shift ;;
        -h|--help) sed -n '2,/^set /p' "$0" | grep '^#'; exit 0 ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
if [ ${#targets[@]} -eq 0 ]; then
    targets=(json framing router selector patch snapshot appium-xml dbus connections atspi-model mcp-lines webdriver-http)
fi

# --unoptimized (CI's 7-second smoke runs): the same instrumented fuzzer without the optimizer, in its own scratch
# path. Its cold build is ~5x faster (113 s against ~300-575 s on two cores) for 1.5-6.6x fewer inputs a second
# (json 74,535 against 110,079 runs in 7 s, router 3,446 against 22,729): CI's fuzz phase was its longest lane.
# Long runs keep the optimized build.
scratch=.build-fuzz
optimizer_flags=()
if [ "$optimize" = 0 ]; then
    scratch=.build-fuzz-onone
    optimizer_flags=(-Xswiftc -Onone)
fi
if [ "$build" = 1 ]; then
    echo "== building axfuzz with libFuzzer + AddressSanitizer ($scratch)" >&2
    # ld.gold fails with an internal error on this link; lld (shipped with the toolchain) links it.
    swift build -c release --scratch-path "$scratch" --product axfuzz -Xswiftc -use-ld=lld \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DAXFUZZ_LIBFUZZER "${optimizer_flags[@]}" >&2
fi
bin="$scratch/x86_64-unknown-linux-gnu/release/axfuzz"

# Swift's crash backtracer would wait on its own helper inside libFuzzer's crash handling; leaks are not findings.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:symbolize=1"

# "target<TAB>extended regex" lines (# comments): crash classes known and open, excluded from the count.
known_open() {
    local target="$1" log="$2" pattern
    while IFS=$'\t' read -r name pattern; do
        case "$name" in ''|'#'*) continue ;; esac
        if [ "$name" = "$target" ] && grep -Eq -- "$pattern" "$log"; then return 0; fi
    done < Tests/Fuzz/known-open.txt
    return 1
}

total_inputs=0
total_crashes=0
total_open=0
for target in "${targets[@]}"; do
    work="$scratch/work/$target"
    crashes="Tests/Fuzz/crashes/$target"
    mkdir -p "$work" "$crashes"
    log="$scratch/work/$target.log"
    : >"$log"
    before=$(ls "$crashes" | wc -l)
    status=0
    inputs=0
    started=$(date +%s)
    runs=0
    while :; do
        left=$((seconds - ($(date +%s) - started)))
        [ "$left" -gt 0 ] || break
        run_status=0
        "$bin" "$target" -max_total_time="$left" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
            -print_final_stats=1 -detect_leaks=0 -artifact_prefix="$crashes/" \
            "$work" "Tests/Fuzz/corpus/$target" >"$log.run" 2>&1 || run_status=$?
        cat "$log.run" >>"$log"
        # Final stats, or the last progress line ("#N ...") when the run ended in a crash.
        executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log.run" | tail -1)
        [ -n "$executed" ] || executed=$(sed -n 's/^#\([0-9]*\)[[:space:]].*/\1/p' "$log.run" | tail -1)
        inputs=$((inputs + ${executed:-0}))
        runs=$((runs + 1))
        if [ "$run_status" != 0 ]; then status=$run_status; fi
        [ "$run_status" != 0 ] && [ "$keep_going" = 1 ] && [ "$runs" -le 10 ] || break
    done
    rm -f "$log.run"
    elapsed=$(( $(date +%s) - started ))
    rate=$((inputs / (elapsed > 0 ? elapsed : 1)))
    after=$(ls "$crashes" | wc -l)
    found=$((after - before))
    if [ "$status" != 0 ] && [ "$found" = 0 ]; then found=1; fi
    if [ "$found" != 0 ]; then
        grep -E "ERROR|invariant broken|Fatal error|SUMMARY" "$log" | head -5 >&2 || true
        if known_open "$target" "$log"; then
            for file in $(ls -t "$crashes" | head -n "$found"); do
                case "$file" in crash-*) mv "$crashes/$file" "$crashes/open-${file#crash-}" ;; esac
            done
            echo "fuzz: $target: known-open crash class (Tests/Fuzz/known-open.txt), not counted" >&2
            total_open=$((total_open + found))
            found=0
        fi
    fi
    echo "fuzz: $target: ${inputs:-0} inputs, ${rate:-0} exec/s, $found crashes (log $log)" >&2
    total_inputs=$((total_inputs + ${inputs:-0}))
    total_crashes=$((total_crashes + found))
    if [ "$merge" = 1 ]; then
        mkdir -p "$scratch/merged/$target"
        rm -f "$scratch/merged/$target"/*
        "$bin" "$target" -merge=1 -max_len=8192 -detect_leaks=0 "$scratch/merged/$target" \
            "Tests/Fuzz/corpus/$target" "$work" >>"$log" 2>&1
        if [ -n "$(ls "$scratch/merged/$target")" ]; then
            rm -f "Tests/Fuzz/corpus/$target"/*
            cp "$scratch/merged/$target"/* "Tests/Fuzz/corpus/$target/"
        else
            echo "fuzz: $target: merge produced nothing; corpus left as it was (see $log)" >&2
        fi
    fi
done
open_note=""
if [ "$total_open" != 0 ]; then open_note=" ($total_open known-open excluded)"; fi
echo "fuzz: ${#targets[@]} targets, $total_inputs inputs, $total_crashes crashes$open_note"
[ "$total_crashes" = 0 ]
