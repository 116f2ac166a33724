"""Relations, app-defined rotors and the screen-reader fixes of issue 10 §3–§5, as a pyatspi client sees them.

A private session bus + AT-SPI bus + registry (harness.A11yStack), `axserver --demo` on it, and a second app pushed
over JSON-RPC (`app.register` + `hierarchy.set`) for the cases the demo lacks. Expected values come from
Sources/AXDemo/DemoApp.swift, the tree below, and Specs/atspi-mapping.md §Relations / §Rotors (decisions D-REL-*,
D-ROTOR-6, D-ROTOR-7); focus is cross-checked through JSON-RPC (`focus.get`), which reads the server's model.
"""
import unittest

from atspi_helpers import AtspiClient, wait_until
from harness import RPC, A11yStack, start_server

DEMO = "axserver-demo"
APP = "relations"

# AtspiRelationType (atspi-constants.h; atspi-bridge.md §3.3).
LABEL_FOR, LABELLED_BY, MEMBER_OF, FLOWS_TO, FLOWS_FROM, DESCRIPTION_FOR, DESCRIBED_BY = 1, 2, 5, 10, 11, 17, 18
NODE_CHILD_OF, NODE_PARENT_OF, CONTROLLER_FOR, CONTROLLED_BY = 7, 8, 3, 4
# AtspiRole numbers.
R_ALERT, R_COLUMN_HEADER, R_FRAME, R_HEADING, R_LABEL, R_ROW_HEADER, R_TEXT, R_TOOL_BAR = 2, 10, 23, 83, 29, 47, 61, 63


def label(vid, y, text, **more):
    v = {"id": vid, "class": "UILabel", "frame": [16, y, 300, 30], "text": text}
    v.update(more)
    return v


# An outline (D-REL-8): (id, name, indentationLevel, accessibilityExpandedStatus).
OUTLINE = [("rowInbox", "Inbox", 0, "expanded"), ("rowWork", "Work", 1, "expanded"), ("rowQ3", "Q3", 2, None),
           ("rowPersonal", "Personal", 1, None), ("rowArchive", "Archive", 0, "collapsed")]


def outline_rows():
    rows = []
    for index, (vid, name, level, status) in enumerate(OUTLINE):
        row = {"id": vid, "class": "UITableViewCell", "frame": [0, index * 44, 390, 44], "indentationLevel": level,
               "children": [label("lbl" + vid, 11, name)]}
        if status:
            row["accessibilityExpandedStatus"] = status
        rows.append(row)
    return rows


def purpose_tree(order=("bottom", "top")):
    """Cases the demo lacks: an explicit order against the geometry, a titled group with a rotor over labels,
    a rotor with no items, a read-only text view, a data table with header cells, a list with one checked cell."""
    cells = [
        {"id": "cellA", "class": "UITableViewCell", "frame": [0, 0, 390, 44], "accessoryType": "checkmark",
         "children": [label("lblA", 11, "Alpha")]},
        {"id": "cellB", "class": "UITableViewCell", "frame": [0, 44, 390, 44], "children": [label("lblB", 11, "Beta")]},
    ]
    grid = [
        label("colName", 0, "Name", accessibilityTraits=["header"], accessibilityRowRange=[0, 1],
              accessibilityColumnRange=[0, 1], frame=[0, 0, 100, 30]),
        label("colSize", 0, "Size", accessibilityTraits=["header"], accessibilityRowRange=[0, 1],
              accessibilityColumnRange=[1, 1], frame=[100, 0, 100, 30]),
        label("rowDisk", 30, "Disk", accessibilityTraits=["header"], accessibilityRowRange=[1, 1],
              accessibilityColumnRange=[0, 1], frame=[0, 30, 100, 30]),
        label("valDisk", 30, "512 GB", accessibilityRowRange=[1, 1], accessibilityColumnRange=[1, 1],
              frame=[100, 30, 100, 30]),
    ]
    return {"windows": [{
        "id": "win", "class": "UIWindow", "frame": [0, 0, 390, 844], "isKeyWindow": True, "windowTitle": "Relations",
        "children": [
            {"id": "form", "class": "UIView", "frame": [0, 0, 390, 140], "accessibilityElements": list(order),
             "children": [label("top", 0, "Top"), label("bottom", 60, "Bottom")]},
            {"id": "shipping", "class": "UIView", "frame": [0, 150, 390, 130], "accessibilityLabel": "Shipping",
             "accessibilityContainerType": "semanticGroup",
             "accessibilityCustomRotors": [{"name": "Errors", "items": ["errZip", "errCity"]},
                                           {"name": "Nothing Here", "items": []}],
             "children": [label("hdrShipping", 0, "Shipping", accessibilityTraits=["header"]),
                          label("errZip", 30, "ZIP code is missing"), label("okStreet", 60, "Street OK"),
                          label("errCity", 90, "City is missing")]},
            {"id": "terms", "class": "UITextView", "frame": [0, 290, 390, 60], "isEditable": False,
             "text": "Terms apply. Read them."},
            {"id": "grid", "class": "UIView", "frame": [0, 360, 390, 60], "accessibilityContainerType": "dataTable",
             "accessibilityDataTable": {"rows": 2, "columns": 2, "columnHeaders": {"0": ["colName"], "1": ["colSize"]},
                                        "rowHeaders": {"1": ["rowDisk"]}},
             "children": grid},
            {"id": "list", "class": "UITableView", "frame": [0, 430, 390, 88], "children": cells},
            {"id": "plain", "class": "UITableView", "frame": [0, 530, 390, 44],
             "children": [{"id": "cellC", "class": "UITableViewCell", "frame": [0, 0, 390, 44],
                           "children": [label("lblC", 11, "Gamma")]}]},
            {"id": "folders", "class": "UITableView", "frame": [0, 580, 390, 220], "accessibilityLabel": "Folders",
             "children": outline_rows()},
            {"id": "tour", "class": "UIView", "frame": [0, 805, 390, 39], "accessibilityLabel": "Tour",
             "accessibilityContainerType": "semanticGroup",
             "children": [
                 {"id": "tourPages", "class": "UICollectionView", "frame": [0, 805, 300, 39], "isPagingEnabled": True,
                  "accessibilityLabel": "Tour Pages",
                  "children": [{"id": "tourPage1", "class": "UICollectionViewCell", "frame": [0, 805, 300, 39],
                                "accessibilityLabel": "Welcome"}]},
                 {"id": "tourDots", "class": "UIPageControl", "frame": [300, 805, 90, 39], "numberOfPages": 3,
                  "accessibilityLabel": "Tour Position"}]},
        ]}]}


class RelationsAndRotors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stack = A11yStack()
        cls.server = cls.client = cls.provider = None
        try:
            cls.server, cls.sock, cls.tmp = start_server("--demo", env=cls.stack.env, atspi=True)
            if "atspi=off" in cls.server.lines[-1]:
                raise AssertionError("the server did not register on the AT-SPI bus: " + cls.server.lines[-1])
            cls.provider = RPC(cls.sock)
            cls.provider.result("initialize", {"role": "provider"})
            cls.provider.result("app.register", {"name": APP})
            cls.provider.result("hierarchy.set", purpose_tree())
            cls.client = AtspiClient(cls.stack.env)
        except BaseException:
            cls._cleanup()
            raise

    @classmethod
    def _cleanup(cls):
        if cls.client:
            cls.client.close()
        if cls.provider:
            cls.provider.close()
        if cls.server:
            cls.server.stop()
        cls.stack.stop()

    @classmethod
    def tearDownClass(cls):
        cls._cleanup()

    def rpc(self):
        c = RPC(self.sock)
        c.result("initialize", {"role": "automation", "clientInfo": {"name": "test_relations"}})
        return c

    def relations(self, app, **where):
        return {r["type"]: r["targets"] for r in self.client.call("relations", app=app, where=where)}

    def target_names(self, app, rtype, **where):
        rels = self.relations(app, **where)
        self.assertIn(rtype, rels, "%r has no relation %d; has %s" % (where, rtype, rels))
        return [t["name"] for t in rels[rtype]]

    def focus(self, app):
        c = self.rpc()
        try:
            return c.result("focus.get", {"app": app}).get("element", {}) or {}
        finally:
            c.close()

    # -- relations on the demo -------------------------------------------------------------------------------

    def test_navigation_bar_labelled_by_its_title_and_title_flows_first(self):
        # D-REL-1: the bar's label is its title heading; D-REL-4: R13 puts the title before the back button.
        # The bar itself has no name (UIKit's bar has no label): Orca takes it from LABELLED_BY.
        self.assertEqual(self.target_names(DEMO, LABELLED_BY, role_num=R_TOOL_BAR), ["Accessibility"])
        label_for = self.relations(DEMO, name="Accessibility", role_num=R_HEADING)[LABEL_FOR]
        self.assertEqual([t["role_num"] for t in label_for], [R_TOOL_BAR])
        self.assertEqual(self.target_names(DEMO, FLOWS_TO, name="Accessibility", role_num=R_HEADING), ["General"])
        self.assertEqual(self.target_names(DEMO, FLOWS_FROM, name="General"), ["Accessibility"])
        self.assertEqual(self.target_names(DEMO, FLOWS_TO, name="General"), ["Edit"])

    def test_segments_and_tabs_are_members_of_their_set(self):
        # Last member first, as GTK emits a radio group: Orca 43 counts positions from the end (D-SELECT-3).
        self.assertEqual(self.target_names(DEMO, MEMBER_OF, name="Dark"), ["Automatic", "Dark", "Light"])
        self.assertEqual(self.target_names(DEMO, MEMBER_OF, name="Home"), ["Profile", "Settings", "Home"])
        self.assertEqual(self.relations(DEMO, name="Help"), {}, "a plain link in geometric order has no relations")

    def test_alert_described_by_its_message(self):
        self.addCleanup(self._dismiss_alert)
        self.assertTrue(self.client.call("action", app=DEMO, where={"name": "Reset All Settings"}, action_name="click"))
        wait_until(lambda: self._has(DEMO, role_num=R_ALERT), timeout=5)
        self.assertEqual(self.target_names(DEMO, DESCRIBED_BY, role_num=R_ALERT), ["This cannot be undone."])
        self.assertEqual(self.target_names(DEMO, DESCRIPTION_FOR, name="This cannot be undone."),
                         ["Reset All Settings?"])

    def test_dismiss_from_inside_the_alert(self):
        self.addCleanup(self._dismiss_alert)
        self.assertTrue(self.client.call("action", app=DEMO, where={"name": "Reset All Settings"}, action_name="click"))
        wait_until(lambda: self._has(DEMO, role_num=R_ALERT), timeout=5)
        # Escape over AT-SPI (X32): Orca lists (Shift+A) and performs the actions of the focused object, which is a
        # button inside the alert — so every element inside a modal container carries `dismiss`, routed as escape
        # from that element, bubbling up to the alert.
        node = self.client.call("node", app=DEMO, where={"name": "Cancel"})
        dismiss = [a for a in node["actions"] if a["name"] == "dismiss"]
        self.assertEqual(len(dismiss), 1, node["actions"])
        self.assertEqual(dismiss[0]["localized"], "Dismiss")
        self.assertEqual(dismiss[0]["keybinding"], ";;Escape")
        self.assertTrue(self.client.call("action", app=DEMO, where={"name": "Cancel"}, action_name="dismiss"))
        self.assertTrue(wait_until(lambda: not self._has(DEMO, role_num=R_ALERT), timeout=5), "the alert stayed")
        self.assertEqual(self.client.call("node", app=DEMO, where={"name": "Edit"})["actions"][-1]["name"], "click",
                         "outside a modal container there is nothing to dismiss")

    def _dismiss_alert(self):
        """Leaves the demo without its alert (a failing test must not hide the alert's siblings from the others)."""
        c = self.rpc()
        try:
            if self._has(DEMO, role_num=R_ALERT):
                c.call("action.escape", {"app": DEMO, "target": {"id": "alert"}})
                wait_until(lambda: not self._has(DEMO, role_num=R_ALERT), timeout=5)
        finally:
            c.close()

    def _has(self, app, **where):
        try:
            self.client.call("node", app=app, where=where)
            return True
        except AssertionError:
            return False

    # -- relations on the pushed tree, and their events -----------------------------------------------------

    def test_group_titled_by_heading_and_explicit_order_flows(self):
        self.assertEqual(self.target_names(APP, LABELLED_BY, name="Shipping", role_num=39), ["Shipping"])
        self.assertEqual(self.target_names(APP, FLOWS_TO, name="Bottom"), ["Top"])
        self.assertEqual(self.target_names(APP, FLOWS_FROM, name="Top"), ["Bottom"])

    def test_relation_change_event_and_stale_targets(self):
        self.client.call("listen", types=["object:property-change"])
        self.client.call("collect", seconds=0.3)
        self.provider.result("hierarchy.update", {"ops": [
            {"op": "set", "id": "form", "properties": {"accessibilityElements": ["top", "bottom"]}}]})
        events = self.client.call("collect", seconds=3, until_type="object:property-change:accessible-relation")
        sources = sorted(e["source_name"] for e in events
                         if e["type"] == "object:property-change:accessible-relation")
        self.assertEqual(sources, ["Bottom", "Top"], events)
        self.assertEqual(self.relations(APP, name="Top"), {}, "geometric order again: no flow relations")
        # Restore, then remove a flow target: the survivor's set drops it (D-REL-6), the bridge keeps serving.
        self.provider.result("hierarchy.update", {"ops": [
            {"op": "set", "id": "form", "properties": {"accessibilityElements": ["bottom", "top"]}}]})
        self.provider.result("hierarchy.update", {"ops": [{"op": "remove", "id": "top"}]})
        wait_until(lambda: not self._has(APP, name="Top"), timeout=5)
        self.assertEqual(self.relations(APP, name="Bottom"), {})
        self.provider.result("hierarchy.set", purpose_tree())
        wait_until(lambda: self._has(APP, name="Top"), timeout=5)

    # -- outline rows (D-REL-8) ------------------------------------------------------------------------------

    def node_level(self, name):
        """Orca's getNodeLevel: the number of NODE_CHILD_OF hops above the row, minus one (0 = top level)."""
        hops = 0
        where = {"name": name}
        while True:
            parents = self.relations(APP, **where).get(NODE_CHILD_OF)
            if not parents:
                return hops - 1
            hops += 1
            self.assertLess(hops, 10, "NODE_CHILD_OF cycle above %r" % name)
            where = {"name": parents[0]["name"], "role_num": parents[0]["role_num"]}

    def test_outline_rows_are_node_children_of_their_parent_row(self):
        self.assertEqual(self.target_names(APP, NODE_CHILD_OF, name="Inbox"), ["Folders"], "top level: the list")
        self.assertEqual(self.target_names(APP, NODE_CHILD_OF, name="Work"), ["Inbox"])
        self.assertEqual(self.target_names(APP, NODE_CHILD_OF, name="Q3"), ["Work"])
        self.assertEqual(self.target_names(APP, NODE_CHILD_OF, name="Personal"), ["Inbox"])
        self.assertEqual(self.target_names(APP, NODE_CHILD_OF, name="Archive"), ["Folders"])
        self.assertEqual(self.target_names(APP, NODE_PARENT_OF, name="Inbox"), ["Work", "Personal"])
        self.assertEqual(self.target_names(APP, NODE_PARENT_OF, name="Folders"), ["Inbox", "Archive"])
        self.assertNotIn(NODE_PARENT_OF, self.relations(APP, name="Q3"), "a leaf row")
        self.assertEqual([self.node_level(n) for n in ("Inbox", "Work", "Q3", "Personal", "Archive")], [0, 1, 2, 1, 0])
        self.assertNotIn(NODE_CHILD_OF, self.relations(APP, name="Gamma"), "a flat list is no outline")
        inbox = self.client.call("states", app=APP, where={"name": "Inbox"})
        archive = self.client.call("states", app=APP, where={"name": "Archive"})
        self.assertTrue({"expandable", "expanded"} <= set(inbox), inbox)
        self.assertIn("expandable", archive)
        self.assertNotIn("expanded", archive)

    def test_indentation_change_emits_relation_change(self):
        self.client.call("listen", types=["object:property-change"])
        self.client.call("collect", seconds=0.3)
        try:
            self.provider.result("hierarchy.update", {"ops": [
                {"op": "set", "id": "rowPersonal", "properties": {"indentationLevel": 2}}]})
            events = self.client.call("collect", seconds=3, until_type="object:property-change:accessible-relation")
            events += self.client.call("collect", seconds=0.5)
            sources = sorted(e["source_name"] for e in events
                             if e["type"] == "object:property-change:accessible-relation")
            self.assertEqual(sources, ["Inbox", "Personal", "Work"], events)
            self.assertEqual(self.target_names(APP, NODE_CHILD_OF, name="Personal"), ["Work"])
            self.assertEqual(self.target_names(APP, NODE_PARENT_OF, name="Work"), ["Q3", "Personal"])
        finally:
            self.provider.result("hierarchy.update", {"ops": [
                {"op": "set", "id": "rowPersonal", "properties": {"indentationLevel": 1}}]})

    # -- page control and the paging view it controls (D-REL-7) -------------------------------------------------

    def test_page_control_controls_the_paging_view_beside_it(self):
        self.assertEqual(self.target_names(APP, CONTROLLER_FOR, name="Tour Position"), ["Tour Pages"])
        self.assertEqual(self.target_names(APP, CONTROLLED_BY, name="Tour Pages"), ["Tour Position"])
        self.client.call("listen", types=["object:property-change"])
        self.client.call("collect", seconds=0.3)
        try:
            self.provider.result("hierarchy.update", {"ops": [
                {"op": "set", "id": "tourPages", "properties": {"isPagingEnabled": False}}]})
            events = self.client.call("collect", seconds=3, until_type="object:property-change:accessible-relation")
            events += self.client.call("collect", seconds=0.5)
            sources = sorted(e["source_name"] for e in events
                             if e["type"] == "object:property-change:accessible-relation")
            self.assertEqual(sources, ["Tour Pages", "Tour Position"], events)
            self.assertNotIn(CONTROLLER_FOR, self.relations(APP, name="Tour Position"), "no paging view: no control")
        finally:
            self.provider.result("hierarchy.update", {"ops": [
                {"op": "set", "id": "tourPages", "properties": {"isPagingEnabled": True}}]})

    # -- rotors -------------------------------------------------------------------------------------------------

    def test_rotor_membership_found_with_one_get_matches(self):
        hits = self.client.call("collection", app=DEMO, attrs={"rotor-toggles": "true"})
        self.assertEqual([h["name"] for h in hits], ["Wi-Fi", "Bluetooth"])
        hits = self.client.call("collection", app=APP, attrs={"rotor-errors": "true"})
        self.assertEqual([h["name"] for h in hits], ["ZIP code is missing", "City is missing"])
        node = self.client.call("node", app=APP, where={"name": "City is missing"})
        self.assertEqual(node["attrs"].get("rotors"), "Errors")

    def test_next_rotor_action_moves_focus_along_the_rotor(self):
        node = self.client.call("node", app=DEMO, where={"role_num": 31})   # the settings table (a list)
        names = [a["name"] for a in node["actions"]]
        self.assertIn("next-toggles", names)
        self.assertIn("previous-toggles", names)
        self.assertIn("Next Toggles", [a["localized"] for a in node["actions"]])
        c = self.rpc()
        c.result("focus.set", {"app": DEMO, "target": {"id": "editButton"}})
        c.close()
        self.assertTrue(self.client.call("action", app=DEMO, where={"role_num": 31}, action_name="next-toggles"))
        self.assertEqual(self.focus(DEMO).get("id"), "cellWifi")
        self.assertTrue(self.client.call("action", app=DEMO, where={"role_num": 31}, action_name="next-toggles"))
        self.assertEqual(self.focus(DEMO).get("id"), "cellBluetooth")
        self.assertFalse(self.client.call("action", app=DEMO, where={"role_num": 31}, action_name="next-toggles"),
                         "past the end: false, focus stays")
        self.assertEqual(self.focus(DEMO).get("id"), "cellBluetooth")
        self.assertTrue(self.client.call("action", app=DEMO, where={"role_num": 31}, action_name="previous-toggles"))
        self.assertEqual(self.focus(DEMO).get("id"), "cellWifi")

    def test_rotor_action_announces_a_non_focusable_target_and_empty_rotor_is_false(self):
        self.client.call("listen", types=["object:announcement"])
        self.client.call("collect", seconds=0.3)
        self.assertTrue(self.client.call("action", app=APP, where={"name": "Shipping", "role_num": 39},
                                         action_name="next-errors"))
        events = self.client.call("collect", seconds=3, until_type="object:announcement")
        said = [e["any_data"] for e in events if e["type"] == "object:announcement"]
        self.assertIn("ZIP code is missing", said, events)
        self.assertEqual(self.focus(APP).get("id"), "errZip")
        self.assertFalse(self.client.call("action", app=APP, where={"name": "Shipping", "role_num": 39},
                                          action_name="next-nothing-here"))
        self.assertEqual(self.focus(APP).get("id"), "errZip", "an empty rotor moves nothing")
        self.assertEqual(self.client.call("node", app=APP, where={"name": "Shipping", "role_num": 39})["name"],
                         "Shipping", "the bridge keeps serving")

    # -- screen-reader fixes ------------------------------------------------------------------------------------

    def test_read_only_text_view_is_text_with_content(self):
        node = self.client.call("node", app=APP, where={"role_num": R_TEXT})
        self.assertEqual(node["text"], "Terms apply. Read them.")
        self.assertIn("read-only", node["states"])
        self.assertNotIn("editable", node["states"])
        self.assertNotIn("EditableText", node["ifaces"])

    def test_cells_selectable_only_where_the_list_shows_selection(self):
        alpha = self.client.call("node", app=APP, where={"name": "Alpha"})
        beta = self.client.call("node", app=APP, where={"name": "Beta"})
        gamma = self.client.call("node", app=APP, where={"name": "Gamma"})
        self.assertIn("selected", alpha["states"])
        self.assertIn("selectable", beta["states"], "a list with a selected cell: its cells are selectable")
        self.assertNotIn("selectable", gamma["states"], "nothing selected in its list: no 'not selected'")

    def test_header_cells_are_column_and_row_headers(self):
        self.assertEqual(self.client.call("node", app=APP, where={"name": "Name"})["role_num"], R_COLUMN_HEADER)
        self.assertEqual(self.client.call("node", app=APP, where={"name": "Size"})["role_num"], R_COLUMN_HEADER)
        self.assertEqual(self.client.call("node", app=APP, where={"name": "Disk"})["role_num"], R_ROW_HEADER)
        self.assertEqual(self.client.call("node", app=DEMO, where={"name": "Connectivity"})["role_num"], R_HEADING,
                         "a header outside a data table stays a heading")

    def test_layout_changed_without_element_emits_children_changed_on_the_window(self):
        self.client.call("listen", types=["object:children-changed"])
        self.client.call("collect", seconds=0.3)
        self.provider.result("accessibility.post", {"notification": "layoutChanged", "argument": None})
        events = self.client.call("collect", seconds=3, until_type="object:children-changed")
        hits = [e for e in events if e["type"].startswith("object:children-changed") and e["source_name"] == "Relations"]
        self.assertTrue(hits, events)


if __name__ == "__main__":
    unittest.main()
