"""Accessibility traces (Specs/trace.md): record every step of a test or script — call, target, revision and
tree diff, focus, events, speech (real Orca and the preview), pictures, errors, timings — into one ``.axtrace``
file, and read it back as text or as one self-contained, accessible HTML viewer.

``client.start_trace()`` / ``client.stop_trace(path)`` record a client; pytest's ``--ax-trace on|retain-on-failure``
records one trace per test; ``python3 -m axclient.trace view FILE [-o OUT.html]`` / ``show FILE`` read one.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any, Optional

from .reader import Trace, read_trace
from .recorder import SpeechSource, TraceRecorder
from .text import show_text
from .viewer import render_viewer, write_viewer
from .writer import FORMAT_VERSION, TraceWriter, make_header

__all__ = ["FORMAT_VERSION", "SpeechSource", "Trace", "TraceRecorder", "TraceWriter", "read_trace",
           "render_viewer", "show_text", "start_recording", "stop_recording", "write_viewer", "new_recorder"]


def _producer() -> str:
    from ..client import __version__
    return "axclient %s" % __version__


def new_recorder(path: Optional[str] = None, *, title: str = "", pictures: bool = False, source: str = "python",
                 speech: Optional[SpeechSource] = None, app: Optional[str] = None,
                 screen_reader: Optional[str] = None) -> TraceRecorder:
    """A recorder writing to ``path`` (default: a temporary file whose path is ``recorder.writer.path``)."""
    temporary = path is None
    if path is None:
        handle, path = tempfile.mkstemp(prefix="axclient-", suffix=".axtrace")
        os.close(handle)
    version = screen_reader or (speech.version if speech is not None else None)
    header = make_header(source, title, _producer(), pictures, version)
    recorder = TraceRecorder(TraceWriter(path, header), pictures=pictures, speech=speech, app=app)
    recorder.temporary = temporary  # type: ignore[attr-defined]
    return recorder


def start_recording(client: Any, path: Optional[str], *, title: Optional[str] = None, pictures: bool = False,
                    source: str = "python", recorder: Optional[TraceRecorder] = None) -> TraceRecorder:
    """``Client.start_trace``: a new recorder on ``client`` (or ``recorder``, shared with another client)."""
    if recorder is None:
        recorder = new_recorder(path, title=title if title is not None else "%r" % (client,), pictures=pictures,
                                source=source)
        recorder.owner = client  # type: ignore[attr-defined]
    recorder.attach(client)
    return recorder


def stop_recording(client: Any, path: Optional[str]) -> Optional[str]:
    """``Client.stop_trace``: ends the client's trace (its owner ends the file) and returns the file's path."""
    recorder = getattr(client, "_tracer", None)
    if not isinstance(recorder, TraceRecorder):
        return None
    if getattr(recorder, "owner", None) is not client:
        recorder.detach(client)
        return recorder.writer.path
    recorder.finish()
    written = recorder.writer.path
    if path is not None and os.path.abspath(path) != os.path.abspath(written):
        directory = os.path.dirname(os.path.abspath(path))
        os.makedirs(directory, exist_ok=True)
        shutil.move(written, path)
        written = path
    return written
