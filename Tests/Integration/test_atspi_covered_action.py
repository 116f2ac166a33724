"""D-HIT-1 on every route (issue 37 item 4): AT-SPI `Action.DoAction` on a button a plain view covers is refused
as JSON-RPC `action.activate` refuses it, and the app is never asked; an uncovered button is activated through
both. Real server, real private AT-SPI bus, real pyatspi in its own process."""
import json
import os
import subprocess
import time
import unittest

from harness import ProviderStack

HERE = os.path.dirname(os.path.abspath(__file__))
PROVIDER = os.path.join(HERE, "data", "covered_provider.py")

DO_ACTION = r'''
import json, sys
import pyatspi

def find(app_name, name):
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is not None and app.name == app_name:
            return pyatspi.findDescendant(app, lambda x: x is not None and x.name == name)
    raise LookupError(app_name)

out = {}
for name in sys.argv[2:]:
    button = find(sys.argv[1], name)
    try:
        out[name] = {"result": bool(button.queryAction().doAction(0))}
    except Exception as error:
        out[name] = {"error": str(error)}
print(json.dumps(out))
'''


class CoveredDoAction(unittest.TestCase):
    def setUp(self):
        self.stack = ProviderStack(providers=[(PROVIDER, "covered")])
        self.addCleanup(self.stack.close)
        self.provider = self.stack.providers["covered"]

    def actions_seen(self, wait=0.5):
        """ACTION lines the provider printed so far (after `wait` seconds for a late one)."""
        deadline = time.time() + wait
        while time.time() < deadline:
            try:
                self.provider.wait_line("ACTION", timeout=max(0.05, deadline - time.time()))
            except AssertionError:
                break
        return [line for line in self.provider.lines if line.startswith("ACTION")]

    def test_do_action_on_a_covered_button_is_refused_like_activate(self):
        rpc = self.stack.rpc
        refused = rpc.call("action.activate", {"app": "covered", "target": {"id": "pay"}})
        self.assertEqual(refused.get("error", {}).get("code"), -32013, refused)
        self.assertEqual(refused["error"]["data"].get("reason"), "not hittable")
        run = subprocess.run(["/usr/bin/python3", "-c", DO_ACTION, "covered", "Pay", "Help"], env=self.stack.env,
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        answers = json.loads(run.stdout.strip().splitlines()[-1])
        # libatspi turns the D-Bus error reply into FALSE (pyatspi may raise it instead): either way, refused.
        self.assertNotEqual(answers["Pay"], {"result": True}, answers)
        self.assertEqual(answers["Help"], {"result": True})
        seen = self.actions_seen()
        self.assertIn("ACTION activate help", seen)
        self.assertNotIn("ACTION activate pay", seen, "the covered button reached the app")


if __name__ == "__main__":
    unittest.main()
