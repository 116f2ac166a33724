"""Real IDLE (Debian's idle-python3.11) under `python3 -m axclient.tk -m idlelib FILE`, driven through the real
server like a test author would: the Find dialog (type, options, Find Next, Close), the Preferences dialog
(configdialog: tabs, a switch, Apply writes IDLE's config, Cancel), and "Run Module" with the shell's output read
back (Specs/tk-adapter.md §IDLE)."""
import os
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

SOURCE = "greeting = 'hello from the file'\nprint(greeting, 6 * 7)\n"


@pytest.fixture
def idle_file(tk_app, tk_client):
    """IDLE editing a saved file in a private HOME: (app, client, home, editor window locator)."""
    home = tempfile.mkdtemp(prefix="axtk-idle-dialogs-")
    try:
        path = os.path.join(home, "hello.py")
        with open(path, "w") as handle:
            handle.write(SOURCE)
        app = tk_app("idlelib", module=True, args=[path], env={"HOME": home})
        ax = tk_client(app.app_id, timeout=15)
        window = ax.locator('window[label*="hello.py - "]')
        expect(window).to_be_visible(timeout=20)
        yield app, ax, home, window
    finally:
        shutil.rmtree(home, ignore_errors=True)


def menu_item(ax, menu, item):
    ax.get_by_role("button", name=menu, exact=True).first().click()
    entry = ax.get_by_role("button", name=item, exact=True)
    expect(entry).to_be_visible()
    entry.click()


def test_find_and_preferences_dialogs(idle_file):
    app, ax, home, window = idle_file
    status = window.locator('staticText[label^="Col: "]')
    expect(status).to_have_label("Col: 0")
    # Edit > Find...: a modal "Search Dialog" with its entry, options and buttons.
    menu_item(ax, "Edit", "Find...")
    dialog = ax.locator('window[label="Search Dialog"]')
    expect(dialog).to_be_visible()
    assert "modal" in dialog.states()
    find = dialog.get_by_role("textField", name="Find")
    find.fill("6 \\* 7")
    regex = dialog.get_by_role("switch", name="Regular expression")
    expect(regex).not_.to_be_checked()
    regex.click()
    expect(regex).to_be_checked()
    assert dialog.get_by_role("button", name="Down").is_selected()
    dialog.get_by_role("button", name="Find Next", exact=True).click()
    dialog.get_by_role("button", name="Close", exact=True).click()
    expect(dialog).to_be_hidden()
    # (While the modal dialog was up, the editor was outside the accessibility tree, R86.) IDLE selected the match:
    # typing replaces the selection.
    editor = window.locator("textView").first()
    editor.type_text("42")
    expect(editor).to_have_value("greeting = 'hello from the file'\nprint(greeting, 42)\n")
    expect(window.locator('staticText[label^="Ln: "]')).to_have_label("Ln: 2")
    expect(status).to_have_label("Col: 18")

    # Options > Configure IDLE: the Settings dialog, its notebook of six tabs.
    menu_item(ax, "Options", "Configure IDLE")
    settings = ax.locator('window[label="Settings"]')
    expect(settings).to_be_visible(timeout=10)
    tabs = settings.locator("tab")
    # The window maps before its notebook does (Tk maps children after their toplevel; each <Map> is a flush):
    # wait for the tab bar, as a user waits for the dialog to draw (failed once in a loaded full run).
    expect(tabs).to_have_count(6, timeout=10)
    assert [t.label() for t in tabs.all()] == ["Fonts", "Highlights", "Keys", "Windows", "Shell/Ed", "Extensions"]
    # IDLE's font size is a tkinter.OptionMenu: a pop-up button named by the Label beside it, valued by its choice.
    size = settings.get_by_role("button", name="Size", exact=True)
    expect(size).to_have_value(re.compile(r"^\d+$"))
    size.click()  # posts its menu of sizes
    ax.get_by_role("button", name="14", exact=True).click()
    expect(size).to_have_value("14")
    assert settings.get_by_role("group", name="Shell/Editor Font").count() == 1
    bold = settings.get_by_role("switch", name="Bold")
    expect(bold).not_.to_be_checked()
    bold.click()
    expect(bold).to_be_checked()
    settings.get_by_role("tab", name="Windows").click()
    expect(settings.get_by_role("tab", name="Windows")).to_be_selected()
    expect(bold).to_be_hidden()  # the Fonts page is unmapped now
    settings.get_by_role("button", name="Apply", exact=True).click()
    config = os.path.join(home, ".idlerc", "config-main.cfg")
    assert ax.wait_until(lambda: os.path.exists(config) and "bold = True" in open(config).read()
                         and "font-size = 14" in open(config).read(), timeout=10), \
        "Apply did not write IDLE's config: %s" % app.stderr_text()[-2000:]
    settings.get_by_role("button", name="Cancel", exact=True).click()
    expect(settings).to_be_hidden()
    expect(window).to_be_visible()


def test_run_module_and_read_the_shell(idle_file):
    app, ax, home, window = idle_file
    menu_item(ax, "Run", "Run Module")
    shell = ax.locator('window[label^="IDLE Shell"]')
    expect(shell).to_be_visible(timeout=20)
    output = shell.locator("textView").first()
    expect(output).to_have_value(re.compile(r"RESTART: .*hello\.py =+\nhello from the file 42\n"), timeout=20)
    # The shell is usable afterwards: the program's names are defined in it.
    output.type_text("greeting.upper()\n")
    expect(output).to_have_value(re.compile(r"'HELLO FROM THE FILE'"), timeout=20)
