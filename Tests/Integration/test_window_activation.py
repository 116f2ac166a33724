"""The app that receives keys has the active window (D-ATSPI-ACTIVE-1), seen by a real pyatspi client.

Two apps on one private stack: `axserver --demo` and the mail client pushed by a plain Python provider
(Tests/Integration/data/mail_provider.py). There is no window manager, so the AT-SPI bridge acts as one: a key routed
to an app with `input.key` (`app`) activates that app's key window — `window:activate` and `state-changed:active` 1
from it, `window:deactivate` and `state-changed:active` 0 from the other app's window, whose STATE_ACTIVE goes — and
its focused element is announced again (`state-changed:focused` 1). Before, both windows stayed ACTIVE and no event
said which one had the keys, so Orca (which speaks only the window it saw activated) stayed silent for the second app.
"""
import os
import unittest

from atspi_helpers import AtspiClient
from harness import ProviderStack

HERE = os.path.dirname(os.path.abspath(__file__))
MAIL = os.path.join(HERE, "data", "mail_provider.py")
DEMO = "axserver-demo"
WINDOW_EVENTS = ["window:activate", "window:deactivate", "object:state-changed:active",
                 "object:state-changed:focused"]


class KeysActivateTheirAppsWindow(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.session = ProviderStack("--demo", providers=[(MAIL, "mail")], client_name="window-activation-it")
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

    def window(self, app):
        """The app's key window as pyatspi sees it: (name, states)."""
        node = self.atspi.call("node", app=app, where={"role": "frame"})
        return node["name"], set(self.atspi.call("states", app=app, where={"role": "frame"}))

    def key_to(self, app, key="F5"):
        answer = self.rpc.result("input.key", {"key": key, "app": app})
        events = self.atspi.call("collect", seconds=3, until_type="window:activate")
        # The rest of the batch (state-changed after window:activate) arrives right behind it.
        return answer, events + self.atspi.call("collect", seconds=0.5)

    def test_keys_move_the_active_window_between_the_apps(self):
        self.key_to(DEMO)
        self.atspi.call("listen", types=WINDOW_EVENTS)
        self.atspi.call("collect", seconds=0.3)
        demo_name, demo_states = self.window(DEMO)
        mail_name, _ = self.window("mail")
        self.assertIn("active", demo_states)

        _, events = self.key_to("mail")
        kinds = [(e["type"], e["source_name"], e["detail1"]) for e in events]
        self.assertIn(("window:activate", mail_name, 0), kinds, kinds)
        self.assertIn(("window:deactivate", demo_name, 0), kinds, kinds)
        self.assertIn(("object:state-changed:active", mail_name, 1), kinds, kinds)
        self.assertIn(("object:state-changed:active", demo_name, 0), kinds, kinds)
        self.assertIn("active", self.window("mail")[1])
        self.assertNotIn("active", self.window(DEMO)[1])

        # A second key to the same app activates nothing again.
        _, events = self.key_to("mail")
        self.assertFalse([e for e in events if e["type"].startswith("window:")], events)

        # Keys back to the demo: it is active again and the mail client is not.
        _, events = self.key_to(DEMO)
        kinds = [(e["type"], e["source_name"]) for e in events]
        self.assertIn(("window:activate", demo_name), kinds, kinds)
        self.assertIn(("window:deactivate", mail_name), kinds, kinds)
        self.assertIn("active", self.window(DEMO)[1])
        self.assertNotIn("active", self.window("mail")[1])

    def test_focus_moving_into_the_other_app_activates_its_window(self):
        self.key_to(DEMO)
        self.atspi.call("listen", types=WINDOW_EVENTS)
        self.atspi.call("collect", seconds=0.3)
        mail_name = self.window("mail")[0]
        self.rpc.result("focus.set", {"target": {"id": "msg1"}, "app": "mail"})
        events = self.atspi.call("collect", seconds=3, until_type="window:activate")
        kinds = [(e["type"], e["source_name"]) for e in events]
        self.assertIn(("window:activate", mail_name), kinds, kinds)
        self.assertIn("active", self.window("mail")[1])
        self.assertNotIn("active", self.window(DEMO)[1])

    def test_activation_announces_the_focused_element(self):
        self.rpc.result("focus.set", {"target": {"id": "msg0"}, "app": "mail"})
        self.key_to(DEMO)
        self.atspi.call("listen", types=WINDOW_EVENTS)
        self.atspi.call("collect", seconds=0.3)
        _, events = self.key_to("mail")
        types = [e["type"] for e in events]
        self.assertIn("window:activate", types, types)
        focused = [e for e in events if e["type"] == "object:state-changed:focused" and e["detail1"] == 1]
        self.assertTrue(focused, "no focused(1) after the mail window was activated: %s" % events)
        self.assertLess(types.index("window:activate"), types.index("object:state-changed:focused"), types)


if __name__ == "__main__":
    unittest.main()
