#!/usr/bin/env bash
# orca_capture.sh - run the real Orca screen reader headless and capture what
# it would speak.  Needs the env of a stack started with
#   eval "$(a11y-stack.sh start --xvfb --private-home)"
# (Orca insists on a Gdk display; --private-home keeps its settings in the
# stack dir).
#
#   orca_capture.sh start     start Orca ($AX_ORCA_BIN, default orca: e.g. Orca 48 of
#                             Tools/install-orca48.sh, its env from axclient.orca_stack) with private prefs ($A11Y_STACK_DIR/orca-prefs;
#                             ORCA_POSITION_SPEAKING=1: speak positions "N of M"),
#                             debug log $A11Y_STACK_DIR/orca.log and speech log
#                             $A11Y_STACK_DIR/orca-speech.log; wait until its main
#                             loop runs ($A11Y_STACK_DIR/orca-ready, written from a
#                             GLib idle callback; at most $AX_ORCA_READY_TIMEOUT s,
#                             default 20, else exit 1); prints ORCA_PID=...
#   orca_capture.sh mark      print the speech log's line count (a cursor)
#   orca_capture.sh speech [FROM_LINE]
#                             print the would-be speech, one utterance a line
#   orca_capture.sh wait-speech REGEX [TIMEOUT_S] [FROM_LINE]
#                             wait until a spoken line matches REGEX (exit 1
#                             on timeout)
#   orca_capture.sh stop      stop Orca by its PID
#   orca_capture.sh key KEY   press KEY (X keysym name: Tab, Return, space,
#                             Shift_L, Down ...) via xdotool if installed, else
#                             via the AT-SPI registry (XTest; needs --xvfb)
#   orca_capture.sh demo      self-contained smoke test: stack + GTK4 app +
#                             Orca, Tab x3, prints what Orca said
#
# Speech: SPEECHD_CMD=/bin/false stops python3-speechd from autospawning a
# speech-dispatcher daemon; Orca then logs "SPEECH: Not available" but still
# logs every utterance as "SPEECH OUTPUT: '...'" in the debug log.  That log
# is block-buffered, so an orca-customizations.py (Orca's own user hook,
# loaded from the prefs dir at startup) makes it line-buffered and also
# appends every utterance passed to orca.speech._speak to orca-speech.log.
# Key echo ("tab") is only in the debug log.  Braille is disabled (-d braille).
# Ready: the same hook adds a GLib idle callback that writes $ORCA_READY_FILE;
# it runs only once Orca's main loop dispatches (after "Screen reader on", its
# event manager, scripts and key grabs), as the screen_reader fixture waits.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)

need_stack() {
    [ -n "${A11Y_STACK_DIR:-}" ] && [ -d "$A11Y_STACK_DIR" ] \
        || { echo "orca_capture: no stack env (eval \"\$(a11y-stack.sh start --xvfb --private-home)\")" >&2; exit 1; }
    [ -n "${DISPLAY:-}" ] || { echo "orca_capture: Orca needs DISPLAY (use --xvfb)" >&2; exit 1; }
}
LOG() { echo "$A11Y_STACK_DIR/orca.log"; }
SPEECH_LOG() { echo "$A11Y_STACK_DIR/orca-speech.log"; }
READY_FILE() { echo "$A11Y_STACK_DIR/orca-ready"; }

send_key() { # KEYSYM_NAME  (xdotool if present, else AT-SPI GenerateKeyboardEvent)
    if command -v xdotool >/dev/null; then
        xdotool key "$1"
    else
        /usr/bin/python3 - "$1" <<'PYEOF'
import sys
import gi
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk
import pyatspi
keyval = Gdk.keyval_from_name(sys.argv[1])
if not keyval:
    sys.exit(f"orca_capture: unknown key name {sys.argv[1]!r}")
pyatspi.Registry.generateKeyboardEvent(keyval, None, pyatspi.KEY_SYM)
PYEOF
    fi
}

speech_lines() { # FROM_LINE
    tail -n +"${1:-1}" "$(SPEECH_LOG)" 2>/dev/null || true
}

write_customizations() { # DIR
    mkdir -p "$1"
    cat > "$1/orca-customizations.py" <<'PYEOF'
# Written by orca_capture.sh: make Orca's output observable by tests.
import os
from orca import debug, speech

if debug.debugFile:
    debug.debugFile.reconfigure(line_buffering=True)

_path = os.environ.get("ORCA_SPEECH_LOG")
if _path and not getattr(speech, "_capture_installed", False):
    _f = open(_path, "a", buffering=1)
    _orig_speak = speech._speak

    def _speak(text, acss, interrupt):
        _f.write(text.replace("\n", " ") + "\n")
        return _orig_speak(text, acss, interrupt)

    speech._speak = _speak
    speech._capture_installed = True

# Ready means Orca's main loop runs and has worked through its start-up ("Screen reader on" comes before Orca
# activates its event manager, scripts and key grabs): an idle callback runs only once the loop has dispatched
# everything pending. axclient.screen_reader's hook does the same.
_ready = os.environ.get("ORCA_READY_FILE")
if _ready and not getattr(speech, "_ready_installed", False):
    from gi.repository import GLib

    def _main_loop_idle():
        with open(_ready, "w") as handle:
            handle.write("idle\n")
        return False

    GLib.idle_add(_main_loop_idle)
    speech._ready_installed = True

# ORCA_POSITION_SPEAKING=1 turns on "speak object position" (settings.enablePositionSpeaking, off by default): list
# items, radio buttons and menu items then end with "N of M" (speech_generator _generatePositionInList).
if os.environ.get("ORCA_POSITION_SPEAKING") == "1":
    from orca import settings
    settings.enablePositionSpeaking = True
PYEOF
}

# Orca 43 refuses to start while another process named 'orca' of the same user runs (`pgrep -u UID -x orca` in
# /usr/bin/orca): a person's own Orca on their desktop would stop every test. Ours runs on its own buses and
# display, so Orca gets a `pgrep` that lists only Orcas started on this stack (their environment names this
# stack's directory); the person's Orca is neither seen nor touched.
write_pgrep_shim() { # DIR
    mkdir -p "$1"
    cat > "$1/pgrep" <<SHEOF
#!/bin/sh
# Written by Tools/orca_capture.sh: pgrep limited to processes of the stack $A11Y_STACK_DIR.
for pid in \$(/usr/bin/pgrep "\$@"); do
    if tr '\\0' '\\n' < /proc/\$pid/environ 2>/dev/null | grep -qxF 'A11Y_STACK_DIR=$A11Y_STACK_DIR'; then echo \$pid; fi
done
SHEOF
    chmod 755 "$1/pgrep"
}

cmd_start() {
    need_stack
    [ -s "$A11Y_STACK_DIR/orca.pid" ] && { echo "orca_capture: already started" >&2; exit 1; }
    write_customizations "$A11Y_STACK_DIR/orca-prefs"
    write_pgrep_shim "$A11Y_STACK_DIR/orca-isolation"
    : > "$(SPEECH_LOG)"
    rm -f "$(READY_FILE)"
    PATH="$A11Y_STACK_DIR/orca-isolation:$PATH" SPEECHD_CMD=/bin/false ORCA_SPEECH_LOG="$(SPEECH_LOG)" \
        ORCA_READY_FILE="$(READY_FILE)" nohup "${AX_ORCA_BIN:-orca}" --debug-file="$(LOG)" -u "$A11Y_STACK_DIR/orca-prefs" -d braille \
        </dev/null >"$A11Y_STACK_DIR/orca.out" 2>&1 &
    local pid=$!
    echo "$pid" > "$A11Y_STACK_DIR/orca.pid"
    local i tenths=$(( ${AX_ORCA_READY_TIMEOUT:-20} * 10 ))
    for i in $(seq "$tenths"); do
        [ -e "$(READY_FILE)" ] && break
        kill -0 "$pid" 2>/dev/null || { cat "$A11Y_STACK_DIR/orca.out" >&2; exit 1; }
        sleep 0.1
    done
    if [ ! -e "$(READY_FILE)" ]; then
        echo "orca_capture: Orca (pid $pid) did not reach its main loop within ${AX_ORCA_READY_TIMEOUT:-20} s" \
             "(no $(READY_FILE); see $(LOG) and $A11Y_STACK_DIR/orca.out)" >&2
        cmd_stop
        exit 1
    fi
    echo "ORCA_PID=$pid"
}

cmd_wait_speech() { # REGEX TIMEOUT FROM
    local re=$1 t=$(( ${2:-10} * 10 )) from=${3:-1}
    while [ $t -gt 0 ]; do
        speech_lines "$from" | grep -Eq -- "$re" && return 0
        sleep 0.1; t=$((t - 1))
    done
    return 1
}

cmd_stop() {
    need_stack
    local pid
    pid=$(cat "$A11Y_STACK_DIR/orca.pid" 2>/dev/null || true)
    [ -n "$pid" ] || return 0
    if kill -0 "$pid" 2>/dev/null; then
        # Orca's Python SIGTERM handler only runs once its C main loop hands
        # control back to Python, i.e. on the next AT-SPI event: send one.
        kill -TERM "$pid" 2>/dev/null || true
        send_key Shift_L 2>/dev/null || true
        local i
        for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
        wait "$pid" 2>/dev/null || true
    fi
    rm -f "$A11Y_STACK_DIR/orca.pid"
}

cmd_demo() {
    eval "$("$HERE/a11y-stack.sh" start --xvfb --private-home)"
    app=""
    cleanup() {
        cmd_stop || true
        if [ -n "$app" ]; then kill "$app" 2>/dev/null || true; wait "$app" 2>/dev/null || true; fi
        "$HERE/a11y-stack.sh" stop "$A11Y_STACK_DIR"
    }
    trap cleanup EXIT
    GSK_RENDERER=cairo /usr/bin/python3 "$HERE/gtk4_reference_app.py" 20 \
        >"$A11Y_STACK_DIR/app.log" 2>&1 &
    app=$!
    until grep -q READY "$A11Y_STACK_DIR/app.log"; do sleep 0.1; done
    cmd_start
    cmd_wait_speech 'Button 0' 10 || echo "demo: no initial focus speech" >&2
    local from
    from=$(( $(wc -l < "$(SPEECH_LOG)") + 1 ))
    if command -v xdotool >/dev/null; then
        local win
        win=$(xdotool search --name 'GTK4 Reference' | head -1)
        xdotool windowfocus --sync "$win" 2>/dev/null || true
    fi  # without a WM, X keyboard focus is PointerRoot: the full-screen-ish window gets the keys
    send_key Tab; cmd_wait_speech 'Check 2' 10 "$from" || true
    send_key Tab; cmd_wait_speech 'Scale 3' 10 "$from" || true
    send_key Tab; cmd_wait_speech 'Entry 4' 10 "$from" || true
    echo "--- Orca would have said:"
    speech_lines 1
}

case "${1:-}" in
    start) cmd_start ;;
    mark) need_stack; wc -l < "$(SPEECH_LOG)" ;;
    speech) need_stack; speech_lines "${2:-1}" ;;
    wait-speech) need_stack; cmd_wait_speech "$2" "${3:-10}" "${4:-1}" ;;
    stop) cmd_stop ;;
    demo) cmd_demo ;;
    key) need_stack; send_key "$2" ;;
    *) sed -n '2,38p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
