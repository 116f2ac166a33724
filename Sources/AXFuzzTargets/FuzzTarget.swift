/// Fuzz targets: each takes arbitrary bytes, drives one input surface of the server with them and checks the
/// invariants that must hold for every input. A target never traps by itself: broken invariants come back as
/// messages (the libFuzzer driver `axfuzz` turns them into a crash; the unit tests into a failure). A trap inside
/// the code under test is a finding in its own right.
package struct FuzzTarget: Sendable {
    /// The target's name: the corpus directory under Tests/Fuzz/corpus/ and the first argument of `axfuzz`.
    package let name: String
    /// One line on what the target drives and checks.
    package let summary: String
    /// Runs one input; returns the invariants it broke (empty when all held).
    package let run: @Sendable (UnsafeRawBufferPointer) -> [String]

    /// A target named `name` running `run` on every input.
    package init(name: String, summary: String, run: @escaping @Sendable (UnsafeRawBufferPointer) -> [String]) {
        self.name = name
        self.summary = summary
        self.run = run
    }

    /// Runs one input given as an array.
    package func run(_ bytes: [UInt8]) -> [String] {
        bytes.withUnsafeBytes { run($0) }
    }

    /// Every target, in the order `Tools/fuzz.sh` runs them.
    package static let all: [FuzzTarget] = [
        JSONFuzz.target,
        FramingFuzz.target,
        RouterFuzz.target,
        SelectorFuzz.target,
        PatchFuzz.target,
        SnapshotFuzz.target,
        AppiumXMLFuzz.target,
        DBusFuzz.target,
        ConnectionsFuzz.target,
        ATSPIModelFuzz.target,
        WebDriverHTTPFuzz.target,
        MCPLineFuzz.target,
    ]

    /// The target called `name`, if any.
    package static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// Collects broken invariants for one input.
struct FuzzCheck {
    private(set) var failures: [String] = []

    /// Records `message` unless `condition` holds.
    mutating func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition {
            failures.append(message())
        }
    }

    /// Records `message` unconditionally.
    mutating func fail(_ message: String) {
        failures.append(message)
    }
}

/// A short, printable rendering of `text` for failure messages.
func quoted(_ text: String, limit: Int = 200) -> String {
    let cut = text.count > limit ? String(text.prefix(limit)) + "…" : text
    return "'"
        + cut.unicodeScalars.map {
            $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? String($0) : "\\u{\(String($0.value, radix: 16))}"
        }.joined() + "'"
}
