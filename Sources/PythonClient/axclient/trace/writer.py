"""Writes a trace file (Specs/trace.md): JSON Lines, header first, one line per step, the end line last.

Every line is flushed as it is written, so a process that dies mid-run leaves every finished step readable.
"""
from __future__ import annotations

import datetime
import json
import os
import threading
from typing import Any, Dict, Optional

#: The trace format this package writes and reads (Specs/trace.md).
FORMAT_VERSION = 1

#: The sources a header may name (Specs/trace.md §Line 1).
SOURCES = ("pytest", "mcp", "record", "python", "swift")


def encode_line(record: Dict[str, Any]) -> str:
    """One JSON line (no raw newline inside: ``json.dumps`` escapes control characters)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str) + "\n"


def make_header(source: str, title: str, producer: str, pictures: bool,
                screen_reader: Optional[str]) -> Dict[str, Any]:
    """The header record of a new trace."""
    if source not in SOURCES:
        raise ValueError("a trace's source is one of %s, not %r" % (", ".join(SOURCES), source))
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return {"axtrace": FORMAT_VERSION, "source": source, "title": title, "started": started,
            "producer": producer, "pictures": bool(pictures), "screenReader": screen_reader}


class TraceWriter:
    """An open trace file: :meth:`step` appends a step line, :meth:`end` writes the end line and closes."""

    def __init__(self, path: str, header: Dict[str, Any]) -> None:
        directory = os.path.dirname(os.path.abspath(path))
        os.makedirs(directory, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._file: Any = open(path, "w", encoding="utf-8")
        self.bytes_written = 0
        #: Why the trace stopped being written (a failing disk), or None.
        self.failure: Optional[str] = None
        self._write(header)

    def _write(self, record: Dict[str, Any]) -> None:
        """Appends a line; a failing disk ends the trace (``failure`` says why) and never the test's call."""
        line = encode_line(record)
        try:
            self._file.write(line)
            self._file.flush()
        except OSError as error:
            self.failure = "writing %s failed: %s" % (self.path, error)
            broken, self._file = self._file, None
            try:
                broken.close()
            except OSError:
                pass   # the buffered line cannot be written either
            return
        self.bytes_written += len(line)

    def step(self, record: Dict[str, Any]) -> None:
        """Appends one step line (flushed)."""
        with self._lock:
            if self._file is not None:
                self._write(record)

    def end(self, steps: int, dropped: Dict[str, int]) -> None:
        """Writes the end line and closes the file (a second call does nothing)."""
        with self._lock:
            if self._file is None:
                return
            self._write({"end": True, "steps": steps, "dropped": dropped})
            if self._file is not None:
                self._file.close()
                self._file = None

    def abandon(self) -> None:
        """Closes the file without an end line (what a crash leaves; readers say so)."""
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    @property
    def closed(self) -> bool:
        """True once :meth:`end` or :meth:`abandon` ran."""
        return self._file is None
