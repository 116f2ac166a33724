"""A trace as text (``python3 -m axclient.trace show FILE``), one block per step, for terminals and CI logs."""
from __future__ import annotations

import json
from typing import Any, Dict, List

from .reader import Trace


def _mapping(value: Any) -> Dict[str, Any]:
    """``value`` when it is a JSON object, else an empty one (a malformed field reads as absent)."""
    return value if isinstance(value, dict) else {}


def _target(step: Dict[str, Any]) -> str:
    target = step.get("target")
    if not isinstance(target, dict):
        return ""
    parts = [str(target.get(key)) for key in ("selector", "id") if target.get(key)]
    label = target.get("label")
    return " → %s%s" % (" ".join(parts), ' "%s"' % label if label else "")


def _diff_line(diff: Any, dropped: Any) -> str:
    if not isinstance(diff, dict):
        return ""
    sizes = {key: len(diff[key]) if isinstance(diff.get(key), (list, dict)) else 0
             for key in ("added", "removed", "moved", "updated")}
    counts = ["%s %d" % (key, size) for key, size in sizes.items() if size]
    text = "   diff: %s" % (", ".join(counts) or "no change")
    return text + (" (%s ops dropped)" % dropped if dropped else "")


def _focus_line(focus: Any) -> str:
    if not isinstance(focus, dict):
        return ""
    before = _mapping(focus.get("before"))
    after = _mapping(focus.get("after"))
    return "   focus: %s → %s (engine %s → %s)" % (before.get("accessibility"), after.get("accessibility"),
                                                   before.get("engine"), after.get("engine"))


def step_lines(step: Dict[str, Any]) -> List[str]:
    """The lines of one step."""
    revision = step.get("revision")
    ms = step.get("ms") if isinstance(step.get("ms"), (int, float)) else 0.0
    head = "#%s %s %s%s  %.1f ms" % (step.get("step"), step.get("kind"), step.get("method"), _target(step), ms)
    if isinstance(revision, list) and len(revision) == 2:
        head += "  rev %s→%s" % (revision[0], revision[1])
    lines = [head]
    for line in (_diff_line(step.get("diff"), step.get("diffDropped")), _focus_line(step.get("focus"))):
        if line:
            lines.append(line)
    speech = _mapping(step.get("speech"))
    for name in ("orca", "preview"):
        if isinstance(speech.get(name), list):
            lines.append("   %s: %s" % (name, " / ".join(str(line) for line in speech[name])))
    events = step.get("events") if isinstance(step.get("events"), list) else []
    if events:
        names = [str(_mapping(event).get("type")) for event in events[:8]]
        lines.append("   events (%d): %s%s" % (len(events), ", ".join(names), " …" if len(events) > 8 else ""))
    error = step.get("error")
    if error:
        lines.append("   error: [%s] %s" % (_mapping(error).get("code"), _mapping(error).get("message", error)))
    if step.get("message"):
        lines.append("   note: %s" % str(step["message"]).replace("\n", "\n         "))
    return lines


def show_text(trace: Trace) -> str:
    """The whole trace as text; a problem ends it, saying where the trace breaks."""
    header = _mapping(trace.header)
    lines = []
    if trace.header is not None:
        lines.append("trace %s (%s, format %s, started %s%s)" % (
            json.dumps(header.get("title")), header.get("source"), header.get("axtrace"), header.get("started"),
            ", screen reader %s" % header["screenReader"] if header.get("screenReader") else ""))
    for step in trace.steps:
        lines.extend(step_lines(step))
    if trace.end is not None:
        dropped = _mapping(trace.end.get("dropped"))
        lines.append("end: %s steps%s" % (trace.end.get("steps"), "; dropped %s" % json.dumps(dropped)
                                          if any(dropped.values()) else ""))
    if trace.problem is not None:
        lines.append("problem: %s" % trace.problem)
    return "\n".join(lines) + "\n"
