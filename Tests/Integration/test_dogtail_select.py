"""dogtail selects rows (issue 21 §5, §7): Debian's python3-dogtail `Node.select()` (Selection.SelectChild on the
parent) on two apps on one private stack — a mail client pushed by a plain Python provider
(Tests/Integration/data/mail_provider.py) and `axserver --demo` — and reads the selection back through dogtail
(`selected`, the parent's Selection) and through the server's JSON-RPC view.

Expected (Specs/decisions.md D-SELECT-1, D-SELECT-2): selecting a plain row selects it (the app's own activation,
UIKit's didSelectRow) and the selection reads the same everywhere; selecting an outline row or a row that folds a
switch answers False and operates nothing (before, `select()` collapsed the outline row and flipped the switch).
The dogtail set-up is test_dogtail.py's (a keyfile GSettings backend in the stack's private XDG_CONFIG_HOME).
"""
import json
import os
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/usr/bin/python3"
MAIL = os.path.join(HERE, "data", "mail_provider.py")


def dogtail_installed():
    out = subprocess.run([PY, "-c", "import dogtail.version"], capture_output=True, text=True, timeout=30)
    return out.returncode == 0


def _client():
    from dogtail.config import config
    config.logDebugToFile = False
    config.logDebugToStdOut = False
    config.searchCutoffCount = 10
    config.actionDelay = 0.0
    config.defaultDelay = 0.0
    from dogtail import tree

    def emit(what, **fields):
        print(json.dumps(dict(fields, what=what)), flush=True)

    def waited(fn, timeout=5.0):
        deadline = time.time() + timeout
        value = fn()
        while not value and time.time() < deadline:
            time.sleep(0.05)
            value = fn()
        return value

    mail = tree.root.application("mail")
    bob = mail.child(name="Bob, Build broken")
    emit("row", role=bob.roleName, parent=bob.parent.roleName, selected=bob.selected)
    answer = bob.parent.querySelection().selectChild(bob.indexInParent)
    selected = bool(waited(lambda: bob.selected))
    selection = bob.parent.querySelection()
    emit("select bob", answer=bool(answer), selected=selected, n=selection.nSelectedChildren,
         first=selection.getSelectedChild(0).name if selection.nSelectedChildren else None,
         alice=mail.child(name="Alice, Lunch on Friday").selected)
    carol = mail.child(name="Carol, Slides")
    carol.select()     # dogtail's own API
    emit("select carol", selected=bool(waited(lambda: carol.selected)), bob=bob.selected)

    archive = mail.child(name="Archive")
    collapsed = archive.getState().contains(tree.pyatspi.STATE_COLLAPSED)
    answer = archive.parent.querySelection().selectChild(archive.indexInParent)
    time.sleep(0.5)
    emit("select archive", answer=bool(answer), collapsed_before=collapsed,
         collapsed_after=archive.getState().contains(tree.pyatspi.STATE_COLLAPSED))

    demo = tree.root.application("axserver-demo")
    wifi = demo.child(name="Wi-Fi", roleName="toggle button")
    before = wifi.checked
    answer = wifi.parent.querySelection().selectChild(wifi.indexInParent)
    time.sleep(0.5)
    emit("select wifi", answer=bool(answer), before=before, after=wifi.checked)


if __name__ != "__main__":
    from harness import RPC, A11yStack, Proc, start_server


@unittest.skipUnless(dogtail_installed(), "python3-dogtail is not installed (Tools/install-deps.sh installs it)")
class DogtailSelectsRows(unittest.TestCase):
    #: The at-spi2-core the stack runs (None: the system's, or $AX_ATSPI_ROOT as the harness reads it).
    atspi_root = None

    @classmethod
    def setUpClass(cls):
        cls.stack = A11yStack(private_home=True,
                              extra_args=["--atspi-root", cls.atspi_root] if cls.atspi_root else ())
        cls.server = cls.rpc = cls.mail = None
        try:
            cls.server, cls.sock, cls.tmp = start_server("--demo", env=cls.stack.env, atspi=True)
            cls.mail = Proc([PY, MAIL, cls.sock, "mail"], env=cls.stack.env)
            cls.mail.wait_line("READY", timeout=30)
            cls.rpc = RPC(cls.sock, timeout=20)
            cls.rpc.result("initialize", {"role": "automation"})
            settings = os.path.join(cls.stack.env["XDG_CONFIG_HOME"], "glib-2.0", "settings")
            os.makedirs(settings, exist_ok=True)
            with open(os.path.join(settings, "keyfile"), "w") as f:
                f.write("[org/gnome/desktop/interface]\ntoolkit-accessibility=true\n")
            env = dict(cls.stack.env, GSETTINGS_BACKEND="keyfile")
            out = subprocess.run([PY, os.path.abspath(__file__), "client"], env=env, capture_output=True, text=True,
                                 timeout=120)
            cls.observed = {}
            for line in out.stdout.splitlines():
                if line.startswith("{"):
                    record = json.loads(line)
                    cls.observed[record.pop("what")] = record
            cls.client_exit = out.returncode
            cls.client_stderr = out.stderr[-3000:]
        except BaseException:
            cls._cleanup()
            raise

    @classmethod
    def _cleanup(cls):
        if cls.rpc:
            cls.rpc.close()
        for proc in (cls.mail, cls.server):
            if proc:
                proc.stop()
        cls.stack.stop()

    @classmethod
    def tearDownClass(cls):
        cls._cleanup()

    def seen(self, what):
        if what not in self.observed:
            self.fail("the dogtail script stopped before %r (exit %s): %s" % (what, self.client_exit,
                                                                            self.client_stderr))
        return self.observed[what]

    def states(self, ident, app):
        return self.rpc.result("element.get", {"target": {"id": ident}, "app": app})["states"]

    def test_1_selecting_a_row_selects_it_everywhere(self):
        row = self.seen("row")
        self.assertFalse(row["selected"])
        bob = self.seen("select bob")
        self.assertTrue(bob["answer"])
        self.assertTrue(bob["selected"], "dogtail does not see the row selected: %r" % bob)
        self.assertEqual((bob["n"], bob["first"]), (1, "Bob, Build broken"))
        self.assertFalse(bob["alice"], "the old selection stayed")
        carol = self.seen("select carol")
        self.assertTrue(carol["selected"])
        self.assertFalse(carol["bob"])
        self.assertIn("selected", self.states("msg2", "mail"))
        self.assertNotIn("selected", self.states("msg1", "mail"))

    def test_2_selecting_never_operates_an_outline_row_or_a_switch(self):
        archive = self.seen("select archive")
        self.assertTrue(archive["collapsed_before"])
        self.assertEqual((archive["answer"], archive["collapsed_after"]), (False, True),
                         "select() must not expand or collapse an outline row: %r" % archive)
        self.assertIn("collapsed", self.states("folderArchive", "mail"))
        wifi = self.seen("select wifi")
        self.assertEqual((wifi["answer"], wifi["after"]), (False, wifi["before"]),
                         "select() must not flip the switch a row folds: %r" % wifi)



ORCA48_ATSPI_ROOT = os.path.join(os.path.dirname(os.path.dirname(HERE)), ".build", "orca48", "root")


@unittest.skipUnless(dogtail_installed(), "python3-dogtail is not installed (Tools/install-deps.sh installs it)")
@unittest.skipUnless(os.path.isdir(ORCA48_ATSPI_ROOT), "no libatspi 2.56 stack (Tools/install-orca48.sh installs it)")
class DogtailSelectsRowsOnAtspi256(DogtailSelectsRows):
    """The same script and checks on at-spi2-core / libatspi 2.56 (issue 39; role names it uses are unchanged)."""
    atspi_root = ORCA48_ATSPI_ROOT


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "client":
        _client()
    else:
        unittest.main()
