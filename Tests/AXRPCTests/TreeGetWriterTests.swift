import AXCore
import AXDemo
import AXHub
import AXJSON
import AXJSONRPC
import AXQuery
import AXTestSupport
import XCTest

@testable import AXRPC

/// `tree.get` is written straight into the reply buffer (issue 35 item 1); its bytes must stay exactly those of
/// the `JSON` value it used to build (`TreeGet.value`, serialized by `RPCMessage`): on the demo, audit-demo and
/// bench trees and on a generated tree of hostile strings and numbers, for every format and option.
final class TreeGetWriterTests: XCTestCase {
    /// Labels, values and ids that exercise every escape: control characters, quotes, backslashes, non-BMP
    /// characters (raw and as surrogate-pair escapes), XML markup, U+FFFE/U+FFFF, and runs long enough for the
    /// eight-byte fast path to meet an escape at every offset. Lone surrogates never reach a tree: the parser
    /// refuses them, as before (`testLoneSurrogatesAreRefusedBeforeAnyTree`).
    static let hostileStrings: [String] = [
        #"plain ASCII label"#, #"quote \" inside"#, #"back\\slash\\"#, #"\u0000\u0001\u001f\u007f"#,
        #"tab\tnew\nline\rcr\bbs\fff"#, #"emoji 😀 and 𝄞 clef"#, #"pair \ud83d\ude00 escaped"#, #"clef \ud834\udd1e"#,
        #"<xml attr=\"&amp;\"> & 'apos'"#, #"\ufffe\uffff\ufffd"#, #"Größe — ü ✓"#,
        #"12345678\"12345678\\1234567\n"#, #"1234567\u001e"#, #"abcdefghijklmnop\"q"#, "",
        #"line\u2028sep\u2029para"#, #"\\\\\\\\\\\\\\\\\\"#, #"C:\\dir\\file &amp; \"q\"\\"#,
    ]
    /// Coordinates at the edges of the number formats, within the accepted range (|v| < 10⁷) and sizes (≥ 0).
    static let hostileCoordinates: [String] = [
        "0", "-0", "0.1", "1e-7", "-2.5", "9999999.5", "-9999999.999", "33.333333333333336", "4.9e-324", "1234567.125",
    ]
    static let hostileSizes: [String] = ["0", "0.1", "1e-7", "9999999.5", "33.333333333333336", "4.9e-324", "7"]
    /// Values at the edges of the number formats.
    static let hostileNumbers: [String] = [
        "0", "-0", "0.1", "1e-7", "-2.5", "9007199254740992", "9007199254740993", "1e300", "-1e300",
        "123456789012345678901234567890", "4.9e-324", "33.333333333333336",
    ]

    /// A window of controls whose strings and numbers come from the hostile lists, as raw JSON text.
    static func hostileTree() throws -> JSON {
        let classes = ["UIButton", "UILabel", "UITextField", "UISlider", "UISwitch", "UIView", "UIImageView"]
        var children: [String] = []
        for index in 0..<(hostileStrings.count * 3) {
            let text = hostileStrings[index % hostileStrings.count]
            let other = hostileStrings[(index * 7 + 3) % hostileStrings.count]
            let number = { (offset: Int) in hostileNumbers[(index + offset) % hostileNumbers.count] }
            let coordinate = { (offset: Int) in hostileCoordinates[(index + offset) % hostileCoordinates.count] }
            let size = { (offset: Int) in hostileSizes[(index + offset) % hostileSizes.count] }
            children.append(
                #"{"id":"v\#(index)\#(text)","class":"\#(classes[index % classes.count])","#
                    + #""frame":[\#(coordinate(0)),\#(coordinate(3)),\#(size(0)),\#(size(2))],"#
                    + #""accessibilityLabel":"\#(text)","accessibilityHint":"\#(other)","#
                    + #""accessibilityIdentifier":"\#(other)","accessibilityValue":"\#(text)","#
                    + #""value":\#(number(4)),"maximumValue":\#(number(5)),"text":"\#(other)"}"#)
        }
        // A disabled control, and an automation-only element (D-AUTO-1): the page source's other markup.
        children.append(
            #"{"id":"off\\","class":"UIButton","frame":[1,2,3,4],"isEnabled":false,"#
                + #""accessibilityLabel":"Off \"\\\u2028"}"#)
        children.append(
            #"{"id":"list\\","class":"UIView","frame":[0,300,100,20],"isAccessibilityElement":true,"#
                + #""accessibilityLabel":"Cell\\","automationElements":["hid\\\""],"#
                + #""children":[{"id":"hid\\\"","class":"UIButton","frame":[0,0,10,10],"#
                + #""accessibilityIdentifier":"hidden \\ \"button\""}]}"#)
        let text =
            #"{"windows":[{"id":"w\"\\","class":"UIWindow","frame":[0,0,800,600],"isKeyWindow":true,"#
            + #""windowTitle":"T\u0001\"","children":["# + children.joined(separator: ",") + "]}]}"
        return try JSON.parse(Array(text.utf8))
    }

    static func trees() throws -> [(name: String, snapshot: JSON)] {
        var busyDemo = DemoApp()
        busyDemo.alertShown = true
        busyDemo.aboutShown = true
        return [
            ("demo", DemoApp().snapshot()), ("demo-alert-about", busyDemo.snapshot()),
            ("audit-demo", AuditDemo.snapshot()), ("bench-300", BenchTree.snapshot(leaves: 300)),
            ("hostile", try hostileTree()),
        ]
    }

    /// Param sets covering every branch of the reply: formats, fields, depth and child limits, a root.
    static func paramSets(firstChild: String?) -> [JSONObject] {
        var sets: [JSONObject] = [
            [:], ["format": "json"], ["format": "text"], ["format": "text", "frames": true], ["format": "xml"],
            ["depth": 1], ["depth": 0], ["maxChildren": 2], ["maxChildren": 0], ["depth": 2, "maxChildren": 1],
            ["fields": ["role", "label", "value", "states", "children"]], ["fields": ["label"]],
            ["fields": JSON(TreeFields.accepted)], ["fields": ["frame", "headingLevel", "children"], "depth": 1],
        ]
        if let firstChild {
            sets.append(["root": ["id": .string(firstChild)]])
            sets.append(["root": ["id": .string(firstChild)], "fields": ["traits", "children"], "maxChildren": 1])
        }
        return sets
    }

    func testStreamedReplyIsByteIdenticalToTheJSONValue() throws {
        for (name, snapshot) in try Self.trees() {
            let hub = Hub()
            let app = hub.registerApp(name: name, provider: nil)
            try hub.setSnapshot(app: app, snapshot)
            let router = RPCRouter()
            AXMethods.install(on: router, hub: hub)
            let session = RPCSession(peer: ProtocolFakePeer())
            session.initialized = true
            let tree = try hub.snapshot(app).tree
            let firstChild = tree.windows.first.flatMap { tree[$0]?.children.first }
            for extra in Self.paramSets(firstChild: firstChild) {
                var params = extra
                params["app"] = .string(app)
                let frame = RPCMessage.request(id: 9, method: "tree.get", params: .object(params))
                guard case .reply(let streamed) = router.handleSync(frame: frame, session: session) else {
                    return XCTFail("\(name) \(params): no inline reply")
                }
                let request = try TreeGet.request(.object(params), session, hub)
                let expected = RPCMessage.response(id: 9, result: .success(TreeGet.value(request)))
                XCTAssertEqual(streamed.count, expected.count, "\(name) \(JSON.object(extra)): length differs")
                if streamed != expected {
                    let at =
                        (0..<min(streamed.count, expected.count)).first { streamed[$0] != expected[$0] }
                        ?? min(streamed.count, expected.count)
                    let near = String(decoding: streamed[max(0, at - 80)..<min(streamed.count, at + 40)], as: UTF8.self)
                    XCTFail("\(name) \(JSON.object(extra)): first difference at byte \(at): …\(near)")
                }
            }
        }
    }

    func testLoneSurrogatesAreRefusedBeforeAnyTree() {
        for text in [#"{"windows":[{"id":"\ud800"}]}"#, #"{"windows":[{"id":"w","accessibilityLabel":"\udfff"}]}"#] {
            XCTAssertThrowsError(try JSON.parse(Array(text.utf8)), text)
        }
    }

    /// Every element form (`ElementWriter.write`) against `ElementJSON.encode`, with and without child ids and
    /// focus, including nodes whose numbers are NaN or infinite (written as `null`, as before).
    func testElementWriterMatchesElementJSON() throws {
        for (name, snapshot) in try Self.trees() {
            let store = HierarchyStore()
            _ = try store.setSnapshot(snapshot)
            var nodes: [AXNode] = []
            store.tree.walk { node, _ in
                nodes.append(node)
                return true
            }
            XCTAssertFalse(nodes.isEmpty, name)
            if var odd = nodes.last {
                odd.frame = Rect(x: .nan, y: .infinity, width: -.infinity, height: .leastNonzeroMagnitude)
                odd.numeric = AXNumericValue(current: .nan, minimum: -0.0, maximum: 1e21, step: 0.3)
                nodes.append(odd)
            }
            for node in nodes {
                for childIDs in [true, false] {
                    for focusedID in [nil, node.id] {
                        var streamed: [UInt8] = []
                        ElementWriter.write(node, focusedID: focusedID, childIDs: childIDs, into: &streamed)
                        let expected = JSON.object(
                            ElementJSON.encode(node, focusedID: focusedID, childIDs: childIDs)
                        ).serialized()
                        XCTAssertEqual(
                            String(decoding: streamed, as: UTF8.self), String(decoding: expected, as: UTF8.self),
                            "\(name) \(node.id)")
                    }
                }
            }
        }
    }

    /// The page source as `TreeXML.xml` wrote it before it was streamed (issue 35): the reference for its bytes.
    static func legacyXML(_ tree: AXTree, appName: String = "app") -> String {
        var out: [UInt8] = []
        out.reserveCapacity(tree.count * 200 + 128)
        func lit(_ text: StaticString) { text.withUTF8Buffer { out.append(contentsOf: $0) } }
        func raw(_ text: String) { out.append(contentsOf: text.utf8) }
        func esc(_ text: String) {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": lit("&amp;")
                case "<": lit("&lt;")
                case ">": lit("&gt;")
                case "\"": lit("&quot;")
                case "\n": lit("&#10;")
                case "\r": lit("&#13;")
                case "\t": lit("&#9;")
                default:
                    if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                        lit("\u{FFFD}")
                    } else if scalar.isASCII {
                        out.append(UInt8(scalar.value))
                    } else {
                        out.append(contentsOf: String(Character(scalar)).utf8)
                    }
                }
            }
        }
        func attr(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            lit(" ")
            lit(name)
            lit("=\"")
            esc(value)
            lit("\"")
        }
        func int(_ number: Double) -> String {
            guard number.isFinite else { return "0" }
            return String(number.saturatingInt)
        }
        lit("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AppiumAUT>\n")
        lit("<XCUIElementTypeApplication type=\"XCUIElementTypeApplication\"")
        attr("name", appName)
        attr("label", appName)
        lit(" enabled=\"true\" visible=\"true\">\n")
        // Explicit stack: (id, depth, index in parent, closing?)
        var stack: [(String, Int, Int, Bool)] = []
        var seen = Set<String>()
        for (position, windowID) in tree.windows.enumerated().reversed() {
            stack.append((windowID, 1, position, false))
        }
        while let (id, depth, index, closing) = stack.popLast() {
            if closing {
                guard let node = tree[id] else { continue }
                for _ in 0..<depth { lit("  ") }
                lit("</")
                raw(TreeXML.typeName(node))
                lit(">\n")
                continue
            }
            guard let node = tree[id], seen.insert(id).inserted else { continue }
            let type = TreeXML.typeName(node)
            for _ in 0..<depth { lit("  ") }
            lit("<")
            raw(type)
            attr("type", type)
            attr("name", node.identifier.flatMap { $0.isEmpty ? nil : $0 } ?? node.label)
            attr("label", node.label)
            attr("value", node.value)
            attr("enabled", node.states.contains(.enabled) ? "true" : "false")
            attr("visible", node.states.contains(.onscreen) ? "true" : "false")
            attr("x", int(node.frame.x))
            attr("y", int(node.frame.y))
            attr("width", int(node.frame.width))
            attr("height", int(node.frame.height))
            attr("index", String(index))
            attr("role", node.role.rawValue)
            attr("axid", id)
            if node.states.contains(.automationOnly) { attr("automationOnly", "true") }
            // Automation-only nodes (D-AUTO-1) after the accessibility children, as XCUITest lists them.
            let children = node.children + AutomationNodes.children(of: node, in: tree)
            let kids = children.filter { tree[$0] != nil && !seen.contains($0) }
            if kids.isEmpty {
                lit("/>\n")
            } else {
                lit(">\n")
                stack.append((id, depth, index, true))
                for (k, child) in children.enumerated().reversed() where tree[child] != nil {
                    stack.append((child, depth + 1, k, false))
                }
            }
        }
        lit("</XCUIElementTypeApplication>\n</AppiumAUT>\n")
        return String(decoding: out, as: UTF8.self)
    }

    /// `TreeXML.write` against the page source as it was written before, on every tree (hostile strings: markup
    /// characters, control characters, U+FFFE/U+FFFF, non-BMP text; numbers at the edges of Int).
    func testPageSourceIsByteIdenticalToTheFormerWriter() throws {
        for (name, snapshot) in try Self.trees() {
            let store = HierarchyStore()
            _ = try store.setSnapshot(snapshot)
            let expected = Self.legacyXML(store.tree)
            let streamed = TreeXML.xml(store.tree)
            XCTAssertEqual(streamed.utf8.count, expected.utf8.count, name)
            XCTAssertTrue(streamed == expected, "\(name): the page source changed")
            XCTAssertEqual(
                TreeXML.xml(store.tree, appName: "a<\"&\u{1}>"), Self.legacyXML(store.tree, appName: "a<\"&\u{1}>"))
        }
    }

    /// The `tree.get` xml reply writes the page source as its JSON string's content in one pass (D-PERF-7): those
    /// bytes must be exactly the page source serialized as a JSON string, on every tree (every piece of markup,
    /// enabled and disabled, visible and hidden, automation-only, self-closed and closed elements) and with app
    /// names carrying every byte either escaping touches.
    func testPageSourceInsideAJSONStringIsThePageSourceSerialized() throws {
        let appNames = [
            "app", "a<\"&\u{1}>", "back\\slash \\\\ \"quoted\" \u{2028}\u{2029} 😀 \n\t\r\u{FFFE}",
        ]
        var automationOnly = 0
        for (name, snapshot) in try Self.trees() {
            let store = HierarchyStore()
            _ = try store.setSnapshot(snapshot)
            // With its automation-only nodes, as `tree.get` writes it.
            let tree = AutomationNodes.augment(store.tree, views: store.views)
            for appName in appNames {
                let page = TreeXML.xml(tree, appName: appName)
                if page.contains(#"automationOnly="true""#) { automationOnly += 1 }
                var expected: [UInt8] = []
                JSON.serializeString(page, into: &expected)
                var written: [UInt8] = []
                ByteWriter.appending(to: &written) { writer in
                    writer.byte(0x22)
                    TreeXML.writeJSONStringContent(tree, appName: appName, into: &writer)
                    writer.byte(0x22)
                }
                XCTAssertEqual(written.count, expected.count, "\(name) \(appName.debugDescription): length differs")
                XCTAssertTrue(written == expected, "\(name) \(appName.debugDescription): bytes differ")
            }
        }
        XCTAssertGreaterThan(automationOnly, 0, "no tree has an automation-only element")
    }

    /// The eight-byte escape scan against the byte-by-byte rule on every offset of strings that mix plain runs
    /// with each escaped byte.
    func testEscapeFastPathAtEveryOffset() {
        let specials: [UInt8] = [0x00, 0x08, 0x09, 0x0A, 0x1F, 0x22, 0x5C, 0x20, 0x21, 0x5B, 0x5D, 0x7F, 0x80]
        for special in specials {
            for length in 1..<20 {
                for position in 0..<length {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    bytes[position] = special
                    let string = String(decoding: bytes, as: UTF8.self)
                    var fast: [UInt8] = []
                    JSON.serializeString(string, into: &fast)
                    var slow: [UInt8] = [0x22]
                    for byte in string.utf8 {
                        switch byte {
                        case 0x22: slow += [0x5C, 0x22]
                        case 0x5C: slow += [0x5C, 0x5C]
                        case 0x0A: slow += [0x5C, 0x6E]
                        case 0x0D: slow += [0x5C, 0x72]
                        case 0x09: slow += [0x5C, 0x74]
                        case 0x08: slow += [0x5C, 0x62]
                        case 0x0C: slow += [0x5C, 0x66]
                        case 0..<0x20:
                            let hex = Array("0123456789abcdef".utf8)
                            slow += [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                        default: slow.append(byte)
                        }
                    }
                    slow.append(0x22)
                    XCTAssertEqual(fast, slow, "byte \(special) at \(position) of \(length)")
                }
            }
        }
    }
}
