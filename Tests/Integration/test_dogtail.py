"""dogtail drives the demo (issue 10 §6): Debian's python3-dogtail (0.9.11) against `axserver --demo` on a private
stack, the way a GNOME QA script would drive a GTK app.

dogtail runs in its own /usr/bin/python3 process (libatspi reads the bus address once) with the stack's environment.
Its start-up check (`utils.checkForA11y`) reads the GSettings key org.gnome.desktop.interface toolkit-accessibility;
the test gives it a keyfile GSettings backend inside the stack's private XDG_CONFIG_HOME with that key true, so the
person's own dconf is never read or written, and dogtail's log file is turned off.

What is checked, each through dogtail's own API and then against the server's JSON-RPC view (never against what
dogtail itself just wrote):
  * `tree.root.application("axserver-demo")`, `app.child(name=…, roleName=…)`, `app.button(…)`, `findChildren`
  * `doActionNamed("click")` on a button (the alert opens: the server has the alert) and on the alert's Cancel
  * `actions` names (`click`; `dismiss` on the alert), `doActionNamed("dismiss")`
  * text: `node.text = …` (EditableText.SetTextContents) and `queryEditableText().insertText` at the caret
  * values: `node.value` read and set on the Text Size slider, `checked` on the Wi-Fi switch after a click
  * names, roles, descriptions of the demo's controls

Decisions (Specs/orca-transcripts.md §5, and /work/notes/h16.md for the bridge changes proposed to the lead):
  * dogtail's `typeText()` and `click()` are raw X input (XTEST through the registry): a mirrored app has no X
    window, so those keys and clicks never reach it. Scripts use `node.text`/EditableText and `doActionNamed`.
    `typeText` is tested as documented: on a focusable node it goes to raw X input and the field does not change.
  * `textentry(name)` looks for role name 'text' (GTK's entries); the bridge maps UITextField to TEXT + EDITABLE +
    SINGLE_LINE like GTK 4's GtkEntry (D-ATSPI-TEXT-2), so scripts find the field with dogtail's own `textentry`.
  * Both AT-SPI stacks (issue 39): the script runs on Debian 12's libatspi 2.46 and on libatspi 2.56
    (Tools/install-orca48.sh's prefix: its registry, library and typelib). libatspi 2.55 renamed ROLE_PUSH_BUTTON
    "push button" → "button" (the only role name that changed; SWITCH and BUTTON are new roles), and dogtail
    0.9.11's `button(name)` / `IsAButtonNamed` compare `roleName == 'push button'`, so they find nothing on 2.56.
    Scripts name the role through the library they run on (`Atspi.role_get_name(ROLE_PUSH_BUTTON)`, the role
    constant being the same number in both) and keep dogtail's own searches (`GenericPredicate(roleName=…)`,
    `child`, `findChildren`); a literal role name is right on one stack only (Specs/orca-transcripts.md §5).
"""
import json
import os
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/usr/bin/python3"
APP = "axserver-demo"


def dogtail_installed():
    out = subprocess.run([PY, "-c", "import dogtail.version"], capture_output=True, text=True, timeout=30)
    return out.returncode == 0


# ---------------------------------------------------------------------------------------------------------------
# Client side: runs in /usr/bin/python3 with the stack's environment; prints one JSON object per observation.

def _client():
    from dogtail.config import config
    config.logDebugToFile = False
    config.logDebugToStdOut = bool(os.environ.get("AX_DOGTAIL_DEBUG"))
    config.searchCutoffCount = 10          # child() retries: 10 × searchBackoffDuration (0.5 s) at most
    config.actionDelay = 0.0
    config.defaultDelay = 0.0
    config.typingDelay = 0.0
    import pyatspi
    from dogtail import predicate, tree
    from dogtail.tree import SearchError

    # The role's name as this libatspi spells it ("push button" before 2.55, "button" from 2.55 on): dogtail's
    # searches compare role names, so the script names the role through the library, never as a literal.
    push_button = pyatspi.Atspi.role_get_name(pyatspi.ROLE_PUSH_BUTTON)

    def buttons(name=""):
        return predicate.GenericPredicate(name=name, roleName=push_button)

    def emit(what, **fields):
        print(json.dumps(dict(fields, what=what)), flush=True)

    def waited(fn, timeout=5.0):
        deadline = time.time() + timeout
        value = fn()
        while not value and time.time() < deadline:
            time.sleep(0.05)
            value = fn()
        return value

    app = tree.root.application(APP)
    emit("application", name=app.name, role=app.roleName, children=[c.roleName for c in app.children])

    reset = app.findChild(buttons("Reset All Settings"))
    emit("button", name=reset.name, role=reset.roleName, role_constant=int(reset.role), description=reset.description,
         actions=sorted(reset.actions.keys()), showing=reset.showing, sensitive=reset.sensitive)
    names = [b.name for b in app.findChildren(buttons())]
    emit("buttons", names=names)
    # dogtail's own button(): role name 'push button', which libatspi 2.56 no longer uses (recorded, see above).
    by_name = app.findChild(predicate.IsAButtonNamed("Reset All Settings"), retry=False, requireResult=False)
    emit("dogtail button()", found=by_name is not None)

    try:
        found = app.textentry("Device Name")
        emit("textentry", found=True, role=found.roleName)
    except SearchError as error:
        emit("textentry", found=False, error=str(error))

    field = app.textentry("Device Name")
    emit("field", role=field.roleName, text=field.text, focusable=field.focusable,
         editable="EditableText" in field.get_interfaces() if hasattr(field, "get_interfaces") else None)
    field.text = "Pixel"
    emit("text set", text=waited(lambda: field.text == "Pixel" and field.text) or field.text)
    editable = field.queryEditableText()
    editable.insertText(len("Pixel"), " 7", len(" 7"))
    emit("text inserted", text=waited(lambda: field.text == "Pixel 7" and field.text) or field.text)
    field.typeText("X")        # raw X input: a mirrored app has no X window
    time.sleep(0.5)
    emit("typeText", text=field.text)

    size = app.child(name="Text Size", roleName="slider")
    emit("slider", value=size.value, min=size.minValue, max=size.maxValue, step=size.minValueIncrement)
    size.value = 0.7
    emit("slider set", value=waited(lambda: abs(size.value - 0.7) < 1e-9 and size.value) or size.value)

    wifi = app.child(name="Wi-Fi", roleName="toggle button")
    before = wifi.checked
    wifi.doActionNamed("click")
    after = waited(lambda: wifi.checked != before and "changed") and wifi.checked
    emit("switch", before=before, after=after, actions=sorted(wifi.actions.keys()))

    reset.doActionNamed("click")
    alert = app.child(roleName="alert")            # role names other than "push button" are the same on 2.56
    emit("alert", name=alert.name, actions=sorted(alert.actions.keys()),
         buttons=[b.name for b in alert.findChildren(buttons())])
    alert.findChild(buttons("Cancel")).doActionNamed("click")
    emit("alert cancelled", gone=bool(waited(lambda: not app.findChildren(predicate.GenericPredicate(roleName="alert")))))
    reset.doActionNamed("click")
    alert = app.child(roleName="alert")
    alert.doActionNamed("dismiss")
    emit("alert dismissed", gone=bool(waited(lambda: not app.findChildren(predicate.GenericPredicate(roleName="alert")))))
    emit("library", version=_atspi_version())


def _atspi_version():
    """libatspi's (major, minor); None before atspi_get_version existed (Debian 12's 2.46 has none)."""
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi
    if not hasattr(Atspi, "get_version"):
        return None
    version = Atspi.get_version()
    return [version.major, version.minor]


# ---------------------------------------------------------------------------------------------------------------
# Test side.

if __name__ != "__main__":
    from harness import RPC, A11yStack, start_server


# libatspi's name for ROLE_PUSH_BUTTON (atspi-misc.c role_names): "push button", "button" from 2.55 on.
RENAMED_IN = (2, 55)
ROLE_PUSH_BUTTON = 43          # AtspiRole: ATSPI_ROLE_PUSH_BUTTON, the same number in both libraries
ORCA48_ATSPI_ROOT = os.path.join(os.path.dirname(os.path.dirname(HERE)), ".build", "orca48", "root")


@unittest.skipUnless(dogtail_installed(), "python3-dogtail is not installed (Tools/install-deps.sh installs it)")
class DogtailDrivesTheDemo(unittest.TestCase):
    #: The at-spi2-core the stack runs (None: the system's, or $AX_ATSPI_ROOT as the harness reads it).
    atspi_root = None

    @classmethod
    def setUpClass(cls):
        cls.stack = A11yStack(private_home=True,
                              extra_args=["--atspi-root", cls.atspi_root] if cls.atspi_root else ())
        cls.server = cls.rpc = None
        try:
            cls.server, cls.sock, cls.tmp = start_server("--demo", env=cls.stack.env, atspi=True)
            cls.rpc = RPC(cls.sock, timeout=20)
            cls.rpc.result("initialize", {"role": "automation"})
            settings = os.path.join(cls.stack.env["XDG_CONFIG_HOME"], "glib-2.0", "settings")
            os.makedirs(settings, exist_ok=True)
            with open(os.path.join(settings, "keyfile"), "w") as f:
                f.write("[org/gnome/desktop/interface]\ntoolkit-accessibility=true\n")
            env = dict(cls.stack.env, GSETTINGS_BACKEND="keyfile")
            started = time.time()
            out = subprocess.run([PY, os.path.abspath(__file__), "client"], env=env, capture_output=True, text=True,
                                 timeout=120)
            cls.seconds = time.time() - started
            cls.observed = {}
            for line in out.stdout.splitlines():
                if line.startswith("{"):
                    record = json.loads(line)
                    cls.observed[record.pop("what")] = record
            cls.client_exit = out.returncode
            cls.client_stderr = out.stderr + "\n[stdout] " + out.stdout[-2000:]
        except BaseException:
            cls._cleanup()
            raise

    @classmethod
    def _cleanup(cls):
        if cls.rpc:
            cls.rpc.close()
        if cls.server:
            cls.server.stop()
        cls.stack.stop()

    @classmethod
    def tearDownClass(cls):
        cls._cleanup()

    def seen(self, what):
        if what not in self.observed:
            self.fail("the dogtail script stopped before %r (exit %s): %s" % (what, self.client_exit,
                                                                            self.client_stderr[-3000:]))
        return self.observed[what]

    def server_value(self, selector):
        return self.rpc.result("query.one", {"selector": selector})

    def test_0_script_ran(self):
        self.assertEqual(self.client_exit, 0, self.client_stderr[-3000:])
        self.assertLess(self.seconds, 60, "the dogtail script took %.1f s" % self.seconds)

    def test_1_application_and_tree(self):
        app = self.seen("application")
        self.assertEqual((app["name"], app["role"]), (APP, "application"))
        self.assertIn("frame", app["children"])
        names = self.seen("buttons")["names"]
        for name in ("Edit", "Reset All Settings", "Display & Brightness"):
            self.assertIn(name, names)

    def library(self):
        version = self.seen("library")["version"]
        return tuple(version) if version else (2, 46)

    def test_2_button_by_name(self):
        button = self.seen("button")
        self.assertEqual(button["role_constant"], ROLE_PUSH_BUTTON)
        renamed = self.library() >= RENAMED_IN
        self.assertEqual(button["role"], "button" if renamed else "push button", "libatspi %s" % (self.library(),))
        # dogtail 0.9.11's own button() compares the role name 'push button': found before the rename only.
        self.assertEqual(self.seen("dogtail button()")["found"], not renamed)
        self.assertEqual(button["description"], "Asks before resetting")      # DemoApp's accessibilityHint
        self.assertIn("click", button["actions"])                              # dogtail's common action name
        self.assertTrue(button["showing"] and button["sensitive"])

    def test_3_alert_by_action(self):
        alert = self.seen("alert")
        self.assertEqual(alert["name"], "Reset All Settings?")
        self.assertEqual(sorted(alert["buttons"]), ["Cancel", "Reset"])
        self.assertIn("dismiss", alert["actions"])
        self.assertTrue(self.seen("alert cancelled")["gone"], "Cancel's click did not close the alert")
        self.assertTrue(self.seen("alert dismissed")["gone"], "the alert's dismiss action did not close it")
        gone = self.rpc.call("query.one", {"selector": "#alert"})
        self.assertEqual(gone.get("error", {}).get("code"), -32010, "the server still has the alert: %r" % gone)

    def test_4_text(self):
        field = self.seen("field")
        self.assertEqual(field["role"], "text")
        self.assertTrue(field["focusable"])
        self.assertEqual(self.seen("text set")["text"], "Pixel")
        self.assertEqual(self.seen("text inserted")["text"], "Pixel 7")
        element = self.server_value('#deviceName')
        self.assertEqual(element.get("text"), "Pixel 7", "the server's text field: %r" % element)
        # typeText on a focusable node is raw X input (XTEST): nothing reaches a mirrored app.
        self.assertEqual(self.seen("typeText")["text"], "Pixel 7")

    def test_5_textentry_predicate(self):
        # dogtail's textentry() matches role name 'text' (GTK's entries): UITextField is TEXT (D-ATSPI-TEXT-2).
        entry = self.seen("textentry")
        self.assertTrue(entry["found"], "dogtail's textentry('Device Name') found nothing: %r" % entry)
        self.assertEqual(entry["role"], "text")

    def test_6_values(self):
        slider = self.seen("slider")
        self.assertEqual((slider["value"], slider["min"], slider["max"]), (0.5, 0.0, 1.0))
        self.assertAlmostEqual(self.seen("slider set")["value"], 0.7)
        self.assertAlmostEqual(self.server_value("#textSize")["numericValue"]["current"], 0.7)
        switch = self.seen("switch")
        self.assertEqual((switch["before"], switch["after"]), (True, False))
        self.assertIn("click", switch["actions"])
        wifi = self.server_value('#"cell.wifi"')
        self.assertEqual(wifi.get("value"), "off", "the server's Wi-Fi cell: %r" % wifi)
        self.assertNotIn("checked", wifi["states"])


@unittest.skipUnless(dogtail_installed(), "python3-dogtail is not installed (Tools/install-deps.sh installs it)")
@unittest.skipUnless(os.path.isdir(ORCA48_ATSPI_ROOT), "no libatspi 2.56 stack (Tools/install-orca48.sh installs it)")
class DogtailDrivesTheDemoOnAtspi256(DogtailDrivesTheDemo):
    """The same script and checks on at-spi2-core / libatspi 2.56 (registry, library, typelib of the prefix)."""
    atspi_root = ORCA48_ATSPI_ROOT

    def test_7_the_stack_is_2_56(self):
        self.assertEqual(self.library(), (2, 56))


if __name__ == "__main__":
    if sys.argv[1:] == ["client"]:
        _client()
    else:
        sys.path.insert(0, HERE)
        from harness import RPC, A11yStack, start_server  # noqa: F811
        unittest.main()
