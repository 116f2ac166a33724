import AXCore
import AXHub
import AXJSON
import AXJSONRPC
import AXProvider
import AXRPC
import AXTestSupport
import AXTransport
import XCTest

/// The Swift provider library's settings API (D-SET-1): `Publisher.accessibilitySettings()` reads `a11y.settings`
/// under UIKit's names, and `SocketProviderTransport.onSettingsChanged` hears `a11y.settingsChanged` with the names
/// that changed. Everything runs over the real socket server with the real method table; the settings change
/// enters where the GSettings reader hands its readings to the hub (`Hub.setSettingsReadings`).
final class ProviderSettingsTests: XCTestCase {
    /// A server without a settings reader: UIKit's defaults. Then the desktop turns animations off, turns High
    /// Contrast on and doubles the text size: the app hears one `a11y.settingsChanged` naming exactly the values
    /// that changed, and reads the same values afterwards.
    func testProviderReadsDefaultsThenHearsChangesUnderUIKitNames() async throws {
        let dir = TransportTempDir()
        let hub = Hub(actionTimeout: .seconds(5))
        let router = RPCRouter()
        AXMethods.install(on: router, hub: hub)
        let server = try await transportStartServer(dir, router: router)
        defer { Task { await server.stop() } }
        let transport = try await SocketProviderTransport(address: "unix:" + dir.file("s.sock"), token: nil)
        let publisher = Publisher(transport: transport)
        try await publisher.register(name: "settings-app") { _ in true }

        let defaults = try await publisher.accessibilitySettings()
        XCTAssertFalse(defaults.isReduceMotionEnabled)
        XCTAssertFalse(defaults.isDarkerSystemColorsEnabled)
        XCTAssertFalse(defaults.isVoiceOverRunning)
        XCTAssertEqual(defaults.preferredContentSizeCategory, "large")
        XCTAssertEqual(defaults.textScalingFactor, 1)

        let (changes, continuation) = AsyncStream.makeStream(of: (UIAccessibilitySettings, [String]).self)
        let subscription = try await transport.onSettingsChanged { settings, changed in
            continuation.yield((settings, changed))
        }
        XCTAssertGreaterThan(subscription, 0)

        hub.setSettingsReadings(
            [
                .enableAnimations: SettingsKeyReading(boolean: false, origin: .user),
                .highContrast: SettingsKeyReading(boolean: true, origin: .user),
                .textScalingFactor: SettingsKeyReading(number: 2, origin: .user),
            ],
            reader: SettingsReaderInfo(kind: "gsettings", backend: "GMemorySettingsBackend", note: "test"))

        let heard = await Self.first(of: changes, within: .seconds(5))
        let (notified, changed) = try XCTUnwrap(heard, "no a11y.settingsChanged reached the provider within 5 s")
        XCTAssertEqual(
            Set(changed),
            [
                "isReduceMotionEnabled", "isDarkerSystemColorsEnabled", "preferredContentSizeCategory",
                "textScalingFactor",
            ])
        XCTAssertTrue(notified.isReduceMotionEnabled)
        XCTAssertTrue(notified.isDarkerSystemColorsEnabled)
        XCTAssertFalse(notified.isInvertColorsEnabled)
        // D-SET-2: 17 pt × 2 = 34 pt is nearest accessibilityLarge's 33 pt body size.
        XCTAssertEqual(notified.preferredContentSizeCategory, "accessibilityLarge")
        XCTAssertEqual(notified.textScalingFactor, 2)

        let read = try await publisher.accessibilitySettings()
        XCTAssertEqual(read, notified)
    }

    /// The first element of `stream`, or nil when none arrives within `limit`.
    static func first<T: Sendable>(of stream: AsyncStream<T>, within limit: Duration) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask {
                for await item in stream { return item }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let winner = await group.next() ?? nil
            group.cancelAll()
            return winner
        }
    }
}
