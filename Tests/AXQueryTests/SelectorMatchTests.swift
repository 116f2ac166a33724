import AXCore
import AXJSON
import AXQuery
import XCTest

/// Selector → expected node ids over the hand-built login hierarchy (Fixtures.login). Every expected list was
/// written by hand from the hierarchy and UIKit's rules (document order: w, nav, back, form, hdr, lblUser, user,
/// lblPass, pass, remember, submit, cancel, results, c0, c1, c2, c3, volume, footer, help, banner, dismiss).
final class SelectorMatchTests: XCTestCase {
    static let table: [(String, [String])] = [
        // roles and aliases
        ("button", ["back", "submit", "cancel", "dismiss"]),
        ("Button", ["back", "submit", "cancel", "dismiss"]),
        ("XCUIElementTypeButton", ["back", "submit", "cancel", "dismiss"]),
        ("heading", ["hdr"]),
        ("header", ["hdr"]),
        ("text", ["lblUser", "lblPass", "footer"]),
        ("toggle", ["remember"]),
        ("textfield", ["user"]),
        ("securetextfield", ["pass"]),
        ("slider", ["volume"]),
        ("link", ["help"]),
        ("window", ["w", "banner"]),
        (
            "*",
            [
                "w", "nav", "back", "form", "hdr", "lblUser", "user", "lblPass", "pass", "remember", "submit", "cancel",
                "results", "c0", "c1", "c2", "c3", "volume", "footer", "help", "banner", "dismiss",
            ]
        ),
        // identifiers
        ("#submit", ["submit", "dismiss"]),
        ("button#submit", ["submit", "dismiss"]),
        ("#\"login.password\"", ["pass"]),
        ("#login\\.password", ["pass"]),
        ("[id=\"login.password\"]", ["pass"]),
        ("[id^=\"login.\"]", ["user", "pass"]),
        ("#nothing", []),
        ("[axid=c2]", ["c2"]),
        ("[axid=c2][label=Beta]", []),
        // string attributes
        ("button[label=\"Submit\"]", ["submit"]),
        ("button[label=\"submit\"]", []),
        ("button[label=\"submit\" i]", ["submit"]),
        ("button[label='SUBMIT' s]", []),
        ("button[label*=\"ss\"]", ["dismiss"]),
        ("[label^=\"Pass\"]", ["lblPass", "pass"]),
        ("[label$=\"me\"]", ["lblUser", "user", "remember", "volume"]),  // "Volume" ends in "me" too
        ("[label~=/^(Alpha|Beta)$/]", ["c0", "c1"]),
        ("[label~=/alpha/i]", ["c0", "c3"]),
        ("[label~=\"^al\" i]", ["c0", "c3"]),
        ("[label=/^Gam/]", ["c2"]),
        ("button[label!=\"Submit\"]", ["back", "cancel", "dismiss"]),
        ("[label=\"Version 1.0 beta\"]", ["footer"]),
        ("[label=\"  Version   1.0 beta\"]", ["footer"]),
        ("#footer[text=\"Version 1.0 beta\"]", ["footer"]),
        ("[label~=/^  Version/]", ["footer"]),
        (
            "[label]",
            [
                "back", "hdr", "lblUser", "user", "lblPass", "pass", "remember", "submit", "cancel", "c0", "c1", "c2",
                "c3",
                "volume", "footer", "help", "dismiss",
            ]
        ),
        ("[label=\"\"]", ["w", "nav", "form", "results", "banner"]),
        ("[placeholder=\"Email\"]", ["user"]),
        ("[value=\"25%\"]", ["volume"]),
        ("[value=on]", ["remember"]),
        ("[value*=25]", ["volume"]),
        ("[value~=25]", ["volume"]),
        ("[value^=2]", ["volume"]),
        ("[class=UISwitch]", ["remember"]),
        ("[class^=UITable]", ["results", "c0", "c1", "c2", "c3"]),
        ("[lang=en-GB]", ["footer"]),
        ("[role=heading]", ["hdr"]),
        ("[role!=cell][class^=UITable]", ["results"]),
        ("[window=banner]", ["banner", "dismiss"]),
        // numbers
        ("[headingLevel=1]", ["hdr"]),
        ("[headingLevel]", ["hdr"]),
        ("slider[value>=0.2]", ["volume"]),
        ("slider[value>0.3]", []),
        ("[depth=0]", ["w", "banner"]),
        ("[index=0]", ["w", "nav", "back", "hdr", "c0", "dismiss"]),
        ("[x<20][y>700]", ["c3", "volume", "footer"]),
        ("[width>=300]", ["w", "nav", "form", "hdr", "results", "c0", "c1", "c2", "c3", "footer", "banner"]),
        ("[height=44]:element", ["submit", "cancel", "c0", "c1", "c2", "c3"]),
        // traits, actions, states
        (":trait(button)", ["back", "remember", "submit", "cancel", "dismiss"]),
        (":trait(button, toggleButton)", ["remember"]),
        ("[traits&=button,toggleButton]", ["remember"]),
        ("[traits=button]", ["back", "submit", "dismiss"]),
        ("[traits&=link]", ["help"]),
        ("[traits*=Enab]", ["cancel"]),
        (":action(Delete)", ["c1"]),
        (":action(del)", ["c1"]),
        (":action(increment)", ["volume"]),
        ("[actions&=setValue]", ["user", "pass", "volume"]),
        ("[actions*=elet]", ["c1"]),
        (":disabled", ["cancel"]),
        ("button:enabled", ["back", "submit", "dismiss"]),
        ("cell:visible", ["c0", "c1", "c2"]),
        ("cell:onscreen", ["c0", "c1", "c2"]),
        ("cell:offscreen", ["c3"]),
        ("cell:hidden", ["c3"]),
        (":checked", ["remember"]),
        (":editable", ["user", "pass"]),
        (":state(secure)", ["pass"]),
        (":state(activeWindow)", ["w"]),
        (":modal", []),
        (":container", ["w", "nav", "form", "results", "banner"]),
        (":not(:element)", ["w", "nav", "form", "results", "banner"]),
        (":focusable:not(cell)", ["back", "user", "pass", "remember", "submit", "volume", "help", "dismiss"]),
        (":text(alpha)", ["c0", "c3"]),
        (":text(\"VERSION 1.0  beta\")", ["footer"]),
        (":text(/^Us/)", ["lblUser", "user"]),
        // combinators
        ("#form > button", ["submit", "cancel"]),
        ("group button", ["submit", "cancel"]),
        ("group > *", ["hdr", "lblUser", "user", "lblPass", "pass", "remember", "submit", "cancel"]),
        ("text + textfield", ["user"]),
        ("text + *", ["user", "pass", "help"]),
        ("header ~ button", ["submit", "cancel"]),
        ("window > * > button", ["back", "submit", "cancel"]),
        ("window button", ["back", "submit", "cancel", "dismiss"]),
        ("list > cell + cell ~ cell", ["c2", "c3"]),
        // positional
        ("list > cell:first", ["c0"]),
        ("cell:last", ["c3"]),
        ("cell:nth(1)", ["c1"]),
        ("cell:nth(-2)", ["c2"]),
        ("cell:nth-last(0)", ["c3"]),
        ("cell:nth(9)", []),
        ("cell:visible:last", ["c2"]),
        ("cell:last:visible", ["c2"]),
        ("button:nth(0)", ["back"]),
        ("button:nth(-1)", ["dismiss"]),
        ("window button:first", ["back"]),
        ("window >> button:first", ["back", "dismiss"]),
        ("#results >> cell:first", ["c0"]),
        ("group > button:last", ["cancel"]),
        ("#form >> button:last", ["cancel"]),
        ("cell:first:last", ["c0"]),
        // :has / :not / :is
        ("*:has(> button[label=\"Back\"])", ["nav"]),
        (":has(> button)", ["nav", "form", "banner"]),
        ("group:has(switch:checked)", ["form"]),
        ("cell:has(text)", []),
        ("window:has(cell)", ["w"]),
        (":has(+ button)", ["remember", "submit"]),
        (":has(~ link)", ["nav", "form", "results", "volume", "footer"]),
        (":has(> cell:nth(3))", ["results"]),
        (":has(> cell:nth(4))", []),
        ("window:has(button:visible:last)", ["w", "banner"]),
        ("button:not(#submit)", ["back", "cancel"]),
        ("button:not(:enabled)", ["cancel"]),
        (":is(link, switch)", ["remember", "help"]),
        ("button:is(group > *)", ["submit", "cancel"]),
        ("button:not(group > *)", ["back", "dismiss"]),
        ("button:is(button:last)", ["dismiss"]),
        ("cell:not(cell:first, cell:last)", ["c1", "c2"]),
        // unions
        ("#help, #remember, link", ["remember", "help"]),
        ("cell:first, cell:last", ["c0", "c3"]),
        ("  button  >  *  ,  heading ", ["hdr"]),
    ]

    func testTable() throws {
        let store = try Fixtures.store(Fixtures.login())
        let ctx = QueryContext(tree: store.tree, views: store.views, focusedID: "user")
        for (text, expected) in Self.table {
            let sel: Selector
            do { sel = try Selector(parsing: text) } catch {
                XCTFail("\(text): \(error.message)")
                continue
            }
            XCTAssertEqual(try QueryEngine.find(sel, in: ctx), expected, text)
            XCTAssertEqual(try QueryEngine.count(sel, in: ctx), expected.count, text)
            // The canonical form and the JSON form select the same nodes.
            let again = try Selector(parsing: sel.canonical)
            XCTAssertEqual(try QueryEngine.find(again, in: ctx), expected, "canonical \(sel.canonical)")
            let fromJSON = try Selector(json: sel.json)
            XCTAssertEqual(try QueryEngine.find(fromJSON, in: ctx), expected, "json of \(text)")
            for id in ["submit", "c3", "hdr"] {
                XCTAssertEqual(
                    try QueryEngine.matches(sel, id: id, in: ctx), expected.contains(id), "matches(\(id)) for \(text)")
            }
        }
    }

    func testFocusedAndHittable() throws {
        let store = try Fixtures.store(Fixtures.login())
        let ctx = QueryContext(tree: store.tree, views: store.views, focusedID: "user")
        func find(_ s: String) throws -> [String] { try QueryEngine.find(try Selector(parsing: s), in: ctx) }
        XCTAssertEqual(try find(":focused"), ["user"])
        XCTAssertEqual(try find(":focused"), try find("textfield:focused"))
        XCTAssertEqual(try QueryEngine.find(try Selector(parsing: ":focused"), in: QueryContext(tree: store.tree)), [])
        // The banner window (front, y 0…100) covers the back button; labels let touches through to their parent.
        XCTAssertEqual(try find("#\"nav.back\""), ["back"])
        XCTAssertEqual(try find("#\"nav.back\":hittable"), [])
        XCTAssertEqual(try find("#submit:hittable"), ["submit", "dismiss"])
        XCTAssertEqual(try find("cell:hittable"), ["c0", "c1", "c2"])
        XCTAssertEqual(try find("text:hittable"), [])
        XCTAssertEqual(
            try find("textfield:hittable, securetextfield:hittable, slider:hittable"), ["user", "pass", "volume"])
    }

    func testRootAndLimit() throws {
        let store = try Fixtures.store(Fixtures.login())
        let ctx = QueryContext(tree: store.tree, views: store.views)
        let button = try Selector(parsing: "button")
        XCTAssertEqual(try QueryEngine.find(button, in: ctx, root: "form"), ["submit", "cancel"])
        XCTAssertEqual(try QueryEngine.find(button, in: ctx, root: "banner"), ["dismiss"])
        XCTAssertEqual(try QueryEngine.find(button, in: ctx, root: "nope"), [])
        XCTAssertEqual(
            try QueryEngine.find(try Selector(parsing: "group"), in: ctx, root: "form"), [],
            "the root itself never matches")
        XCTAssertEqual(try QueryEngine.find(try Selector(parsing: "button:first"), in: ctx, root: "form"), ["submit"])
        XCTAssertEqual(try QueryEngine.find(button, in: ctx, limit: 2), ["back", "submit"])
        XCTAssertEqual(try QueryEngine.find(button, in: ctx, limit: 0), [])
        XCTAssertEqual(try QueryEngine.find(try Selector(parsing: "link, switch"), in: ctx, limit: 1), ["remember"])
        XCTAssertEqual(try QueryEngine.find(try Selector(parsing: "button:last"), in: ctx, limit: 1), ["dismiss"])
    }

    func testStrictResolution() throws {
        let store = try Fixtures.store(Fixtures.login())
        let ctx = QueryContext(tree: store.tree, views: store.views)
        XCTAssertEqual(try QueryEngine.resolveOne(try Selector(parsing: "#\"login.user\""), in: ctx), .one("user"))
        XCTAssertEqual(try QueryEngine.resolveOne(try Selector(parsing: "#nothing"), in: ctx), .none)
        XCTAssertEqual(
            try QueryEngine.resolveOne(try Selector(parsing: "#submit"), in: ctx), .ambiguous(["submit", "dismiss"]))
        // Two cells labelled Alpha…: only c0 is onscreen, so the strict resolution picks it.
        XCTAssertEqual(try QueryEngine.resolveOne(try Selector(parsing: "cell[label^=Alpha]"), in: ctx), .one("c0"))
        // An offscreen single match still resolves (it exists).
        XCTAssertEqual(
            try QueryEngine.resolveOne(try Selector(parsing: "cell[label=\"Alpha Two\"]"), in: ctx), .one("c3"))
    }

    func testIndexFollowsRevisions() throws {
        let store = try Fixtures.store(Fixtures.login())
        let sel = try Selector(parsing: "button[label=\"Submit\"]")
        XCTAssertEqual(try QueryEngine.find(sel, in: QueryContext(tree: store.tree)), ["submit"])
        _ = try store.apply(json: [["op": "set", "id": "submit", "props": ["title": "Send"]]])
        XCTAssertEqual(try QueryEngine.find(sel, in: QueryContext(tree: store.tree)), [])
        XCTAssertEqual(
            try QueryEngine.find(try Selector(parsing: "button[label=Send]"), in: QueryContext(tree: store.tree)),
            ["submit"])
        // Another app whose tree has the same revision number never shares the index.
        let other = try Fixtures.store([
            "windows": [
                Fixtures.view(
                    "x", "UIWindow", [0, 0, 100, 100], [:],
                    [
                        Fixtures.view("xb", "UIButton", [0, 0, 50, 50], ["title": "Submit"])
                    ])
            ]
        ])
        XCTAssertEqual(try QueryEngine.find(sel, in: QueryContext(tree: other.tree)), ["xb"])
    }

    func testIdentifierNormalizationMatchesIndexLookups() throws {
        let store = try Fixtures.store([
            "windows": [
                Fixtures.view(
                    "w", "UIWindow", [0, 0, 100, 100], [:],
                    [
                        Fixtures.view(
                            "a", "UIButton", [0, 0, 50, 20], ["title": "A", "accessibilityIdentifier": "  spaced\tid "]),
                        Fixtures.view(
                            "b", "UIButton", [0, 30, 50, 20], ["title": "B", "accessibilityIdentifier": "spaced id"]),
                    ])
            ]
        ])
        let ctx = QueryContext(tree: store.tree)
        // "#…" goes through the identifier index; [id^=…] scans. Both normalize whitespace the same way.
        XCTAssertEqual(try QueryEngine.find(try Selector(parsing: "#\"spaced id\""), in: ctx), ["a", "b"])
        XCTAssertEqual(try QueryEngine.find(try Selector(parsing: "[id^=\"spaced id\"]"), in: ctx), ["a", "b"])
        XCTAssertEqual(
            try QueryEngine.find(try Selector(parsing: "[id~=/^spaced id$/]"), in: ctx), ["b"],
            "regexes see the raw value")
    }

    /// `A >> B` without positional pseudo-classes selects exactly what `A B` selects.
    func testRerootWithoutPositionalEqualsDescendant() throws {
        let store = try Fixtures.store(Fixtures.login())
        let ctx = QueryContext(tree: store.tree, views: store.views)
        for (first, second) in [
            ("window >> button", "window button"), ("* >> * >> text", "* * text"),
            ("group >> :has(+ button)", "group :has(+ button)"),
        ] {
            XCTAssertEqual(
                try QueryEngine.find(try Selector(parsing: first), in: ctx),
                try QueryEngine.find(try Selector(parsing: second), in: ctx), first)
        }
        XCTAssertEqual(try QueryEngine.find(try Selector(parsing: "* >> * >> text"), in: ctx), ["lblUser", "lblPass"])
    }
}
