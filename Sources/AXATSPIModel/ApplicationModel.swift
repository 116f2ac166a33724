import AXCore
import AXJSON

#if canImport(Glibc)
    import Glibc
#endif

/// Answers of `org.a11y.atspi.Application` (the root object) and the process-wide values other interfaces use.
package enum ApplicationModel {
    /// `GetLocale` and the default `Locale`: `LC_ALL`, else `LC_MESSAGES`, else `LANG`, else "C".
    package static let localeString: String = {
        for variable in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = getenv(variable), value.pointee != 0 { return String(cString: value) }
        }
        return "C"
    }()

    /// `ToolkitName`.
    package static let toolkitName = ATSPIMapping.toolkitName
    /// `AtspiVersion`: the AT-SPI protocol version the bridge speaks.
    package static let atspiVersion = "2.1"
    /// `InterfaceVersion`.
    package static let interfaceVersion: UInt32 = 1
}

/// Answers of `org.a11y.atspi.Action`: the node's action list (index order = the interface's index).
package struct ActionModel {
    /// The node's actions.
    package let entries: [ATSPIActionEntry]

    /// The actions of `node` in `snapshot` (rotor actions, `dismiss` inside a modal container).
    package init(node: AXNode, snapshot: ServedSnapshot) {
        entries = ATSPIMapping.actions(node, context: snapshot.context(of: node))
    }

    /// The entry at a wire index, or nil when the index is out of range.
    package func entry(at index: Int32) -> ATSPIActionEntry? {
        guard index >= 0, Int(index) < entries.count else { return nil }
        return entries[Int(index)]
    }

    /// The error text for an index out of range.
    package func outOfRangeMessage(_ index: Int32) -> String {
        "Action index \(index) out of range (the object has \(entries.count) action\(entries.count == 1 ? "" : "s"))"
    }

    /// `DoAction`: what the app is asked to do for an entry; nil for a rotor step, which the bridge runs itself
    /// (`Hub.performRotorAction`, D-ROTOR-7).
    package static func request(for entry: ATSPIActionEntry) -> ElementAction? {
        switch entry.kind {
        case .rotor: return nil
        case .activate: return .activate
        case .increment: return .increment
        case .decrement: return .decrement
        case .escape: return .escape
        case .zoomIn: return .zoomIn(at: nil)
        case .zoomOut: return .zoomOut(at: nil)
        case .drag(let name): return .drag(name, at: nil)
        case .drop(let name): return .drop(name, at: nil)
        case .custom(let id): return .custom(id)
        }
    }
}

/// What `Properties.Set(Value.CurrentValue)` does.
package enum ValueChangePlan: Sendable, Equatable {
    /// The node is not a numeric control or the value is not finite.
    case invalid
    /// The control takes the value directly.
    case set(Double)
    /// Step toward the value with `action` (increment or decrement) `count` times.
    case step(ElementAction, count: Int)
    /// Already there: reply at once.
    case unchanged
}

/// Answers of `org.a11y.atspi.Value`.
package enum ValueModel {
    /// `Properties.Set(Value.CurrentValue)`: setValue where the control takes it, else increment/decrement
    /// steps toward the target (clamped to the range, at most 1,000 steps).
    package static func plan(settingCurrentValueOf node: AXNode, to target: Double) -> ValueChangePlan {
        guard let numeric = node.numeric, target.isFinite else { return .invalid }
        let clamped = min(max(target, numeric.minimum), numeric.maximum)
        let value = clamped.isFinite ? clamped : target
        if node.actions.contains(.setValue) { return .set(value) }
        let span = numeric.maximum - numeric.minimum
        let step: Double
        if numeric.step > 0 && numeric.step.isFinite {
            step = numeric.step
        } else {
            step = span.isFinite && span > 0 ? span / 10 : 1
        }
        let rawSteps = ((value - numeric.current) / step).rounded()
        let steps = rawSteps.isFinite ? Int(min(max(rawSteps, -1000), 1000)) : 0
        if steps == 0 { return .unchanged }
        return .step(steps > 0 ? .increment : .decrement, count: abs(steps))
    }
}
