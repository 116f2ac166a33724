#!/usr/bin/python3
"""A window with a button covered by a plain view, and an uncovered one, for D-HIT-1 on AT-SPI
(test_atspi_covered_action.py). Usage: covered_provider.py SOCKET [NAME]. Lines on stdout: "READY", then
"ACTION <action> <target>" per action request (every request is answered handled)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mail_provider import Connection, view  # noqa: E402


def hierarchy():
    return {"windows": [{"id": "w", "class": "UIWindow", "frame": [0, 0, 400, 400], "isKeyWindow": True,
                         "title": "Covered", "children": [
                             view("pay", "UIButton", [20, 20, 160, 44], {"title": "Pay"}),
                             view("cover", "UIView", [0, 0, 400, 100], {"backgroundColor": "#FFFFFF"}),
                             view("help", "UIButton", [20, 200, 160, 44], {"title": "Help"}),
                         ]}]}


def main():
    conn = Connection(sys.argv[1])
    conn.call("initialize", {"role": "provider", "clientInfo": {"name": "covered-provider"}})
    conn.call("app.register", {"name": sys.argv[2] if len(sys.argv) > 2 else "covered"})
    conn.call("hierarchy.set", hierarchy())
    print("READY", flush=True)
    while True:
        try:
            message = conn.read()
        except (EOFError, OSError):
            return
        if "method" in message and "id" in message:
            params = message.get("params") or {}
            print("ACTION %s %s" % (params.get("action"), params.get("target")), flush=True)
            conn.send({"jsonrpc": "2.0", "id": message["id"], "result": {"handled": True}})


if __name__ == "__main__":
    main()
