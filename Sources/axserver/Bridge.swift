import AXATSPI
import AXHub
import Logging

/// Starts the AT-SPI bridge; returns nil (after one clear line) when there is no accessibility bus.
func startBridge(hub: Hub, logger: Logger) async -> ATSPIBridge? {
    let bridge = ATSPIBridge(hub: hub, logger: logger)
    do {
        guard try bridge.start() else {
            warn("no accessibility bus (AT_SPI_BUS_ADDRESS unset and org.a11y.Bus unreachable); serving JSON-RPC only")
            return nil
        }
        _ = await bridge.waitUntilRegistered(timeout: .seconds(5))
        return bridge
    } catch {
        warn("accessibility bus unavailable: \(error); serving JSON-RPC only")
        return nil
    }
}
