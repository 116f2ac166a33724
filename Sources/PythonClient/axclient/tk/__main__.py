"""``python3 -m axclient.tk [--socket PATH] [--name NAME] (SCRIPT | -m MODULE) [ARGS…]``: runs an unmodified
tkinter program with every Tk root it creates mirrored into AXServer (Specs/tk-adapter.md; the command line is
the kit's, Specs/adapter-kit.md §Layout)."""
from __future__ import annotations

import sys
from typing import List, Optional

from ..kit import runner


def main(argv: Optional[List[str]] = None) -> int:
    """The command line."""
    from . import install
    return runner.main("tk", install, argv, program="tkinter")


if __name__ == "__main__":
    sys.exit(main())
