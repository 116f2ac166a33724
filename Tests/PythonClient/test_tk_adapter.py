"""axclient.tk: an unmodified tkinter app (Tests/PythonClient/tkapps/form_app.py), run by `python3 -m axclient.tk`
under Xvfb, mirrored into the real axserver; the mapping is asserted through the JSON-RPC client
(Specs/tk-adapter.md §Mapping). A second app (tree_app.py) is mirrored at the same time."""
import pytest

from axclient import expect
from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401

pytestmark = [needs_tk, pytest.mark.axserver(demo=False)]


@pytest.fixture
def form(tk_app, tk_client):
    app = tk_app("form_app.py")
    return app, tk_client(app.app_id)


def test_app_named_after_the_script_and_titled(form, ax):
    app, client = form
    assert app.app_id == "form_app"
    window = client.query_one("window")
    assert window.label == "Form App"


def test_classic_widgets_map_to_uikit_roles_and_labels(form):
    _, ax = form
    submit = ax.get_by_id(".submit")
    assert submit.role() == "button" and submit.label() == "Submit"
    assert ax.get_by_id(".off").is_disabled()
    name = ax.get_by_id(".account.name")
    assert name.role() == "textField"
    assert name.label() == "Name"  # grid rule: the Label one column to the left
    assert name.value() == "Ada"
    password = ax.get_by_id(".account.password")
    assert password.role() == "secureTextField" and password.label() == "Password"
    assert ax.get_by_id(".account.digits").label() == "Digits only"  # grid rule: the Label one row above
    news = ax.get_by_role("switch", name="Newsletter")
    assert news.value() == "off"
    red = ax.get_by_id(".account.color_red")
    assert red.role() == "button" and red.is_selected()
    assert ax.get_by_id(".account.color_green").value() == "2 of 3"
    assert ax.get_by_id(".status").label() == "Not submitted"


def test_value_controls(form):
    _, ax = form
    volume = ax.get_by_id(".controls.volume")
    assert volume.role() == "adjustable" and volume.label() == "Volume"  # pack rule: the Label packed before
    assert volume.value() == "0%"
    copies = ax.get_by_id(".controls.copies")
    assert copies.label() == "Copies"
    fruit = ax.get_by_id(".controls.fruit")
    assert fruit.value() == "apple" and fruit.label() == "Fruit"
    assert ax.get_by_id(".controls.progress").value() == "40%"
    assert ax.get_by_role("switch", name="Remember me").value() == "off"
    assert "Vertical scroll bar" == ax.get_by_id(".scroll").label()


def test_lists_tabs_tree_canvas_text_and_menubar(form):
    _, ax = form
    assert ax.get_by_id(".side.cities").label() == "Cities"
    assert ax.query_count('cell[label="Oslo"]') == 1
    general = ax.get_by_role("tab", name="General")
    assert general.is_selected()
    assert not ax.get_by_role("tab", name="Advanced").is_selected()
    assert ax.query_count('*[label="Advanced settings"]') == 0  # the page of the unselected tab is unmapped
    assert ax.query_count('cell[label="b.txt, Size: 2 KB"]') == 1
    assert ax.query_count('header[label="Size"]') == 1  # the column headings
    assert ax.query_count('header[label="Name"]') == 1
    assert ax.query_count('cell[label="docs"]') == 1  # empty values are left out
    assert ax.query_count('cell[label="a.txt, Size: 10 KB"]') == 0  # under the collapsed "docs"
    assert ax.get_by_text("Sales 42").count() == 1  # a Canvas text item
    notes = ax.get_by_id(".notes")
    assert notes.role() == "textView" and notes.value() == "first line\nsecond line"
    assert ax.get_by_role("button", name="File").count() == 1  # the menubar's cascade
    assert ax.get_by_role("button", name="Help").count() == 1
    assert ax.query_count('*[label="Left pane"]') == 1  # PanedWindow children


def test_second_app_at_the_same_time(form, tk_app, tk_client):
    other = tk_app("tree_app.py", args=["50"])
    ax2 = tk_client(other.app_id)
    assert ax2.query_count("cell") >= 10
    assert form[1].get_by_id(".submit").count() == 1
    assert ax2.get_by_id(".submit").count() == 0


def test_ttk_widgets(form):
    _, ax = form
    assert ax.get_by_id(".themed").role() == "group" and ax.get_by_id(".themed").label() == "Themed"
    assert ax.get_by_id(".account").label() == "Account"  # a classic LabelFrame: a labelled group
    city = ax.get_by_id(".themed.city")
    assert city.role() == "textField" and city.label() == "City"
    level = ax.get_by_id(".themed.level")
    assert level.role() == "adjustable" and level.label() == "Level" and level.value() == "3"
    zoom = ax.get_by_id(".themed.zoom")
    assert zoom.role() == "adjustable" and zoom.label() == "Zoom" and zoom.value() == "50%"
    assert ax.get_by_id(".themed.fast").is_selected() and ax.get_by_id(".themed.safe").value() == "2 of 2"
    assert ax.get_by_id(".themed.apply").role() == "button"
