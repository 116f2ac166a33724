"""Script queries (Specs/protocol.md §Script queries; D-HIT-1, D-QUERY-1, D-QUERY-2) from the Python client,
against a Python provider app (not the demo): element at a point, a data table's cell, the VoiceOver swipe."""
import pytest

import axclient
from axclient import view

pytestmark = pytest.mark.axserver(demo=False, fresh=True)


def windows():
    cells = [
        view("hName", "UILabel", [0, 0, 200, 30], text="Name", accessibilityRowRange=[0, 1],
             accessibilityColumnRange=[0, 1]),
        view("hScore", "UILabel", [200, 0, 200, 30], text="Score", accessibilityRowRange=[0, 1],
             accessibilityColumnRange=[1, 1]),
        view("ada", "UILabel", [0, 30, 200, 30], text="Ada", accessibilityRowRange=[1, 1],
             accessibilityColumnRange=[0, 1]),
        view("score", "UILabel", [200, 30, 200, 30], text="97", accessibilityRowRange=[1, 1],
             accessibilityColumnRange=[1, 1]),
    ]
    return [view("win", "UIWindow", [0, 0, 400, 800], isKeyWindow=True, windowTitle="Scores", children=[
        view("pay", "UIButton", [10, 400, 100, 44], title="Pay"),
        view("cover", "UIView", [0, 390, 400, 70]),
        view("grid", "ScoreGrid", [0, 100, 400, 60], accessibilityContainerType="dataTable",
             accessibilityDataTable={"rows": 2, "columns": 2}, children=cells),
        view("done", "UIButton", [10, 600, 100, 44], title="Done"),
    ])]


def test_element_at_point_follows_what_is_in_front(ax, ax_provider):
    ax_provider("py-scores", windows())
    assert ax.element_at(30, 140).id == "ada"
    assert ax.element_at(60, 620).label == "Done"
    assert ax.element_at(60, 420) is None  # the cover hides Pay
    assert ax.element(ax.get_by_label("Pay").selector)["hittable"] is False
    with pytest.raises(axclient.InvalidParams):
        ax.element_at(900, 20)


def test_cell_and_row_selector(ax, ax_provider):
    ax_provider("py-scores", windows())
    assert ax.cell("#grid", 1, 1).label == "97"
    assert [e.id for e in ax.query_all("*[row=1]")] == ["ada", "score"]
    with pytest.raises(axclient.InvalidParams):
        ax.cell("#grid", 2, 0)
    with pytest.raises(axclient.InvalidParams):
        ax.cell({"id": "done"}, 0, 0)


def test_large_content_of_a_bar_item(ax, ax_provider):
    tabs = view("tabs", "UITabBar", [0, 750, 400, 50], children=[
        view("tabHome", "UITabBarButton", [0, 0, 200, 50], title="Home", largeContentImage="house"),
    ])
    ax_provider("py-tabs", [view("win", "UIWindow", [0, 0, 400, 800], isKeyWindow=True, children=[
        tabs, view("ok", "UIButton", [10, 100, 100, 44], title="OK")])])
    large = ax.large_content("#tabHome")
    assert (large["title"], large["image"], large["scalesImage"]) == ("Home", "house", False)
    with pytest.raises(axclient.InvalidParams):
        ax.large_content({"id": "ok"})


def test_swipe_next_and_previous(ax, ax_provider):
    ax_provider("py-scores", windows())
    first = ax.next_element()
    assert first.id == "hName"
    assert ax.next_element("#hName").id == "hScore"
    assert ax.previous_element("#hName") is None
    last = ax.previous_element()
    assert last.id == "done"
    assert ax.next_element(last) is None
    moved = ax.next_element({"id": "score"}, move_focus=True)
    assert ax.focused().id == moved.id


def test_zoom_on_a_supports_zoom_element(ax, ax_provider):
    """D-ZOOM-1: zoom_in / zoom_out reach the app with the centre in the element's coordinate space; an element
    without supportsZoom refuses (ActionNotSupported), and the app is not asked."""
    received = []

    def perform(request):
        received.append((request.action, request.target, request.value))
        return True

    ax_provider("py-map", [view("win", "UIWindow", [0, 0, 400, 800], isKeyWindow=True, children=[
        view("map", "MapView", [0, 100, 400, 300], isAccessibilityElement=True, accessibilityLabel="Map",
             accessibilityTraits=["supportsZoom"]),
        view("ok", "UIButton", [10, 500, 100, 44], title="OK")])], on_action=perform)
    assert ax.get_by_label("Map").zoom_in()["performed"] is True
    assert ax.get_by_label("Map").zoom_out(point={"x": 10, "y": 110})["performed"] is True
    assert received == [("zoomIn", "map", {"x": 200, "y": 150}), ("zoomOut", "map", {"x": 10, "y": 10})]
    with pytest.raises(axclient.RPCError) as refused:
        ax.get_by_label("OK").zoom_in(timeout=1)
    assert refused.value.code == -32014
    assert len(received) == 2


def test_drag_and_drop_named_actions(ax, ax_provider):
    """D-DRAG-1: drag / drop name a descriptor the element lists; the app gets it on the descriptor's view with
    the name and the point in that view's coordinates; an unknown name is refused (ActionNotSupported, naming the
    descriptors) and never reaches the app."""
    received = []

    def perform(request):
        received.append((request.action, request.target, request.value))
        return True

    ax_provider("py-photos", [view("win", "UIWindow", [0, 0, 400, 800], isKeyWindow=True, children=[
        view("photo", "UIView", [20, 100, 100, 80], isAccessibilityElement=True, accessibilityLabel="Sunset",
             accessibilityDragSourceDescriptors=[{"name": "Sunset photo"}]),
        view("album", "UIView", [200, 100, 160, 120], isAccessibilityElement=True, accessibilityLabel="Album",
             accessibilityDropPointDescriptors=[{"name": "Album", "point": [10, 20]}])])], on_action=perform)
    assert ax.get_by_label("Sunset").drag("Sunset photo")["performed"] is True
    assert ax.get_by_label("Album").drop("Album")["performed"] is True
    assert received == [("drag", "photo", {"name": "Sunset photo", "x": 50, "y": 40}),
                        ("drop", "album", {"name": "Album", "x": 10, "y": 20})]
    with pytest.raises(axclient.RPCError) as refused:
        ax.get_by_label("Album").drop("Nowhere", timeout=1)
    assert refused.value.code == -32014
    assert refused.value.data["supported"] == ["drop:Album"]
    assert len(received) == 2


def test_reading_content(ax, ax_provider):
    """D-TEXT-APP-4 (R93): an element's reading content — the line at a point, a line by number, the page text; an
    element without it raises InvalidParams."""
    ax_provider("py-book", [view("win", "UIWindow", [0, 0, 400, 800], isKeyWindow=True, children=[
        view("page", "BookPageView", [0, 100, 400, 600], isAccessibilityElement=True, accessibilityLabel="Page",
             accessibilityReadingContent={"lines": [{"content": "First.", "frame": [20, 20, 360, 24]},
                                                     {"content": "Second.", "frame": [20, 44, 360, 24]}]}),
        view("ok", "UIButton", [10, 720, 100, 44], title="OK")])])
    answer = ax.reading_content({"id": "page"}, point={"x": 30, "y": 150})
    assert answer["lineCount"] == 2 and answer["pageContent"] == "First.\nSecond."
    assert answer["line"]["number"] == 1 and answer["line"]["text"] == "Second."
    assert ax.reading_content("#page", line=0)["line"]["text"] == "First."
    with pytest.raises(axclient.InvalidParams):
        ax.reading_content({"id": "ok"})
