"""``python3 -m axclient.pygame_gui [--socket PATH] [--name NAME] (SCRIPT | -m MODULE) [ARGS…]``: runs an
unmodified pygame_gui program with every UIManager it creates mirrored into AXServer
(Specs/pygame-gui-adapter.md; the command line is the kit's, Specs/adapter-kit.md §Layout)."""
from __future__ import annotations

import sys
from typing import List, Optional

from ..kit import runner


def main(argv: Optional[List[str]] = None) -> int:
    """The command line."""
    from . import install
    return runner.main("pygame_gui", install, argv, program="pygame_gui")


if __name__ == "__main__":
    sys.exit(main())
