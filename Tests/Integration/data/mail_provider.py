#!/usr/bin/python3
"""A second app for the key tests (issue 21 §7): a small mail client pushed by a plain JSON-RPC provider, standard
library only, that the project's own code never built. Usage: mail_provider.py SOCKET [NAME]

Folder outline (Inbox "3 unread", Sent, Archive — collapsed, expands to 2025 and 2024), a search field, a message
table (three rows, one selected, activation selects a row and shows it), a read-only multi-line reading pane, a
Delete button that opens a modal dialog (Cancel, Delete; Escape cancels). It lets the server handle its keys
(`input.configure {serverHandlesNavigation: true}`), so the server's key rules (D-KEY-2, D-KEYOP-1…5) operate it.
Lines on stdout: "READY", then "ACTION <action> <target> <handled>" per action request.
"""
import json
import socket
import sys

MESSAGES = [
    ("Alice", "Lunch on Friday", "Hi,\nare we still on for lunch on Friday?\nAlice"),
    ("Bob", "Build broken", "The nightly build failed again.\nSee the log attached.\nBob"),
    ("Carol", "Slides", "Here are the slides for Monday.\nComments welcome.\nThanks,\nCarol"),
]


class Mail:
    def __init__(self):
        self.selected = 0
        self.folder = 0
        self.archive_open = False
        self.search = ""
        self.dialog = False
        self.deleted = []

    def rows(self):
        return [i for i in range(len(MESSAGES)) if i not in self.deleted]

    def folder_cells(self):
        names = [("folderInbox", "Inbox", "3 unread"), ("folderSent", "Sent", None), ("folderArchive", "Archive", None)]
        cells = []
        y = 0
        for index, (ident, name, value) in enumerate(names):
            props = {"accessibilityLabel": name, "isSelected": index == self.folder}
            if value:
                props["accessibilityValue"] = value
            if ident == "folderArchive":
                props["accessibilityExpandedStatus"] = "expanded" if self.archive_open else "collapsed"
            cells.append(view(ident, "UITableViewCell", [0, y, 250, 44], props))
            y += 44
            if ident == "folderArchive" and self.archive_open:
                for year in ("2025", "2024"):
                    cells.append(view("folder" + year, "UITableViewCell", [0, y, 250, 44],
                                      {"accessibilityLabel": year, "indentationLevel": 1}))
                    y += 44
        return cells

    def message_cells(self):
        cells = []
        for position, index in enumerate(self.rows()):
            sender, subject, _ = MESSAGES[index]
            cells.append(view("msg%d" % index, "UITableViewCell", [0, 44 * position, 900, 44],
                              {"accessibilityLabel": "%s, %s" % (sender, subject), "isSelected": index == self.selected}))
        return cells

    def hierarchy(self):
        body = MESSAGES[self.selected][2] if self.selected in self.rows() else ""
        children = [
            view("folders", "UITableView", [0, 0, 250, 800], {"accessibilityIdentifier": "folders"},
                 self.folder_cells()),
            view("search", "UISearchBar", [260, 10, 500, 36],
                 {"placeholder": "Search mail", "text": self.search, "accessibilityIdentifier": "search"}),
            view("messages", "UITableView", [260, 60, 900, 300], {"accessibilityIdentifier": "messages"},
                 self.message_cells()),
            view("body", "UITextView", [260, 380, 900, 300],
                 {"text": body, "isEditable": False, "accessibilityIdentifier": "body",
                  "accessibilityLabel": "Message"}),
            view("delete", "UIButton", [1060, 10, 100, 36], {"title": "Delete", "accessibilityIdentifier": "delete"}),
            view("dialog", "UIAlertController", [400, 250, 400, 180],
                 {"title": "Delete message?", "isHidden": not self.dialog},
                 [view("dialogCancel", "UIButton", [0, 136, 200, 44], {"title": "Cancel"}),
                  view("dialogDelete", "UIButton", [200, 136, 200, 44], {"title": "Delete"})]),
        ]
        return {"windows": [{"id": "w", "class": "UIWindow", "frame": [0, 0, 1200, 800], "isKeyWindow": True,
                             "title": "Mail", "children": children}]}

    def perform(self, params):
        action, target = params.get("action"), params.get("target", "")
        value = params.get("value")
        if action == "activate" and target.startswith("msg"):
            self.selected = int(target[3:])
            return True
        if action == "activate" and target == "folderArchive":
            self.archive_open = not self.archive_open
            return True
        if action == "activate" and target in ("folderInbox", "folderSent"):
            self.folder = 0 if target == "folderInbox" else 1
            return True
        if action == "activate" and target == "delete":
            self.dialog = True
            return True
        if (action == "activate" and target == "dialogCancel") or (action == "escape" and self.dialog):
            self.dialog = False
            return True
        if action == "activate" and target == "dialogDelete":
            self.dialog = False
            self.deleted.append(self.selected)
            return True
        if target == "search" and action == "setValue" and isinstance(value, str):
            self.search = value
            return True
        if target == "search" and action == "typeText" and isinstance(value, str):
            self.search += value
            return True
        return False


def view(ident, cls, frame, props=None, children=None):
    out = {"id": ident, "class": cls, "frame": frame}
    out.update(props or {})
    if children:
        out["children"] = children
    return out


class Connection:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.buf = b""
        self.next_id = 1

    def send(self, message):
        self.s.sendall((json.dumps(message) + "\n").encode())

    def read(self):
        while b"\n" not in self.buf:
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def call(self, method, params, on_request=None):
        ident = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        while True:
            message = self.read()
            if "method" in message and "id" in message and on_request:
                on_request(message)
                continue
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message.get("result")


def main():
    path = sys.argv[1]
    name = sys.argv[2] if len(sys.argv) > 2 else "mail"
    mail = Mail()
    conn = Connection(path)
    conn.call("initialize", {"role": "provider", "clientInfo": {"name": "mail-provider"}})
    conn.call("app.register", {"name": name})
    conn.call("hierarchy.set", mail.hierarchy())
    conn.call("input.configure", {"serverHandlesNavigation": True})
    print("READY", flush=True)

    def answer(message):
        params = message.get("params") or {}
        handled = mail.perform(params) if message["method"] == "action.perform" else False
        print("ACTION %s %s %s" % (params.get("action"), params.get("target"), handled), flush=True)
        if handled:
            # The visible effect first, then the answer (the server applies the update before the result returns).
            conn.send({"jsonrpc": "2.0", "id": "update-%s" % message["id"], "method": "hierarchy.set",
                       "params": mail.hierarchy()})
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
