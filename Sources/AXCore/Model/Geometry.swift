/// Points, sizes and rects in UIKit points. Pure value types; no CoreGraphics on Linux.
package struct Point: Sendable, Hashable {
    package var x: Double
    package var y: Double
    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    package static let zero = Point(x: 0, y: 0)
    package var isFinite: Bool { x.isFinite && y.isFinite }
}

package struct Size: Sendable, Hashable {
    package var width: Double
    package var height: Double
    package init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    package static let zero = Size(width: 0, height: 0)
}

package struct Rect: Sendable, Hashable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    package static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    package var minX: Double { x }
    package var minY: Double { y }
    package var maxX: Double { x + width }
    package var maxY: Double { y + height }
    package var midX: Double { x + width / 2 }
    package var midY: Double { y + height / 2 }
    package var center: Point { Point(x: midX, y: midY) }
    package var size: Size { Size(width: width, height: height) }
    package var isEmpty: Bool { width <= 0 || height <= 0 }
    package var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }

    /// UIKit's `point(inside:)`: true exactly when the point lies within the rect (A16). The trailing and
    /// bottom edges are exclusive so that two abutting views never both contain a point.
    package func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }
    package func intersection(_ other: Rect) -> Rect? {
        let x0 = max(minX, other.minX)
        let y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX)
        let y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    package func union(_ other: Rect) -> Rect {
        let x0 = min(minX, other.minX)
        let y0 = min(minY, other.minY)
        let x1 = max(maxX, other.maxX)
        let y1 = max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    /// Whether `o` lies entirely inside this rect.
    package func containsRect(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }
}

/// The part of `CGAffineTransform` the schema mirrors: scale and translation, applied around the view's
/// center as UIKit does (A2, A14). Rotation and shear are not mirrored (decision D-GEOM-1).
package struct Transform2D: Sendable, Hashable {
    package var scaleX: Double
    package var scaleY: Double
    package var translateX: Double
    package var translateY: Double
    package init(scaleX: Double = 1, scaleY: Double = 1, translateX: Double = 0, translateY: Double = 0) {
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.translateX = translateX
        self.translateY = translateY
    }
    package static let identity = Transform2D()
    package var isIdentity: Bool { self == .identity }
    package var isFinite: Bool { scaleX.isFinite && scaleY.isFinite && translateX.isFinite && translateY.isFinite }
}

/// An axis-aligned affine map `x' = sx·x + dx, y' = sy·y + dy`. Compositions of the mirrored transforms stay
/// in this form, which makes view → screen conversion a four-number multiply.
package struct AxisMap: Sendable, Hashable {
    package var sx: Double, sy: Double, dx: Double, dy: Double
    package init(sx: Double = 1, sy: Double = 1, dx: Double = 0, dy: Double = 0) {
        self.sx = sx
        self.sy = sy
        self.dx = dx
        self.dy = dy
    }
    package static let identity = AxisMap()
    package func apply(_ point: Point) -> Point { Point(x: sx * point.x + dx, y: sy * point.y + dy) }
    /// The mapped rect, saturated to the composed-geometry bound (D-REL-2).
    package func apply(_ rect: Rect) -> Rect {
        let topLeft = apply(Point(x: rect.minX, y: rect.minY))
        let bottomRight = apply(Point(x: rect.maxX, y: rect.maxY))
        return Rect(
            x: min(topLeft.x, bottomRight.x), y: min(topLeft.y, bottomRight.y),
            width: abs(bottomRight.x - topLeft.x), height: abs(bottomRight.y - topLeft.y)
        ).saturated
    }
    /// `self ∘ inner`: first `inner`, then `self`.
    package func composed(with inner: AxisMap) -> AxisMap {
        AxisMap(sx: sx * inner.sx, sy: sy * inner.sy, dx: sx * inner.dx + dx, dy: sy * inner.dy + dy)
    }
    /// The inverse, or nil when a scale is zero (a view scaled to nothing contains no point).
    package var inverse: AxisMap? {
        guard sx != 0, sy != 0 else { return nil }
        return AxisMap(sx: 1 / sx, sy: 1 / sy, dx: -dx / sx, dy: -dy / sy)
    }
}
