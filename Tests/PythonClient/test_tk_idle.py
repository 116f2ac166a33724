"""Real IDLE (Debian's idle-python3.11), unmodified, run with `python3 -m axclient.tk -m idlelib` under Xvfb and
driven through the real server: its menu bar, a posted menu, a new editor window, typing code."""
import re
import shutil
import tempfile

import pytest

from axclient import expect
from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401

try:
    import idlelib  # noqa: F401
    HAVE_IDLE = True
except ImportError:  # pragma: no cover - Tools/install-deps.sh installs idle-python3.11
    HAVE_IDLE = False

pytestmark = [needs_tk, pytest.mark.axserver(demo=False),
              pytest.mark.skipif(not HAVE_IDLE, reason="needs idlelib (Tools/install-deps.sh: idle-python3.11)")]


@pytest.fixture
def idle(tk_app, tk_client):
    home = tempfile.mkdtemp(prefix="axtk-idle-")
    try:
        app = tk_app("idlelib", module=True, env={"HOME": home})
        yield app, tk_client(app.app_id, timeout=15)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def test_idle_shell_menu_and_a_new_editor(idle):
    app, ax = idle
    assert app.app_id == "idlelib"
    shell = ax.locator("textView").first()
    expect(shell).to_have_value(re.compile(r"Python 3\.\d+"))
    for menu in ("File", "Edit", "Shell", "Debug", "Options", "Window", "Help"):
        assert ax.get_by_role("button", name=menu, exact=True).count() >= 1, menu
    ax.get_by_role("button", name="File", exact=True).first().click()
    new_file = ax.get_by_role("button", name="New File")
    expect(new_file).to_be_visible()
    assert new_file.hint() == "Ctrl+N"
    new_file.click()
    editor_window = ax.locator('window[label="untitled"]')
    expect(editor_window).to_be_visible()
    editor = ax.get_by_id(editor_window.locator("textView").first().element().id)
    editor.type_text("def f():\nreturn 42")
    # IDLE's own <Key>/Return bindings ran: the body line got auto-indented.
    expect(editor).to_have_value("def f():\n    return 42")
    # IDLE marks the window modified in its title; the status bar follows the insert cursor.
    expect(ax.locator('window[label="*untitled*"]')).to_be_visible()
    assert ax.query_count('staticText[label="Ln: 2"]') == 1
