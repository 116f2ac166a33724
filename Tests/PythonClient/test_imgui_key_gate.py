"""The ImGui adapter's key gate (D-IMGUI-KEYS-1, Specs/imgui-adapter.md §Focus and keys) against a model of how ImGui
takes GLFW key events: its GLFW backend adds the modifier state GLFW has at each event, then the key; each NewFrame
applies queued events in order until a key would change a second time (ImGui's trickling), and its navigation then
reads the keys with the modifiers as they stand at the end. The events are the ones the adapter's callback logged
for xdotool's shift+Tab under Orca 48 (Shift↓, Tab↓ with mods shift, Shift↑, Tab↑)."""
from axclient.imgui.keys import MAX_HELD, KeyGate

SHIFT, TAB, A = 340, 258, 65
PRESS, RELEASE = 1, 0


class ImGuiModel:
    """GLFW's live key state, ImGui's input queue and what its navigation saw per frame."""

    def __init__(self):
        self.live = set()          # GLFW's keys down (updated before the callback runs, as GLFW does)
        self.queue = []            # ImGui's input queue: (key, down)
        self.down = set()          # ImGui's applied key state
        self.seen = []             # per key press applied: (key, shift down at the end of that frame)

    def glfw(self, key, action):
        (self.live.add if action else self.live.discard)(key)

    def backend_callback(self, event):
        _win, key, _scancode, action, _mods = event
        self.queue.append(("mod_shift", SHIFT in self.live))  # ImGui_ImplGlfw_UpdateKeyModifiers: live state
        self.queue.append((key, action != RELEASE))

    def new_frame(self):
        changed, pressed = set(), []
        while self.queue:
            key, down = self.queue[0]
            if (key in self.down) == down:
                self.queue.pop(0)  # not a change (ImGui filters these)
                continue
            if key in changed:
                break  # trickling: a key changes once per frame
            self.queue.pop(0)
            changed.add(key)
            (self.down.add if down else self.down.discard)(key)
            if down and key != "mod_shift":
                pressed.append(key)
        self.seen.extend((key, "mod_shift" in self.down) for key in pressed)


def chord_across_a_frame(model, hand):
    """The failing timing: a frame takes the Shift press alone, the next poll brings Tab↓, Shift↑, Tab↑."""
    model.glfw(SHIFT, PRESS)
    hand((None, SHIFT, 0, PRESS, 0))
    model.new_frame()
    for key, action, mods in ((TAB, PRESS, 1), (SHIFT, RELEASE, 1), (TAB, RELEASE, 0)):
        model.glfw(key, action)
        hand((None, key, 0, action, mods))


def test_without_the_gate_the_model_loses_shift_like_imgui_did():
    model = ImGuiModel()
    chord_across_a_frame(model, model.backend_callback)
    model.new_frame()
    model.new_frame()
    assert (TAB, False) in model.seen  # Tab without Shift: what ImGui's navigation saw (focus moved forward)


def test_with_the_gate_tab_keeps_shift():
    model = ImGuiModel()
    gate = KeyGate(model.backend_callback, lambda: not model.queue)
    chord_across_a_frame(model, gate.key)
    assert len(gate.held) == 2  # Shift↑ and Tab↑ wait for ImGui to take the Tab press
    for _ in range(3):
        model.new_frame()
        gate.next_frame()
    assert model.seen == [(SHIFT, True), (TAB, True)]
    assert not gate.held and model.down == set()  # everything reached ImGui, in order: nothing stays down


def test_a_release_with_no_press_pending_goes_at_once():
    model = ImGuiModel()
    gate = KeyGate(model.backend_callback, lambda: not model.queue)
    model.glfw(SHIFT, PRESS)
    gate.key((None, SHIFT, 0, PRESS, 0))
    model.glfw(SHIFT, RELEASE)
    gate.key((None, SHIFT, 0, RELEASE, 1))
    assert not gate.held and len(model.queue) == 4


def test_held_events_wait_while_imgui_has_not_taken_the_press():
    handed = []
    queue_empty = [False]
    gate = KeyGate(handed.append, lambda: queue_empty[0])
    for event in ((None, A, 0, PRESS, 0), (None, SHIFT, 0, RELEASE, 1), (None, A, 0, RELEASE, 0)):
        gate.key(event)
    assert [e[1] for e in handed] == [A]
    assert gate.next_frame() is False and len(handed) == 1  # ImGui's queue still holds the press
    queue_empty[0] = True
    assert gate.next_frame() is True
    assert [(e[1], e[3]) for e in handed] == [(A, PRESS), (SHIFT, RELEASE), (A, RELEASE)]


def test_the_replay_stops_again_at_a_release_after_a_press_it_handed():
    handed = []
    gate = KeyGate(handed.append, lambda: True)
    gate.key((None, TAB, 0, PRESS, 0))
    events = [(None, SHIFT, 0, RELEASE, 1), (None, TAB, 0, PRESS, 0), (None, SHIFT, 0, RELEASE, 0)]
    for event in events:
        gate.key(event)
    assert gate.next_frame() and [(e[1], e[3]) for e in handed[1:]] == [(SHIFT, RELEASE), (TAB, PRESS)]
    assert gate.held == [events[2]]
    assert gate.next_frame() and not gate.held


def test_a_stalled_loop_holds_at_most_max_held_events_and_keeps_their_order():
    handed = []
    gate = KeyGate(handed.append, lambda: False)
    gate.key((None, A, 0, PRESS, 0))
    gate.key((None, SHIFT, 0, RELEASE, 1))
    for number in range(MAX_HELD + 50):
        gate.key((None, A, number, PRESS, 0))
        assert len(gate.held) <= MAX_HELD
    # When full, the held events go first, then the new one: ImGui gets every event once, in order.
    assert [e[2] for e in handed if e[1] == A][1:] == list(range(len(handed) - 2))
    assert len(handed) + len(gate.held) == 2 + MAX_HELD + 50
