"""``tree.get``'s JSON answer decoded as far as the caller reads it (issue 35 item 3, D-PYCLIENT-TREE-1).

The answer's small fields (``app``, ``revision``, ``format``, ``count``, ``truncated``) are decoded when it arrives;
``windows`` (the nested elements: nearly all of the bytes) stays the server's bytes until something reads it, then
it is decoded once, with the standard library's ``json`` (the garbage collector paused for a large one, as for
every message). The result is a ``dict`` and behaves as the fully decoded answer did: indexing, ``get``,
iteration, ``items``/``values``, comparison, ``copy``, ``json.dumps`` and ``repr`` all see the elements.
"""
from __future__ import annotations

from typing import Any, Dict, Optional

from .connection import decode_message
from .errors import AXConnectionError

_WINDOWS_KEY = b'"windows":['
_TAIL_KEY = b'],"count":'


def decode_tree_answer(line: bytes) -> Dict[str, Any]:
    """The ``result`` of one ``tree.get`` answer line (the whole JSON-RPC message), ``windows`` left undecoded.

    The split relies on JSON itself, not on trust: a quote inside a string is always escaped, so the bytes
    ``"windows":[`` and ``],"count":`` occur raw only as the answer's own keys (the first and the last time). The
    rest of the message is decoded with ``windows`` as ``[]``; a message of another shape is decoded whole.
    """
    start = line.find(_WINDOWS_KEY)
    end = line.rfind(_TAIL_KEY)
    if start > 0 and end > start:
        head = line[:start] + b'"windows":[' + line[end:]
        try:
            message = decode_message(head)
        except ValueError:
            message = None
        result = message.get("result") if isinstance(message, dict) else None
        if isinstance(result, dict) and result.get("windows") == []:
            return TreeReply(result, line[start + len(_WINDOWS_KEY) - 1:end + 1])
    message = decode_message(line)
    if not isinstance(message, dict) or not isinstance(message.get("result"), dict):
        raise AXConnectionError("tree.get: the server's answer is not a JSON-RPC result object")
    return message["result"]


class TreeReply(dict):
    """``tree.get``'s result whose ``windows`` is decoded on first use (see the module's documentation)."""

    __slots__ = ("_windows_json",)

    def __init__(self, result: Dict[str, Any], windows_json: bytes) -> None:
        dict.__init__(self, result)
        self._windows_json: Optional[bytes] = windows_json

    def _load(self) -> None:
        data = self._windows_json
        if data is None:
            return
        try:
            windows = decode_message(data)
        except ValueError as error:
            raise AXConnectionError("tree.get: the server sent invalid JSON in windows (%s)" % error) from None
        if not isinstance(windows, list):
            raise AXConnectionError("tree.get: windows is not a JSON array")
        dict.__setitem__(self, "windows", windows)
        self._windows_json = None

    def __getitem__(self, key: Any) -> Any:
        if key == "windows":
            self._load()
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        if key == "windows":
            self._load()
        return dict.get(self, key, default)

    def __eq__(self, other: object) -> bool:
        self._load()
        if isinstance(other, TreeReply):
            other._load()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> Any:
        self._load()
        return (dict, (dict(self),))


def _loading(name: str) -> Any:
    method = getattr(dict, name)

    def loaded(self: TreeReply, *args: Any, **kwargs: Any) -> Any:
        self._load()
        return method(self, *args, **kwargs)

    loaded.__name__ = name
    loaded.__doc__ = method.__doc__
    return loaded


# Every other dict operation that can hand out or replace ``windows`` decodes it first; len and ``in`` need not.
for _name in ("__iter__", "keys", "values", "items", "copy", "__repr__",
              "pop", "popitem", "setdefault", "update", "__setitem__", "__delitem__", "clear", "__or__", "__ror__",
              "__ior__", "__reversed__"):
    setattr(TreeReply, _name, _loading(_name))
del _name
