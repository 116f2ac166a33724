import AXCore
import AXJSON

/// The element fields of the text content an app reports (D-TEXT-APP-1; Specs/protocol.md §Common shapes, element).
enum TextContentJSON {
    /// `selectedTextRange: [location, length]` in Unicode scalars, when the app reports its caret.
    static func append(_ node: AXNode, to object: inout JSONObject) {
        guard let content = node.textContent else { return }
        if let range = content.selectedRange {
            object.appendUnchecked("selectedTextRange", .array([JSON(range.location), JSON(range.length)]))
        }
    }
}
