"""The command line every adapter shares (Specs/adapter-kit.md §Layout):
``python3 -m axclient.<toolkit> [--socket PATH] [--name NAME] (SCRIPT | -m MODULE) [ARGS…]`` runs an unmodified
program with the toolkit's adapter installed first (it mirrors every root the program creates). Standard library
only."""
from __future__ import annotations

import os
import runpy
import sys
from typing import Callable, List, Optional, Tuple, Union

#: ``install(name=…, address=…)``: the toolkit's hook that mirrors every root created from now on.
Install = Callable[..., None]


class Command:
    """A parsed command line: what to run (``script`` or ``module``), its ``args``, the app's ``name`` (None: the
    script's or module's name) and the server ``address`` (None: the usual lookup)."""

    def __init__(self) -> None:
        self.address: Optional[str] = None
        self.name: Optional[str] = None
        self.module: Optional[str] = None
        self.script: Optional[str] = None
        self.args: List[str] = []

    @property
    def app_name(self) -> str:
        """``--name``, else the module's top-level name (``idlelib``), else the script's name without ``.py``."""
        if self.name:
            return self.name
        if self.module is not None:
            return self.module.split(".")[0]
        base = os.path.basename(self.script or "")
        return base[:-3] if base.endswith(".py") else base


def usage(toolkit: str, program: str = "") -> str:
    """The usage text of ``python3 -m axclient.<toolkit>`` for a ``program`` ("tkinter")."""
    return ("usage: python3 -m axclient.%s [--socket PATH] [--name NAME] (SCRIPT | -m MODULE) [ARGS...]\n"
            "  runs a %s program with its windows mirrored into AXServer (socket: --socket, $AXSERVER_SOCKET,\n"
            "  else the default socket); the app's name is the script's or module's name unless --name is given.\n"
            % (toolkit, program or toolkit))


#: Options that take a value, and the attribute of :class:`Command` they set.
VALUE_OPTIONS = {"--socket": "address", "--name": "name"}


def parse(argv: List[str]) -> Union[Command, Tuple[int, str]]:
    """The command, or ``(exit status, message)``: 0 and "" for ``--help``; 2 and what is wrong otherwise."""
    command, args = Command(), list(argv)
    while args:
        head = args.pop(0)
        option, _, inline = head.partition("=")
        if head in ("-h", "--help"):
            return 0, ""
        if head == "-m" or option in VALUE_OPTIONS:
            if not inline and not args:
                return 2, "%s needs a value" % head
            value = inline or args.pop(0)
            if head == "-m":
                command.module, command.args = value, args
                return command
            setattr(command, VALUE_OPTIONS[option], value)
        elif head.startswith("-") and head != "-":
            return 2, "unknown option %s" % head
        else:
            command.script, command.args = head, args
            return command
    return 2, ""


def main(toolkit: str, install: Install, argv: Optional[List[str]] = None, program: str = "") -> int:
    """Parses ``argv`` (default: ``sys.argv[1:]``), installs the adapter and runs the program as ``__main__``."""
    parsed = parse(list(sys.argv[1:] if argv is None else argv))
    if not isinstance(parsed, Command):
        status, message = parsed
        stream = sys.stdout if status == 0 else sys.stderr
        stream.write(("axclient.%s: %s\n" % (toolkit, message) if message else "") + usage(toolkit, program))
        return status
    if parsed.script is not None and not os.path.exists(parsed.script):
        sys.stderr.write("axclient.%s: no such script: %s\n" % (toolkit, parsed.script))
        return 2
    install(name=parsed.app_name, address=parsed.address)
    if parsed.module is not None:
        sys.argv = [parsed.module] + parsed.args
        runpy.run_module(parsed.module, run_name="__main__", alter_sys=True)
        return 0
    script = parsed.script or ""
    sys.argv = [script] + parsed.args
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0
