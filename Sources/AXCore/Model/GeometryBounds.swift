/// The composition rule for geometry (D-REL-2). Each coordinate, size and transform an app sends is bounded
/// (D-GEOM-1, D-GEOM-2), but what they compose to is not: four nested views scaled by 10⁶ put a frame near 10²⁴,
/// beyond every integer type an output path converts to. So every composed screen rect is saturated: each edge
/// is clamped to ±`maxComposedCoordinate` (NaN becomes 0), its size is the clamped edges' difference. Every frame
/// the server serves (JSON, XML, AT-SPI, SVG, hit testing, audits, focus search) then fits Int32 and converts
/// exactly; output paths still convert with the saturating helpers below, so no Double → Int conversion can trap.
package enum GeometryBounds {
    /// 10⁹ points: far beyond any screen, within Int32 (±2.1·10⁹) for both edges and the size between them.
    package static let maxComposedCoordinate = 1.0e9

    /// `value` clamped to ±`maxComposedCoordinate`; NaN becomes 0.
    @inline(__always) package static func saturate(_ value: Double) -> Double {
        guard !value.isNaN else { return 0 }
        return min(max(value, -maxComposedCoordinate), maxComposedCoordinate)
    }
}

extension Rect {
    /// The rect with its edges clamped to ±`GeometryBounds.maxComposedCoordinate` (D-REL-2).
    package var saturated: Rect {
        let left = GeometryBounds.saturate(minX)
        let top = GeometryBounds.saturate(minY)
        let right = GeometryBounds.saturate(maxX)
        let bottom = GeometryBounds.saturate(maxY)
        return Rect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }
}

extension Double {
    /// Rounded to the nearest Int, saturating at Int.min / Int.max; NaN becomes 0. Never traps.
    package var saturatingInt: Int {
        guard !isNaN else { return 0 }
        let rounded = self.rounded()
        // Double(Int.max) is 2^63, one past Int.max: at or beyond it saturate.
        if rounded >= Double(Int.max) { return .max }
        if rounded <= Double(Int.min) { return .min }
        return Int(rounded)
    }

    /// Rounded to the nearest Int32, saturating; NaN becomes 0. Never traps.
    package var saturatingInt32: Int32 { Int32(clamping: saturatingInt) }

    /// Truncated toward zero like `Int(_:)`, saturating; NaN becomes 0. Never traps.
    package var saturatingTruncatedInt: Int {
        guard !isNaN else { return 0 }
        if self >= Double(Int.max) { return .max }
        if self <= Double(Int.min) { return .min }
        return Int(self)
    }
}
