import Foundation

/// Turns SVG into PNG with Debian's `rsvg-convert` (librsvg2-bin; Tools/install-deps.sh installs it). The only
/// I/O of the picture path: the renderer itself is pure (AXInsight).
package struct SVGRasterizer: Sendable {
    package let executable: String
    /// The longest a conversion may take before it is stopped.
    package var timeoutSeconds: Double = 30

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The rasterizer on `PATH` (or `$AXSERVER_RSVG_CONVERT`), or nil when it is not installed.
    package static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> SVGRasterizer? {
        if let explicit = environment["AXSERVER_RSVG_CONVERT"], FileManager.default.isExecutableFile(atPath: explicit) {
            return SVGRasterizer(executable: explicit)
        }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = String(directory) + "/rsvg-convert"
            if FileManager.default.isExecutableFile(atPath: candidate) { return SVGRasterizer(executable: candidate) }
        }
        return nil
    }

    package init(executable: String) {
        self.executable = executable
    }

    /// Converts one SVG document; the files live in a private temporary directory removed afterwards.
    package func png(_ svg: String) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "axserver-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("tree.svg")
        let output = directory.appendingPathComponent("tree.png")
        try Data(svg.utf8).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--format", "png", "--background-color", "white", "--output", output.path, input.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                process.waitUntilExit()
                throw Failure(description: "rsvg-convert took longer than \(Int(timeoutSeconds)) s")
            }
            usleep(5_000)
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile().prefix(500), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Failure(description: "rsvg-convert exited with \(process.terminationStatus): \(message)")
        }
        return [UInt8](try Data(contentsOf: output))
    }
}
