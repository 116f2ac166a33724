"""Stable view ids for toolkits whose widgets have no path names (Kivy, pygame_gui; Specs/adapter-kit.md §Ids).

A view id must not churn: the same widget keeps its id from flush to flush (else every flush would remove and
insert it, and a screen reader's focus would be lost), and a new widget never takes the id of a gone one in the
same run. Tk has path names (``.account.name``) and needs none of this; an immediate-mode toolkit passes its own
stable key (ImGui's id). Standard library only."""
from __future__ import annotations

import weakref
from typing import Any, Dict, Hashable, Optional, Tuple


class StableIds:
    """Assigns ``<parent id>/<kind><n>`` ids (``win0/Button2``) to widget objects, kept for each object's life.

    ``id_for(widget, parent_id, kind)``: the id the widget got the first time it was seen, else a new one — ``n``
    counts the widgets of that kind ever seen under that parent, so ids of gone widgets are not reused. ``name``
    (an id the app gave the widget) makes the id ``<parent id>/<name>``. ``key`` replaces the object's identity
    for toolkits whose items are no Python objects (an ImGui id): the same key is the same view."""

    def __init__(self) -> None:
        self._by_object: "weakref.WeakKeyDictionary[Any, str]" = weakref.WeakKeyDictionary()
        self._by_key: Dict[Hashable, str] = {}
        self._counts: Dict[Tuple[str, str], int] = {}
        self._taken: Dict[str, int] = {}

    def id_for(self, widget: Any, parent_id: str, kind: str, name: Optional[str] = None,
               key: Optional[Hashable] = None) -> str:
        """The widget's id: the one it got when first seen, else a new ``<parent_id>/<kind><n>`` (or
        ``<parent_id>/<name>``)."""
        known = self._by_key.get(key) if key is not None else self._lookup(widget)
        if known is not None:
            return known
        view_id = self._fresh(parent_id, kind, name)
        if key is not None:
            self._by_key[key] = view_id
        else:
            self._remember(widget, view_id)
        return view_id

    def forget(self, key: Hashable) -> None:
        """Drops a ``key``'s id (its item is gone for good; an object's id goes with the object)."""
        self._by_key.pop(key, None)

    def _lookup(self, widget: Any) -> Optional[str]:
        try:
            return self._by_object.get(widget)
        except TypeError:  # not weak-referenceable: its identity is its key
            return self._by_key.get(("object", id(widget)))

    def _remember(self, widget: Any, view_id: str) -> None:
        try:
            self._by_object[widget] = view_id
        except TypeError:
            self._by_key[("object", id(widget))] = view_id

    def _fresh(self, parent_id: str, kind: str, name: Optional[str]) -> str:
        if name:
            base = "%s/%s" % (parent_id, name)
            seen = self._taken.get(base, 0)
            self._taken[base] = seen + 1
            return base if seen == 0 else "%s#%d" % (base, seen + 1)
        count = self._counts.get((parent_id, kind), 0)
        self._counts[(parent_id, kind)] = count + 1
        return "%s/%s%d" % (parent_id, kind, count)
