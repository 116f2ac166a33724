"""``python3 -m axclient.kivy [--socket PATH] [--name NAME] (SCRIPT | -m MODULE) [ARGS…]``: runs an unmodified Kivy
program with its window mirrored into AXServer (Specs/kivy-adapter.md; the command line is the kit's,
Specs/adapter-kit.md §Layout)."""
from __future__ import annotations

import sys
from typing import List, Optional

from ..kit import runner


def main(argv: Optional[List[str]] = None) -> int:
    """The command line."""
    from . import install
    return runner.main("kivy", install, argv, program="Kivy")


if __name__ == "__main__":
    sys.exit(main())
