#!/usr/bin/env bash
# bench_walk.sh - time AT-SPI tree walks of any app that takes a size N.
#
#   bench_walk.sh [--runs K] [--xvfb] [--modes "pyatspi cache ..."] \
#                 --name APP_NAME --ns "100 1000 5000" -- CMD ARGS...
#   bench_walk.sh gtk4 [RUNS] [N ...]     GTK4 reference preset (Xvfb, cairo;
#                                         defaults: 5 runs, N = 100 1000 5000)
#
# CMD ARGS may contain {N}, replaced by each N in turn.  The app must print a
# line starting with READY on stdout once its tree is exported (the GTK4
# reference app does).  For each N: start a fresh app, wait for READY (60 s
# max), run atspi_walk.py (--json, K runs per mode), kill the app.  One
# private stack (a11y-stack.sh, same directory) serves all N; everything
# started is stopped by PID at the end.  JSON lines on stdout.
#
# Examples (from the project root):
#   Tools/bench_walk.sh gtk4 5 100
#   Tools/bench_walk.sh --xvfb --name gtk4-reference --ns "100 1000" -- \
#       env GSK_RENDERER=cairo /usr/bin/python3 Tools/gtk4_reference_app.py {N}
# Self-contained: uses only the Tools/ directory it lives in.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
RUNS=5; XVFB=""; NAME=""; NS="100 1000 5000"; MODES="all"
if [ "${1:-}" = gtk4 ]; then
    shift
    RUNS=${1:-5}; shift || true
    NS=${*:-100 1000 5000}
    exec "$0" --runs "$RUNS" --xvfb --name gtk4-reference --ns "$NS" -- \
        env GSK_RENDERER=cairo "$PY" "$HERE/gtk4_reference_app.py" '{N}'
fi
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS=$2; shift ;;
        --xvfb) XVFB=--xvfb ;;
        --name) NAME=$2; shift ;;
        --ns) NS=$2; shift ;;
        --modes) MODES=$2; shift ;;
        --) shift; break ;;
        *) echo "bench_walk: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[ -n "$NAME" ] && [ $# -gt 0 ] || { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

eval "$("$HERE/a11y-stack.sh" start $XVFB --private-home)"
APP=""
cleanup() {
    if [ -n "$APP" ]; then kill "$APP" 2>/dev/null || true; wait "$APP" 2>/dev/null || true; fi
    "$HERE/a11y-stack.sh" stop "$A11Y_STACK_DIR"
}
trap cleanup EXIT

MODE_ARGS=()
for m in $MODES; do MODE_ARGS+=(--mode "$m"); done

for N in $NS; do
    CMD=()
    for a in "$@"; do CMD+=("${a//\{N\}/$N}"); done
    LOG=$A11Y_STACK_DIR/app-$N.log
    t0=$(date +%s.%N)
    "${CMD[@]}" >"$LOG" 2>&1 &
    APP=$!
    waited=0
    until grep -q '^READY' "$LOG"; do
        kill -0 "$APP" 2>/dev/null || { echo "bench_walk: app exited before READY:" >&2; cat "$LOG" >&2; exit 1; }
        waited=$((waited + 1))
        [ $waited -le 1200 ] || { echo "bench_walk: no READY line from the app within 60 s" >&2; cat "$LOG" >&2; exit 1; }
        sleep 0.05
    done
    t1=$(date +%s.%N)
    echo "{\"N\": $N, \"app\": \"$NAME\", \"app_ready_s\": $(awk "BEGIN{printf \"%.2f\", $t1 - $t0}")}"
    "$PY" "$HERE/atspi_walk.py" "$NAME" "${MODE_ARGS[@]}" --runs "$RUNS" --json \
        | sed "s/^{/{\"N\": $N, /"
    echo "{\"N\": $N, \"app\": \"$NAME\", \"app_rss_kb\": $(awk '/VmRSS/{print $2}' /proc/$APP/status)}"
    kill "$APP"; wait "$APP" 2>/dev/null || true; APP=""
done
