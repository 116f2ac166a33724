import AXCore
import AXJSON
import AXQuery

/// Appium XML page sources (what `axquery --file page.xml` reads): any bytes are converted or refused with a
/// message; a converted page is a snapshot the store accepts (the CLI loads it next).
enum AppiumXMLFuzz {
    static let target = FuzzTarget(
        name: "appium-xml",
        summary: "Appium XML reader and converter: converts or refuses; every conversion is a snapshot the store loads",
        run: run)

    static func run(_ bytes: UnsafeRawBufferPointer) -> [String] {
        var check = FuzzCheck()
        let snapshot: JSON
        do {
            snapshot = try AppiumConverter.convert(Array(bytes))
        } catch {
            check.expect(!error.message.isEmpty, "a refusal without a message")
            return check.failures
        }
        let store = HierarchyStore()
        do {
            try store.setSnapshot(snapshot)
        } catch {
            check.fail(
                "the converted page source is refused by the store: \(error); snapshot \(quoted(snapshot.jsonString, limit: 400))"
            )
        }
        return check.failures
    }
}
