"""axclient.tk's customtkinter adapters: an unmodified customtkinter app (its controls are Frames holding Canvas
drawings and inner Labels/Entries) maps to one element per control, driven through the controls' own methods."""
import pytest

from axclient import expect
from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401

customtkinter = pytest.importorskip("customtkinter", reason="needs customtkinter (Tools/requirements-test.txt)")

pytestmark = [needs_tk, pytest.mark.axserver(demo=False)]


def test_customtkinter_controls(tk_app, tk_client):
    app = tk_app("ctk_app.py")
    ax = tk_client(app.app_id)
    save = ax.get_by_role("button", name="Save")
    assert save.element().identifier is None  # tkinter's generated path (.!ctkbutton) is no identifier
    assert save.element().id == ".!ctkbutton"
    assert ax.query_count('*[label="Save"]') == 1  # the inner Label is not a second element
    email = ax.get_by_role("textField", name="Email")
    assert not email.value()  # the placeholder is not the text
    assert ax.get_by_role("switch", name="Subscribe").value() == "off"
    assert ax.get_by_role("switch", name="Dark mode").value() == "off"
    volume = ax.get_by_role("adjustable", name="Volume")
    assert volume.role() == "adjustable" and volume.label() == "Volume"
    assert ax.locator("progressIndicator").value() == "25%"
    size = ax.get_by_role("button", name="Size")  # the Label packed before it; the choice is the value
    assert size.value() == "Small"

    save.click()
    assert ax.get_by_id(".!ctklabel").label() == "Saved"  # the first CTkLabel (customtkinter takes no names)
    ax.get_by_role("switch", name="Subscribe").click()
    app.wait_line("event: subscribe")
    assert ax.get_by_role("switch", name="Subscribe").value() == "on"
    email.type_text("ada@example.org")
    expect(email).to_have_value("ada@example.org")
    volume.increment()
    app.wait_line("event: volume 55")  # from the middle, one 1/20 step
    size.click()  # the next choice
    app.wait_line("event: size Large")
    expect(size).to_have_value("Large")
