import AXATSPIModel
import AXCore
import AXDemo
import AXInsight
import AXJSON
import AXQuery

/// Patch operations on the demo tree: the input is parsed as JSON and decoded as a list of ops
/// (`PatchOp.decodeList`) and applied to a store holding the demo app. Checked: a refused patch leaves the store
/// as it was (revision and tree); an accepted one leaves an incrementally derived tree equal to a full rebuild.
enum PatchFuzz {
    static let target = FuzzTarget(
        name: "patch",
        summary:
            "AXCore PatchOp.decodeList + HierarchyStore.apply on the demo tree: refusals change nothing, incremental = rebuild",
        run: run)

    static let demoSnapshot = DemoApp().snapshot()

    static func run(_ bytes: UnsafeRawBufferPointer) -> [String] {
        guard let json = try? JSON.parse(bytes) else { return [] }
        var check = FuzzCheck()
        let store = HierarchyStore()
        do {
            try store.setSnapshot(demoSnapshot)
        } catch {
            check.fail("the demo snapshot does not load: \(error)")
            return check.failures
        }
        let ops: [PatchOp]
        do {
            ops = try PatchOp.decodeList(json)
        } catch {
            return []
        }
        let revisionBefore = store.revision
        let treeBefore = store.tree
        do {
            try store.apply(ops)
        } catch {
            check.expect(
                store.revision == revisionBefore,
                "a refused patch moved the revision from \(revisionBefore) to \(store.revision)")
            check.expect(TreeComparison.difference(store.tree, treeBefore) == nil, "a refused patch changed the tree")
            return check.failures
        }
        if let difference = TreeComparison.difference(store.tree, store.rebuild()) {
            check.fail("after an accepted patch the incremental tree differs from a rebuild: \(difference)")
        }
        GeometryOutputs.check(store.tree, into: &check)
        return check.failures
    }
}

/// JSON snapshot reading (`HierarchyStore.setSnapshot`): any JSON is either refused with a typed error or loaded;
/// a loaded snapshot derives the same tree when rebuilt, and loading it again into a fresh store gives that tree.
enum SnapshotFuzz {
    static let target = FuzzTarget(
        name: "snapshot",
        summary: "AXCore HierarchyStore.setSnapshot: loads or refuses; a loaded tree equals its rebuild",
        run: run)

    static func run(_ bytes: UnsafeRawBufferPointer) -> [String] {
        guard let json = try? JSON.parse(bytes) else { return [] }
        var check = FuzzCheck()
        let store = HierarchyStore()
        do {
            try store.setSnapshot(json)
        } catch {
            check.expect(store.revision == 0, "a refused snapshot moved the revision to \(store.revision)")
            return check.failures
        }
        if let difference = TreeComparison.difference(store.tree, store.rebuild()) {
            check.fail("a loaded snapshot's tree differs from its rebuild: \(difference)")
        }
        GeometryOutputs.check(store.tree, into: &check)
        return check.failures
    }
}

/// Compares two derived trees node by node.
enum TreeComparison {
    /// Nil when equal; otherwise what differs first.
    static func difference(_ left: AXTree, _ right: AXTree) -> String? {
        if left.windows != right.windows {
            return "windows \(left.windows) vs \(right.windows)"
        }
        if left.count != right.count {
            return "node count \(left.count) vs \(right.count)"
        }
        for (id, node) in left.nodes {
            guard let other = right[id] else { return "node \(id) missing" }
            if node != other { return "node \(id) differs" }
        }
        return nil
    }
}

/// Every geometry output over a derived tree (issue 19 item 2): the Appium XML, the SVG picture with every overlay
/// and the AT-SPI extents of every node in every coordinate space. Composed frames must stay within the
/// composition bound (D-REL-2) and no conversion may trap.
enum GeometryOutputs {
    static func check(_ tree: AXTree, into check: inout FuzzCheck) {
        let bound = GeometryBounds.maxComposedCoordinate
        for (id, node) in tree.nodes {
            let frame = node.frame
            let edges = [frame.minX, frame.minY, frame.maxX, frame.maxY]
            if !edges.allSatisfy({ $0.isFinite && abs($0) <= bound * 1.000_001 }) {
                check.fail("node \(id) has a frame beyond the composition bound: \(frame)")
                break
            }
        }
        _ = TreeXML.xml(tree, appName: "fuzz")
        _ = TreeRenderer.svg(tree: tree, overlays: Set(RenderOverlay.allCases), maxNodes: 2_000)
        let served = ServedSnapshot(tree: tree, focusedID: nil, applicationName: "fuzz")
        let component = ComponentModel(snapshot: served)
        for (_, node) in tree.nodes.prefix(2_000) {
            for space in [ATSPICoordinateType.screen, .window, .parent] {
                let extents = component.extents(of: node, coordinateType: space)
                check.expect(extents.width >= 0 && extents.height >= 0, "negative extents \(extents)")
            }
        }
    }
}
