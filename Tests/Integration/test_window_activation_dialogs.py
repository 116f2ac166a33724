"""A new key window of the SAME app is activated (D-ATSPI-ACTIVE-1, windows within one app), seen by pyatspi.

Two apps on one private stack: `axserver --demo` and a task list pushed by a Python provider
(Tests/Integration/data/tasks_provider.py). When an app's key window changes to a window that arrives — the task
list's "Rename task" window, the demo's About window — the bridge acts as a window manager does for GTK:
`state-changed:active` 0 and `window:deactivate` from the old key window, then `window:activate` and
`state-changed:active` 1 from the new one, then the focus events of the element inside it, so Orca speaks the
window's title before the focused control. Closing it activates the old window again. Before, the new window came
only with `window:create` (the old one was deactivated and nothing was activated), so Orca named the focused field
without its window. A change inside one window sends no window events.
"""
import os
import unittest

from atspi_helpers import AtspiClient
from harness import ProviderStack

HERE = os.path.dirname(os.path.abspath(__file__))
TASKS = os.path.join(HERE, "data", "tasks_provider.py")
DEMO = "axserver-demo"
WINDOW_EVENTS = ["window:activate", "window:deactivate", "window:create", "window:destroy",
                 "object:state-changed:active", "object:state-changed:focused"]


class NewKeyWindowOfTheSameApp(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.session = ProviderStack("--demo", providers=[(TASKS, "tasks")], client_name="window-dialogs-it")
        try:
            cls.atspi = AtspiClient(cls.session.env)
        except BaseException:
            cls.session.close()
            raise
        cls.session.keep(cls.atspi.close)
        cls.rpc = cls.session.rpc

    @classmethod
    def tearDownClass(cls):
        cls.session.close()

    def setUp(self):
        self.atspi.call("listen", types=WINDOW_EVENTS)

    def give_keys_to(self, app):
        """Routes a key to `app` (it becomes the active app) and drops the events that caused."""
        self.rpc.result("input.key", {"key": "F5", "app": app})
        self.atspi.call("collect", seconds=1.0)

    def activate(self, app, target, window_title):
        """Activates `target` and returns the window and focus events up to `window_title`'s activation and just
        after it, as (type, source name, detail1)."""
        self.rpc.result("action.activate", {"target": {"id": target}, "app": app})
        events = []
        for _ in range(10):
            events += self.atspi.call("collect", seconds=1.0, until_type="window:activate")
            if any(e["type"] == "window:activate" and e["source_name"] == window_title for e in events):
                break
        events += self.atspi.call("collect", seconds=0.5)
        return [(e["type"], e["source_name"], e["detail1"]) for e in events]

    def window_states(self, app, name):
        return set(self.atspi.call("states", app=app, where={"role": "frame", "name": name}))

    def assert_before(self, events, first, second):
        self.assertIn(first, events, events)
        self.assertIn(second, events, events)
        self.assertLess(events.index(first), events.index(second), events)

    def test_a_second_window_that_takes_the_keys_is_activated_and_closing_it_activates_the_first(self):
        self.give_keys_to("tasks")
        self.assertIn("active", self.window_states("tasks", "Tasks"))

        events = self.activate("tasks", "rename", "Rename task")
        self.assert_before(events, ("object:state-changed:active", "Tasks", 0), ("window:deactivate", "Tasks", 0))
        self.assert_before(events, ("window:deactivate", "Tasks", 0), ("window:activate", "Rename task", 0))
        self.assert_before(events, ("window:activate", "Rename task", 0),
                           ("object:state-changed:active", "Rename task", 1))
        self.assert_before(events, ("object:state-changed:active", "Rename task", 1),
                           ("object:state-changed:focused", "New name", 1))
        self.assertIn("active", self.window_states("tasks", "Rename task"))
        self.assertNotIn("active", self.window_states("tasks", "Tasks"))
        self.assertFalse([e for e in events if e[0].startswith("window:") and e[1] not in ("Tasks", "Rename task")],
                         "the other app's window must not change: %s" % (events,))

        events = self.activate("tasks", "renameCancel", "Tasks")
        self.assert_before(events, ("window:activate", "Tasks", 0), ("object:state-changed:active", "Tasks", 1))
        self.assert_before(events, ("object:state-changed:active", "Tasks", 1),
                           ("object:state-changed:focused", "Rename", 1))
        self.assertIn("active", self.window_states("tasks", "Tasks"))

    def test_the_demos_about_window_is_activated_over_its_settings_window(self):
        self.give_keys_to(DEMO)
        events = self.activate(DEMO, "cellAbout", "About")
        self.assert_before(events, ("window:deactivate", "Settings", 0), ("window:activate", "About", 0))
        self.assertIn("active", self.window_states(DEMO, "About"))
        self.assertNotIn("active", self.window_states(DEMO, "Settings"))
        events = self.activate(DEMO, "aboutDone", "Settings")
        self.assertIn(("window:activate", "Settings", 0), events)
        self.assertIn("active", self.window_states(DEMO, "Settings"))

    def test_a_change_inside_one_window_sends_no_window_events(self):
        self.give_keys_to("tasks")
        self.rpc.result("action.activate", {"target": {"id": "task1"}, "app": "tasks"})
        events = self.atspi.call("collect", seconds=1.5)
        self.assertFalse([e for e in events if e["type"].startswith("window:")], events)
        self.rpc.result("action.activate", {"target": {"id": "task0"}, "app": "tasks"})


if __name__ == "__main__":
    unittest.main()
