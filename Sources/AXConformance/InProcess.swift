import AXHub
import AXInProcess

/// The conformance runner's in-process connections are AXInProcess's: the real router.
extension InProcessConnection: ConformanceConnection {
    /// A fresh server (hub + all methods) per case: cases never see each other's apps. Returns a connect
    /// function; every connection it makes reaches that same server.
    package static func freshServer() -> ConformanceRunner.Connect {
        let router = makeRouter(hub: Hub(actionTimeout: .seconds(2)))
        return { InProcessConnection(router: router) }
    }
}
