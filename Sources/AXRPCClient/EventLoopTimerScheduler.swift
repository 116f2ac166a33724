import AXJSONRPC
import NIOCore

/// Timeouts on a NIO event loop (no Task per pending request).
package struct EventLoopTimerScheduler: RPCTimerScheduler {
    let loop: any EventLoop

    package init(loop: any EventLoop) {
        self.loop = loop
    }

    package func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> RPCTimerHandle {
        let c = delay.components
        let ns = c.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let total = ns.overflow ? Int64.max : ns.partialValue &+ c.attoseconds / 1_000_000_000
        let t = loop.scheduleTask(in: .nanoseconds(max(0, total))) { body() }
        return RPCTimerHandle { t.cancel() }
    }
}
