import AXJSON
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a trace file could not be opened, written or read.
package struct TraceFileError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}

/// Writes a trace as it happens: the header at `init`, each step as one line appended at once (a recorder that
/// dies leaves every finished step readable), the end line at `finish`. Steps from several threads or tasks are
/// numbered in the order they are appended. Safe to share.
package final class TraceRecorder: Sendable {
    private struct State {
        var fd: Int32
        var steps = 0
        var end: TraceEnd
        var snapshotTaken = false
        var finished = false
    }
    private let state: Mutex<State>
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    package let path: String

    /// Creates (or truncates) the file at `path` (mode 0600: a trace may show what an app holds) and writes the
    /// header.
    package init(path: String, header: TraceHeader) throws(TraceFileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw TraceFileError(message: "cannot write the trace '\(path)': \(String(cString: strerror(errno)))")
        }
        self.path = path
        start = clock.now
        state = Mutex(State(fd: fd, end: TraceEnd(steps: 0)))
        guard Self.writeLine(fd, header.json) else {
            close(fd)
            throw TraceFileError(message: "cannot write the trace '\(path)': \(String(cString: strerror(errno)))")
        }
    }

    /// Milliseconds since the trace started.
    package func elapsedMs() -> Double {
        let elapsed = clock.now - start
        let parts = elapsed.components
        return Double(parts.seconds) * 1_000 + Double(parts.attoseconds) / 1e15
    }

    /// Whether the next step should carry a snapshot (true once, for the first caller).
    package func claimSnapshot() -> Bool {
        state.withLock { locked in
            defer { locked.snapshotTaken = true }
            return !locked.snapshotTaken
        }
    }

    /// Gives the snapshot claim back (the step that claimed it could not fetch the tree).
    package func releaseSnapshot() {
        state.withLock { $0.snapshotTaken = false }
    }

    /// Appends `step` with the next number; returns the number (nil after `finish` or when the write failed:
    /// the trace then stops growing, the session goes on).
    @discardableResult
    package func append(_ step: TraceStep) -> Int? {
        state.withLock { locked -> Int? in
            guard !locked.finished else { return nil }
            let number = locked.steps + 1
            let (json, dropped) = step.json(number: number)
            guard Self.writeLine(locked.fd, json) else {
                locked.end.droppedSteps += 1
                return nil
            }
            locked.steps = number
            locked.end.steps = number
            locked.end.droppedDiffOps += dropped.diffOps
            locked.end.droppedEvents += dropped.events
            return number
        }
    }

    /// Counts a step that was not recorded (e.g. its observation failed to fit a bound).
    package func countDroppedStep() {
        state.withLock { $0.end.droppedSteps += 1 }
    }

    /// Writes the end line and closes the file. Later calls do nothing.
    package func finish() {
        state.withLock { locked in
            guard !locked.finished else { return }
            locked.finished = true
            _ = Self.writeLine(locked.fd, locked.end.json)
            close(locked.fd)
        }
    }

    /// Steps written so far.
    package var stepCount: Int { state.withLock { $0.steps } }

    /// Writes `json` and a newline with one `write` where the system allows (O_APPEND keeps lines whole).
    static func writeLine(_ fd: Int32, _ json: JSON) -> Bool {
        var bytes = json.serialized()
        bytes.append(0x0A)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return write(fd, base + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            if written == 0 { return false }
            offset += written
        }
        return true
    }
}

/// Reading trace files and the clock of headers.
package enum TraceFile {
    /// Reads the trace at `path` (at most `TraceFormat.maxFileBytes`; a larger file is read up to that size and
    /// its reading says so).
    package static func read(_ path: String) throws(TraceFileError) -> TraceReading {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw TraceFileError(message: "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < TraceFormat.maxFileBytes {
            let want = min(chunk.count, TraceFormat.maxFileBytes - bytes.count)
            let count = chunk.withUnsafeMutableBytes { readFD(fd, $0.baseAddress, want) }
            if count < 0 {
                if errno == EINTR { continue }
                throw TraceFileError(message: "cannot read '\(path)': \(String(cString: strerror(errno)))")
            }
            if count == 0 { return TraceReading(bytes: bytes) }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return TraceReading(bytes: bytes, truncatedAt: TraceFormat.maxFileBytes)
    }

    /// Now as RFC 3339 UTC to the second (`2026-11-28T02:10:00Z`).
    package static func rfc3339Now() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}

@inline(__always) private func readFD(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
        return Darwin.read(fd, buffer, count)
    #elseif canImport(Musl)
        return Musl.read(fd, buffer, count)
    #else
        return Glibc.read(fd, buffer, count)
    #endif
}
