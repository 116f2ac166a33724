"""Reads a trace file (Specs/trace.md §Readers): every step up to the first problem, and where it broke."""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple

from .writer import FORMAT_VERSION

#: A trace file larger than this is read up to it (the rest is reported as a problem), so a reader stays bounded.
MAX_TRACE_BYTES = 512 * 1024 * 1024

NO_HEADER = "not an AXServer trace (no header line)"


class Trace:
    """A trace as read: ``header``, ``steps`` (dicts, in order), ``end`` (the end line or None) and ``problem``
    (None, or the reader's message saying where the trace breaks; the steps before it are all in ``steps``)."""

    def __init__(self, header: Optional[Dict[str, Any]], steps: List[Dict[str, Any]], end: Optional[Dict[str, Any]],
                 problem: Optional[str]) -> None:
        self.header = header
        self.steps = steps
        self.end = end
        self.problem = problem

    @property
    def complete(self) -> bool:
        """True when the trace has its end line and no problem."""
        return self.problem is None and self.end is not None


def _why(line: bytes) -> Tuple[Optional[Any], Optional[str]]:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        return None, "not UTF-8 at byte %d" % error.start
    try:
        return json.loads(text), None
    except ValueError as error:
        return None, "not JSON (%s)" % error
    except RecursionError:
        return None, "not JSON (nested too deeply)"


def _check_header(record: Any) -> Optional[str]:
    if not isinstance(record, dict) or "axtrace" not in record:
        return NO_HEADER
    version = record.get("axtrace")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        return "line 1: the format version %r is not a positive integer" % (version,)
    if version > FORMAT_VERSION:
        return ("trace format %d is newer than this reader (%d): update axclient / axquery"
                % (version, FORMAT_VERSION))
    return None


def _check_step(record: Any, expected: int) -> Optional[str]:
    if not isinstance(record, dict):
        return "not a JSON object"
    if record.get("end") is True:
        return None
    number = record.get("step")
    if isinstance(number, bool) or not isinstance(number, int):
        return "no step number"
    if number != expected:
        return "step %d where step %d was due" % (number, expected)
    return None


def parse_trace(data: bytes) -> Trace:
    """Parses a trace's bytes (see :class:`Trace`)."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not lines:
        return Trace(None, [], None, NO_HEADER)
    header, why = _why(lines[0].rstrip(b"\r"))
    problem = NO_HEADER if why is not None else _check_header(header)
    if problem is not None:
        return Trace(header if isinstance(header, dict) else None, [], None, problem)
    steps: List[Dict[str, Any]] = []
    end: Optional[Dict[str, Any]] = None
    for index, raw in enumerate(lines[1:], start=2):
        if end is not None:
            return Trace(header, steps, end, "line %d: a line after the end line" % index)
        record, why = _why(raw.rstrip(b"\r"))
        why = why or _check_step(record, len(steps) + 1)
        if why is not None:
            return Trace(header, steps, None, "line %d: %s" % (index, why))
        if record.get("end") is True:
            end = record
        else:
            steps.append(record)
    if end is None:
        return Trace(header, steps, None, "the trace ends after step %d without its end line (the recorder stopped "
                                          "mid-run)" % len(steps))
    return Trace(header, steps, end, None)


def read_trace(path: str) -> Trace:
    """Reads ``path`` (at most 512 MiB of it)."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_TRACE_BYTES + 1)
    if len(data) > MAX_TRACE_BYTES:
        cut = data.rfind(b"\n", 0, MAX_TRACE_BYTES)
        trace = parse_trace(data[:cut + 1])
        trace.problem = "the file is larger than %d bytes; read up to there" % MAX_TRACE_BYTES
        return trace
    return parse_trace(data)
