"""Label rules every adapter can use (Specs/adapter-kit.md §Labels): a control without text of its own is named by
a label beside it. Toolkits with layout managers that state the relation (Tk's grid and pack) use those first;
the geometric rule here works from frames alone, so it serves absolute layouts (Tk's ``place``, Kivy's
FloatLayout, pygame_gui's rects) too. Standard library only."""
from __future__ import annotations

from typing import Iterable, Optional, Sequence, Tuple

#: A rectangle ``(x, y, width, height)`` in one coordinate space (the control's and the labels' common parent).
Rect = Sequence[float]

#: How far (in pixels) a label may be from the control it names: the gap of a form's row or caption.
MAX_GAP = 48


def clean_label(text: str) -> str:
    """A related label's text as a name: padding, trailing colons and whitespace dropped ("Name:" → "Name")."""
    return text.strip().rstrip(":").strip()


def _overlap(start_a: float, length_a: float, start_b: float, length_b: float) -> float:
    return min(start_a + length_a, start_b + length_b) - max(start_a, start_b)


def label_beside(control: Rect, labels: Iterable[Tuple[Rect, str]], max_gap: float = MAX_GAP) -> Optional[str]:
    """The geometric rule, in the order a form is read: the nearest label **to the left** on the same row (it
    ends at most ``max_gap`` before the control's left edge and overlaps at least half of the lower one's height
    vertically; borders may touch or overlap by 2 px); else the nearest label **above** in the same column (it
    ends at most ``max_gap`` above the control's top and overlaps it horizontally by half of the narrower one, or
    starts at its left edge); else None. Empty label texts never name anything; the answer is
    :func:`clean_label`-ed."""
    box = _box(control)
    candidates = []
    for rect, text in labels:
        name, other = clean_label(text or ""), _box(rect)
        placement = _placement(box, other, max_gap) if name and other != box else None
        if placement is not None:
            candidates.append((placement, name))
    return min(candidates)[1] if candidates else None


def _box(rect: Rect) -> Tuple[float, float, float, float]:
    x, y, width, height = (float(value) for value in rect[:4])
    return x, y, width, height


def _placement(control: Tuple[float, float, float, float], label: Tuple[float, float, float, float],
               max_gap: float) -> Optional[Tuple[int, float]]:
    """``(0, gap)`` for a label left of the control on its row, ``(1, gap)`` for one above it in its column (so
    the smallest is the caption), else None."""
    x, y, width, height = control
    lx, ly, lw, lh = label
    gap_left, gap_above = x - (lx + lw), y - (ly + lh)
    if -2 <= gap_left <= max_gap and _overlap(y, height, ly, lh) >= min(height, lh) / 2:
        return 0, gap_left
    if -2 <= gap_above <= max_gap and (_overlap(x, width, lx, lw) >= min(width, lw) / 2 or abs(lx - x) <= 4):
        return 1, gap_above
    return None
