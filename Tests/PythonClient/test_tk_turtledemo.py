"""turtledemo (CPython's turtle-graphics example viewer; Debian ``python3.11-examples``, Tools/install-deps.sh),
unmodified under ``python3 -m axclient.tk -m turtledemo`` with the real server (issue 32's third-party apps): what a
user meets — the padded " START " buttons named "START", disabled until an example is loaded; the status label;
the source view (a Text packed with its Scrollbars in a Frame); the menubar's Examples cascade — and a whole task
driven through the adapter: load an example from the menu, read its source, START it, STOP it."""
import importlib.util
import re

import pytest

from axclient import expect
from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401

pytestmark = [needs_tk, pytest.mark.axserver(demo=False)]


@pytest.fixture
def turtledemo(tk_app, tk_client):
    if importlib.util.find_spec("turtledemo") is None:
        pytest.skip("needs turtledemo (Debian python3.11-examples: Tools/install-deps.sh)")
    app = tk_app("turtledemo", module=True)
    return app, tk_client(app.app_id, timeout=15)


def test_turtledemo_controls_are_named_and_an_example_runs_through_the_adapter(turtledemo):
    app, ax = turtledemo
    assert app.app_id == "turtledemo"
    assert ax.query_one("window").label == "Python turtle-graphics examples"
    # The first snapshot may precede turtledemo's widgets (it builds them after Tk() returned): wait for them.
    expect(ax.get_by_role("button", name="CLEAR", exact=True)).to_have_count(1)
    for name in ("START", "STOP", "CLEAR"):  # Tk's padding (" START ") is not part of the name
        button = ax.get_by_role("button", name=name, exact=True)
        assert button.count() == 1, name
        assert button.is_disabled(), name  # nothing to start before an example is loaded
    assert ax.get_by_text("Choose example from menu").count() == 1
    for menu in ("Examples", "Fontsize", "Help"):
        assert ax.get_by_role("button", name=menu, exact=True).count() == 1, menu
    source = ax.locator("textView").first()
    assert not source.value()  # empty until an example is loaded
    # Examples > colormixer, through the menubar as a keyboard user would pick it.
    ax.get_by_role("button", name="Examples", exact=True).click()
    colormixer = ax.get_by_role("button", name="colormixer", exact=True)
    expect(colormixer).to_be_visible()
    colormixer.click()
    expect(ax.locator("window").first()).to_have_label("colormixer - a Python turtle graphics example")
    expect(source).to_have_value(re.compile(r"def main\(\):"))
    start = ax.get_by_role("button", name="START", exact=True)
    expect(start).to_be_enabled()
    expect(ax.get_by_text("Press start button")).to_have_count(1)
    start.click()
    # colormixer sets up its sliders and returns to Tk's event loop ("EVENTLOOP"): STOP is now the way out.
    stop = ax.get_by_role("button", name="STOP", exact=True)
    expect(stop).to_be_enabled(timeout=15)
    expect(ax.get_by_text("use mouse/keys or STOP")).to_have_count(1)
    stop.click()
    expect(ax.get_by_text("STOPPED!")).to_have_count(1)
    expect(start).to_be_enabled()
    assert "Traceback" not in app.stderr_text()
