import AXJSON

/// The notifications an app posts (§6.1; R62–R67, R73): `UIAccessibility.post(notification:argument:)`.
package enum AccessibilityNotification: Sendable, Equatable {
    package enum Priority: String, Sendable { case high, `default`, low }  // X47
    case announcement(text: String, priority: Priority)
    case layoutChanged(element: String?)
    case screenChanged(element: String?)
    case pageScrolled(status: String?)
    case pauseAssistiveTechnology(String)
    case resumeAssistiveTechnology(String)

    package var name: String {
        switch self {
        case .announcement: return "announcement"
        case .layoutChanged: return "layoutChanged"
        case .screenChanged: return "screenChanged"
        case .pageScrolled: return "pageScrolled"
        case .pauseAssistiveTechnology: return "pauseAssistiveTechnology"
        case .resumeAssistiveTechnology: return "resumeAssistiveTechnology"
        }
    }

    package static let allNames = [
        "screenChanged", "layoutChanged", "pageScrolled", "announcement",
        "pauseAssistiveTechnology", "resumeAssistiveTechnology",
    ]  // R63

    /// Decodes `{"notification": name, "argument": …, "priority": …}` with precise errors (R62: nil argument
    /// accepted where none is needed; D-NOTIFY-1 for wrong argument types).
    package static func decode(_ params: JSON) throws(SchemaError) -> AccessibilityNotification {
        guard let name = params["notification"]?.stringValue else {
            throw SchemaError(
                id: nil, property: "notification", message: "expected one of \(allNames.joined(separator: ", "))")
        }
        let argument = params["argument"] ?? .null
        func optString() throws(SchemaError) -> String? {
            switch argument {
            case .null: return nil
            case .string(let text): return text
            default:
                throw SchemaError(
                    id: nil, property: "argument",
                    message: "\(name) takes a string or null argument, got \(argument.typeName)")
            }
        }
        switch name {
        case "announcement":
            guard let text = try optString(), !text.isEmpty else {
                throw SchemaError(
                    id: nil, property: "argument", message: "announcement needs a non-empty string to speak (R67)")
            }
            var priority = Priority.default
            if let priorityName = params["priority"]?.stringValue {
                guard let known = Priority(rawValue: priorityName) else {
                    throw SchemaError(id: nil, property: "priority", message: "expected high, default or low (X47)")
                }
                priority = known
            }
            return .announcement(text: text, priority: priority)
        case "layoutChanged": return .layoutChanged(element: try optString())
        case "screenChanged": return .screenChanged(element: try optString())
        case "pageScrolled": return .pageScrolled(status: try optString())
        case "pauseAssistiveTechnology", "resumeAssistiveTechnology":
            let id = try optString() ?? "com.apple.UIAccessibility.SwitchControl"  // X38
            return name == "pauseAssistiveTechnology" ? .pauseAssistiveTechnology(id) : .resumeAssistiveTechnology(id)
        default:
            throw SchemaError(
                id: nil, property: "notification",
                message: "unknown notification '\(name)' (expected one of \(allNames.joined(separator: ", ")))")
        }
    }

    package var json: JSON {
        switch self {
        case .announcement(let text, let priority):
            return ["notification": "announcement", "argument": .string(text), "priority": .string(priority.rawValue)]
        case .layoutChanged(let element): return ["notification": "layoutChanged", "argument": JSON(element)]
        case .screenChanged(let element): return ["notification": "screenChanged", "argument": JSON(element)]
        case .pageScrolled(let status): return ["notification": "pageScrolled", "argument": JSON(status)]
        case .pauseAssistiveTechnology(let identifier):
            return ["notification": "pauseAssistiveTechnology", "argument": .string(identifier)]
        case .resumeAssistiveTechnology(let identifier):
            return ["notification": "resumeAssistiveTechnology", "argument": .string(identifier)]
        }
    }
}
