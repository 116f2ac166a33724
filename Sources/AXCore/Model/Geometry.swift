/// Points, sizes and rects in UIKit points. Pure value types; no CoreGraphics on Linux.
public struct Point: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
    public var isFinite: Bool { x.isFinite && y.isFinite }
}

public struct Size: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
}

public struct Rect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var center: Point { Point(x: midX, y: midY) }
    public var size: Size { Size(width: width, height: height) }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }

    /// UIKit's `point(inside:)`: true exactly when the point lies within the rect (A16). The trailing and
    /// bottom edges are exclusive so that two abutting views never both contain a point.
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }
    public func intersection(_ o: Rect) -> Rect? {
        let x0 = max(minX, o.minX), y0 = max(minY, o.minY)
        let x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    public func union(_ o: Rect) -> Rect {
        let x0 = min(minX, o.minX), y0 = min(minY, o.minY)
        let x1 = max(maxX, o.maxX), y1 = max(maxY, o.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    /// Whether `o` lies entirely inside this rect.
    public func containsRect(_ o: Rect) -> Bool {
        o.minX >= minX && o.maxX <= maxX && o.minY >= minY && o.maxY <= maxY
    }
}

/// The part of `CGAffineTransform` the schema mirrors: scale and translation, applied around the view's
/// center as UIKit does (A2, A14). Rotation and shear are not mirrored (decision D-GEOM-1).
public struct Transform2D: Sendable, Hashable {
    public var scaleX: Double
    public var scaleY: Double
    public var translateX: Double
    public var translateY: Double
    public init(scaleX: Double = 1, scaleY: Double = 1, translateX: Double = 0, translateY: Double = 0) {
        self.scaleX = scaleX; self.scaleY = scaleY; self.translateX = translateX; self.translateY = translateY
    }
    public static let identity = Transform2D()
    public var isIdentity: Bool { self == .identity }
    public var isFinite: Bool { scaleX.isFinite && scaleY.isFinite && translateX.isFinite && translateY.isFinite }
}

/// An axis-aligned affine map `x' = sx·x + dx, y' = sy·y + dy`. Compositions of the mirrored transforms stay
/// in this form, which makes view → screen conversion a four-number multiply.
public struct AxisMap: Sendable, Hashable {
    public var sx: Double, sy: Double, dx: Double, dy: Double
    public init(sx: Double = 1, sy: Double = 1, dx: Double = 0, dy: Double = 0) {
        self.sx = sx; self.sy = sy; self.dx = dx; self.dy = dy
    }
    public static let identity = AxisMap()
    public func apply(_ p: Point) -> Point { Point(x: sx * p.x + dx, y: sy * p.y + dy) }
    public func apply(_ r: Rect) -> Rect {
        let a = apply(Point(x: r.minX, y: r.minY)), b = apply(Point(x: r.maxX, y: r.maxY))
        return Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    }
    /// `self ∘ inner`: first `inner`, then `self`.
    public func composed(with inner: AxisMap) -> AxisMap {
        AxisMap(sx: sx * inner.sx, sy: sy * inner.sy, dx: sx * inner.dx + dx, dy: sy * inner.dy + dy)
    }
    /// The inverse, or nil when a scale is zero (a view scaled to nothing contains no point).
    public var inverse: AxisMap? {
        guard sx != 0, sy != 0 else { return nil }
        return AxisMap(sx: 1 / sx, sy: 1 / sy, dx: -dx / sx, dy: -dy / sy)
    }
}
