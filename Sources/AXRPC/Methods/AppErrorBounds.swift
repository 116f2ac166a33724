import AXJSON
import AXJSONRPC

/// Bounds on what an app's error reply may put in front of an automation client (issue 19 item 7, D-REL-7): an
/// app that answers an action with a 5 MB message gets it cut to `maxMessageBytes`, its `data` kept only when it
/// serializes to at most `maxDataBytes`, and its `reason` cut to `maxReasonBytes`.
enum AppErrorBounds {
    static let maxMessageBytes = 1_024
    static let maxDataBytes = 4_096
    static let maxReasonBytes = 128

    /// `text` cut to at most `maxBytes` UTF-8 bytes at a character boundary, saying how much was cut.
    static func truncated(_ text: String, maxBytes: Int) -> String {
        let size = text.utf8.count
        guard size > maxBytes else { return text }
        var kept = ""
        var keptBytes = 0
        for character in text {
            let width = character.utf8.count
            if keptBytes + width > maxBytes { break }
            kept.append(character)
            keptBytes += width
        }
        return kept + "… (\(size - keptBytes) more bytes cut)"
    }

    /// The app's error object as forwarded to the client (`data.appError`), within the bounds.
    static func details(_ error: RPCError) -> JSON {
        var object: JSONObject = [
            "code": JSON(error.code), "message": .string(truncated(error.message, maxBytes: maxMessageBytes)),
        ]
        if let data = error.data {
            let size = data.jsonString.utf8.count
            if size <= maxDataBytes {
                object["data"] = data
            } else {
                object["dataOmitted"] = ["bytes": JSON(size), "limit": JSON(maxDataBytes)]
            }
        }
        return .object(object)
    }
}
