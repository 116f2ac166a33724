import AXCore
import AXDemo
import AXHub
import AXJSON

/// `axbench --profile-wait [--rounds N] [--no-waiter]` (Tools/profile_core.sh): the bench snapshot (10,002 views)
/// in a hub, then N rounds of one `wait.for`-style pending wait (`Hub.awaitChange(app:after:deadline:)` with
/// one deadline for the whole run, as `wait.for` has) woken by a one-property `hierarchy.update`
/// (`Hub.update`). With `--no-waiter` the rounds make the same patches with nobody waiting, so the difference
/// between the two runs' instruction counts is what a pending wait costs from registration to wake-up.
enum WaitProfile {
    /// On the main actor, waiter included, so the rounds do not hop between pool threads. (valgrind 3.19 still
    /// stops with an internal error in the waiter runs; Tools/profile_core.sh then reports the wake-up unmeasured.)
    @MainActor
    static func run(rounds: Int, waiting: Bool) async throws {
        let hub = Hub()
        let app = hub.registerApp(name: "bench", provider: nil)
        var revision = try hub.setSnapshot(app: app, BenchTree.snapshot(leaves: 8920)).toRevision
        let deadline = hub.makeWaitDeadline(timeout: .seconds(3_600))
        defer { deadline.finish() }
        for round in 0..<rounds {
            let leaf = (round * 7919) % 8920
            let properties: JSON =
                leaf % 5 == 2 ? ["isOn": .bool(round % 2 == 0)] : ["accessibilityHint": .string("h\(round)")]
            let ops: JSON = [["op": "set", "id": .string("n\(leaf)"), "properties": properties]]
            guard waiting else {
                revision = try hub.update(app: app, ops: ops).toRevision
                continue
            }
            let after = revision
            let waiter = Task { @MainActor in await hub.awaitChange(app: app, after: after, deadline: deadline) }
            while hub.registeredWaiterCount == 0 { await Task.yield() }
            revision = try hub.update(app: app, ops: ops).toRevision
            guard await waiter.value == revision else { fatalError("round \(round): the wait was not woken") }
        }
    }
}
