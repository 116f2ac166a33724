import AXJSON

/// One desktop setting the server reads: a GSettings schema and key (D-SET-1).
package struct SettingsKey: Hashable, Sendable, Comparable {
    package let schema: String
    package let key: String

    package init(_ schema: String, _ key: String) {
        self.schema = schema
        self.key = key
    }

    /// `schema key`, as `gsettings get` takes them and as `a11y.settings` names its sources.
    package var name: String { "\(schema) \(key)" }

    package static func < (lhs: SettingsKey, rhs: SettingsKey) -> Bool { lhs.name < rhs.name }

    /// What the key holds.
    package enum Kind: Sendable { case boolean, double }

    /// The type GSettings stores the key as.
    package var kind: Kind { self == Self.textScalingFactor || self == Self.colorSaturation ? .double : .boolean }

    package static let enableAnimations = SettingsKey("org.gnome.desktop.interface", "enable-animations")
    package static let textScalingFactor = SettingsKey("org.gnome.desktop.interface", "text-scaling-factor")
    package static let highContrast = SettingsKey("org.gnome.desktop.a11y.interface", "high-contrast")
    package static let screenReader = SettingsKey("org.gnome.desktop.a11y.applications", "screen-reader-enabled")
    package static let screenKeyboard = SettingsKey("org.gnome.desktop.a11y.applications", "screen-keyboard-enabled")
    package static let magnifier = SettingsKey("org.gnome.desktop.a11y.applications", "screen-magnifier-enabled")
    package static let invertLightness = SettingsKey("org.gnome.desktop.a11y.magnifier", "invert-lightness")
    package static let colorSaturation = SettingsKey("org.gnome.desktop.a11y.magnifier", "color-saturation")

    /// Every key the server watches.
    package static let all: [SettingsKey] = [
        enableAnimations, textScalingFactor, highContrast, screenReader, screenKeyboard, magnifier,
        invertLightness, colorSaturation,
    ]
}

/// What the reader found for one key.
package struct SettingsKeyReading: Sendable, Equatable {
    /// Where the value came from.
    package enum Origin: String, Sendable {
        /// The user (or a test) set it in the backend.
        case user
        /// The key is unset: the schema's default.
        case schemaDefault
        /// The schema or key is not installed (another desktop): UIKit's default is used.
        case missing
        /// The key holds another type than the schema the server knows: UIKit's default is used.
        case wrongType
        /// No settings reader runs (in-process servers, `--settings none`): UIKit's default is used.
        case notRead
    }

    package var boolean: Bool?
    package var number: Double?
    package var origin: Origin

    package init(boolean: Bool? = nil, number: Double? = nil, origin: Origin) {
        self.boolean = boolean
        self.number = number
        self.origin = origin
    }

    package static let notRead = SettingsKeyReading(origin: .notRead)

    package var json: JSON {
        [
            "value": number.map { JSON($0) } ?? boolean.map { JSON.bool($0) } ?? .null,
            "origin": .string(origin.rawValue),
        ]
    }
}

/// UIKit's Dynamic Type sizes (`UIContentSizeCategory`), from the desktop's text-scaling factor (D-SET-2).
package enum ContentSizeCategory: String, Sendable, CaseIterable {
    case extraSmall, small, medium, large, extraLarge, extraExtraLarge, extraExtraExtraLarge
    case accessibilityMedium, accessibilityLarge, accessibilityExtraLarge, accessibilityExtraExtraLarge
    case accessibilityExtraExtraExtraLarge

    /// The body text size in points UIKit uses at this category (`UIFont.TextStyle.body`).
    package var bodyPointSize: Double {
        switch self {
        case .extraSmall: 14
        case .small: 15
        case .medium: 16
        case .large: 17
        case .extraLarge: 19
        case .extraExtraLarge: 21
        case .extraExtraExtraLarge: 23
        case .accessibilityMedium: 28
        case .accessibilityLarge: 33
        case .accessibilityExtraLarge: 40
        case .accessibilityExtraExtraLarge: 47
        case .accessibilityExtraExtraExtraLarge: 53
        }
    }

    /// The category whose body size is nearest to 17 pt × `factor` (the smaller one on a tie); `large` for a
    /// factor that is not a finite positive number.
    package static func from(textScalingFactor factor: Double) -> ContentSizeCategory {
        guard factor.isFinite, factor > 0 else { return .large }
        let wanted = 17 * factor
        var best = ContentSizeCategory.large
        var bestDistance = Double.infinity
        for category in allCases {
            let distance = abs(category.bodyPointSize - wanted)
            if distance < bestDistance {
                best = category
                bestDistance = distance
            }
        }
        return best
    }
}

/// The user's accessibility settings as UIKit names them (`UIAccessibility.is…Enabled`, R72, R97–R99), derived
/// from desktop keys (D-SET-1). Each flag names the keys it comes from, or why Linux has none.
package struct AccessibilitySettings: Sendable, Equatable {
    /// A UIKit flag and where the server reads it.
    package enum Flag: String, Sendable, CaseIterable {
        case isReduceMotionEnabled, isDarkerSystemColorsEnabled, isInvertColorsEnabled, isGrayscaleEnabled
        case isBoldTextEnabled, isVoiceOverRunning, isReduceTransparencyEnabled, isSwitchControlRunning
        case isOnScreenKeyboardEnabled

        /// The desktop keys the flag is derived from (empty: no Linux source).
        package var keys: [SettingsKey] {
            switch self {
            case .isReduceMotionEnabled: [.enableAnimations]
            case .isDarkerSystemColorsEnabled: [.highContrast]
            case .isInvertColorsEnabled: [.magnifier, .invertLightness]
            case .isGrayscaleEnabled: [.magnifier, .colorSaturation]
            case .isVoiceOverRunning: [.screenReader]
            case .isOnScreenKeyboardEnabled: [.screenKeyboard]
            case .isBoldTextEnabled, .isReduceTransparencyEnabled, .isSwitchControlRunning: []
            }
        }

        /// How the flag follows its keys, or why it has none.
        package var rule: String {
            switch self {
            case .isReduceMotionEnabled: "true when enable-animations is false"
            case .isDarkerSystemColorsEnabled: "true when high-contrast is true (GNOME's High Contrast)"
            case .isInvertColorsEnabled:
                "true when the magnifier is on and inverts lightness (GNOME inverts only through the magnifier)"
            case .isGrayscaleEnabled: "true when the magnifier is on with color-saturation 0 (its grayscale filter)"
            case .isVoiceOverRunning:
                "true when screen-reader-enabled is true or the session's org.a11y.Status ScreenReaderEnabled is (D-SR-1)"
            case .isOnScreenKeyboardEnabled: "true when screen-keyboard-enabled is true (no UIKit flag; Linux only)"
            case .isBoldTextEnabled: "no Linux source: no desktop has a bold-text setting; always false"
            case .isReduceTransparencyEnabled:
                "no Linux source: GNOME has no transparency setting (High Contrast sets isDarkerSystemColorsEnabled); always false"
            case .isSwitchControlRunning:
                "no Linux source: no desktop publishes whether switch access runs; always false"
            }
        }
    }

    /// What the reader found for each key (`notRead` for every key when no reader runs).
    package var keys: [SettingsKey: SettingsKeyReading]
    /// The session's `org.a11y.Status ScreenReaderEnabled` (D-SR-1), nil when no bridge knows it.
    package var screenReaderStatus: Bool?

    package init(keys: [SettingsKey: SettingsKeyReading] = [:], screenReaderStatus: Bool? = nil) {
        self.keys = keys
        self.screenReaderStatus = screenReaderStatus
    }

    private func bool(_ key: SettingsKey, default value: Bool) -> Bool { keys[key]?.boolean ?? value }

    /// The textual factor (GNOME's range is 0.5…3; anything else is taken as 1).
    package var textScalingFactor: Double {
        guard let factor = keys[.textScalingFactor]?.number, factor.isFinite, factor >= 0.5, factor <= 3 else {
            return 1
        }
        return factor
    }

    /// UIKit's flag value.
    package func value(_ flag: Flag) -> Bool {
        switch flag {
        case .isReduceMotionEnabled: !bool(.enableAnimations, default: true)
        case .isDarkerSystemColorsEnabled: bool(.highContrast, default: false)
        case .isInvertColorsEnabled: bool(.magnifier, default: false) && bool(.invertLightness, default: false)
        case .isGrayscaleEnabled:
            bool(.magnifier, default: false) && (keys[.colorSaturation]?.number.map { $0 <= 0.001 } ?? false)
        case .isVoiceOverRunning: bool(.screenReader, default: false) || screenReaderStatus == true
        case .isOnScreenKeyboardEnabled: bool(.screenKeyboard, default: false)
        case .isBoldTextEnabled, .isReduceTransparencyEnabled, .isSwitchControlRunning: false
        }
    }

    /// `UIApplication.preferredContentSizeCategory`.
    package var preferredContentSizeCategory: ContentSizeCategory {
        ContentSizeCategory.from(textScalingFactor: textScalingFactor)
    }

    /// The values clients read: each flag, `preferredContentSizeCategory` and `textScalingFactor`.
    package var valuesJSON: JSONObject {
        var out: JSONObject = [:]
        for flag in Flag.allCases { out[flag.rawValue] = .bool(value(flag)) }
        out["preferredContentSizeCategory"] = .string(preferredContentSizeCategory.rawValue)
        out["textScalingFactor"] = JSON(textScalingFactor)
        return out
    }

    /// Where each value comes from: its keys (`schema key`) and rule.
    package var sourcesJSON: JSONObject {
        var out: JSONObject = [:]
        for flag in Flag.allCases {
            var keyNames = flag.keys.map { JSON.string($0.name) }
            if flag == .isVoiceOverRunning { keyNames.append("org.a11y.Status ScreenReaderEnabled") }
            out[flag.rawValue] = ["keys": .array(keyNames), "rule": .string(flag.rule)]
        }
        let scaling: JSON = [
            "keys": [.string(SettingsKey.textScalingFactor.name)],
            "rule": "the UIKit category whose body size is nearest 17 pt times text-scaling-factor (D-SET-2)",
        ]
        out["preferredContentSizeCategory"] = scaling
        out["textScalingFactor"] = scaling
        return out
    }

    /// What was read for each key, by `schema key`, plus the screen reader status.
    package var keysJSON: JSONObject {
        var out: JSONObject = [:]
        for key in SettingsKey.all { out[key.name] = (keys[key] ?? .notRead).json }
        out["org.a11y.Status ScreenReaderEnabled"] = [
            "value": screenReaderStatus.map { JSON.bool($0) } ?? .null,
            "origin": .string(screenReaderStatus == nil ? "notRead" : "user"),
        ]
        return out
    }

    /// The flags whose value differs from `other`'s (with `preferredContentSizeCategory`).
    package func changedNames(from other: AccessibilitySettings) -> [String] {
        var names = Flag.allCases.filter { value($0) != other.value($0) }.map(\.rawValue)
        if preferredContentSizeCategory != other.preferredContentSizeCategory {
            names.append("preferredContentSizeCategory")
        }
        if textScalingFactor != other.textScalingFactor { names.append("textScalingFactor") }
        return names
    }
}
