"""The trace viewer: one self-contained HTML file (template ``viewer.html``, the trace inline, no network)."""
from __future__ import annotations

import html
import json
import os
from typing import Any, Dict

from .reader import Trace, read_trace

_TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "viewer.html")


def _payload(trace: Trace) -> Dict[str, Any]:
    return {"header": trace.header, "steps": trace.steps, "end": trace.end, "problem": trace.problem}


def render_viewer(trace: Trace) -> str:
    """The viewer's HTML for ``trace``: the template with the trace's data inline (every ``<`` escaped)."""
    with open(_TEMPLATE, "r", encoding="utf-8") as handle:
        template = handle.read()
    data = json.dumps(_payload(trace), ensure_ascii=False, separators=(",", ":"), default=str)
    data = data.replace("<", "\\u003c")   # inside JSON strings only: no "</script>" or "<!--" can end the data
    title = (trace.header or {}).get("title") or "trace"
    return (template.replace("{{TITLE}}", html.escape("AXServer trace: %s" % title))
            .replace("{{TRACE_JSON}}", data))


def write_viewer(trace_path: str, out_path: str = "") -> str:
    """Writes the viewer for the trace file ``trace_path`` (default: beside it, ``.html``); returns its path."""
    out = out_path or (os.path.splitext(trace_path)[0] + ".html")
    page = render_viewer(read_trace(trace_path))
    with open(out, "w", encoding="utf-8") as handle:
        handle.write(page)
    return out
