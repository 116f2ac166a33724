import AXCore
import AXHub
import AXInsight
import AXJSON
import AXJSONRPC
import AXProtocol

/// `tree.render` (Specs/protocol.md §Pictures; D-RENDER-1). The renderer lives in AXInsight; PNG goes through
/// the server's rasterizer (`MethodOptions.rasterizePNG`, an external program at the edge).
extension AXMethods {
    static func installRender(_ router: RPCRouter, _ hub: Hub, _ options: MethodOptions) {
        router.registerSync(.treeRender) { params, session in
            let arguments = try Params(params, RPCCatalog.TreeRender.self)
            let snap = try snapshot(arguments, hub, session)
            let format = try arguments.oneOf(.format, RPCCatalog.TreeRender.Format.self) ?? .svg
            var rootID: String?
            if let root = arguments[.root] {
                rootID = try Targets.resolveOne(
                    root, in: snap, hub: hub, method: RPCMethodName.treeRender.rawValue, param: arguments.name(.root))
            }
            let overlays = try renderOverlays(arguments)
            let maxNodes =
                try arguments.int(.maxNodes, in: 1...TreeRenderer.maxNodesLimit) ?? TreeRenderer.defaultMaxNodes
            var findings: [AuditFinding] = []
            if overlays.contains(.audit) {
                findings = Auditor.run(tree: snap.tree, views: snap.views, root: rootID).findings
            }
            var smallTargets = Set<String>()
            if overlays.contains(.hitRegions) {
                let hitRegion = Auditor.run(
                    tree: snap.tree, views: snap.views, root: rootID, checks: [AuditCatalog.hitRegion],
                    maxFindings: Auditor.maxFindingsLimit)
                smallTargets = Set(hitRegion.findings.map(\.element))
            }
            let picture = TreeRenderer.svg(
                tree: snap.tree, root: rootID, focusedID: snap.focusedID, overlays: overlays,
                findings: findings, smallTargets: smallTargets, maxNodes: maxNodes)
            var out: RPCResultObject<RPCCatalog.TreeRender.Member> = [
                .app: .string(snap.id), .revision: JSON(snap.revision), .format: .string(format.rawValue),
                .width: JSON(picture.width), .height: JSON(picture.height),
                .overlays: JSON(RenderOverlay.allCases.filter { overlays.contains($0) }.map(\.rawValue)),
                .drawn: JSON(picture.drawn),
            ]
            if picture.omitted > 0 {
                out[.truncated] = ["kind": "maxNodes", "limit": JSON(maxNodes), "omitted": JSON(picture.omitted)]
            }
            if overlays.contains(.audit) { out[.findings] = JSON(findings.count) }
            switch format {
            case .svg:
                out[.svg] = .string(picture.svg)
                return out.json
            case .png: break
            }
            guard let rasterize = options.rasterizePNG else {
                throw arguments.bad(
                    .format,
                    "png needs a rasterizer on the server (install rsvg-convert: apt-get install librsvg2-bin); svg works without one"
                )
            }
            let png: [UInt8]
            do {
                png = try rasterize(picture.svg)
            } catch {
                throw RPCError.internalError(
                    "the PNG rasterizer failed: \(error)", data: ["format": .string(format.rawValue)])
            }
            out[.encoding] = "base64"
            out[.data] = .string(Base64.encode(png))
            return out.json
        }
    }

    /// `overlay`: a list of overlay names (default labels, order, focus); unknown names are −32602 with the list.
    static func renderOverlays(_ arguments: Params<RPCCatalog.TreeRender.Param>) throws(RPCError) -> Set<RenderOverlay>
    {
        guard let names = try arguments.stringList(.overlay) else { return Set(RenderOverlay.defaults) }
        var out = Set<RenderOverlay>()
        for name in names {
            guard let overlay = RenderOverlay(rawValue: name) else {
                let accepted = RenderOverlay.allCases.map(\.rawValue)
                throw RPCError.invalidParams(
                    "tree.render: unknown overlay '\(String(name.prefix(100)))' (accepted: \(accepted.joined(separator: ", ")))",
                    data: [
                        "param": .string(arguments.name(.overlay)), "method": .string(arguments.method),
                        "accepted": JSON(accepted),
                    ])
            }
            out.insert(overlay)
        }
        return out
    }
}
