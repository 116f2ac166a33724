"""The provider library's text-editing model (D-TEXT-APP-5) in a real provider app: a notes app that keeps its own
caret (``selectedTextRange``) edits by the keys the server passes back to it, and a screen reader's caret moves
(``setSelectedTextRange``) reach it — read back over JSON-RPC."""
import pytest

from axclient import TextEditingModel, view

pytestmark = pytest.mark.axserver(demo=False, fresh=True)


class Request:
    def __init__(self, action, value):
        self.action, self.value = action, value


def test_the_model_follows_the_servers_rules_and_answers_minimal_patches():
    model = TextEditingModel("Hello world")
    assert model.apply_key("Left", ["control"]) == {"selectedTextRange": [6, 0]}
    assert model.apply_key("BackSpace") == {"text": "Helloworld", "selectedTextRange": [5, 0]}
    assert model.apply_key("comma", text=",") == {"text": "Hello,world", "selectedTextRange": [6, 0]}
    assert model.apply_key("End", ["shift"]) == {"selectedTextRange": [6, 5]}
    assert model.apply_key("X", text="X") == {"text": "Hello,X", "selectedTextRange": [7, 0]}
    assert model.apply_key("End") == {}
    assert model.apply_key("Tab") is None and model.apply_key("Return") is None
    note = TextEditingModel("ab\ncd", caret=4, multi_line=True)
    assert note.apply_key("Up") == {"selectedTextRange": [1, 0]}
    assert note.apply_key("Return")["text"] == "a\nb\ncd"
    assert note.handle(Request("setSelectedTextRange", [0, 9])) is None
    assert note.handle(Request("setSelectedTextRange", [0, 1])) == {"selectedTextRange": [0, 1]}
    assert note.handle(Request("typeText", "Z")) == {"text": "Z\nb\ncd", "selectedTextRange": [1, 0]}
    assert note.handle(Request("activate", None)) is None


class NotesApp:
    """A title field and a body text view, both edited by the model; other fields keep the server's caret."""

    def __init__(self, ax_provider):
        self.body = TextEditingModel("Dear Bob,\nsee you soon", multi_line=True)
        self.provider = ax_provider("py-notes", [view("win", "UIWindow", [0, 0, 390, 844], isKeyWindow=True, children=[
            view("body", "UITextView", [16, 100, 300, 200], accessibilityLabel="Body", **self.body.properties()),
            view("done", "UIButton", [16, 320, 100, 44], title="Done"),
        ])], on_action=self.perform)
        self.requests = []

    def perform(self, request):
        self.requests.append(request.action)
        # A key comes to the app ("" target) for the focused element; the caret actions to the text view.
        if (request.target or request.element) != "body":
            return False
        changed = self.body.handle(request)
        if changed is None:
            return False
        if changed:
            self.provider.set_properties("body", **changed)
        return True


def test_keys_and_caret_moves_reach_the_apps_model(ax, ax_provider):
    app = NotesApp(ax_provider)
    app.provider.client.call("input.configure", {"serverHandlesNavigation": True})
    ax.call("focus.set", {"target": {"id": "body"}, "app": "py-notes"})
    for chord in ["Control+Home", "Down", "End", "BackSpace", "BackSpace", "BackSpace", "BackSpace"]:
        assert ax.keyboard.press(chord, app="py-notes")["handledBy"] == "app"
    body = ax.call("element.get", {"target": {"id": "body"}, "app": "py-notes"})
    assert body["text"] == "Dear Bob,\nsee you "
    assert body["selectedTextRange"] == [18, 0]
    assert set(app.requests) == {"key"}, "the server edited nothing itself"
    assert ax.keyboard.press("Shift+Home", app="py-notes")["handledBy"] == "app"
    assert ax.call("element.get", {"target": {"id": "body"}, "app": "py-notes"})["selectedTextRange"] == [10, 8]
