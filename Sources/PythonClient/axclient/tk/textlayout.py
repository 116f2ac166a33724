"""What a Tk Text widget draws, for the mirror: its visible display lines as reading-content line boxes
(``accessibilityReadingContent``, R93, D-TEXT-APP-4) and its styled tags as attribute runs (``attributedText``,
R26/X3, D-TEXT-APP-3). Offsets are characters of the published ``text`` (whose first line is the window's, as
``selectedTextRange`` counts them); frames are relative to the widget, as ``dlineinfo`` answers them
(Specs/tk-adapter.md §Line boxes and attribute runs). Tk thread only; standard library only."""
from typing import Any, Callable, Dict, List, Optional, Tuple

#: At most this many display lines are published (the visible ones; a tall window of tiny lines stops here).
MAX_LINE_BOXES = 200
#: At most this many tag ranges become runs per widget (in priority then document order; the rest are left out).
MAX_TAG_RANGES = 1000

Call = Callable[..., Any]
Split = Callable[[Any], Tuple[Any, ...]]


def _position(index: str) -> Tuple[int, int]:
    line, _, column = str(index).partition(".")
    return int(line), int(column or 0)


def reading_lines(call: Call, path: str) -> List[Dict[str, Any]]:
    """The display lines Tk shows now, top to bottom: ``{"content", "frame"}`` with the line's text (a wrapped
    paragraph gives one line per display line, without its newline) and its box from ``dlineinfo``."""
    lines: List[Dict[str, Any]] = []
    index = str(call(path, "index", "@0,0"))
    while len(lines) < MAX_LINE_BOXES:
        info = call(path, "dlineinfo", index)
        if not info:
            break
        x, y, width, height = (int(value) for value in tuple(info)[:4])
        following = str(call(path, "index", index + " +1 display lines display linestart"))
        last = int(call(path, "compare", following, "<=", index))
        content = str(call(path, "get", index, "end-1c" if last else following))
        lines.append({"content": content[:-1] if content.endswith("\n") else content,
                      "frame": [x, y, max(0, width), max(0, height)]})
        if last:
            break
        index = following
    return lines


def _font_attributes(call: Call, font: str, fonts: Dict[str, Dict[str, bool]]) -> Dict[str, bool]:
    """Bold and italic of a Tk font description or named font (``font actual``), cached per flush."""
    known = fonts.get(font)
    if known is None:
        try:
            weight = str(call("font", "actual", font, "-weight"))
            slant = str(call("font", "actual", font, "-slant"))
        except Exception:  # noqa: BLE001 — a font Tk cannot resolve styles nothing
            weight, slant = "normal", "roman"
        known = fonts[font] = {"bold": weight == "bold", "italic": slant == "italic"}
    return known


def _flag(value: Any) -> Optional[bool]:
    """A tag's ``-underline`` / ``-overstrike``: None when the tag leaves it alone, else its Boolean (Tcl's
    false spellings, as Tk reads them)."""
    text = str(value).strip().lower()
    if text == "":
        return None
    return text not in ("0", "false", "no", "off", "f", "n", "fa", "fal", "fals", "of")


def tag_styles(call: Call, split: Split, path: str,
               fonts: Dict[str, Dict[str, bool]]) -> List[Tuple[str, Dict[str, bool]]]:
    """The tags that style text (a font, ``-underline`` or ``-overstrike``), lowest priority first, with the
    attributes each sets (a normal font sets bold and italic false: it overrides a bold tag below it)."""
    styles: List[Tuple[str, Dict[str, bool]]] = []
    for name in split(call(path, "tag", "names")):
        name = str(name)
        if name == "sel":
            continue
        attributes: Dict[str, bool] = {}
        font = str(call(path, "tag", "cget", name, "-font"))
        if font:
            attributes.update(_font_attributes(call, font, fonts))
        for option, key in (("-underline", "underline"), ("-overstrike", "strikethrough")):
            flag = _flag(call(path, "tag", "cget", name, option))
            if flag is not None:
                attributes[key] = flag
        if attributes:
            styles.append((name, attributes))
    return styles


def _tag_ranges(call: Call, split: Split, path: str, styles: List[Tuple[str, Dict[str, bool]]],
                base: str) -> List[Tuple[int, Tuple[int, int], Tuple[int, int]]]:
    """(priority, start, end) of each styled range at or after ``base``, at most :data:`MAX_TAG_RANGES`."""
    floor = _position(base)
    found: List[Tuple[int, Tuple[int, int], Tuple[int, int]]] = []
    for priority, (name, _) in enumerate(styles):
        bounds = [_position(str(index)) for index in split(call(path, "tag", "ranges", name))]
        for start, end in zip(bounds[0::2], bounds[1::2]):
            if end <= floor:
                continue
            found.append((priority, max(start, floor), end))
            if len(found) >= MAX_TAG_RANGES:
                return found
    return found


def characters_between(call: Call, path: str, first: str, last: str) -> int:
    """Python characters (Unicode scalars, the server's unit) from index ``first`` to ``last``: Tk 8.6's
    ``count -chars`` counts a character outside the BMP as two (UTF-16) although ``+ N chars`` steps over it as one,
    so the stretch is read and measured."""
    return len(str(call(path, "get", first, last)))


def from_utf16(text: str, units: int) -> int:
    """The Python character offset in ``text`` of a Tk 8.6 Entry index, which counts UTF-16 units (a character
    outside the BMP is two); an index inside such a character rounds down."""
    if text.isascii():
        return min(units, len(text))
    offset = 0
    for character in text:
        units -= 2 if ord(character) > 0xFFFF else 1
        if units < 0:
            break
        offset += 1
    return offset


def to_utf16(text: str, offset: int) -> int:
    """The Tk 8.6 Entry index (UTF-16 units) of the Python character offset ``offset`` in ``text``."""
    return offset + sum(1 for character in text[:offset] if ord(character) > 0xFFFF)


def _offsets(call: Call, path: str, base: str, positions: List[Tuple[int, int]]) -> Dict[Tuple[int, int], int]:
    """Character offsets from ``base`` of sorted positions, measured between neighbours (each stretch once)."""
    offsets: Dict[Tuple[int, int], int] = {}
    previous, total = base, 0
    for position in positions:
        index = "%d.%d" % position
        total += characters_between(call, path, previous, index)
        offsets[position] = total
        previous = index
    return offsets


def _segment_attributes(active: List[int], styles: List[Tuple[str, Dict[str, bool]]]) -> Dict[str, bool]:
    """What the tags covering a stretch make of it: a higher-priority tag's setting wins; only true ones kept."""
    merged: Dict[str, bool] = {}
    for priority, count in enumerate(active):
        if count:
            merged.update(styles[priority][1])
    return {key: True for key, value in merged.items() if value}


def attribute_runs(call: Call, split: Split, path: str, base: str, length: int,
                   fonts: Dict[str, Dict[str, bool]]) -> List[Dict[str, Any]]:
    """The runs ``[{range: [location, length], attributes}]`` of the published text: non-overlapping, in text
    order, neighbours with the same attributes joined, clamped to ``length``; empty when no tag styles text."""
    styles = tag_styles(call, split, path, fonts)
    if not styles:
        return []
    ranges = _tag_ranges(call, split, path, styles, base)
    positions = sorted({position for _, start, end in ranges for position in (start, end)})
    offsets = _offsets(call, path, base, positions)
    events: Dict[int, List[Tuple[int, int]]] = {}
    for priority, start, end in ranges:
        events.setdefault(min(offsets[start], length), []).append((priority, 1))
        events.setdefault(min(offsets[end], length), []).append((priority, -1))
    active = [0] * len(styles)
    runs: List[Dict[str, Any]] = []
    marks = sorted(events)
    for here, there in zip(marks, marks[1:]):
        for priority, step in events[here]:
            active[priority] += step
        attributes = _segment_attributes(active, styles)
        if not attributes or there <= here:
            continue
        if runs and runs[-1]["attributes"] == attributes and sum(runs[-1]["range"]) == here:
            runs[-1]["range"][1] = there - runs[-1]["range"][0]
        else:
            runs.append({"range": [here, there - here], "attributes": attributes})
    return runs
