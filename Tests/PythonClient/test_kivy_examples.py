"""Kivy's own shipped examples (PyPI kivy-examples: share/kivy-examples in the test venv), run unmodified under
`python3 -m axclient.kivy`: the showcase demo (an ActionBar, a ScreenManager of widget screens: buttons, toggle
buttons, sliders, switches, check boxes, text inputs, popups, a file chooser, a spinner)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kivyapps"))
from kivy_support import examples_dir, kivy_display, needs_kivy, shared_server, start_app  # noqa: E402,F401

from axclient import expect  # noqa: E402

pytestmark = [needs_kivy, pytest.mark.skipif(examples_dir() is None, reason="needs PyPI kivy-examples")]


@pytest.fixture(scope="module")
def showcase(axserver_pool, kivy_display):
    server = shared_server(axserver_pool)
    main = os.path.join(examples_dir(), "demo", "showcase", "main.py")
    app = start_app(server, kivy_display, main, name="showcase", wait_ready=False)
    ax = server.client(client_name="kivy-showcase", app=app.app_id, timeout=10)
    try:
        yield app, ax
    finally:
        ax.close()
        app.stop()


def jump(ax, screen):
    """Picks a screen in the showcase's "Jump to Screen" ActionSpinner (a custom action per choice)."""
    ax.get_by_id("spnr").custom_action(screen)
    expect(ax.get_by_id("spnr")).to_have_value(screen)


def test_showcase_action_bar_and_buttons_screen(showcase):
    app, ax = showcase
    assert ax.query_one("toolbar") is not None
    spinner = ax.get_by_id("spnr")
    assert spinner.role() == "button" and "20 choices" in (spinner.hint() or "")
    assert ax.get_by_role("button", name="Next screen").count() == 1
    jump(ax, "Buttons")
    expect(ax.get_by_role("button", name="Button normal", exact=True)).to_be_visible()
    assert ax.get_by_role("button", name="Button disabled", exact=True).is_disabled()


def test_showcase_switches_and_next_screen(showcase):
    app, ax = showcase
    jump(ax, "Switches")
    normal = ax.get_by_role("switch", name="Switch normal")
    expect(normal).to_be_visible()
    assert normal.value() == "off"
    assert ax.get_by_role("switch", name="Switch active").value() == "on"
    assert ax.get_by_role("switch", name="Switch off & disabled").is_disabled()
    normal.click()  # through Kivy: the Switch's ``active``
    expect(normal).to_be_checked()
    ax.get_by_role("button", name="Next screen").click()  # the app's own screen order
    expect(ax.get_by_id("spnr")).to_have_value("TabbedPanel + Layouts")


def test_showcase_popup_opens_as_a_modal_window(showcase):
    app, ax = showcase
    jump(ax, "Popups")
    ax.get_by_role("button", name="press to show Popup").click()
    popup = ax.locator('window[label="Hello World"]')
    expect(popup).to_be_visible()
    popup.locator('button[label="press to dismiss"]').click()
    expect(popup).to_be_hidden()


def test_showcase_sliders_and_text_inputs(showcase):
    app, ax = showcase
    jump(ax, "Sliders")
    slider = ax.locator("adjustable").first()
    expect(slider).to_be_visible()
    before = slider.value()
    slider.increment()
    assert ax.wait_until(lambda: slider.value() != before, timeout=5), before
    jump(ax, "TextInputs")
    field = ax.locator("textField").first()
    expect(field).to_be_visible()
    field.fill("typed by axclient")
    expect(field).to_have_value("typed by axclient")
