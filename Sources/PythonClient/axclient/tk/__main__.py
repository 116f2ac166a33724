"""``python3 -m axclient.tk [--socket PATH] [--name NAME] (SCRIPT | -m MODULE) [ARGS…]``: runs an unmodified
tkinter program with every Tk root it creates mirrored into AXServer (Specs/tk-adapter.md)."""
from __future__ import annotations

import os
import runpy
import sys
from typing import List, Optional

USAGE = ("usage: python3 -m axclient.tk [--socket PATH] [--name NAME] (SCRIPT | -m MODULE) [ARGS...]\n"
         "  runs a tkinter program with its windows mirrored into AXServer (socket: --socket, $AXSERVER_SOCKET,\n"
         "  else the default socket); the app's name is the script's or module's name unless --name is given.\n")


def main(argv: Optional[List[str]] = None) -> int:
    """The command line."""
    args = list(sys.argv[1:] if argv is None else argv)
    address: Optional[str] = None
    name: Optional[str] = None
    module: Optional[str] = None
    script: Optional[str] = None
    while args:
        head = args.pop(0)
        if head in ("-h", "--help"):
            sys.stdout.write(USAGE)
            return 0
        if head in ("--socket", "--name", "-m") and not args:
            sys.stderr.write("axclient.tk: %s needs a value\n%s" % (head, USAGE))
            return 2
        if head == "--socket":
            address = args.pop(0)
        elif head.startswith("--socket="):
            address = head.split("=", 1)[1]
        elif head == "--name":
            name = args.pop(0)
        elif head.startswith("--name="):
            name = head.split("=", 1)[1]
        elif head == "-m":
            module = args.pop(0)
            break
        elif head.startswith("-") and head != "-":
            sys.stderr.write("axclient.tk: unknown option %s\n%s" % (head, USAGE))
            return 2
        else:
            script = head
            break
    if module is None and script is None:
        sys.stderr.write(USAGE)
        return 2
    from . import install
    if module is not None:
        app_name = name or module.split(".")[0]
        install(name=app_name, address=address)
        sys.argv = [module] + args
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        return 0
    assert script is not None
    if not os.path.exists(script):
        sys.stderr.write("axclient.tk: no such script: %s\n" % script)
        return 2
    base = os.path.basename(script)
    app_name = name or (base[:-3] if base.endswith(".py") else base)
    install(name=app_name, address=address)
    sys.argv = [script] + args
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
