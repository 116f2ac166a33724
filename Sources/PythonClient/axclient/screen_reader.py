"""A real screen reader in the loop: a private headless Orca bound to the server under test, keys pressed the way a
user presses them, and what Orca said (Specs/python-client.md §Screen reader).

    def test_wifi_is_announced(screen_reader, ax):
        screen_reader.press("Tab")                       # input.key: Orca hears the key first, then Tab moves focus
        expect(screen_reader).to_say("Wi-Fi")            # waits, bounded, for Orca's speech
        screen_reader.press("space")
        expect(screen_reader).to_say("on")               # or "off": what Orca 43 said for the switch

Everything runs on a private stack (``Tools/a11y-stack.sh start --xvfb --private-home``: its own session bus,
AT-SPI bus and registry, Xvfb display, HOME and XDG folders). The user's own desktop bus and Orca are neither seen
nor touched: Orca 43 refuses to start while another ``orca`` of the same user runs (``pgrep -u UID -x orca``), so
ours gets a ``pgrep`` that lists only Orcas of this stack. Orca's speech goes nowhere (``SPEECHD_CMD=/bin/false``);
its user hook ``orca-customizations.py`` in the private preferences writes every utterance to a log that this
module reads — the same recipe as ``Tools/orca_capture.sh``. Every process is started here and ended by its PID.

Standard library only.
"""
from __future__ import annotations

import atexit
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from typing import Any, Dict, List, Optional, Pattern, Sequence, Tuple, Union

from .errors import AXError
from .methods import Method

Expected = Union[str, Pattern[str]]

#: Modifier names a chord may use, and the ``input.key`` modifier each stands for.
CHORD_MODIFIERS = {"shift": "shift", "control": "control", "ctrl": "control", "alt": "alt", "super": "super"}
#: Orca 43 takes a repeated key within its double-click time (0.5 s) as a double press; Orca commands (``Orca+…``,
#: keypad keys) pressed twice are spaced by this much.
DOUBLE_PRESS_GAP = 0.55

# What Orca's user hook does: every utterance passed to orca.speech._speak goes to $ORCA_SPEECH_LOG, one a line
# (as Tools/orca_capture.sh writes it; the debug log, when asked for, is made line-buffered).
_CUSTOMIZATIONS = '''# Written by axclient.screen_reader: make Orca's output observable by tests.
import os
from orca import debug, speech

if debug.debugFile:
    debug.debugFile.reconfigure(line_buffering=True)

_path = os.environ.get("ORCA_SPEECH_LOG")
if _path and not getattr(speech, "_capture_installed", False):
    _f = open(_path, "a", buffering=1)
    _orig_speak = speech._speak

    def _speak(text, acss, interrupt):
        _f.write(text.replace("\\n", " ") + "\\n")
        return _orig_speak(text, acss, interrupt)

    speech._speak = _speak
    speech._capture_installed = True

# Ready means Orca's main loop runs and has worked through its start-up: "Screen reader on" comes before Orca
# activates its event manager, scripts and key grabs and before Atspi.event_main. An idle callback runs only once
# the main loop has dispatched everything pending (D-Bus messages are dispatched at a higher priority).
_ready = os.environ.get("ORCA_READY_FILE")
if _ready and not getattr(speech, "_ready_installed", False):
    from gi.repository import GLib

    def _main_loop_idle():
        with open(_ready, "w") as handle:
            handle.write("idle\\n")
        return False

    GLib.idle_add(_main_loop_idle)
    speech._ready_installed = True
'''

_PGREP_SHIM = '''#!/bin/sh
# Written by axclient.screen_reader: pgrep limited to processes of the stack %(dir)s.
for pid in $(/usr/bin/pgrep "$@"); do
    if tr '\\0' '\\n' < /proc/$pid/environ 2>/dev/null | grep -qxF 'A11Y_STACK_DIR=%(dir)s'; then echo $pid; fi
done
'''


class ScreenReaderError(AXError):
    """The screen reader could not start, stopped, or did not do what a step asked in time."""


class ScreenReaderUnavailable(ScreenReaderError):
    """Something the screen reader needs is not installed (Orca, Xvfb, the AT-SPI stack script)."""


class ScreenReaderStartError(ScreenReaderError):
    """Orca exited during start-up, or did not become ready within the start-up bound."""


class SpeechNeverSettled(ScreenReaderError):
    """Orca kept speaking past the settle bound (``utterances`` holds what it said)."""

    def __init__(self, message: str, utterances: Sequence[str]) -> None:
        super().__init__(message)
        self.utterances = list(utterances)


def missing_prerequisite() -> Optional[str]:
    """None when Orca and Xvfb are installed, else what is missing and how to install it."""
    for tool, package in (("orca", "orca"), ("Xvfb", "xvfb")):
        if shutil.which(tool) is None:
            return "%s is not installed (apt-get install %s; Tools/install-deps.sh installs it)" % (tool, package)
    return None


def parse_chord(chord: str) -> Tuple[str, Tuple[str, ...], bool]:
    """``"Shift+Tab"`` → ``("Tab", ("shift",), False)``; ``"Orca+Shift+A"`` → ``("a", ("shift",), True)``.

    The last part is an X keysym name (``Tab``, ``Return``, ``KP_Enter``, ``Down``, ``a``…); the parts before it are
    modifiers (``Shift``, ``Control``/``Ctrl``, ``Alt``, ``Super``, ``Orca``). A single upper-case letter with
    Shift is sent as its lower-case keysym with Shift, as a keyboard does."""
    if not isinstance(chord, str) or not chord.strip():
        raise ValueError("a key chord is a non-empty string such as 'Tab', 'Shift+Tab' or 'Orca+Shift+A'")
    parts = [part.strip() for part in chord.strip().split("+")]
    if chord.strip().endswith("++"):
        parts = parts[:-2] + ["plus"]
    key = parts[-1]
    if not key:
        raise ValueError("%r has no key after its modifiers" % chord)
    modifiers: List[str] = []
    orca = False
    for part in parts[:-1]:
        name = part.lower()
        if name in ("orca", "insert"):
            orca = True
        elif name in CHORD_MODIFIERS:
            if CHORD_MODIFIERS[name] not in modifiers:
                modifiers.append(CHORD_MODIFIERS[name])
        else:
            raise ValueError("%r: unknown modifier %r (Shift, Control, Alt, Super, Orca)" % (chord, part))
    if len(key) == 1 and key.isalpha() and key.isupper() and "shift" in modifiers:
        key = key.lower()
    return key, tuple(modifiers), orca


def _normalized(text: str) -> str:
    return " ".join(text.split())


def speech_matches(utterances: Sequence[str], expected: Expected) -> bool:
    """True when one utterance, or the utterances joined by spaces, contains ``expected`` (a string, compared with
    runs of white space as one space) or matches it (a compiled regular expression, ``search``)."""
    joined = _normalized(" ".join(utterances))
    if isinstance(expected, str):
        wanted = _normalized(expected)
        return any(wanted in _normalized(line) for line in utterances) or wanted in joined
    return any(expected.search(line) for line in utterances) or bool(expected.search(joined))


class Step:
    """One thing the test did (keys pressed, text typed) and what Orca said after it, until the next step."""

    def __init__(self, what: str, started: float, speech_mark: int) -> None:
        #: What was done: ``"Tab"``, ``"Orca+Shift+A"``, ``"type 'Kitchen'"``.
        self.what = what
        #: time.monotonic() when the keys were sent.
        self.started = started
        #: The speech log's line count when the step began.
        self.speech_mark = speech_mark
        #: The server's answers (``input.key`` / ``input.type`` results).
        self.answers: List[Dict[str, Any]] = []
        #: What Orca said for this step (filled in as it is read).
        self.utterances: List[str] = []
        #: Seconds from sending the keys to Orca's first utterance for them (None: silent so far).
        self.first_speech: Optional[float] = None

    def __repr__(self) -> str:
        return "Step(%r → %r)" % (self.what, self.utterances)


class _Processes:
    """Every stack and Orca this module started and has not stopped yet: stopped at interpreter exit (also after
    Ctrl-C) so that an interrupted test run leaves nothing behind."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: List[Any] = []
        atexit.register(self.stop_all)

    def add(self, thing: Any) -> None:
        with self._lock:
            self._live.append(thing)

    def remove(self, thing: Any) -> None:
        with self._lock:
            if thing in self._live:
                self._live.remove(thing)

    def stop_all(self) -> None:
        with self._lock:
            live = list(reversed(self._live))
        for thing in live:
            try:
                thing.stop()
            except Exception:  # noqa: BLE001 — best effort at exit; each stop is by PID
                pass


_PROCESSES = _Processes()


class Orca:
    """A private headless Orca on a private stack (an :class:`axclient.A11yStack` started with ``xvfb=True,
    private_home=True``). ``Orca(stack)`` starts it and returns once Orca said "Screen reader on" (bounded by
    ``startup_timeout``); ``.stop()`` ends it by PID."""

    def __init__(self, stack: Any, startup_timeout: float = 20.0, debug_log: bool = False,
                 orca_stack: Any = None, keys_from_x: bool = False) -> None:
        from . import orca_stack as stacks
        #: Which Orca on which AT-SPI stack (axclient.orca_stack; default: the system's Orca 43).
        self.orca_stack = orca_stack or stacks.system_stack()
        problem = missing_prerequisite()
        if problem:
            raise ScreenReaderUnavailable(problem)
        if not stack.dir or "DISPLAY" not in stack.exports:
            raise ScreenReaderStartError("Orca needs a stack started with xvfb=True, private_home=True (a Gdk "
                                         "display and a private HOME)")
        self.stack = stack
        self.speech_log = os.path.join(stack.dir, "orca-speech.log")
        self.debug_log = os.path.join(stack.dir, "orca.log") if debug_log else None
        self.output_log = os.path.join(stack.dir, "orca.out")
        self.ready_file = os.path.join(stack.dir, "orca-ready")
        prefs = os.path.join(stack.dir, "orca-prefs")
        shim = os.path.join(stack.dir, "orca-isolation")
        for folder in (prefs, shim):
            os.makedirs(folder, exist_ok=True)
        with open(os.path.join(prefs, "orca-customizations.py"), "w") as handle:
            handle.write(_CUSTOMIZATIONS)
        pgrep = os.path.join(shim, "pgrep")
        with open(pgrep, "w") as handle:
            handle.write(_PGREP_SHIM % {"dir": stack.dir})
        os.chmod(pgrep, 0o755)
        open(self.speech_log, "w").close()
        if os.path.exists(self.ready_file):
            os.remove(self.ready_file)
        env = stack.env()
        env.update(PATH=shim + os.pathsep + env.get("PATH", os.defpath), SPEECHD_CMD="/bin/false",
                   ORCA_SPEECH_LOG=self.speech_log, ORCA_READY_FILE=self.ready_file)
        env = self.orca_stack.orca_env(env, keys_from_x=keys_from_x)
        command = self.orca_stack.orca_command() + ["-u", prefs, "-d", "braille"]
        if self.debug_log:
            command.insert(1, "--debug-file=" + self.debug_log)
        self._output = open(self.output_log, "wb")
        started = time.monotonic()
        self.process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=self._output,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        self.pid = self.process.pid
        _PROCESSES.add(self)
        try:
            self._wait_ready(startup_timeout)
            if self.orca_stack.uses_device_model and not keys_from_x:
                self._wait_watching(env, started + startup_timeout)
            self._wait_main_loop(started + startup_timeout)
        except BaseException:
            self.stop()
            raise
        #: Seconds from starting Orca to its "Screen reader on".
        self.startup_seconds = time.monotonic() - started

    def _wait_watching(self, env: Dict[str, str], deadline: float) -> None:
        """Orca 48 says "Screen reader on" before its a11y-manager device watches keys: wait for that too."""
        from .orca_stack import ORCA_MONITOR_NAME, watching_keyboard
        while not watching_keyboard(env):
            if time.monotonic() >= deadline or self.process.poll() is not None:
                raise ScreenReaderStartError("Orca never watched the keyboard (no %s on its session bus; output: %s)"
                                             % (ORCA_MONITOR_NAME, self._output_text()[-1500:] or "(none)"))
            time.sleep(0.02)

    def _wait_main_loop(self, deadline: float) -> None:
        """Until Orca's main loop ran idle once (the hook's idle callback wrote ``orca-ready``): before that a key
        waits behind Orca's start-up work, and Orca 48 then adopts the focus the key moved silently."""
        while not os.path.exists(self.ready_file):
            if time.monotonic() >= deadline or self.process.poll() is not None:
                raise ScreenReaderStartError("Orca's main loop never ran idle (no %s; output: %s)"
                                             % (self.ready_file, self._output_text()[-1500:] or "(none)"))
            time.sleep(0.02)

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any("Screen reader on" in line for line in self.speech()):
                return
            status = self.process.poll()
            if status is not None:
                output = self._output_text()
                if "Another screen reader process is already running" in output:
                    raise ScreenReaderStartError("Orca refused to start: it saw another Orca of this user (the "
                                                 "pgrep shim did not apply): %s" % output[-1500:])
                raise ScreenReaderStartError("Orca exited with status %s during start-up: %s"
                                             % (status, output[-1500:] or "(no output)"))
            time.sleep(0.02)
        raise ScreenReaderStartError("Orca did not become ready within %.0f s (it never said 'Screen reader on'; "
                                     "output: %s)" % (timeout, self._output_text()[-1500:] or "(none)"))

    def _output_text(self) -> str:
        try:
            with open(self.output_log, encoding="utf-8", errors="replace") as handle:
                return handle.read()
        except OSError:
            return ""

    def speech_count(self) -> int:
        """How many utterances Orca has spoken so far (a mark for :meth:`speech`)."""
        return len(self.speech())

    def speech(self, start: int = 0) -> List[str]:
        """Orca's utterances from the ``start``-th on, in order."""
        try:
            with open(self.speech_log, encoding="utf-8", errors="replace") as handle:
                lines = handle.read().split("\n")
        except OSError:
            return []
        if lines and lines[-1] == "":
            lines.pop()
        return lines[start:]

    def speech_size(self) -> int:
        """The speech log's size in bytes (cheap: tells whether Orca spoke since the last look)."""
        try:
            return os.stat(self.speech_log).st_size
        except OSError:
            return 0

    def running(self) -> bool:
        return self.process.poll() is None

    def stop(self, timeout: float = 3.0) -> None:
        """SIGTERM by PID, SIGKILL after ``timeout`` (Orca's SIGTERM handler waits for its next event)."""
        process = getattr(self, "process", None)
        if process is not None and process.poll() is None:
            try:
                os.kill(process.pid, signal.SIGTERM)
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait(5)
            except ProcessLookupError:
                pass
        output = getattr(self, "_output", None)
        if output is not None and not output.closed:
            output.close()
        _PROCESSES.remove(self)


class ScreenReader:
    """Orca listening to a server: press keys, read what Orca said, compare with the server's speech preview.

    ``client`` is a connected :class:`axclient.Client` of that server (keys go through ``input.key``: the server
    hands each key to the AT-SPI registry, so Orca hears it first, as it hears a keyboard; keys Orca does not
    take move the server's focus engine). ``orca`` is the :class:`Orca` on the server's stack.
    """

    def __init__(self, orca: Orca, client: Any, settle_quiet: float = 0.25, settle_timeout: float = 5.0,
                 timeout: float = 5.0) -> None:
        self.orca = orca
        self.client = client
        #: A step's speech has settled when Orca said nothing more for this many seconds.
        self.settle_quiet = settle_quiet
        #: No step waits longer than this for Orca to stop speaking.
        self.settle_timeout = settle_timeout
        #: The default bound of ``expect(screen_reader).to_say(…)``.
        self.timeout = timeout
        #: Every step of this test, in order.
        self.transcript: List[Step] = []
        self._begin = orca.speech_count()
        self._last_size = orca.speech_size()
        self._last_growth = time.monotonic()
        self._last_key: Optional[Tuple[str, float]] = None

    # -- reading -------------------------------------------------------------------------------------------------

    def _observe(self) -> None:
        size = self.orca.speech_size()
        if size != self._last_size:
            self._last_size = size
            self._last_growth = time.monotonic()

    def _refresh(self) -> None:
        """Reads new utterances into the current step."""
        self._observe()
        if not self.transcript:
            return
        step = self.transcript[-1]
        lines = self.orca.speech(step.speech_mark)
        if lines and step.first_speech is None:
            step.first_speech = time.monotonic() - step.started
        step.utterances = lines

    @property
    def spoken(self) -> List[str]:
        """What Orca said since the last step began (the current step's utterances, so far)."""
        self._refresh()
        return list(self.transcript[-1].utterances) if self.transcript else self.said

    @property
    def said(self) -> List[str]:
        """Everything Orca said since this screen reader was handed to the test."""
        self._refresh()
        return self.orca.speech(self._begin)

    @property
    def last_step(self) -> Optional[Step]:
        """The current (last) step, its utterances read up to now."""
        self._refresh()
        return self.transcript[-1] if self.transcript else None

    def transcript_text(self) -> str:
        """The steps and what Orca said after each, one step a line."""
        self._refresh()
        lines = []
        for number, step in enumerate(self.transcript, 1):
            lines.append("%2d %-20s → %s" % (number, step.what, " / ".join(step.utterances) or "(silent)"))
        return "\n".join(lines)

    def wait_until_quiet(self, quiet: Optional[float] = None, timeout: Optional[float] = None) -> List[str]:
        """Waits until Orca said nothing for ``quiet`` seconds since the current step began or last spoke (bounded
        by ``timeout``) and returns the current step's utterances; raises :class:`SpeechNeverSettled` when Orca is
        still speaking at the bound."""
        quiet = self.settle_quiet if quiet is None else quiet
        timeout = self.settle_timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        while True:
            self._refresh()
            now = time.monotonic()
            since = max(self._last_growth, self.transcript[-1].started if self.transcript else 0.0)
            if now - since >= quiet:
                return self.spoken
            if now >= deadline:
                raise SpeechNeverSettled("Orca was still speaking after %.1f s (quiet needed: %.2f s); it said: %s"
                                         % (timeout, quiet, " / ".join(self.spoken)), self.spoken)
            time.sleep(0.01)

    settle = wait_until_quiet

    def wait_for_speech(self, expected: Expected, timeout: Optional[float] = None,
                        whole_test: bool = False) -> List[str]:
        """Waits until Orca said ``expected`` in the current step (``whole_test``: anywhere since the test
        began); returns the utterances searched. Raises :class:`AssertionError` with what Orca did say."""
        seconds = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + seconds
        while True:
            lines = self.said if whole_test else self.spoken
            if speech_matches(lines, expected):
                return lines
            if time.monotonic() >= deadline:
                raise AssertionError("Orca did not say %s within %.2f s%s; it said: %s"
                                     % (_describe_expected(expected), seconds,
                                        "" if whole_test else " of the last step (%s)" % self._step_name(),
                                        " / ".join(lines) or "nothing"))
            time.sleep(0.01)

    def _step_name(self) -> str:
        return self.transcript[-1].what if self.transcript else "no step yet"

    # -- acting --------------------------------------------------------------------------------------------------

    def _begin_step(self, what: str) -> Step:
        # Speech still arriving for the previous step belongs to it: wait (bounded) until Orca is quiet.
        self._observe()
        if self.transcript and time.monotonic() - self._last_growth < self.settle_quiet:
            self.wait_until_quiet()
        step = Step(what, time.monotonic(), self.orca.speech_count())
        self.transcript.append(step)
        return step

    def press(self, chord: str, app: Optional[str] = None) -> Step:
        """Presses a key chord (``"Tab"``, ``"Shift+Tab"``, ``"space"``, ``"Orca+Shift+A"``) as a keyboard does:
        Orca hears it first (and may take it: Orca commands), then the server handles what Orca let through.
        Returns the new :class:`Step`; ``expect(screen_reader).to_say(…)`` waits for its speech."""
        key, _modifiers, orca = parse_chord(chord)
        if self._last_key is not None and (orca or key.startswith("KP_")) and self._last_key[0] == chord:
            gap = DOUBLE_PRESS_GAP - (time.monotonic() - self._last_key[1])
            if gap > 0:
                time.sleep(gap)
        step = self._begin_step(chord)
        step.answers.append(self.client.keyboard.press(chord, app=app))
        self._last_key = (chord, time.monotonic())
        return step

    def type(self, text: str, target: Optional[Any] = None) -> Step:
        """Types ``text`` into ``target`` (default: the focused element) with ``input.type``; returns the step."""
        from .client import to_target
        step = self._begin_step("type %r" % text)
        params: Dict[str, Any] = {"text": text}
        if target is not None:
            params["target"] = to_target(target)
        step.answers.append(self.client.call(Method.INPUT_TYPE, params))
        return step

    # -- the server's preview --------------------------------------------------------------------------------------

    @property
    def version(self) -> str:
        """Which Orca this is, as the speech preview names it: ``"orca-43"`` or ``"orca-48"`` (D-SPEECH-3)."""
        return self.orca.orca_stack.name

    def preview(self, target: Optional[Any] = None) -> List[str]:
        """What the server's Orca model (``speech.describe``, D-SPEECH-2) says this Orca (:attr:`version`, D-SPEECH-3)
        says for ``target`` (default: the element with accessibility focus)."""
        from .client import to_target
        if target is None:
            focused = self.client.focused()
            if focused is None:
                raise ScreenReaderError("preview(): nothing has accessibility focus; name a target")
            target = {"id": focused.id}
        result = self.client.call(Method.SPEECH_DESCRIBE, {"target": to_target(target), "model": "orca",
                                                      "screenReader": self.version})
        return list((result.get("orca") or {}).get("utterances") or [])

    def compare_with_preview(self, target: Optional[Any] = None) -> Dict[str, Any]:
        """``{"orca": [what Orca said in the last step], "preview": [speech.describe's lines], "missing": [preview
        lines Orca did not say], "agree": bool}`` — a disagreement between the preview and real Orca, visible.
        Word for word: each preview line must be one of Orca's utterances (white space normalised, Orca's closing
        full stop ignored); Orca may say more (the containers focus entered, which the preview leaves out)."""
        self.wait_until_quiet()
        said = self.spoken
        preview = self.preview(target)
        spoken_lines = {_as_line(line) for line in said}
        missing = [line for line in preview if _as_line(line) not in spoken_lines]
        return {"orca": said, "preview": preview, "missing": missing, "agree": not missing}


def _as_line(utterance: str) -> str:
    """An utterance compared as a line: white space runs as one space, Orca's closing full stop dropped."""
    return _normalized(utterance).rstrip(".").rstrip()


def _describe_expected(expected: Expected) -> str:
    return "/%s/" % expected.pattern if hasattr(expected, "pattern") else repr(expected)


class ScreenReaderAssertions:
    """``expect(screen_reader)``: assertions on what Orca said, each waiting (bounded) for Orca's speech."""

    def __init__(self, reader: ScreenReader, timeout: Optional[float], negated: bool) -> None:
        self._reader = reader
        self._timeout = timeout
        self._negated = negated

    @property
    def not_(self) -> "ScreenReaderAssertions":
        """The negated assertions: Orca did not say it (checked once its speech settled)."""
        return ScreenReaderAssertions(self._reader, self._timeout, not self._negated)

    def _check(self, expected: Expected, timeout: Optional[float], whole_test: bool, name: str) -> None:
        seconds = timeout if timeout is not None else self._timeout
        if not self._negated:
            self._reader.wait_for_speech(expected, seconds, whole_test=whole_test)
            return
        self._reader.wait_until_quiet()
        lines = self._reader.said if whole_test else self._reader.spoken
        if speech_matches(lines, expected):
            raise AssertionError("expect(screen_reader).not_.%s(%s) failed: Orca said: %s"
                                 % (name, _describe_expected(expected), " / ".join(lines)))

    def to_say(self, expected: Expected, timeout: Optional[float] = None) -> None:
        """Orca says ``expected`` (a substring, white space normalised, or a regular expression) in response to
        the last step, within ``timeout`` seconds (default: the screen reader's ``timeout``)."""
        self._check(expected, timeout, False, "to_say")

    def to_have_said(self, expected: Expected, timeout: Optional[float] = None) -> None:
        """Orca said ``expected`` at any time since the test began (waits as :meth:`to_say` does)."""
        self._check(expected, timeout, True, "to_have_said")

    def to_match_preview(self, target: Optional[Any] = None) -> None:
        """Every line the server's ``speech.describe`` predicts for ``target`` (default: the focused element) is
        in what Orca said for the last step."""
        comparison = self._reader.compare_with_preview(target)
        if comparison["agree"] == self._negated:
            raise AssertionError("Orca and the server's speech preview %s: Orca said %s; speech.describe says %s "
                                 "(missing: %s)" % ("agree" if self._negated else "disagree",
                                                    comparison["orca"], comparison["preview"],
                                                    comparison["missing"]))


class ScreenReaderSession:
    """A private stack, a server on it and Orca listening: ``ScreenReaderSession(binary, demo=True)``.
    ``.server`` (a :class:`axclient.ServerProcess`), ``.orca``, ``.reader(client)`` → :class:`ScreenReader`,
    ``.ready_seconds`` (from the call to Orca's "Screen reader on"); ``.stop()`` ends everything by PID."""

    def __init__(self, binary: Optional[str] = None, demo: bool = True, args: Sequence[str] = (),
                 startup_timeout: float = 30.0, orca_timeout: float = 20.0, debug_log: bool = False,
                 orca: Optional[str] = None) -> None:
        from . import orca_stack as stacks
        from .server import A11yStack, ServerProcess, ServerStartError, find_a11y_stack_script, find_axserver
        problem = missing_prerequisite()
        if problem:
            raise ScreenReaderUnavailable(problem)
        try:
            #: The Orca and AT-SPI stack (``orca``: "43", "48" or a prefix; axclient.orca_stack).
            self.orca_stack = stacks.resolve(orca)
        except stacks.OrcaStackUnavailable as error:
            raise ScreenReaderUnavailable(str(error)) from None
        started = time.monotonic()
        self.server: Optional[Any] = None
        self.orca: Optional[Orca] = None
        binary = binary or find_axserver()
        #: The axserver binary this session's servers run (:meth:`serve` starts another one).
        self.server_binary = binary
        script = find_a11y_stack_script(os.path.dirname(binary))
        if script is None:
            raise ScreenReaderUnavailable("the screen reader needs Tools/a11y-stack.sh (set AXSERVER_A11Y_STACK)")
        self.stack = A11yStack(script, xvfb=True, private_home=True, extra_args=self.orca_stack.a11y_stack_args)
        self.stack.exports.update(self.orca_stack.server_env())
        _PROCESSES.add(self)
        try:
            self.server = ServerProcess(binary, demo=demo, args=args, stack=self.stack,
                                        startup_timeout=startup_timeout)
            self._orca_options: Dict[str, Any] = {"startup_timeout": orca_timeout, "debug_log": debug_log}
            self.orca = Orca(self.stack, orca_stack=self.orca_stack, **self._orca_options)
        except ServerStartError:
            self.stop()
            raise
        except BaseException:
            self.stop()
            raise
        self.ready_seconds = time.monotonic() - started

    def serve(self, demo: bool = True, args: Sequence[str] = (), startup_timeout: float = 30.0,
              quiet_timeout: float = 5.0) -> Any:
        """Replaces the session's server with a new one on the same stack while Orca keeps running (the test
        isolation of the pytest plugin: the app starts from its initial state, Orca from silence). Returns the new
        :class:`axclient.ServerProcess` once Orca has said everything about the old one going and the new one coming
        (quiet for the reader's settle time, bounded by ``quiet_timeout``)."""
        from .server import ServerProcess
        assert self.stack is not None and self.orca is not None, "the session was stopped"
        if self.server is not None:
            self.server.stop()
            self.server = None
        restart_orca = self.orca_stack.uses_device_model
        if restart_orca:
            # Orca 48 watches the keyboard and sets its key grabs on the a11y manager, which is the server
            # (D-KEY-MONITOR-1): a new server holds none of them, so Orca starts again beside it.
            self.orca.stop()
        self.server = ServerProcess(self.server_binary, demo=demo, args=args, stack=self.stack,
                                    startup_timeout=startup_timeout)
        if restart_orca:
            self.orca = Orca(self.stack, orca_stack=self.orca_stack, **self._orca_options)
        self.wait_until_quiet(quiet_timeout)
        return self.server

    def use_keys_from_x(self, keys_from_x: bool) -> None:
        """Whether Orca takes its keys from the stack's X display (True: an app there that reads its keys from X,
        such as a GTK reference app driven by xdotool) or from the server (False, the default). Orca 43 hears both
        through the registry either way; Orca 48 takes keys from one ``Atspi.Device``, so it starts again on its X11
        device or on the server's keyboard monitor (D-KEY-MONITOR-1) — :attr:`orca` is then a new :class:`Orca`."""
        assert self.orca is not None, "the session was stopped"
        if not self.orca_stack.uses_device_model or bool(self._orca_options.get("keys_from_x")) == keys_from_x:
            return
        self.orca.stop()
        self._orca_options["keys_from_x"] = keys_from_x
        self.orca = Orca(self.stack, orca_stack=self.orca_stack, **self._orca_options)

    def wait_until_quiet(self, timeout: float = 5.0) -> None:
        """Returns once Orca said nothing for the reader's settle time (0.25 s), bounded by ``timeout``."""
        assert self.orca is not None, "the session was stopped"
        ScreenReader(self.orca, None, settle_timeout=timeout).wait_until_quiet()

    def reader(self, client: Any, **options: Any) -> ScreenReader:
        """A :class:`ScreenReader` of this session's Orca whose keys go through ``client``."""
        assert self.orca is not None
        return ScreenReader(self.orca, client, **options)

    def running(self) -> bool:
        return bool(self.orca and self.orca.running() and self.server and self.server.running())

    def stop(self) -> None:
        """Orca, then the server, then the stack, each by PID."""
        if self.orca is not None:
            self.orca.stop()
            self.orca = None
        if self.server is not None:
            self.server.stop()
            self.server = None
        if self.stack is not None:
            self.stack.stop()
            self.stack = None
        _PROCESSES.remove(self)

    def __enter__(self) -> "ScreenReaderSession":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python3 -m axclient.listen`` (also ``axquery listen``): start a private stack, a server and Orca,
    press keys, print what Orca said after each; then keep printing Orca's speech while other shells drive the
    printed socket (``axquery --socket PATH key Tab``), until ``--seconds`` pass or Ctrl-C."""
    import argparse
    import json
    import sys

    parser = argparse.ArgumentParser(
        prog="axquery listen",
        description="Start a private AT-SPI stack, an axserver on it and a private headless Orca; press keys and "
                    "print what Orca said. The user's own Orca and desktop bus are not touched.",
        epilog="Examples:\n  axquery listen --keys Tab,Tab,space\n  axquery listen --keys 'Tab,Orca+Shift+A' --json\n"
               "  axquery listen --seconds 60     # drive it from another shell: axquery --socket PATH key Tab",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keys", default="", help="comma-separated key chords to press in order (Tab, "
                        "Shift+Tab, space, Orca+Shift+A…)")
    parser.add_argument("--seconds", type=float, default=0.0,
                        help="then keep printing Orca's speech this long (0: stop after the keys)")
    parser.add_argument("--no-demo", action="store_true", help="serve no app (connect your own provider)")
    parser.add_argument("--axserver", default=None, help="the axserver binary (default: $AXSERVER_BIN, else PATH)")
    parser.add_argument("--json", action="store_true", help="print the transcript as JSON")
    parser.add_argument("--orca-timeout", type=float, default=20.0, help="how long Orca may take to start")
    parser.add_argument("--orca", default=None, help="which Orca: 43 (the system's, default), 48 (Orca 48 on "
                        "at-spi2-core 2.56, Tools/install-orca48.sh) or an install-orca48 prefix")
    options = parser.parse_args(argv)
    chords = [chord.strip() for chord in options.keys.split(",") if chord.strip()]
    try:
        for chord in chords:
            parse_chord(chord)
    except ValueError as error:
        parser.error(str(error))
    from .client import Client

    def terminated(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt  # SIGTERM too stops everything this run started (the finally below)

    signal.signal(signal.SIGTERM, terminated)
    try:
        session = ScreenReaderSession(options.axserver, demo=not options.no_demo, orca_timeout=options.orca_timeout,
                                      orca=options.orca)
    except AXError as error:
        print("axquery listen: %s" % error, file=sys.stderr)
        return 5
    except KeyboardInterrupt:
        return 130
    try:
        assert session.server is not None
        if not options.json:
            print("READY socket=%s orca=%.1fs" % (session.server.socket, session.ready_seconds), flush=True)
        with Client(session.server.socket) as client:
            reader = session.reader(client)
            for chord in chords:
                step = reader.press(chord)
                reader.wait_until_quiet()
                # A busy machine may delay Orca past the quiet period: give a silent step a while longer.
                patience = time.monotonic() + 2.0
                while not reader.spoken and time.monotonic() < patience:
                    time.sleep(0.02)
                reader.wait_until_quiet()
                if not options.json:
                    print("%s → %s" % (step.what, " / ".join(step.utterances) or "(silent)"), flush=True)
            deadline = time.monotonic() + options.seconds
            heard = reader.orca.speech_count()
            while time.monotonic() < deadline and not _stdout_closed():
                lines = reader.orca.speech(heard)
                heard += len(lines)
                if not options.json:
                    for line in lines:
                        print(line, flush=True)
                time.sleep(0.05)
            if options.json:
                print(json.dumps({"socket": session.server.socket, "readySeconds": round(session.ready_seconds, 3),
                                  "steps": [{"keys": step.what, "spoken": step.utterances,
                                             "firstSpeechMs": None if step.first_speech is None
                                             else round(1000 * step.first_speech, 1)}
                                            for step in reader.transcript]}, indent=2))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:   # nobody reads the output any more (`axquery listen … | head -1`): a clean stop
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except AXError as error:
        print("axquery listen: %s" % error, file=sys.stderr)
        return 1
    finally:
        session.stop()
    return 0


def _stdout_closed() -> bool:
    """Whether stdout's reader went away (a pipe whose read end closed reports POLLERR on ours)."""
    import select
    poller = select.poll()
    poller.register(1, 0)
    return any(events & (select.POLLERR | select.POLLHUP | select.POLLNVAL) for _fd, events in poller.poll(0))

