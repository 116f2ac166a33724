#!/usr/bin/python3
"""An app with a second window for the window-activation tests (D-ATSPI-ACTIVE-1, windows within one app): a task
list pushed through the Python provider library (axclient.Provider), standard library only, with its own focus
(`isFocused`). Usage: tasks_provider.py SOCKET [NAME]

The "Tasks" window holds a list of two tasks and a "Rename" button. Activating Rename opens a second window, "Rename
task", as the key window (the Tasks window gives the key up) with the focus in its "New name" field; its Cancel
button (or Escape) closes it, the Tasks window is key again and the focus returns to Rename. Activating a task only
selects it (a change inside one window). Lines on stdout: "READY", then "ACTION <action> <target> <handled>".
"""
import os
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "Sources", "PythonClient"))

from axclient import Provider, view  # noqa: E402

TASKS = ["Water the plants", "Pay the rent"]


def rename_window():
    return view("renameWindow", "UIWindow", [300, 200, 400, 200], isKeyWindow=True, windowTitle="Rename task",
                children=[
                    view("newName", "UITextField", [20, 40, 360, 34], accessibilityLabel="New name",
                         text=TASKS[0]),
                    view("renameCancel", "UIButton", [20, 120, 160, 44], title="Cancel"),
                ])


def main_window():
    rows = [view("task%d" % index, "UITableViewCell", [0, 44 * index, 600, 44], accessibilityLabel=title,
                 isSelected=index == 0) for index, title in enumerate(TASKS)]
    return view("tasksWindow", "UIWindow", [0, 0, 1000, 700], isKeyWindow=True, windowTitle="Tasks", children=[
        view("taskList", "UITableView", [20, 20, 600, 400], children=rows),
        view("rename", "UIButton", [640, 20, 120, 44], title="Rename", isFocused=True),
    ])


def main():
    sock = sys.argv[1]
    name = sys.argv[2] if len(sys.argv) > 2 else "tasks"
    state = {"open": False}
    provider = None

    def perform(request):
        handled = handle(request)
        print("ACTION %s %s %s" % (request.action, request.target or "-", handled), flush=True)
        return handled

    def handle(request):
        if request.action == "activate" and request.target == "rename" and not state["open"]:
            state["open"] = True
            # One patch, as a toolkit's frame makes it: the new window, the key moved to it, the focus inside it
            # (a pushed `isFocused` that moves takes the focus from the old view, C35).
            provider.update([{"op": "insert", "parent": None, "view": rename_window()},
                             {"op": "set", "id": "tasksWindow", "properties": {"isKeyWindow": False}},
                             {"op": "set", "id": "newName", "properties": {"isFocused": True}}])
            return True
        closing = request.action == "escape" or request.target == "renameCancel"
        if closing and state["open"]:
            state["open"] = False
            provider.update([{"op": "remove", "id": "renameWindow"},
                             {"op": "set", "id": "tasksWindow", "properties": {"isKeyWindow": True}},
                             {"op": "set", "id": "rename", "properties": {"isFocused": True}}])
            return True
        if request.action == "activate" and request.target.startswith("task") and request.target[4:].isdigit():
            chosen = int(request.target[4:])
            provider.update([{"op": "set", "id": "task%d" % index, "properties": {"isSelected": index == chosen}}
                             for index in range(len(TASKS))])
            return True
        return False

    provider = Provider(name, sock, on_action=perform)
    provider.set_hierarchy([main_window()])
    print("READY", flush=True)
    try:
        while True:  # the provider's own thread answers; SIGTERM ends the app
            signal.pause()
    except KeyboardInterrupt:
        pass
    provider.close()


if __name__ == "__main__":
    main()
