#!/usr/bin/env bash
# profile_core.sh - deterministic instruction counts for the core's snapshot build (optimization work on a noisy,
# shared machine: wall-clock figures move by ±15 % between runs, instruction counts by < 1 %).
#
#   Tools/profile_core.sh [--bin DIR] [--top N]
#
# Runs `axbench --profile-build` (30 builds of the 10,002-view bench snapshot) under valgrind's callgrind on a copy
# of the release binary stripped of its debug info (valgrind cannot read Swift's), then prints millions of
# instructions per build: the whole build (setSnapshot), decode, derive, and the N costliest functions inside it
# (default 15); then runs `axbench --profile-patch` (2,000 one-property patches on that snapshot) and prints
# thousands of instructions per patch (HierarchyStore.apply: decode, apply, derive, change set); then runs
# `axbench --profile-wait` (2,000 rounds of one pending wait.for-style wait woken by a one-property
# hierarchy.update on that snapshot) with and without the waiter and prints thousands of instructions per round:
# the patch alone (Hub.update), the patch with a woken wait, and their difference, the wake-up (not measured
# where valgrind stops with an internal error on the waiter runs, as 3.19 does here).
# Last, `axbench --treeget-profile` (5 whole-tree `tree.get` replies of that snapshot, issue 35) streamed and through
# the former `JSON` value (`--legacy`), each minus a 0-round run: millions of instructions per reply.
# Needs valgrind (not installed by install-deps.sh: apt-get install valgrind).
# Build first: swift build -c release --product axbench [--scratch-path DIR] (then --bin DIR/release).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BIN="$HERE/../.build/release"; TOP=15
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) BIN=$2; shift ;;
        --top) TOP=$2; shift ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "profile_core: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
command -v valgrind >/dev/null || { echo "profile_core: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
[ -x "$BIN/axbench" ] || { echo "profile_core: no $BIN/axbench (swift build -c release --product axbench)" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp "$BIN/axbench" "$WORK/axbench"
strip --strip-debug "$WORK/axbench"
valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.out" "$WORK/axbench" --profile-build >/dev/null 2>&1
echo "instructions per build of the 10,002-view snapshot (millions; 30 builds measured):"
callgrind_annotate --inclusive=yes "$WORK/cg.out" 2>/dev/null | awk -v top="$TOP" '
    function m(x) { gsub(",", "", x); return x / 30e6 }
    /HierarchyStoreC11setSnapshot/ && !b { printf "  build (setSnapshot)  %7.1f M\n", m($1); b = 1 }
    /ViewHierarchyV12fromSnapshot/ && !d { printf "  decode               %7.1f M\n", m($1); d = 1 }
    /DeriverC6derive5views/ && !v { printf "  derive               %7.1f M\n", m($1); v = 1 }'
echo "costliest functions, self instructions (millions per build, whole run incl. teardown):"
callgrind_annotate "$WORK/cg.out" 2>/dev/null | awk -v top="$TOP" '
    /^ *[0-9,]+ +\(/ && n < top && $0 !~ /PROGRAM TOTALS/ { c = $1; gsub(",", "", c); f = $0; sub(/^ *[0-9,]+ +\([^)]*\) +/, "", f);
        sub(/ \[.*\]$/, "", f); printf "  %7.2f  %s\n", c / 30e6, substr(f, 1, 110); n++ }'
valgrind --tool=callgrind --callgrind-out-file="$WORK/cg-patch.out" "$WORK/axbench" --profile-patch >/dev/null 2>&1
echo "instructions per one-property patch (thousands; 2,000 patches measured):"
callgrind_annotate --inclusive=yes "$WORK/cg-patch.out" 2>/dev/null | awk '
    /HierarchyStoreC5apply/ && !a { c = $1; gsub(",", "", c); printf "  patch (apply)        %7.1f k\n", c / 2000e3; a = 1 }'
# Whole-program totals (the wait runs on the concurrency runtime's threads, outside any one inclusive function):
# N rounds minus 0 rounds, per round. valgrind 3.19 (Debian 12) stops with an internal error (SIGSEGV) once the
# waiter's round starts a thread; the wake-up is then reported as not measured.
total() {
    [ -s "$1" ] || return 0
    callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ { c = $1; gsub(",", "", c); print c; exit }' || true
}
for run in "0 --no-waiter" "2000 --no-waiter" "2000"; do
    set -- $run
    SWIFT_BACKTRACE=enable=no valgrind --tool=callgrind --callgrind-out-file="$WORK/cg-wait-$1${2:-}.out" \
        "$WORK/axbench" --profile-wait --rounds "$@" >/dev/null 2>&1 || rm -f "$WORK/cg-wait-$1${2:-}.out"
done
base=$(total "$WORK/cg-wait-0--no-waiter.out")
patch=$(total "$WORK/cg-wait-2000--no-waiter.out")
woken=$(total "$WORK/cg-wait-2000.out")
echo "instructions per wait.for round (thousands; 2,000 rounds, whole program minus a 0-round run):"
awk -v b="${base:-}" -v p="${patch:-}" -v w="${woken:-}" 'BEGIN {
    if (b == "" || p == "") { print "  not measured (valgrind failed on the patch runs)"; exit }
    printf "  patch (Hub.update)   %7.1f k\n", (p - b) / 2000e3
    if (w == "") { print "  patch + woken wait   not measured (valgrind stopped with an internal error)"; exit }
    printf "  patch + woken wait   %7.1f k\n", (w - b) / 2000e3
    printf "  wake-up (difference) %7.1f k\n", (w - p) / 2000e3 }'
for run in "0" "5" "5 --legacy"; do
    set -- $run
    valgrind --tool=callgrind --callgrind-out-file="$WORK/cg-treeget-$1${2:-}.out" \
        "$WORK/axbench" --treeget-profile 8920 "$@" >/dev/null 2>&1 || rm -f "$WORK/cg-treeget-$1${2:-}.out"
done
tbase=$(total "$WORK/cg-treeget-0.out")
tnew=$(total "$WORK/cg-treeget-5.out")
told=$(total "$WORK/cg-treeget-5--legacy.out")
echo "instructions per whole-tree tree.get reply of that snapshot (millions; 5 replies, minus a 0-reply run):"
awk -v b="${tbase:-}" -v n="${tnew:-}" -v o="${told:-}" 'BEGIN {
    if (b == "" || n == "" || o == "") { print "  not measured (valgrind failed)"; exit }
    printf "  streamed (TreeGet.write)        %7.1f M\n", (n - b) / 5e6
    printf "  JSON value, then serialised     %7.1f M\n", (o - b) / 5e6 }'
