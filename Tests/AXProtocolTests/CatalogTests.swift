import AXJSON
import AXJSONRPC
import AXProtocol
import Foundation
import XCTest

/// The catalog is consistent with itself and with the committed documents generated from it.
final class CatalogTests: XCTestCase {
    /// Each name's entry is the declaration of that name (a `case .x: RPCCatalog.Y.entry` pointing at another
    /// method's type fails here, naming the method).
    func testEveryNameHasItsOwnEntry() {
        for name in RPCMethodName.allCases {
            XCTAssertEqual(name.entry.name, name, "RPCMethodName.\(name).entry declares '\(name.entry.name.rawValue)'")
        }
    }

    /// Keys are unique per method, never `app` (every method takes it) and never empty.
    func testParameterKeysAreWellFormed() {
        for name in RPCMethodName.allCases {
            let keys = name.entry.params.map(\.name)
            XCTAssertEqual(Set(keys).count, keys.count, "\(name.rawValue) declares a key twice: \(keys)")
            XCTAssertFalse(keys.contains(rpcAppParameter), "\(name.rawValue) declares 'app', which every method takes")
            XCTAssertFalse(keys.contains(""), "\(name.rawValue) declares an empty key")
        }
    }

    /// Every declared error is a code the JSON-RPC layer knows.
    func testErrorsAreKnownCodes() {
        for name in RPCMethodName.allCases {
            for code in name.entry.errors {
                XCTAssertNotNil(RPCError.kind(forCode: code), "\(name.rawValue) declares unknown error code \(code)")
            }
        }
    }

    /// The typed handle carries the method's wire name and its keys as written, in order.
    func testTypedCallsKeepTheirKeysInOrder() {
        let method: RPCMethod<RPCCatalog.QueryFind> = .queryFind
        XCTAssertEqual(method.wireName, "query.find")
        let params: RPCParams<RPCCatalog.QueryFind.Param> = [.selector: "button", .limit: 3]
        XCTAssertEqual(params.object.keys, ["selector", "limit"])
        XCTAssertEqual(JSON.object(params.object).jsonString, #"{"selector":"button","limit":3}"#)
    }

    /// Event names are unique.
    func testEventNamesAreUnique() {
        XCTAssertEqual(Set(RPCEvent.names).count, RPCEvent.names.count)
    }

    /// Specs/protocol.json is what the catalog generates.
    func testProtocolJSONIsCurrent() throws {
        let path = Self.repository + "/Specs/protocol.json"
        let committed = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(
            committed, RPCCatalogDocument.jsonText,
            "Specs/protocol.json drifted from Sources/AXProtocol: regenerate it with "
                + "`swift run axquery protocol --json > Specs/protocol.json`")
    }

    /// Specs/protocol.md's generated method index is what the catalog generates.
    func testProtocolMarkdownIndexIsCurrent() throws {
        let text = try String(contentsOfFile: Self.repository + "/Specs/protocol.md", encoding: .utf8)
        let begin = try XCTUnwrap(
            text.range(of: RPCCatalogDocument.markdownBegin), "Specs/protocol.md lacks the generated index's BEGIN line"
        )
        let end = try XCTUnwrap(
            text.range(of: RPCCatalogDocument.markdownEnd, range: begin.upperBound..<text.endIndex),
            "Specs/protocol.md lacks the generated index's END line")
        XCTAssertEqual(
            String(text[begin.lowerBound..<end.upperBound]), RPCCatalogDocument.markdown,
            "Specs/protocol.md's method index drifted from Sources/AXProtocol: replace the region between the "
                + "BEGIN and END lines with the output of `swift run axquery protocol --markdown`")
    }

    /// The repository root, from this file's path.
    static var repository: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }
}
