import AXJSON
import AXProtocol
import AXProvider
import AXRPCClient

/// The provider library's connection (a POSIX socket read by a thread of its own, D-PROVIDER-WIRE-1) beside the NIO
/// client it replaced, in one run against one running server: sequential `ping` round trips, in alternating blocks
/// so both see the same machine.
///
///   axbench --provider-rtt SOCKET [--runs N]   one JSON line: p50, p99 and mean (µs) of each, and their ratios
enum ProviderRoundTripBench {
    static func runIfAsked() async throws -> Bool {
        let arguments = CommandLine.arguments
        guard let index = arguments.firstIndex(of: "--provider-rtt"), index + 1 < arguments.count else {
            return false
        }
        let runs = arguments.firstIndex(of: "--runs").flatMap { at in
            at + 1 < arguments.count ? Int(arguments[at + 1]) : nil
        }
        let total = max(1_000, runs ?? 20_000)
        let address = "unix:" + arguments[index + 1]
        let provider = try await SocketProviderTransport(address: address, token: nil)
        let client = try await RPCClient.connect(address)
        _ = try await client.call(RPCMethod.initialize.request([.role: .string(RPCRole.provider.rawValue)]))
        let ping = RPCMethod.ping.request()
        var posix: [Duration] = []
        var nio: [Duration] = []
        let clock = ContinuousClock()
        for block in 0..<(total / 500) {
            for _ in 0..<500 {
                let start = clock.now
                if block % 2 == 0 {
                    _ = try await provider.call(ping.method, ping.params)
                    posix.append(clock.now - start)
                } else {
                    _ = try await client.call(ping)
                    nio.append(clock.now - start)
                }
            }
        }
        await provider.close()
        await client.close()
        let (posixFigures, nioFigures) = (figures(posix), figures(nio))
        var line: JSONObject = ["calls_each": JSON(posix.count)]
        for (name, value) in posixFigures { line["provider_" + name] = JSON(value) }
        for (name, value) in nioFigures { line["nio_" + name] = JSON(value) }
        for ((name, mine), (_, theirs)) in zip(posixFigures, nioFigures) where theirs > 0 {
            line["ratio_" + name] = JSON((mine / theirs * 1000).rounded() / 1000)
        }
        print(JSON.object(line).jsonString)
        return true
    }

    /// p50, p99 and mean in microseconds, to 0.1 µs.
    static func figures(_ samples: [Duration]) -> [(String, Double)] {
        let micros = samples.map { Double($0.components.attoseconds) / 1e12 + Double($0.components.seconds) * 1e6 }
            .sorted()
        guard !micros.isEmpty else { return [] }
        func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
        let p99 = micros[min(micros.count - 1, micros.count * 99 / 100)]
        return [
            ("p50_us", rounded(micros[micros.count / 2])), ("p99_us", rounded(p99)),
            ("mean_us", rounded(micros.reduce(0, +) / Double(micros.count))),
        ]
    }
}
