#!/usr/bin/env bash
# bench_atspi.sh - the AT-SPI bridge benchmark, one command: our server against GTK4 (issue "AT-SPI2 bridge", part 7).
#
#   Tools/bench_atspi.sh [--runs K] [--n N | --like-gtk M] [--modes "pyatspi pyatspi-loop cache cache-only"] [--gdbus]
#                        [--calls C] [--gtk-n M] [--bin DIR] [--build] [--json FILE]
#
# In one private stack (Tools/a11y-stack.sh --xvfb --private-home):
#   1. `axserver serve --bench-tree N` (release build; default N=5000), wait for READY, then
#      Tools/atspi_walk.py axserver-bench: K runs (default 3) of each walk mode, medians;
#      VmRSS / VmHWM of the server from /proc/PID/status after the walks;
#      the client floors (Tools/atspi_walk.py --floor, K runs): unpacking as many minimal GetItems items as the
#      app has, and a synchronous Peer.Ping from the same Python client (the least any server can cost it);
#      method round trips (Tools/bench_atspi_report.py roundtrip, C calls each, default 20000): the bus floor
#      (org.freedesktop.DBus.GetId) vs Accessible.GetRole / Properties.Get / Peer.Ping on our app.
#   2. the GTK4 reference app (Tools/gtk4_reference_app.py, GSK_RENDERER=cairo) sized to the same node count
#      (GTK 4.8 gives about 1.72 nodes per leaf + 9; --gtk-n overrides), same walks, RSS, client floors and round trips.
#   3. the table: ratios ours/GTK4 per mode, RSS ratio, round trip / floor, against the targets
#      (walk ≤ 0.5× GTK4, RSS ≤ 0.25× GTK4, round trip ≤ 1.5× floor), and the lowest cache / cache-only ratio
#      the client floors leave any server.
# Figures, not a pass/fail test (exit 0 unless something broke). Everything started is stopped by PID.
#
# --like-gtk M  size both to GTK4's node count for M leaves (M=5000: 8,609 nodes, the reference table's row):
#               GTK4 gets M, ours the N whose tree has as many nodes (N + N/10 + N/50 + 3 nodes)
# --bin DIR     folder with the axserver binary (default: $AXSERVER_BIN, else .build/release)
# --build       first run `swift build -c release --product axserver` (scratch path $SCRATCH or .build)
# --gdbus       add the raw-GDBus walk mode (slow: ~1 ms per node on GTK)
# --json FILE   also keep the raw JSON lines in FILE
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
PY=/usr/bin/python3
RUNS=3; N=5000; MODES="pyatspi pyatspi-loop cache cache-only"; CALLS=20000; GTK_N=""; BIN="${AXSERVER_BIN:-}"; BUILD=""; KEEP=""
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS=$2; shift ;;
        --n) N=$2; shift ;;
        --modes) MODES=$2; shift ;;
        --gdbus) MODES="$MODES gdbus" ;;
        --calls) CALLS=$2; shift ;;
        --gtk-n) GTK_N=$2; shift ;;
        --like-gtk) GTK_N=$2
            # GTK 4.8: 1.72 nodes per leaf + 9 (181 / 1,729 / 8,609 for 100 / 1,000 / 5,000); ours: N + ⌈N/10⌉ + ⌈N/50⌉ + 3
            N=$(awk -v m="$2" 'BEGIN{ t = int(1.72 * m + 9 + 0.5); n = int((t - 3) / 1.12);
                 while (n + int((n + 9) / 10) + int((n + 49) / 50) + 3 < t) n++; print n }'); shift ;;
        --bin) BIN=$2; shift ;;
        --build) BUILD=1 ;;
        --json) KEEP=$2; shift ;;
        -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench_atspi: unknown option $1 (--help)" >&2; exit 2 ;;
    esac
    shift
done
[ "$RUNS" -ge 3 ] || { echo "bench_atspi: --runs must be at least 3 (medians)" >&2; exit 2; }
if [ -n "$BUILD" ]; then
    SCR=${SCRATCH:-$ROOT/.build}
    (cd "$ROOT" && swift build -c release --product axserver --scratch-path "$SCR" >&2)
    BIN=${BIN:-$SCR/release}
fi
BIN=${BIN:-$ROOT/.build/release}
AXSERVER="$BIN/axserver"
[ -x "$AXSERVER" ] || { echo "bench_atspi: no $AXSERVER (build it: swift build -c release --product axserver, or --build / --bin DIR)" >&2; exit 2; }
case "$AXSERVER" in *release*) ;; *) echo "bench_atspi: warning: $AXSERVER does not look like a release build" >&2 ;; esac

eval "$("$HERE/a11y-stack.sh" start --xvfb --private-home)"
OUT="$A11Y_STACK_DIR/bench.jsonl"
: > "$OUT"
APP=""
cleanup() {
    if [ -n "$APP" ]; then kill "$APP" 2>/dev/null || true; wait "$APP" 2>/dev/null || true; fi
    [ -n "$KEEP" ] && [ -f "$OUT" ] && cp "$OUT" "$KEEP"
    "$HERE/a11y-stack.sh" stop "$A11Y_STACK_DIR" >/dev/null 2>&1 || true
}
trap cleanup EXIT

MODE_ARGS=()
for m in $MODES; do MODE_ARGS+=(--mode "$m"); done

# start_app SIDE NAME LOG CMD... : starts CMD in the background, waits for READY, records start-up time
start_app() {
    local side=$1 name=$2 log=$3; shift 3
    local t0 t1 waited=0
    t0=$(date +%s.%N)
    "$@" >"$log" 2>&1 &
    APP=$!
    until grep -q '^READY' "$log" 2>/dev/null; do
        kill -0 "$APP" 2>/dev/null || { echo "bench_atspi: $name exited before READY:" >&2; cat "$log" >&2; exit 1; }
        waited=$((waited + 1))
        [ $waited -le 1200 ] || { echo "bench_atspi: no READY from $name within 60 s" >&2; cat "$log" >&2; exit 1; }
        sleep 0.05
    done
    t1=$(date +%s.%N)
    echo "{\"side\": \"$side\", \"ready_s\": $(awk "BEGIN{printf \"%.3f\", $t1 - $t0}"), \"app_name\": \"$name\"}" >> "$OUT"
}

# measure SIDE NAME : walks, RSS, round trips of the running app $APP
measure() {
    local side=$1 name=$2
    echo "bench_atspi: walking $name ($MODES, $RUNS runs each)..." >&2
    "$PY" "$HERE/atspi_walk.py" "$name" "${MODE_ARGS[@]}" --runs "$RUNS" --json --wait 60 \
        | sed "s/^{/{\"side\": \"$side\", /" >> "$OUT"
    local rss hwm
    rss=$(awk '/^VmRSS/{print $2}' "/proc/$APP/status"); hwm=$(awk '/^VmHWM/{print $2}' "/proc/$APP/status")
    echo "{\"side\": \"$side\", \"rss_kb\": $rss, \"hwm_kb\": $hwm}" >> "$OUT"
    echo "bench_atspi: client floors on $name (decode, Peer.Ping; $RUNS runs)..." >&2
    "$PY" "$HERE/atspi_walk.py" "$name" --floor --runs "$RUNS" --json --wait 60 \
        | sed "s/^{/{\"side\": \"$side\", /" >> "$OUT"
    echo "bench_atspi: round trips on $name ($CALLS calls per series)..." >&2
    "$PY" "$HERE/bench_atspi_report.py" roundtrip "$name" --count "$CALLS" | sed "s/^{/{\"side\": \"$side\", /" >> "$OUT"
}

stop_app() { kill "$APP" 2>/dev/null || true; wait "$APP" 2>/dev/null || true; APP=""; }

# 1. ours
READY_LOG="$A11Y_STACK_DIR/axserver.log"
start_app ours axserver-bench "$READY_LOG" "$AXSERVER" serve --bench-tree "$N" --socket "$A11Y_STACK_DIR/ax.sock"
if grep '^READY' "$READY_LOG" | grep -q 'atspi=off'; then
    echo "bench_atspi: the server did not register on the AT-SPI bus: $(grep '^READY' "$READY_LOG")" >&2; exit 1
fi
echo "{\"side\": \"ours\", \"N\": $N, \"binary\": \"$AXSERVER\"}" >> "$OUT"
measure ours axserver-bench
OUR_NODES=$(grep '"side": "ours"' "$OUT" | grep '"mode": "cache-only"\|"mode": "pyatspi"' | head -1 \
            | sed -n 's/.*"nodes": \([0-9]*\).*/\1/p')
stop_app

# 2. GTK4 at the same node count
if [ -z "$GTK_N" ]; then
    GTK_N=$(awk -v n="${OUR_NODES:-0}" -v d="$N" 'BEGIN{ if (n > 0) printf "%d", (n - 9) / 1.72 + 0.5; else print d }')
fi
GTKV=$("$PY" -c 'import gi; gi.require_version("Gtk","4.0"); from gi.repository import Gtk; print("%d.%d.%d" % (Gtk.get_major_version(), Gtk.get_minor_version(), Gtk.get_micro_version()))' 2>/dev/null || echo "?")
start_app gtk4 gtk4-reference "$A11Y_STACK_DIR/gtk4.log" env GSK_RENDERER=cairo "$PY" "$HERE/gtk4_reference_app.py" "$GTK_N"
echo "{\"side\": \"gtk4\", \"N\": $GTK_N, \"gtk_version\": \"$GTKV\"}" >> "$OUT"
measure gtk4 gtk4-reference
stop_app

# 3. the table
"$PY" "$HERE/bench_atspi_report.py" report "$OUT"
