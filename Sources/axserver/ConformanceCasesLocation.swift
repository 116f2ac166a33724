import Foundation

/// Where `axserver conformance DIR` reads its cases: DIR itself when it exists (relative to the current
/// directory), else, for a relative DIR, the same path next to the binary — in the checkout that built it
/// (`<checkout>/.build/debug/axserver` finds `<checkout>/Specs/conformance`) or in an installed tree
/// (`PREFIX/bin/axserver` finds `PREFIX/share/axserver/Specs/conformance`, which `Tools/install.sh` installs).
/// So `axserver conformance Specs/conformance` works from any directory.
enum ConformanceCasesLocation {
    /// The path to read, or nil when DIR exists nowhere it is looked for.
    static func resolve(_ dir: String, executable: String = ConformanceCasesLocation.executablePath()) -> String? {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: dir) { return dir }
        guard !dir.hasPrefix("/") else { return nil }
        var folder = (executable as NSString).deletingLastPathComponent
        while !folder.isEmpty {
            for candidate in [folder + "/" + dir, folder + "/share/axserver/" + dir]
            where fileManager.fileExists(atPath: candidate) {
                return candidate
            }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder { break }
            folder = parent
        }
        return nil
    }

    /// This process's executable with symlinks resolved (`/proc/self/exe`), else argv[0].
    static func executablePath() -> String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return resolved
        }
        return (CommandLine.arguments.first.map { ($0 as NSString).standardizingPath }) ?? ""
    }
}
