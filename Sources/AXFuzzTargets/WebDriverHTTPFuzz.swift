import AXJSON
import AXWebDriver
import Dispatch
import NIOCore
import NIOEmbedded
import Synchronization

/// axdriver's HTTP layer as a connection sees it: SwiftNIO's HTTP/1.1 codec with axdriver's request deadlines,
/// body limit and trust check (Host, Origin, basic auth), then the real `WebDriverService` (routes, JSON bodies,
/// capabilities, timeouts; its axserver address does not exist, so New Session ends in `session not created`).
/// The first input byte picks the chunk size the stream arrives in and whether a token is required; the rest is
/// the byte stream of one connection. Checked after the stream and the request deadlines have passed: every
/// answer is a well-formed HTTP response with a JSON body; a connection still open is idle and has answered each
/// whole request exactly once; a closed one answered each whole request once, plus at most one refusal
/// (400, 408 or 413) for the request that closed it; an answer saying `Connection: close` is followed by a close.
enum WebDriverHTTPFuzz {
    static let target = FuzzTarget(
        name: "webdriver-http",
        summary:
            "axdriver HTTP (NIO codec, deadlines, trust, JSON routes): one answer per whole request or a close, no wedge",
        run: run)

    static let service = WebDriverService(server: ServerAddress(address: "unix:/nonexistent/axfuzz/ax.sock"))
    static let limits: WebDriverLimits = {
        var limits = WebDriverLimits()
        limits.maxBodyBytes = 2048
        return limits
    }()

    static func run(_ input: UnsafeRawBufferPointer) -> [String] {
        guard let control = input.first else { return [] }
        let stream = Array(input.dropFirst())
        let chunk = Int(control & 0x7F) + 1
        let trust = control & 0x80 == 0 ? WebDriverTrust() : WebDriverTrust(authToken: "fuzz")
        var check = FuzzCheck()
        let channel = EmbeddedChannel()
        let clock = RequestClock(table: nil, slot: 0, limits: limits)
        do {
            try WebDriverHTTPServer.configure(
                channel.pipeline.syncOperations, limits: limits, clock: clock, dispatch: answer, trust: trust)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 4723)).wait()
        } catch {
            return ["the embedded connection does not start: \(error)"]
        }
        var offset = 0
        while offset < stream.count, channel.isActive {
            let end = min(offset + chunk, stream.count)
            var buffer = channel.allocator.buffer(capacity: end - offset)
            buffer.writeBytes(stream[offset..<end])
            do { try channel.writeInbound(buffer) } catch { check.fail("an error left the pipeline: \(error)") }
            channel.embeddedEventLoop.run()
            offset = end
        }
        let late = TimeAmount(limits.requestHeadTimeout) + TimeAmount(limits.requestBodyTimeout) + .seconds(1)
        channel.embeddedEventLoop.advanceTime(by: late)
        let outbound = collectOutbound(channel)
        let responses = parseResponses(outbound, check: &check)
        let received = clock.requestsReceived
        if channel.isActive {
            check.expect(
                responses.count == received,
                "open connection answered \(responses.count) times for \(received) whole requests")
            check.expect(clock.phase == .idle, "open connection is still in phase \(clock.phase) after the deadlines")
            check.expect(
                !responses.contains(where: \.closes), "an answer said Connection: close but the connection is open")
        } else {
            check.expect(
                responses.count >= received && responses.count <= received + 1,
                "closed connection answered \(responses.count) times for \(received) whole requests")
        }
        _ = try? channel.finish()
        return check.failures
    }

    /// The service's answer, waited for on this thread (the embedded loop is this thread; the service's async work
    /// runs on the cooperative pool).
    static let answer: WebDriverHTTPServer.Dispatch = { method, path, body, loop in
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<WebDriverResponse?>(nil)
        Task {
            let response = await service.handle(method: method, path: path, body: body)
            result.withLock { $0 = response }
            done.signal()
        }
        done.wait()
        let response =
            result.withLock { $0 } ?? WebDriverResponse(status: 500, body: ["value": "the service gave no answer"])
        return loop.makeSucceededFuture(response)
    }

    static func collectOutbound(_ channel: EmbeddedChannel) -> [UInt8] {
        var bytes: [UInt8] = []
        while let part = try? channel.readOutbound(as: IOData.self) {
            switch part {
            case .byteBuffer(var buffer): bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
            case .fileRegion: bytes += Array("<file region>".utf8)
            }
        }
        while let part = try? channel.readOutbound(as: ByteBuffer.self) {
            var buffer = part
            bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
        }
        return bytes
    }

    struct Response {
        var status: Int
        var closes: Bool
    }

    /// The responses in `bytes`; each must have a status line, a Content-Length matching its body and a JSON
    /// object body with `value`.
    static func parseResponses(_ bytes: [UInt8], check: inout FuzzCheck) -> [Response] {
        var responses: [Response] = []
        var rest = bytes[...]
        let separator: [UInt8] = [13, 10, 13, 10]
        while !rest.isEmpty {
            guard let headEnd = rest.firstRange(of: separator) else {
                check.fail("an answer without a complete head: \(quoted(String(decoding: rest, as: UTF8.self)))")
                return responses
            }
            let head = String(decoding: rest[..<headEnd.lowerBound], as: UTF8.self)
            let lines = head.split(separator: "\r\n").map(String.init)
            let statusParts = lines.first?.split(separator: " ") ?? []
            guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."),
                let status = Int(statusParts[1]), (200...599).contains(status)
            else {
                check.fail("a malformed status line: \(quoted(lines.first ?? ""))")
                return responses
            }
            var length: Int?
            var closes = false
            for line in lines.dropFirst() {
                let lowered = line.lowercased()
                if lowered.hasPrefix("content-length:") { length = Int(lowered.dropFirst(15).filter { $0 != " " }) }
                if lowered == "connection: close" { closes = true }
            }
            guard let length, length >= 0, length <= rest.endIndex - headEnd.upperBound else {
                check.fail("answer \(status) without a Content-Length that fits its body: \(quoted(head))")
                return responses
            }
            let body = Array(rest[headEnd.upperBound..<(headEnd.upperBound + length)])
            if (try? JSON.parse(body))?["value"] == nil {
                check.fail(
                    "answer \(status) has no JSON {value} body: \(quoted(String(decoding: body, as: UTF8.self)))")
            }
            responses.append(Response(status: status, closes: closes))
            rest = rest[(headEnd.upperBound + length)...]
        }
        return responses
    }
}
