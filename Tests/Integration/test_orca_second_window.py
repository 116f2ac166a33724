"""Orca speaks the title of a new window of the same app before the control focused in it (D-ATSPI-ACTIVE-1, windows
within one app), on a private stack with Xvfb and an isolated Orca (Tests/Integration/orca_transcript.py's driver), on
both stacks: Orca 43 (…Window) and Orca 48.1 on at-spi2-core 2.56 (…WindowOnOrca48, ot.on_orca48).

Two apps: `axserver --demo` and a task list pushed by a Python provider (Tests/Integration/data/tasks_provider.py).
Script: F5 routed to the task list (it becomes the active app: Orca presents its "Tasks" window), then its Rename
button activated (`action.activate`): the app opens a second window, "Rename task", as its key window with the focus
in the "New name" field; then Cancel closes it. Expected: Orca presents the new window as the active one, its title
with its role ("Rename task frame."), before the field ("New name text."), as it presents a GTK dialog a window
manager activated. Before the fix the new window came with `window:create` only (the old one was deactivated and
nothing activated): Orca named the window only as a new ancestor of the focused field ("Rename task" / "New name
text."), and for IDLE's Search Dialog not at all (Tests/PythonClient/test_tk_orca.py).
Both Orcas say the title with the role word "frame" and a text field as "text". The transcript goes to
$AX_TEST_OUTPUT_DIR/orca-second-window/ (orca48-second-window/ on Orca 48; default a fresh folder under /tmp).
"""
import os
import unittest

import orca_transcript as ot
from harness import ProviderStack

SKIP = ot.prerequisites()
HERE = os.path.dirname(os.path.abspath(__file__))
TASKS = os.path.join(HERE, "data", "tasks_provider.py")


def activation_step(transcript, rpc, target, what, awaited):
    """Activates `target` in the task list over JSON-RPC and records what Orca said, as a step of `transcript`: until
    Orca has said something matching `awaited` (at most 10 s; under CI load Orca may say nothing for the first second,
    CI run 10e), then until it is quiet."""
    marks = transcript.orca.marks()
    rpc.result("action.activate", {"target": {"id": target}, "app": "tasks"})
    transcript.orca.wait_speech(awaited, marks[0], 10.0)
    speech, _debug = transcript.orca.settle(marks, minimum=0.5, speech_expected=True)
    record = {"section": "tasks", "what": what, "keys": [what], "spoken": speech, "locus": None, "locus_logged": False,
              "handlers": [], "orca_consumed": []}
    transcript.steps.append(record)
    return record


@unittest.skipIf(SKIP, "Orca transcripts need Orca, xdotool, Xvfb and GTK 4: %s" % SKIP)
class OrcaNamesANewWindowOfTheSameApp(unittest.TestCase):
    #: The screen-reader stack (harness.ORCA_STACKS): "43" here, "48" in the …OnOrca48 variant.
    orca = "43"

    @classmethod
    def setUpClass(cls):
        cls.folder = ot.output_dir("orca-second-window" if cls.orca == "43" else "orca48-second-window")
        session = ProviderStack(
            "--demo", providers=[(TASKS, "tasks")], xvfb=True, private_home=True, rpc_timeout=20, orca=cls.orca)
        try:
            rpc = session.rpc
            orca = ot.Orca(session.stack)
            session.keep(orca.stop)
            t = ot.Transcript(orca, ot.RpcKeys(rpc, app="tasks"), "second window", budget=90.0)
            t.press("tasks", "F5")
            activation_step(t, rpc, "rename", "activate Rename", "New name")
            activation_step(t, rpc, "renameCancel", "activate Cancel", "Rename")
            cls.steps = t.steps
            ot.save_transcript(cls.folder, "second-window.txt", cls.steps, "demo + tasks provider (a second window)")
        finally:
            session.close()

    def spoken(self, index):
        return [" ".join(u.split()) for u in self.steps[index]["spoken"]]

    def test_orca_says_the_new_windows_title_then_its_focused_field(self):
        opened = self.spoken(1)
        title = [i for i, u in enumerate(opened) if "Rename task frame" in u]
        field = [i for i, u in enumerate(opened) if "New name" in u]
        self.assertTrue(title and field, "Orca did not say the window title and the field: %r" % opened)
        self.assertLessEqual(title[0], field[0], opened)
        self.assertFalse([u for u in opened if u.startswith("Tasks")],
                         "Orca spoke the window that lost the keys: %r" % opened)

    def test_orca_is_back_in_the_first_window_after_the_second_closes(self):
        closed = self.spoken(2)
        self.assertTrue(any("Rename" in u and "task" not in u for u in closed),
                        "Orca did not say the focused Rename button again: %r" % closed)


OrcaNamesANewWindowOfTheSameAppOnOrca48 = ot.on_orca48(OrcaNamesANewWindowOfTheSameApp)


if __name__ == "__main__":
    unittest.main()
