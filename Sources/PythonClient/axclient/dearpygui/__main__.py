"""``python3 -m axclient.dearpygui [--socket PATH] [--name NAME] (SCRIPT | -m MODULE) [ARGS…]``: runs an unmodified
Dear PyGui program with its context mirrored into AXServer (Specs/dearpygui-adapter.md; the command line is the
kit's, Specs/adapter-kit.md §Layout)."""
from __future__ import annotations

import sys
from typing import List, Optional

from ..kit import runner


def main(argv: Optional[List[str]] = None) -> int:
    """The command line."""
    from . import install
    return runner.main("dearpygui", install, argv, program="Dear PyGui")


if __name__ == "__main__":
    sys.exit(main())
