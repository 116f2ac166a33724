"""Orca transcripts: one key script, run against the GTK4 twin of the demo and against `axserver --demo`, recording
per step what Orca 43 spoke (issue 10, screen-reader operability). A library for test_orca_transcript.py and for
Tools/bench_keys.py; `python3 orca_transcript.py gtk4|ours` runs one side by hand and prints the transcript.

The private stack (Tools/a11y-stack.sh --xvfb --private-home: own session bus, own AT-SPI bus and registry, own
Xvfb display, own HOME and XDG dirs) and the isolated Orca of Tools/orca_capture.sh (SPEECHD_CMD=/bin/false,
private prefs with the orca-customizations.py hook writing every utterance to $A11Y_STACK_DIR/orca-speech.log, a
line-buffered debug log) are reused as they are. Nothing here touches the user's own desktop bus or Orca; when
another Orca of the same user runs (Orca allows one per user, it pgreps for 'orca'), start waits for it, bounded.

Keys reach Orca in two ways:
  * GTK4: real X input, `xdotool key` under the stack's Xvfb (XTEST). The registry's device event controller
    snoops X and hands every key to Orca's keystroke listener first; keys Orca does not consume reach GTK.
  * AXServer: JSON-RPC `input.key` (contract in Specs/orca-transcripts.md): the server forwards the key through the
    bridge to the registry's DeviceEventController (NotifyListenersSync), so Orca sees it as it sees X keys; keys
    Orca does not consume are handled by the server (Tab/Shift-Tab engine focus, arrows, Escape, Return/space).
The Orca modifier is Insert (desktop layout): a step "Orca+Shift+A" presses Insert, then Shift+A, then releases
Insert, on both sides.

What a step records: the keys, the utterances Orca wrote to the speech log after the keys until speech settled,
Orca's locus of focus afterwards (from its debug log: "[role | name]"), the command handlers Orca ran ("Handler is
…") and whether it consumed the keys ("CONSUME: True/False (…)").
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import unittest  # noqa: E402

from harness import ROOT, Proc, orca48_missing, orca_stack  # noqa: E402

ORCA_CAPTURE = os.environ.get("AX_ORCA_CAPTURE") or os.path.join(ROOT, "Tools", "orca_capture.sh")
TWIN = os.path.join(ROOT, "Tools", "gtk4_demo_twin.py")
TWIN_APP = "gtk4-demo-twin"
DEMO_APP = "axserver-demo"
WINDOW_TITLE = "Settings"
ORCA_KEY = "Insert"          # the Orca modifier of the desktop layout (KP_Insert works too)

# Orca 43 waits this long to decide whether a repeated key is a double press (settings.doubleClickTimeout 0.5 s):
# two steps with the same key must be further apart, or the second one runs the double-press command.
KEY_GAP = 0.55


class OrcaBusy(Exception):
    """Another Orca of this user runs (Orca enforces one per user) and did not go away in time."""


class Orca:
    """The isolated Orca of Tools/orca_capture.sh on a stack (A11yStack with xvfb and private_home)."""

    def __init__(self, stack, wait_for_other=60):
        self.stack = stack
        self.started = False
        self.speech_log = os.path.join(stack.dir, "orca-speech.log")
        self.debug_log = os.path.join(stack.dir, "orca.log")
        env = dict(stack.env, PATH=self._pgrep_shim(stack) + os.pathsep + stack.env.get("PATH", os.defpath))
        deadline = time.time() + wait_for_other
        while True:
            out = subprocess.run([ORCA_CAPTURE, "start"], env=env, capture_output=True, text=True, timeout=60)
            if out.returncode == 0 and "ORCA_PID=" in out.stdout:
                self.pid = int(out.stdout.split("ORCA_PID=")[1].split()[0])
                break
            busy = "Another screen reader process is already running" in out.stdout + out.stderr
            try:   # our failed attempt left its pid file (that process has exited)
                os.remove(os.path.join(stack.dir, "orca.pid"))
            except FileNotFoundError:
                pass
            if not busy:
                raise AssertionError("orca_capture.sh start failed: %s %s" % (out.stdout, out.stderr))
            if time.time() > deadline:
                raise OrcaBusy("another Orca of this user kept running for %ds" % wait_for_other)
            time.sleep(2)
        self.started = True
        if not self.wait_speech(r"Screen reader on", 0, 20):
            raise AssertionError("Orca started but never said 'Screen reader on' (debug log %s)" % self.debug_log)
        self._wait_for_keyboard(stack)

    @staticmethod
    def _wait_for_keyboard(stack, timeout=20.0):
        """On Orca 48's a11y-manager device (D-KEY-MONITOR-1): until Orca watches the keyboard — it says "Screen
        reader on" before its device asks the server for keys, and a key delivered before that never reaches it."""
        chosen = getattr(stack, "orca_stack", None)
        if chosen is None or not chosen.uses_device_model or getattr(stack, "keys_from_x", False):
            return
        deadline = time.time() + timeout
        while not orca_stack.watching_keyboard(stack.env):
            if time.time() > deadline:
                raise AssertionError("Orca 48 never watched the keyboard within %.0f s (%s)"
                                     % (timeout, orca_stack.ORCA_MONITOR_NAME))
            time.sleep(0.02)

    @staticmethod
    def _pgrep_shim(stack):
        """A `pgrep` for this Orca only. Orca 43 refuses to start while another process named 'orca' of the same
        user runs (`pgrep -u UID -x orca` in /usr/bin/orca): a person's own Orca on their desktop would stop the
        tests. Ours runs on its own buses and display, so the shim lists only Orcas started on this stack (their
        environment names this stack's directory); the person's Orca is neither seen nor touched. Tools/orca_capture.sh
        now writes the same shim for every Orca it starts (test_orca.py, test_orca_model.py); this one stays for an
        AX_ORCA_CAPTURE recipe that does not."""
        folder = os.path.join(stack.dir, "orca-bin")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "pgrep")
        with open(path, "w") as f:
            f.write("""#!/bin/sh
# Written by Tests/Integration/orca_transcript.py: pgrep limited to processes of the stack %(dir)s.
for pid in $(/usr/bin/pgrep "$@"); do
    if tr '\\0' '\\n' < /proc/$pid/environ 2>/dev/null | grep -qxF 'A11Y_STACK_DIR=%(dir)s'; then echo $pid; fi
done
""" % {"dir": stack.dir})
        os.chmod(path, 0o755)
        return folder

    def stop(self):
        if self.started:
            subprocess.run([ORCA_CAPTURE, "stop"], env=self.stack.env, capture_output=True, timeout=60)
            self.started = False

    # -- logs ---------------------------------------------------------------------------------------------------

    @staticmethod
    def _read(path, start):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                return [line.rstrip("\n") for line in f][start:]
        except FileNotFoundError:
            return []

    def speech(self, start=0):
        return self._read(self.speech_log, start)

    def debug(self, start=0):
        return self._read(self.debug_log, start)

    def marks(self):
        return len(self.speech()), len(self.debug())

    def wait_speech(self, regex, start, timeout):
        pattern = re.compile(regex)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if any(pattern.search(line) for line in self.speech(start)):
                return True
            time.sleep(0.05)
        return False

    def settle(self, marks, minimum=0.3, quiet=0.35, timeout=5.0, speech_expected=False):
        """Waits until Orca has reacted to a step: at least `minimum` seconds, then until neither log grew for
        `quiet` seconds (bounded by `timeout`). With `speech_expected`, a quiet spell before Orca said anything since
        `marks` does not end the wait (a step whose event reaches a loaded Orca late: CI run 10e heard nothing in the
        first 0.85 s after a window opened). Returns (speech lines, debug lines) since `marks`."""
        begin = time.time()
        last_sizes = None
        last_change = begin
        while True:
            now = time.time()
            sizes = (len(self.speech()), len(self.debug()))
            if sizes != last_sizes:
                last_sizes = sizes
                last_change = now
            spoke = not speech_expected or sizes[0] > marks[0]
            if now - begin >= minimum and now - last_change >= quiet and spoke:
                break
            if now - begin >= timeout:
                break
            time.sleep(0.05)
        return self.speech(marks[0]), self.debug(marks[1])


LOCUS = re.compile(r"locusOfFocus(?:: | from \[.*?\] to )\[([^|\]]+) \| ([^\]]*)\]")
# Orca 48 logs "FOCUS MANAGER: Changing locus of focus from [role: 'name'] to [role: 'name']. Notify: True" and
# "FOCUS MANAGER: Locus of focus is [role: 'name']".
LOCUS_48 = re.compile(r"(?:Changing locus of focus from .*? to|FOCUS MANAGER: Locus of focus is) "
                      r"\[([^:\]]+)(?:: '(.*?)')?\]")
HANDLER = re.compile(r"(?:INFO|KEYBOARD EVENT): Handler is (.+)$")  # Orca 43 | Orca 48
CONSUME = re.compile(r"CONSUME:\s+(True|False) \((.+)\)")
KEY_LINE = re.compile(r"PROCESS ATSPI_KEY_(PRESSED|RELEASED)_EVENT: '([^']*)'")


def locus_in(debug_lines):
    """Orca's locus of focus at the end of these debug lines: (role, name) or None."""
    found = None
    for line in debug_lines:
        match = LOCUS.search(line) or LOCUS_48.search(line)
        if match:
            found = (match.group(1).strip(), (match.group(2) or "").strip())
    return found


def key_decisions(debug_lines):
    """[(key, 'pressed'|'released', consumed, reason)] for every key event Orca processed in these lines."""
    out = []
    current = None
    for line in debug_lines:
        match = KEY_LINE.search(line)
        if match and "vvvvv" in line:
            current = (match.group(2), match.group(1).lower())
            continue
        match = CONSUME.search(line)
        if match and current:
            out.append((current[0], current[1], match.group(1) == "True", match.group(2)))
            current = None
    return out


# -- key senders --------------------------------------------------------------------------------------------------

X_MODIFIERS = {"shift": "shift", "control": "ctrl", "alt": "alt", "super": "super"}


class XKeys:
    """Real X input through xdotool (XTEST) on the stack's Xvfb; the twin's window gets the X input focus."""

    name = "xdotool"

    def __init__(self, env, window_title=WINDOW_TITLE):
        self.env = env
        self.window = None
        deadline = time.time() + 15
        while self.window is None and time.time() < deadline:
            out = subprocess.run(["xdotool", "search", "--name", "^%s$" % re.escape(window_title)], env=env,
                                 capture_output=True, text=True, timeout=10)
            ids = out.stdout.split()
            if ids:
                self.window = ids[0]
            else:
                time.sleep(0.1)
        if self.window is None:
            raise AssertionError("no X window titled %r on %s" % (window_title, env.get("DISPLAY")))
        self.refocus()

    def refocus(self):
        """No window manager: X focus is set directly (GTK also calls XSetInputFocus when it presents a window)."""
        subprocess.run(["xdotool", "windowfocus", "--sync", self.window], env=self.env, capture_output=True,
                       timeout=10)

    def _run(self, *args):
        out = subprocess.run(["xdotool"] + list(args), env=self.env, capture_output=True, text=True, timeout=10)
        if out.returncode != 0:
            raise AssertionError("xdotool %s failed: %s" % (" ".join(args), out.stderr))

    def press(self, key, modifiers=(), orca=False):
        chord = "+".join([X_MODIFIERS[m] for m in modifiers] + [key])
        if orca:
            self._run("keydown", ORCA_KEY)
            self._run("key", chord)
            self._run("keyup", ORCA_KEY)
        else:
            self._run("key", chord)
        return None

    def type(self, text):
        self._run("type", "--delay", "20", text)
        return None


class InputKeyMissing(Exception):
    """The server has no `input.key` (JSON-RPC −32601)."""


class RpcKeys:
    """Keys through JSON-RPC `input.key` (the server forwards them through the bridge to the registry's DEC)."""

    name = "input.key"

    def __init__(self, rpc, app=None):
        self.rpc = rpc
        self.app = app
        self.results = []

    def _key(self, key, modifiers=(), phase="both"):
        params = {"key": key, "phase": phase}
        if modifiers:
            params["modifiers"] = list(modifiers)
        if self.app:
            params["app"] = self.app
        reply = self.rpc.call("input.key", params)
        if "error" in reply:
            if reply["error"].get("code") == -32601:
                raise InputKeyMissing(reply["error"].get("message", "input.key: method not found"))
            raise AssertionError("input.key %s failed: %s" % (json.dumps(params), reply["error"]))
        self.results.append((params, reply["result"]))
        return reply["result"]

    def press(self, key, modifiers=(), orca=False):
        if not orca:
            return self._key(key, modifiers)
        self._key(ORCA_KEY, phase="press")
        try:
            return self._key(key, modifiers)
        finally:
            self._key(ORCA_KEY, phase="release")

    def type(self, text):
        params = {"text": text}
        reply = self.rpc.call("input.type", params)
        if "error" in reply:
            raise AssertionError("input.type failed: %s" % reply["error"])
        return reply["result"]


# -- the driver ---------------------------------------------------------------------------------------------------

def key_label(key, modifiers=(), orca=False):
    parts = (["Orca"] if orca else []) + [m.capitalize() for m in modifiers] + [key]
    return "+".join(parts)


class Transcript:
    """Runs steps and records, per step, what Orca said."""

    def __init__(self, orca, keys, side, budget=300.0):
        self.orca = orca
        self.keys = keys
        self.side = side
        self.steps = []
        self.last_key = None
        # A hard bound on the whole script (a normal run takes about 60 s; every step is also bounded by settle()).
        self.deadline = time.time() + budget

    def step(self, section, what, keys, text=None):
        """keys: [(key, modifiers, orca)] pressed in order; text: typed after them (xdotool type / input.type)."""
        if time.time() > self.deadline:
            raise AssertionError("%s: the key script ran out of its time budget after %d steps" % (self.side,
                                                                                                 len(self.steps)))
        if self.last_key is not None and keys and keys[0][0] == self.last_key[0]:
            time.sleep(KEY_GAP)   # the same key again (any modifiers) must not become Orca's double press
        marks = self.orca.marks()
        answers = []
        for key, modifiers, orca in keys:
            answers.append(self.keys.press(key, modifiers, orca))
        if text is not None:
            answers.append(self.keys.type(text))
        speech, debug = self.orca.settle(marks)
        locus = locus_in(debug)
        record = {
            "section": section,
            "what": what,
            "keys": [key_label(*k) for k in keys] + (["type %r" % text] if text is not None else []),
            "spoken": speech,
            # Orca logs its locus on every event it handles; a step without one left the locus where it was.
            "locus": locus or self.current_locus(),
            "locus_logged": locus is not None,
            "handlers": [m.group(1).strip() for m in map(HANDLER.search, debug) if m],
            "orca_consumed": [(k, consumed, why) for k, phase, consumed, why in key_decisions(debug) if phase == "pressed"],
        }
        if any(a is not None for a in answers):
            record["answers"] = answers
        self.steps.append(record)
        self.last_key = keys[-1] if keys else None
        return record

    def press(self, section, key, modifiers=(), orca=False, what=None):
        return self.step(section, what or key_label(key, modifiers, orca), [(key, tuple(modifiers), orca)])

    def current_locus(self):
        for record in reversed(self.steps):
            if record["locus"]:
                return record["locus"]
        return locus_in(self.orca.debug())

    def moved(self, record, previous):
        return record["locus"] is not None and record["locus"] != previous

    def tab_to(self, section, name, shift=False, limit=40, stuck=3):
        """Presses Tab (Shift+Tab) until Orca's locus is the control named `name`, turning round once when focus
        stops moving (a sequence that does not wrap); returns the step that got there, or None."""
        locus = self.current_locus()
        if locus and locus[1] == name:
            return self.steps[-1] if self.steps else None
        unchanged = 0
        turned = False
        for _ in range(limit):
            previous = self.current_locus()
            record = self.press(section, "Tab", ("shift",) if shift else ())
            if record["locus"] and record["locus"][1] == name:
                return record
            unchanged = 0 if self.moved(record, previous) else unchanged + 1
            if unchanged >= stuck:
                if turned:
                    return None
                shift = not shift
                turned = True
                unchanged = 0
        return None

    def cycle(self, section, shift=False, limit=40, stuck=3):
        """Tab (Shift+Tab) through the whole app: until the locus comes back to the first control reached (the
        sequence wraps, as in GTK), or stays put for `stuck` presses (the end of a sequence that does not wrap,
        as UIKit's). Returns "wrapped", "end" or "limit"."""
        first = None
        unchanged = 0
        for _ in range(limit):
            previous = self.current_locus()
            record = self.press(section, "Tab", ("shift",) if shift else ())
            locus = record["locus"]
            if first is None:
                first = locus
            elif locus == first and self.moved(record, previous):
                return "wrapped"
            unchanged = 0 if self.moved(record, previous) else unchanged + 1
            if unchanged >= stuck:
                return "end"
        return "limit"


def run_key_script(transcript, text="Pixel"):
    """The key script of Specs/orca-transcripts.md §2, the same on both sides."""
    t = transcript
    # 1. Tab through the whole app in focus order (Shift+Tab back through it is step 7).
    t.cycle("tab")
    # 2. Arrows inside a focus group: the tab bar (Home, Settings, Profile).
    if t.tab_to("arrows", "Home", shift=True):
        t.press("arrows", "Right")
        t.press("arrows", "Right")
        t.press("arrows", "Left")
    # 3. Escape on the alert, and focus returning to the control that opened it.
    if t.tab_to("alert", "Reset All Settings", shift=True):
        t.press("alert", "space", what="space (activate: the alert opens)")
        t.press("alert", "Escape", what="Escape (the alert closes; focus returns)")
    # 4. Where am I on the text field, caret at the end of its text.
    if t.tab_to("where-am-i", "Device Name", shift=True):
        t.step("where-am-i", "type %r" % text, [], text=text)
        t.press("where-am-i", "End")
        t.press("where-am-i", "KP_Enter", what="KP_Enter (where am I)")
        t.press("where-am-i", "KP_Enter", orca=True, what="Orca+KP_Enter (window title)")
    # 5. Flat review (desktop layout, NumLock off: KP_8 is KP_Up, KP_7 KP_Home, KP_9 KP_Page_Up, KP_5 KP_Begin).
    t.press("flat-review", "KP_Up", what="KP_8 (review current line)")
    t.press("flat-review", "KP_Home", what="KP_7 (review previous line)")
    t.press("flat-review", "KP_Page_Up", what="KP_9 (review next line)")
    t.press("flat-review", "KP_Begin", what="KP_5 (review current item)")
    t.press("flat-review", "KP_Subtract", what="KP_Subtract (leave flat review)")
    # 6. Orca+Shift+A (list actions; Orca 43.1 has no binding for it) on a button.
    if t.tab_to("actions", "Reset All Settings"):
        step = t.press("actions", "a", ("shift",), orca=True, what="Orca+Shift+A (list actions)")
        if any("actions menu" in handler for handler in step["handlers"]):   # Orca 48 opens its own menu
            for _ in range(3):
                closing = t.press("actions", "Escape", what="Escape (closes Orca's actions menu)")
                if not (closing["locus"] and closing["locus"][0] in ("menu", "menu item", "window")):
                    break
            refocus = getattr(t.keys, "refocus", None)
            if refocus:   # no window manager gives the X focus back to the app
                refocus()
    # 7. Shift+Tab through the whole app, from the last control of the focus order.
    t.tab_to("shift-tab", "Profile")
    t.cycle("shift-tab", shift=True)
    # 8. Operate every control by keys (issue 21 §7): arrows on the slider, the stepper and the segmented control,
    #    typing and editing in the text field by keys (not input.type).
    run_operate_script(t)
    return t.steps


# Controls operated by keys (section "operate"): the name Tab reaches, the names Orca's locus may take while the
# control is operated (a radio group's focus moves with its selection), the keys pressed on it.
OPERATE = [
    ("Text Size", ("Text Size",), ["Right", "Right", "Left"]),
    ("Copies", ("Copies",), ["Up", "Up", "Down"]),
    ("Light", ("Light", "Dark", "Automatic"), ["Right", "Right", "Left"]),
    ("Device Name", ("Device Name",), ["a", "b", "BackSpace", "Left", "Home", "End"]),
]


# Keys that act on GTK4 and, by a decided difference, not on ours (with the reason), not counted.
OPERATE_EXCEPTIONS = {
    "Device Name: a": "GtkEntry selects its whole text when Tab focuses it, so the first typed key replaces it "
                      "(Orca: 'Selection deleted'); a UIKit text field takes focus with the caret at the end and "
                      "nothing selected, so the key types after the text (D-KEYOP-5)",
}


def run_operate_script(transcript):
    t = transcript
    for control, _names, keys in OPERATE:
        # Forward: the shift-tab section ended at the start of the sequence, which UIKit's does not wrap past.
        if not t.tab_to("operate-nav", control):
            continue
        for key in keys:
            t.press("operate", key, what="%s: %s" % (control, key))


def operate_comparison(gtk_steps, our_steps):
    """Per operating key (section "operate", paired by control and key in order): what Orca said on each side and
    whether Orca's locus left the control. Returns (rows, counts): counts of keys that acted on GTK4 (Orca spoke)
    and not on ours, keys after which the locus left the operated control (per side), and silent keys (per side)."""
    allowed = {control: names for control, names, _keys in OPERATE}

    def keyed(steps):
        seen = {}
        out = {}
        for record in steps:
            if record["section"] != "operate":
                continue
            count = seen.get(record["what"], 0)
            seen[record["what"]] = count + 1
            out[(record["what"], count)] = record
        return out

    gtk = keyed(gtk_steps)
    ours = keyed(our_steps)
    counts = {"acts_on_gtk_not_ours": 0, "jumps_ours": 0, "jumps_gtk": 0, "silent_ours": 0, "silent_gtk": 0,
              "keys": len(gtk)}
    rows = []

    def jumped(record, control):
        return bool(record and record["locus"] and record["locus"][1] not in allowed[control])

    for key in sorted(set(gtk) | set(ours), key=lambda k: (list(gtk).index(k) if k in gtk else 999, k[1])):
        control = key[0].split(":")[0]
        g, o = gtk.get(key), ours.get(key)
        flags = []
        if g and g["spoken"] and not (o and o["spoken"]):
            if key[0] in OPERATE_EXCEPTIONS:
                counts["excepted"] = counts.get("excepted", 0) + 1
                flags.append("acts on GTK4, not ours: exception, " + OPERATE_EXCEPTIONS[key[0]])
            else:
                counts["acts_on_gtk_not_ours"] += 1
                flags.append("ACTS ON GTK4, NOT OURS")
        if jumped(o, control):
            counts["jumps_ours"] += 1
            flags.append("OURS LEFT THE CONTROL")
        if jumped(g, control):
            counts["jumps_gtk"] += 1
            flags.append("GTK4 left the control")
        if o is not None and not o["spoken"]:
            counts["silent_ours"] += 1
        if g is not None and not g["spoken"]:
            counts["silent_gtk"] += 1
        rows.append((key[0], g["spoken"] if g else None, o["spoken"] if o else None, "; ".join(flags)))
    return rows, counts


def format_operate(rows, counts):
    lines = ["== Operating controls by keys: GTK4 vs ours (section 'operate')"]
    for what, gtk, ours, flags in rows:
        lines.append("%-26s GTK4: %s" % (what, " / ".join(gtk) if gtk else "(silent)" if gtk is not None else "-"))
        lines.append("%-26s ours: %s%s" % ("", " / ".join(ours) if ours else "(silent)" if ours is not None else "-",
                                           ("   <- " + flags) if flags else ""))
    lines.append("counts: %s" % json.dumps(counts, sort_keys=True))
    return "\n".join(lines)


def output_dir(name):
    """Where a transcript test writes: $AX_TEST_OUTPUT_DIR/NAME (made), else a fresh folder under /tmp."""
    base = os.environ.get("AX_TEST_OUTPUT_DIR")
    if base:
        path = os.path.join(base, name)
        os.makedirs(path, exist_ok=True)
        return path
    return tempfile.mkdtemp(prefix="axtest-%s-" % name)


def save_transcript(folder, filename, steps, title):
    """Writes the formatted transcript to FOLDER/FILENAME and prints it; returns the text."""
    text = format_transcript(steps, title)
    with open(os.path.join(folder, filename), "w") as f:
        f.write(text + "\n")
    print("\n" + text, flush=True)
    return text


def format_transcript(steps, title):
    lines = ["== Orca transcript: %s" % title]
    for index, record in enumerate(steps, 1):
        locus = "[%s | %s]" % tuple(record["locus"]) if record["locus"] else "-"
        extra = ""
        if record["handlers"]:
            extra = "  handler: " + "; ".join(record["handlers"])
        lines.append("%3d %-11s %-40s -> %s%s" % (index, record["section"], " ".join(record["keys"]), locus, extra))
        for utterance in record["spoken"]:
            lines.append("      %s" % utterance)
    return "\n".join(lines)


# -- comparison (rules: Specs/orca-transcripts.md §4) ------------------------------------------------------------

# Orca's role words (Orca 43 speech_generator role names), longest first, each with its normalised class.
ROLE_CLASSES = [
    ("page tab list", "tab list"), ("page tab", "tab"), ("horizontal slider", "slider"),
    ("vertical slider", "slider"), ("slider", "slider"), ("spin button", "spin button"),
    ("push button", "button"), ("toggle button", "on/off"), ("check box", "on/off"), ("switch", "on/off"),
    ("radio button", "radio button"), ("password text", "text field"), ("entry", "text field"),
    ("text", "text field"), ("link", "link"), ("tool bar", "tool bar"), ("list item", "list item"),
    ("list", "list"), ("table", "list"), ("heading", "heading"), ("image", "image"), ("label", "label"),
    ("dialog", "dialog"), ("alert", "dialog"), ("frame", "window"), ("panel", "panel"), ("grouping", "panel"),
]
# State words, longest first, with their normalised state.
STATE_WORDS = [
    ("not checked", "off"), ("not pressed", "off"), ("not selected", "not selected"), ("checked", "on"),
    ("pressed", "on"), ("selected", "selected"), ("on", "on"), ("off", "off"), ("grayed", "disabled"),
    ("read only", "read only"), ("expanded", "expanded"), ("collapsed", "collapsed"), ("required", "required"),
]
# Orca's role word for each locus role of its debug log, normalised the same way.
LOCUS_ROLE = {name: normal for name, normal in ROLE_CLASSES}
LOCUS_ROLE.update({"check box": "on/off", "toggle button": "on/off", "text": "text field", "entry": "text field"})
# States a GTK 4.8 widget reports that carry no information about the twin (rule 4.4): GtkListBox rows are
# SELECTABLE even with selection-mode none, so Orca says "not selected" on every row of a list that selects nothing.
IGNORED = {("list item", "not selected")}
# Controls GTK4 reaches with Tab that the demo's focus order leaves out, with the reason (rule 4.6).
FOCUS_ORDER_EXCEPTIONS = {
    "General": "the navigation bar's back button is not in UIKit's Tab sequence (focus.status: the sequence starts "
               "at the Edit button; the back button is reached with Escape / the back gesture)",
}
GTK_TYPE_NAME = re.compile(r"\bGtk[A-Z][A-Za-z]+\b")
POSITION = re.compile(r"\b(\d+) of (\d+)\b")
NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(%?)")
CONTEXT = re.compile(r"^(?:.*\b(?:tool bar|list|panel|grouping|page tab list|frame)\.?|List with \d+ items?\.?)$", re.I)


def _words(text):
    return re.findall(r"[\w&%?'-]+", text.lower())


def _find_phrases(text, table):
    """The normalised classes of the phrases of `table` in `text` (longest first, each span used once) and the
    text with those spans cut out."""
    lowered = " %s " % re.sub(r"[^\w&%?'-]+", " ", text.lower())
    found = []
    for phrase, normal in table:
        needle = " %s " % phrase
        while needle in lowered:
            found.append(normal)
            lowered = lowered.replace(needle, " | ", 1)
    return found, lowered


def information(utterance, name, role=None):
    """What a presentation tells the user (rule 4.2): name (bool), roles, states, values, positions, other words."""
    text = GTK_TYPE_NAME.sub(" ", utterance)
    info = {"name": bool(name) and name.lower() in text.lower()}
    if info["name"]:
        text = re.sub(re.escape(name), " ", text, flags=re.IGNORECASE)
    info["positions"] = sorted(set(POSITION.findall(text)))
    text = POSITION.sub(" ", text)
    roles, rest = _find_phrases(text, ROLE_CLASSES)
    states, rest = _find_phrases(rest, STATE_WORDS)
    info["roles"] = sorted(set(roles))
    info["states"] = sorted(set(s for s in states if (role, s) not in IGNORED))
    info["values"] = sorted(set(number for number, _pct in NUMBER.findall(rest)))
    rest = NUMBER.sub(" ", rest)
    info["words"] = sorted(set(w for w in _words(rest) if w != "|" and len(w) > 1))
    return info


def lacking(reference, candidate):
    """The items of `reference` (an information() dict) that `candidate` lacks, as readable strings."""
    missing = []
    if reference["name"] and not candidate["name"]:
        missing.append("name")
    for key in ("roles", "states", "values", "positions"):
        absent = [item for item in reference[key] if item not in candidate[key]]
        if absent:
            missing.append("%s %s" % (key[:-1], ", ".join(map(str, absent))))
    absent = [w for w in reference["words"] if w not in candidate["words"]]
    if absent:
        missing.append("words %s" % ", ".join(absent))
    return missing


def controls(steps, sections=("tab", "shift-tab", "arrows")):
    """{control name: {"role", "speech", "context"}} from the navigation steps: the first arrival at each control
    (Orca speaks changed ancestors only then). Context lines (ancestor announcements) are kept apart (rule 4.5)."""
    out = {}
    for record in steps:
        if record["section"] not in sections or not record["locus"] or not record["spoken"]:
            continue
        role, name = record["locus"]
        if not name or name in out or not record.get("locus_logged", True):
            continue
        context = [line for line in record["spoken"] if CONTEXT.match(line.strip()) and name not in line]
        speech = [line for line in record["spoken"] if line not in context]
        out[name] = {"role": LOCUS_ROLE.get(role, role), "speech": " ".join(speech), "context": " ".join(context)}
    return out


def _first(steps, section, what_prefix):
    for record in steps:
        if record["section"] == section and record["what"].startswith(what_prefix):
            return record
    return None


def compare(gtk_steps, our_steps):
    """Applies the rules of Specs/orca-transcripts.md §4. Returns (rows, problems, notes): rows for the report,
    problems = what ours lacks (the test fails on them), notes = differences the rules do not count."""
    gtk = controls(gtk_steps)
    ours = controls(our_steps)
    rows = []
    problems = []
    notes = []
    for name in sorted(gtk):
        reference = gtk[name]
        if name not in ours:
            if name in FOCUS_ORDER_EXCEPTIONS:
                rows.append((name, reference["speech"], None, "not in our focus order (exception: %s)" %
                             FOCUS_ORDER_EXCEPTIONS[name]))
            else:
                rows.append((name, reference["speech"], None, "MISSING: GTK4 reaches it, ours never spoke it"))
                problems.append("%s: GTK4's Tab/arrow navigation reaches it (%r); Orca never spoke it for ours" % (
                    name, reference["speech"]))
            continue
        candidate = ours[name]
        missing = lacking(information(reference["speech"], name, reference["role"]),
                          information(candidate["speech"], name, candidate["role"]))
        verdict = "ok" if not missing else "MISSING " + "; ".join(missing)
        rows.append((name, reference["speech"], candidate["speech"], verdict))
        if missing:
            problems.append("%s: GTK4 said %r, ours said %r: %s" % (name, reference["speech"], candidate["speech"],
                                                                    "; ".join(missing)))
        if reference["context"] and lacking(information(reference["context"], ""), information(candidate["context"], "")):
            notes.append("%s: context GTK4 %r, ours %r" % (name, reference["context"], candidate["context"]))
    for name in sorted(set(ours) - set(gtk)):
        rows.append((name, None, ours[name]["speech"], "only in ours"))

    # Rule 4.7: the alert, Escape and the return of focus.
    opened = (_first(gtk_steps, "alert", "space"), _first(our_steps, "alert", "space"))
    closed = (_first(gtk_steps, "alert", "Escape"), _first(our_steps, "alert", "Escape"))
    if opened[0] and not opened[1]:
        problems.append("alert: the key script never reached the alert on ours")
    elif opened[0]:
        reference = information(" ".join(opened[0]["spoken"]), "Cancel")
        candidate = information(" ".join(opened[1]["spoken"]), "Cancel")
        missing = [m for m in lacking(reference, candidate) if not m.startswith("words")]
        rows.append(("(alert opens)", " / ".join(opened[0]["spoken"]), " / ".join(opened[1]["spoken"]),
                     "ok" if not missing else "MISSING " + "; ".join(missing)))
        if missing:
            problems.append("alert opened: %s" % "; ".join(missing))
    if closed[0] and closed[1]:
        returned = (closed[0]["locus"], closed[1]["locus"])
        same = returned[1] is not None and returned[0] is not None and returned[1][1] == returned[0][1]
        rows.append(("(Escape)", "focus back on %r" % (returned[0] or ("", ""))[1],
                     "focus back on %r" % (returned[1] or ("", ""))[1], "ok" if same else "MISSING return of focus"))
        if not same:
            problems.append("Escape: GTK4's focus returned to %r, ours to %r" % (returned[0], returned[1]))

    # Rule 4.8: Orca commands (where am I, title, flat review, Orca+Shift+A): the same command ran, and what it
    # said for GTK4 is carried by what it said for ours.
    for section, what in (("where-am-i", "KP_Enter"), ("where-am-i", "Orca+KP_Enter"), ("flat-review", "KP_8"),
                          ("flat-review", "KP_7"), ("flat-review", "KP_9"), ("flat-review", "KP_5"),
                          ("flat-review", "KP_Subtract"), ("actions", "Orca+Shift+A")):
        pair = (_first(gtk_steps, section, what), _first(our_steps, section, what))
        if not pair[0]:
            continue
        if not pair[1]:
            problems.append("%s: the key script never got there on ours" % what)
            continue
        same_handler = pair[0]["handlers"] == pair[1]["handlers"]
        verdict = "ok" if same_handler else "MISSING Orca command %r (ours ran %r)" % (pair[0]["handlers"],
                                                                                     pair[1]["handlers"])
        if same_handler and pair[0]["spoken"] and not pair[1]["spoken"]:
            verdict = "MISSING speech (GTK4 said %r)" % pair[0]["spoken"]
        elif same_handler and pair[0]["spoken"]:
            # name and role of what the command presented (the rest differs by toolkit: GTK 4.8's text content
            # and key bindings, rule 4.8)
            name = (pair[0]["locus"] or ("", ""))[1] if section == "where-am-i" else ""
            reference = information(" ".join(pair[0]["spoken"]), name)
            candidate = information(" ".join(pair[1]["spoken"]), name)
            missing = [m for m in lacking(reference, candidate) if m == "name" or m.startswith("role")]
            if missing:
                verdict = "MISSING " + "; ".join(missing)
        rows.append(("(%s)" % what, " / ".join(pair[0]["spoken"]) or "(silent)",
                     " / ".join(pair[1]["spoken"]) or "(silent)", verdict))
        if verdict != "ok":
            problems.append("%s: %s" % (what, verdict))
    # Rule 4.9: where am I on the text field, caret after the text the script typed, speaks that text (checked
    # against the typed text: GTK 4.8's own answer is wrong, rule 4.8).
    typed = next((r for r in our_steps if r["section"] == "where-am-i" and r["what"].startswith("type ")), None)
    where = _first(our_steps, "where-am-i", "KP_Enter")
    if typed and where:
        text = typed["what"][len("type "):].strip("'\"")
        said = " ".join(where["spoken"])
        verdict = "ok" if text in said else "MISSING the field's text %r" % text
        rows.append(("(where am I: text)", "(GTK 4.8 reports the text wrongly)", said or "(silent)", verdict))
        if verdict != "ok":
            problems.append("where am I on the text field: %s (Orca said %r)" % (verdict, said))
    # Rule 4.10: no silent Tab inside the Tab sequence (D-KEY-6). A Tab or Shift+Tab step Orca said nothing for,
    # followed by a Tab step of the same section that Orca spoke for, was a stop the listener could not hear (a
    # cell's folded switch); silent presses at the end of the sequence (Tab does not wrap) are not counted.
    silent = silent_tabs(our_steps)
    rows.append(("(silent Tab)", "-", ", ".join(silent) or "none", "ok" if not silent else "MISSING speech"))
    for step in silent:
        problems.append("silent Tab: Orca said nothing at %s, and the next Tab was heard" % step)
    return rows, problems, notes


def silent_tabs(steps):
    """The Tab / Shift+Tab steps Orca said nothing for while a later Tab step of the same section was spoken
    (rule 4.10), as "step N (locus)"."""
    found = []
    for position, record in enumerate(steps):
        if record["what"] not in ("Tab", "Shift+Tab") or record["spoken"]:
            continue
        later = (r for r in steps[position + 1:] if r["section"] == record["section"])
        if any(r["what"] in ("Tab", "Shift+Tab") and r["spoken"] for r in later):
            found.append("step %d %s %r" % (position + 1, record["what"], (record["locus"] or ("", ""))[1]))
    return found


def format_comparison(rows, notes=()):
    lines = ["== GTK4 twin vs AXServer, what Orca 43.1 said (rules: Specs/orca-transcripts.md §4)"]
    for name, gtk, ours, verdict in rows:
        lines.append("%-22s %s" % (name, verdict))
        lines.append("    GTK4: %s" % (gtk if gtk is not None else "-"))
        lines.append("    ours: %s" % (ours if ours is not None else "-"))
    for note in notes:
        lines.append("note: " + note)
    return "\n".join(lines)


# -- the two sides ------------------------------------------------------------------------------------------------

def start_twin(stack):
    env = dict(stack.env, GSK_RENDERER="cairo")
    proc = Proc(["/usr/bin/python3", TWIN, "--name", TWIN_APP], env=env)
    proc.wait_line("READY", timeout=30)
    return proc


#: The role words the two Orcas say differently (D-SPEECH-3), declared in axclient.orca_stack.
ROLE_WORDS = orca_stack.ROLE_WORDS


def on_orca48(cls):
    """`cls` (a TestCase whose class attribute `orca` is "43") again on Orca 48.1 and at-spi2-core 2.56: the same
    code with the stack as its one parameter, named `<cls>OnOrca48` (so a shard can take it apart from the Orca 43
    run); skipped, with the install command, when Tools/install-orca48.sh has not run. Assign it at module level:
    `OrcaReadsTheMailOnOrca48 = ot.on_orca48(OrcaReadsTheMail)`."""
    name = cls.__name__ + "OnOrca48"
    variant = type(name, (cls,), {"orca": "48", "__module__": cls.__module__, "__qualname__": name,
                                  "__doc__": (cls.__doc__ or "") + "\n\nOn Orca 48.1 (at-spi2-core / libatspi 2.56)."})
    missing = orca48_missing()
    return unittest.skipIf(missing is not None, missing or "")(variant)


def prerequisites():
    """None when Orca, xdotool and GTK 4's typelib are installed, else the reason to skip."""
    for tool in ("orca", "xdotool", "Xvfb"):
        if shutil.which(tool) is None:
            return "%s is not installed (Tools/install-deps.sh installs it)" % tool
    if not os.path.exists("/usr/lib/x86_64-linux-gnu/girepository-1.0/Gtk-4.0.typelib") and \
            not any(os.path.exists(os.path.join(d, "Gtk-4.0.typelib"))
                    for d in ("/usr/lib/girepository-1.0", "/usr/lib64/girepository-1.0")):
        return "GTK 4 introspection data (gir1.2-gtk-4.0) is not installed"
    return None


def _main():
    from harness import RPC, A11yStack, start_server
    side = sys.argv[1] if len(sys.argv) > 1 else "gtk4"
    stack = A11yStack(xvfb=True, private_home=True)
    app = server = orca = rpc = None
    try:
        if side == "gtk4":
            app = start_twin(stack)
            orca = Orca(stack)
            keys = XKeys(stack.env)
        else:
            server, sock, _tmp = start_server("--demo", env=stack.env, atspi=True)
            orca = Orca(stack)
            rpc = RPC(sock)
            rpc.result("initialize", {"role": "automation"})
            keys = RpcKeys(rpc)
        steps = run_key_script(Transcript(orca, keys, side))
        print(format_transcript(steps, side))
        if len(sys.argv) > 2:
            with open(sys.argv[2], "w") as f:
                json.dump(steps, f, indent=1)
    finally:
        if orca:
            orca.stop()
        if rpc:
            rpc.close()
        for proc in (app, server):
            if proc:
                proc.stop()
        stack.stop()


if __name__ == "__main__":
    _main()
