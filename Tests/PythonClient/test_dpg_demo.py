"""axclient.dearpygui on Dear PyGui's own demo (``dearpygui.demo.show_demo()``, unmodified: dpgapps/demo_app.py
starts it as Dear PyGui's README does): hundreds of items behind collapsing headers, opened and driven through
the server as a user would. Expected names are the demo's own labels."""
import pytest

from axclient import expect
from dpgapps.dpg_support import module_server, needs_dpg, start_app
from tk_support import xvfb_display  # noqa: F401

pytestmark = [needs_dpg]


@pytest.fixture(scope="module")
def server(axserver_pool):
    srv = module_server(axserver_pool)
    yield srv
    axserver_pool.release(srv)


@pytest.fixture(scope="module")
def demo(server, xvfb_display):
    app = start_app(server, xvfb_display, "demo_app.py")
    client = server.client(client_name="dpg-demo", app=app.app_id, timeout=10)
    yield app, client
    client.close()
    app.stop()


def open_header(ax, name):
    header = ax.get_by_role("button", name=name, exact=True).first()
    if "expanded" not in header.states():
        header.click()
    expect(header).to_have_state("expanded")


def test_the_demo_window_and_its_sections(demo):
    _, ax = demo
    window = ax.get_by_role("window", name="Dear PyGui Demo")
    expect(window).to_be_visible()
    for section in ("Widgets", "Tables", "Popups & Modal Windows", "Plots"):
        assert "collapsed" in ax.get_by_role("button", name=section, exact=True).first().states()
    assert ax.get_by_role("button", name="Menu", exact=True).count() == 1  # the demo's menu bar


def test_opening_widgets_basic_mirrors_hundreds_of_items_with_stable_ids(demo):
    _, ax = demo
    open_header(ax, "Widgets")
    open_header(ax, "Basic")
    expect(ax.get_by_role("switch", name="checkbox")).to_be_visible()
    count = ax.query_count("*")
    assert count >= 100, count
    ids = sorted(element["id"] for element in ax.query_all("*"))
    header = ax.get_by_role("button", name="Basic", exact=True).first()
    header.click()  # closed: its items go…
    expect(header).to_have_state("collapsed")
    expect(ax.get_by_role("switch", name="checkbox")).to_be_hidden()
    header.click()  # …and come back under the same ids
    expect(header).to_have_state("expanded")
    expect(ax.get_by_role("switch", name="checkbox")).to_be_visible()
    assert sorted(element["id"] for element in ax.query_all("*")) == ids


def test_the_demos_controls_are_driven_through_their_callbacks(demo):
    _, ax = demo
    open_header(ax, "Widgets")
    open_header(ax, "Basic")
    checkbox = ax.get_by_role("switch", name="checkbox")
    before = checkbox.value()
    checkbox.click()
    expect(checkbox).not_.to_have_value(before)
    slider = ax.get_by_role("adjustable", name="slider int", exact=True)
    start = int(slider.value())
    slider.increment() if start < 3 else slider.decrement()  # the demo's slider goes 0…3
    expect(slider).to_have_value(str(start + 1 if start < 3 else start - 1))
    text = ax.get_by_role("textField", name="input text", exact=True)
    text.fill("Hello from Orca")
    expect(text).to_have_value("Hello from Orca")
    radio = ax.get_by_role("button", name="radio b")
    radio.click()
    expect(radio).to_be_selected()
    assert not ax.get_by_role("button", name="radio a").is_selected()
    banana = ax.get_by_role("cell", name="Banana")
    banana.click(force=True)  # below the demo window's visible area (the adapter does not scroll ImGui windows)
    expect(banana).to_be_selected()
