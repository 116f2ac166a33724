"""Posted menus as AT-SPI menus (issue 32 item 3; D-MENU-1): IDLE's menu bar and its posted File menu reach
Orca as GTK's do (roles "menu bar", "menu", "menu item"; Orca says "File menu", "New File."): the adapter publishes
the menu bar with container type `menuBar` and a posted menu as a window holding a view of container type `menu`;
the server maps them to AT-SPI MENU_BAR / MENU and their entries to MENU / MENU_ITEM (Specs/atspi-mapping.md).
Before, a posted menu was a window of push buttons and the menu bar a tool bar (this test was a strict xfail)."""
import shutil
import tempfile

import pytest

from axclient import expect
from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401
from test_tk_atspi import have_pyatspi
from test_tk_atspi_roles import walk

pytestmark = [needs_tk, pytest.mark.axserver(demo=False, atspi=True, fresh=True),
              pytest.mark.skipif(not have_pyatspi(), reason="needs python3-pyatspi (Tools/install-deps.sh)")]


@pytest.fixture
def idle_file_menu(tk_app, tk_client, axserver):
    """IDLE under the adapter with its File menu posted through JSON-RPC; pyatspi's rows by name."""
    home = tempfile.mkdtemp(prefix="axtk-idle-menus-")
    try:
        app = tk_app("idlelib", module=True, env={"HOME": home})
        ax = tk_client(app.app_id, timeout=15)
        ax.get_by_role("button", name="File", exact=True).first().click()
        expect(ax.get_by_role("button", name="New File")).to_be_visible()
        yield walk(axserver, "idlelib")[1]
    finally:
        shutil.rmtree(home, ignore_errors=True)


def roles(by_name, name):
    return sorted(row["role"] for row in by_name.get(name, []))


def test_idle_menus_are_atspi_menus_as_in_gtk(idle_file_menu):
    by_name = idle_file_menu
    assert roles(by_name, "Menu bar") == ["menu bar"], by_name.get("Menu bar")
    # The menu bar's File cascade and the posted File menu are menus; the menu's window is a frame (as GTK's popup
    # window holding its menu); no push button is left.
    assert roles(by_name, "File") == ["frame", "menu", "menu"], by_name.get("File")
    assert roles(by_name, "New File") == ["menu item"], by_name.get("New File")
    # A cascade inside a menu is a menu, as GtkMenuItem with a submenu is.
    assert roles(by_name, "Recent Files") == ["menu"], by_name.get("Recent Files")


def test_idle_menus_reach_the_json_rpc_surfaces_as_menus(tk_app, tk_client, axserver):
    """Selectors and the tree name the containers (`menu`, `menuBar`); the items stay buttons there (D-MENU-1)."""
    home = tempfile.mkdtemp(prefix="axtk-idle-menus-")
    try:
        app = tk_app("idlelib", module=True, env={"HOME": home})
        ax = tk_client(app.app_id, timeout=15)
        expect(ax.locator('menuBar > button[label="File"]')).to_be_visible()
        ax.locator('menuBar > button[label="File"]').first().click()
        expect(ax.locator('menu > button[label="New File"]')).to_be_visible()
        assert ax.locator("menu").count() == 1
        assert 'type="XCUIElementTypeMenuBar"' in ax.tree_xml()
    finally:
        shutil.rmtree(home, ignore_errors=True)
