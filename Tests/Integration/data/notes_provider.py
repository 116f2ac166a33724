#!/usr/bin/python3
"""A third app for the text tests (D-TEXT-APP-1…5): a notes reader pushed through the Python provider library
(axclient.Provider), standard library only. Usage: notes_provider.py SOCKET [NAME]

An article the app draws itself — a read-only text view whose one paragraph wraps on three lines, sent as line boxes
(`accessibilityReadingContent`), with attribute runs (`attributedText`: "Teh" misspelled, "quick" bold, "fox" italic,
"lazy" underlined; its custom action "Ignore spelling" drops the misspelling, as a spell checker told to ignore a
word does) — and an editable note that keeps its own caret (`selectedTextRange`) and edits with
`axclient.TextEditingModel`. Lines on stdout: "READY", then "ACTION <action> <target> <element>" per request.
"""
import os
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "Sources", "PythonClient"))

from axclient import Provider, TextEditingModel, view  # noqa: E402

LINES = ["Teh quick brown fox", "jumps over the lazy", "dog by the river."]
ARTICLE = " ".join(LINES)


def run(word, attributes):
    start = ARTICLE.index(word)
    return {"range": [start, len(word)], "attributes": attributes}


RUNS = [run("Teh", {"misspelled": True}), run("quick", {"bold": True}), run("fox", {"italic": True}),
        run("lazy", {"underline": True})]
SPELLING = {"id": "ignoreSpelling", "name": "Ignore spelling"}
READING = {"lines": [{"content": line, "frame": [8, 24 * index, 10 * len(line), 24]}
                     for index, line in enumerate(LINES)]}


def main():
    sock = sys.argv[1]
    name = sys.argv[2] if len(sys.argv) > 2 else "notes"
    note = TextEditingModel("Buy milk", multi_line=False)
    provider = None

    def perform(request):
        print("ACTION %s %s %s" % (request.action, request.target or "-", request.element or "-"), flush=True)
        if request.action == "custom" and request.target == "article" and request.custom_action in SPELLING.values():
            provider.set_properties("article", attributedText=[r for r in RUNS if "misspelled" not in r["attributes"]])
            return True
        if (request.target or request.element) != "note":
            return False
        changed = note.handle(request)
        if changed is None:
            return False
        if changed:
            provider.set_properties("note", **changed)
        return True

    provider = Provider(name, sock, on_action=perform)
    provider.set_hierarchy([view("win", "UIWindow", [0, 0, 800, 600], isKeyWindow=True, windowTitle="Notes", children=[
        view("article", "UITextView", [20, 40, 400, 80], isEditable=False, text=ARTICLE, attributedText=RUNS,
             accessibilityLabel="Article", accessibilityReadingContent=READING,
             accessibilityCustomActions=[SPELLING]),
        view("note", "UITextField", [20, 160, 300, 34], accessibilityLabel="Note", **note.properties()),
    ])])
    provider.client.call("input.configure", {"serverHandlesNavigation": True})
    print("READY", flush=True)
    try:
        while True:  # the provider's own thread answers; SIGTERM ends the app
            signal.pause()
    except KeyboardInterrupt:
        pass
    provider.close()


if __name__ == "__main__":
    main()
