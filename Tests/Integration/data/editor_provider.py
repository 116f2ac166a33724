#!/usr/bin/python3
"""A document editor with a modal window, for the modal-window test (D-ATSPI-MODAL-1 among windows, X10): a plain
JSON-RPC provider, standard library only (it reuses mail_provider.py's connection). Usage: editor_provider.py SOCKET
[NAME]

Two windows: "Editor" (key window: a Bold button, the document text view, a Print button) and a floating "Inspector"
(a font size slider). Print presents a third window, "Print", at a higher window level, key and
`accessibilityViewIsModal` (a UIWindow presented modally over the app's others, not an alert inside one): Cancel,
Print or Escape close it. Lines on stdout: "READY", then "ACTION <action> <target> <handled>" per action request.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mail_provider import Connection, view  # noqa: E402


class Editor:
    def __init__(self):
        self.printing = False
        self.bold = False
        self.prints = 0

    def hierarchy(self):
        editor = {"id": "editor", "class": "UIWindow", "frame": [0, 0, 900, 700], "isKeyWindow": not self.printing,
                  "windowTitle": "Editor", "children": [
                      view("bold", "UIButton", [10, 10, 80, 36], {"title": "Bold", "isSelected": self.bold}),
                      view("print", "UIButton", [100, 10, 80, 36], {"title": "Print…"}),
                      view("document", "UITextView", [10, 60, 860, 600],
                           {"text": "Dear Ann,\nthe minutes are attached.", "accessibilityLabel": "Document"}),
                  ]}
        inspector = {"id": "inspector", "class": "UIWindow", "frame": [920, 0, 280, 300], "windowTitle": "Inspector",
                     "children": [view("size", "UISlider", [10, 40, 240, 30],
                                       {"accessibilityLabel": "Font size", "value": 0.4})]}
        windows = [editor, inspector]
        if self.printing:
            windows.append({"id": "printWindow", "class": "UIWindow", "frame": [250, 200, 400, 240],
                            "windowLevel": 1, "isKeyWindow": True, "windowTitle": "Print",
                            "accessibilityViewIsModal": True, "children": [
                                view("copies", "UILabel", [20, 20, 360, 30], {"text": "1 copy"}),
                                view("printCancel", "UIButton", [20, 180, 170, 44], {"title": "Cancel"}),
                                view("printConfirm", "UIButton", [210, 180, 170, 44], {"title": "Print"}),
                            ]})
        return {"windows": windows}

    def perform(self, params):
        action, target = params.get("action"), params.get("target", "")
        if action == "activate" and target == "print":
            self.printing = True
            return True
        if action == "activate" and target == "bold":
            self.bold = not self.bold
            return True
        if self.printing and ((action == "activate" and target in ("printCancel", "printConfirm"))
                              or action == "escape"):
            self.printing = False
            self.prints += target == "printConfirm"
            return True
        return False


def main():
    path = sys.argv[1]
    name = sys.argv[2] if len(sys.argv) > 2 else "editor"
    editor = Editor()
    conn = Connection(path)
    conn.call("initialize", {"role": "provider", "clientInfo": {"name": "editor-provider"}})
    conn.call("app.register", {"name": name})
    conn.call("hierarchy.set", editor.hierarchy())
    print("READY", flush=True)

    def answer(message):
        params = message.get("params") or {}
        handled = editor.perform(params) if message["method"] == "action.perform" else False
        print("ACTION %s %s %s" % (params.get("action"), params.get("target"), handled), flush=True)
        if handled:
            conn.send({"jsonrpc": "2.0", "id": "update-%s" % message["id"], "method": "hierarchy.set",
                       "params": editor.hierarchy()})
        conn.send({"jsonrpc": "2.0", "id": message["id"], "result": {"handled": handled}})

    while True:
        try:
            message = conn.read()
        except (EOFError, OSError):
            return
        if "method" in message and "id" in message:
            answer(message)


if __name__ == "__main__":
    main()
