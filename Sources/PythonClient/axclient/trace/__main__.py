"""``python3 -m axclient.trace view FILE [-o OUT.html]`` | ``show FILE``: read a trace (Specs/trace.md)."""
from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from .reader import read_trace
from .text import show_text
from .viewer import write_viewer


def main(argv: Optional[List[str]] = None) -> int:
    """Runs the command; exit status 0 for a complete trace, 1 when it breaks somewhere (said on stderr), 2 for
    a file that cannot be read."""
    parser = argparse.ArgumentParser(prog="python3 -m axclient.trace", description="Read an AXServer trace.")
    commands = parser.add_subparsers(dest="command", required=True)
    view = commands.add_parser("view", help="write the self-contained HTML viewer for a trace")
    view.add_argument("file")
    view.add_argument("-o", "--output", default="", help="the HTML file (default: FILE with .html)")
    show = commands.add_parser("show", help="print the trace's steps as text")
    show.add_argument("file")
    options = parser.parse_args(argv)
    try:
        trace = read_trace(options.file)
        if options.command == "view":
            print(write_viewer(options.file, options.output))
        else:
            sys.stdout.write(show_text(trace))
    except OSError as error:
        print("axclient.trace: %s" % error, file=sys.stderr)
        return 2
    if trace.problem is not None:
        print("axclient.trace: %s" % trace.problem, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
