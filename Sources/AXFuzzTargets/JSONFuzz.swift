import AXJSON

/// The JSON parser: any bytes either fail with a typed error or parse; what parses serializes to text that parses
/// to the same value, and serializing that again gives the same bytes (the serializer's output is a fixed point).
enum JSONFuzz {
    static let target = FuzzTarget(
        name: "json",
        summary: "AXJSON parser: parse → serialize → parse is identical, serializing is a fixed point",
        run: run)

    static func run(_ bytes: UnsafeRawBufferPointer) -> [String] {
        var check = FuzzCheck()
        let value: JSON
        do {
            value = try JSON.parse(bytes)
        } catch {
            check.expect(
                error.offset >= 0 && error.offset <= bytes.count,
                "parse error offset \(error.offset) outside the input of \(bytes.count) bytes")
            return check.failures
        }
        let text = value.serialized()
        let again: JSON
        do {
            again = try JSON.parse(text)
        } catch {
            check.fail("serialized text \(quoted(String(decoding: text, as: UTF8.self))) does not parse: \(error)")
            return check.failures
        }
        check.expect(
            again == value,
            "parse → serialize → parse changed the value: \(quoted(String(decoding: text, as: UTF8.self)))")
        let textAgain = again.serialized()
        check.expect(
            textAgain == text,
            "serializing is not a fixed point: \(quoted(String(decoding: text, as: UTF8.self))) vs \(quoted(String(decoding: textAgain, as: UTF8.self)))"
        )
        return check.failures
    }
}
