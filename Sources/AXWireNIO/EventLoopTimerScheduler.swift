import AXJSONRPC
import NIOCore

/// Timeouts on a NIO event loop (no Task per pending request).
package struct EventLoopTimerScheduler: RPCTimerScheduler {
    let loop: any EventLoop

    package init(loop: any EventLoop) {
        self.loop = loop
    }

    package func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> RPCTimerHandle {
        let components = delay.components
        let ns = components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let total = ns.overflow ? Int64.max : ns.partialValue &+ components.attoseconds / 1_000_000_000
        let scheduled = loop.scheduleTask(in: .nanoseconds(max(0, total))) { body() }
        return RPCTimerHandle { scheduled.cancel() }
    }
}
