"""`python3 -m axclient.kivy` as a command (the kit's runner): usage without importing Kivy, `-m MODULE` runs a
module with the adapter installed (the app is named after the module) and its own arguments in sys.argv."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kivyapps"))
from kivy_support import HERE, KivyApp, kivy_display, needs_kivy, shared_server  # noqa: E402,F401

from tk_support import PACKAGE_DIR, wait_for_app  # noqa: E402

pytestmark = [needs_kivy]


def test_help_and_bad_command_lines_do_not_import_kivy():
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR)
    code = "import runpy, sys; sys.argv = ['axclient.kivy'] + sys.argv[1:]; " \
           "import axclient.kivy.__main__ as m; status = m.main(); print('kivy imported:', 'kivy.app' in sys.modules " \
           "or 'kivy' in sys.modules); sys.exit(status)"
    out = subprocess.run([sys.executable, "-c", code, "--help"], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "usage: python3 -m axclient.kivy" in out.stdout, out
    assert "kivy imported: False" in out.stdout
    out = subprocess.run([sys.executable, "-m", "axclient.kivy", "no_such_script.py"], env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 2 and "axclient.kivy: no such script: no_such_script.py" in out.stderr


def test_a_module_runs_under_the_adapter_with_its_own_arguments(axserver_pool, kivy_display):
    server = shared_server(axserver_pool)
    app = KivyApp(["-m", "list_app", "7"], kivy_display, server.socket, cwd=HERE)
    client = server.client(client_name="kivy-runner")
    try:
        app_id = wait_for_app(client, "list_app", timeout=30)
        app.wait_line("ready", 20)
        scoped = server.client(client_name="kivy-runner", app=app_id)
        assert scoped.query_count('staticText[label^="item "]') == 7  # list_app read its argument "7"
        scoped.close()
    finally:
        client.close()
        app.stop()
