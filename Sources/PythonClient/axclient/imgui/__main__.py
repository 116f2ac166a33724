"""``python3 -m axclient.imgui [--socket PATH] [--name NAME] (SCRIPT | -m MODULE) [ARGS…]``: runs an unmodified
imgui_bundle program with its frames mirrored into AXServer (Specs/imgui-adapter.md; the command line is the
kit's, Specs/adapter-kit.md §Layout)."""
from __future__ import annotations

import sys
from typing import List, Optional

from ..kit import runner


def main(argv: Optional[List[str]] = None) -> int:
    """The command line."""
    from . import install
    return runner.main("imgui", install, argv, program="imgui_bundle")


if __name__ == "__main__":
    sys.exit(main())
