/// One key the server accepts in `input.key`: its X keysym name and value, the hardware keycode of a standard
/// evdev/pc105 US layout (what Xvfb and Orca's keymap lookups use), and the text it types, if any (D-KEY-1).
package struct KeySymbol: Sendable, Equatable {
    /// The X keysym name (`Tab`, `ISO_Left_Tab`, `KP_Enter`, `h`).
    package var name: String
    /// The X keysym value (`0xff09` for Tab).
    package var keysym: UInt32
    /// The evdev keycode of the US layout (`23` for Tab).
    package var keycode: UInt32
    /// The character a printable key types (`"h"`), nil for function and navigation keys.
    package var text: String?

    /// The event string an AT-SPI key event carries: the typed character for printable keys, the keysym name
    /// otherwise (`space` for the space bar), as the registry's X key snooper fills it.
    package var eventString: String {
        if name == "space" { return "space" }
        return text ?? name
    }

    /// True for keys that change modifier state (Shift_L, Control_R, ...): never navigation.
    package var isModifierKey: Bool { Keysyms.modifierKeys.contains(name) }
}

/// The modifiers `input.key` accepts, with their X modifier-mask bits (ShiftMask, ControlMask, Mod1, Mod4).
package enum KeyModifier: String, Sendable, CaseIterable {
    case shift, control, alt, `super`

    /// The X (and AT-SPI `ATSPI_MODIFIER_*`) mask bit.
    package var mask: UInt32 {
        switch self {
        case .shift: return 1
        case .control: return 1 << 2
        case .alt: return 1 << 3
        case .super: return 1 << 6
        }
    }
}

/// The keysym table `input.key` validates against (D-KEY-1): names are X keysym names, matched exactly
/// (case matters: `a` and `A` are different keysyms).
package enum Keysyms {
    /// Looks a keysym name up; nil when the server does not know it. The US-layout keys come first; then every
    /// other X keysym name (`KeysymNames.swift`): an alias of a US-layout key (`Prior`, `Next`, `KP_Prior`,
    /// `KP_Next`: the names Tk reports for Page Up/Down) is that key, with its name; any other name is its keysym
    /// without a keycode; `U` and 4–6 hex digits is the Unicode keysym of that scalar (`U20AC`).
    package static func symbol(named name: String) -> KeySymbol? {
        table[name] ?? otherNames[name] ?? unicodeSymbol(named: name)
    }

    /// Every accepted name, sorted (for the error that lists them).
    package static var acceptedNames: [String] { table.keys.sorted() }

    /// A short description of what is accepted, for error messages.
    package static let acceptedSummary =
        "X keysym names: letters a-z and A-Z, digits 0-9, punctuation names (comma, period, slash, minus, ...), "
        + "shifted symbols (plus, at, exclam, question, colon, underscore, ...), "
        + "Tab, ISO_Left_Tab, Return, KP_Enter, Escape, space, BackSpace, Delete, Insert, KP_Insert, Home, End, "
        + "Page_Up, Page_Down, Up, Down, Left, Right, KP_0-KP_9, KP_Up/Down/Left/Right/Home/End/Begin/Delete, "
        + "F1-F12, Shift_L/R, Control_L/R, Alt_L/R, Super_L/R, Caps_Lock, Menu; "
        + "and every other X keysym name (keysymdef.h, XF86keysym.h) with its aliases (Prior = Page_Up, "
        + "Next = Page_Down, KP_Prior = KP_Page_Up, ...), and U followed by 4-6 hex digits (U20AC)"

    static let modifierKeys: Set<String> = [
        "Shift_L", "Shift_R", "Control_L", "Control_R", "Alt_L", "Alt_R", "Super_L", "Super_R", "Caps_Lock",
    ]

    /// The symbol that types `character`, with the Shift modifier it needs on a US layout (`A` → A with shift,
    /// `+` → plus with shift).
    package static func symbol(typing character: Character) -> (symbol: KeySymbol, shift: Bool)? {
        guard let found = byText[String(character)] else { return nil }
        let upper = found.name.count == 1 && found.name.first?.isUppercase == true
        return (found, upper || shiftedSymbols[found.name] != nil)
    }

    /// Shifted symbol → (keysym, text, the unshifted key on the same keycode), US layout.
    static let shiftedSymbols: [String: (UInt32, String, String)] = [
        "exclam": (0x21, "!", "1"), "at": (0x40, "@", "2"), "numbersign": (0x23, "#", "3"),
        "dollar": (0x24, "$", "4"), "percent": (0x25, "%", "5"), "asciicircum": (0x5e, "^", "6"),
        "ampersand": (0x26, "&", "7"), "asterisk": (0x2a, "*", "8"), "parenleft": (0x28, "(", "9"),
        "parenright": (0x29, ")", "0"), "underscore": (0x5f, "_", "minus"), "plus": (0x2b, "+", "equal"),
        "braceleft": (0x7b, "{", "bracketleft"), "braceright": (0x7d, "}", "bracketright"),
        "colon": (0x3a, ":", "semicolon"), "quotedbl": (0x22, "\"", "apostrophe"),
        "asciitilde": (0x7e, "~", "grave"), "bar": (0x7c, "|", "backslash"), "less": (0x3c, "<", "comma"),
        "greater": (0x3e, ">", "period"), "question": (0x3f, "?", "slash"),
    ]

    /// Unshifted key name → its shifted symbol's name (`equal` → `plus`, `a` → `A`).
    private static let shiftedByBase: [String: String] = {
        var out: [String: String] = [:]
        for (name, entry) in shiftedSymbols { out[entry.2] = name }
        for letter in "abcdefghijklmnopqrstuvwxyz" { out[String(letter)] = String(letter).uppercased() }
        return out
    }()

    /// The symbol a key sends with its modifiers (D-KEY-7): Shift with an unshifted printable key gives the
    /// shifted level's keysym on the same keycode, as X reports it (`equal` + shift → `plus`, `a` + shift → `A`);
    /// anything else is the key itself.
    package static func resolved(_ symbol: KeySymbol, modifiers: Set<KeyModifier>) -> KeySymbol {
        guard modifiers.contains(.shift), let name = shiftedByBase[symbol.name], let shifted = table[name] else {
            return symbol
        }
        return shifted
    }

    /// The text a key types with its modifiers (D-KEY-7): the resolved symbol's text; nil for keys that type
    /// nothing and for Control, Alt or Super chords.
    package static func text(of symbol: KeySymbol, modifiers: Set<KeyModifier>) -> String? {
        if modifiers.contains(.control) || modifiers.contains(.alt) || modifiers.contains(.super) { return nil }
        return resolved(symbol, modifiers: modifiers).text
    }

    /// How to send a key the table does not know (D-KEY-7): the keysym name for a character the US layout types
    /// (`+` → `plus`), a case-only near miss (`tab` → `Tab`), else nil (the caller says to send text with
    /// `input.type`).
    package static func suggestion(for name: String) -> String? {
        if name.count == 1, let character = name.first, let typing = symbol(typing: character) {
            return typing.symbol.name
        }
        return acceptedNames.first(where: { $0.lowercased() == name.lowercased() })
    }

    /// The X keysym names beyond `table` (D-KEY-1), parsed once from `xKeysymNames`: an alias of a key in
    /// `table` (the same keysym value) is that key; the rest have no keycode on the US layout.
    private static let otherNames: [String: KeySymbol] = {
        var byValue: [UInt32: KeySymbol] = [:]
        for symbol in table.values where byValue[symbol.keysym] == nil || symbol.text == nil {
            byValue[symbol.keysym] = symbol
        }
        var out: [String: KeySymbol] = [:]
        for line in xKeysymNames.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let keysym = UInt32(fields[1], radix: 16), keysym != 0xff_ffff else { continue }
            let name = String(fields[0])
            guard table[name] == nil else { continue }
            if let known = byValue[keysym] {
                out[name] = known
                continue
            }
            let text = UInt32(fields[2], radix: 16).flatMap { Unicode.Scalar($0) }.map { String(Character($0)) }
            out[name] = KeySymbol(name: name, keysym: keysym, keycode: 0, text: text)
        }
        return out
    }()

    /// `U` + 4–6 hex digits: X's keysym for a Unicode scalar (0x0100_0000 + the scalar), typing it.
    private static func unicodeSymbol(named name: String) -> KeySymbol? {
        guard name.utf8.count >= 5, name.utf8.count <= 7, name.first == "U" else { return nil }
        let digits = name.dropFirst()
        guard digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16), value >= 0x20,
            let scalar = Unicode.Scalar(value)
        else { return nil }
        return KeySymbol(name: name, keysym: 0x0100_0000 + value, keycode: 0, text: String(Character(scalar)))
    }

    private static let byText: [String: KeySymbol] = {
        var out: [String: KeySymbol] = [:]
        for symbol in table.values {
            guard let text = symbol.text else { continue }
            // A plain key wins over its keypad twin (`1` over `KP_1`).
            if let existing = out[text], !existing.name.hasPrefix("KP_") { continue }
            out[text] = symbol
        }
        return out
    }()

    private static let table: [String: KeySymbol] = {
        var out: [String: KeySymbol] = [:]
        func add(_ name: String, _ keysym: UInt32, _ keycode: UInt32, _ text: String? = nil) {
            out[name] = KeySymbol(name: name, keysym: keysym, keycode: keycode, text: text)
        }
        let letterCodes: [Character: UInt32] = [
            "q": 24, "w": 25, "e": 26, "r": 27, "t": 28, "y": 29, "u": 30, "i": 31, "o": 32, "p": 33,
            "a": 38, "s": 39, "d": 40, "f": 41, "g": 42, "h": 43, "j": 44, "k": 45, "l": 46,
            "z": 52, "x": 53, "c": 54, "v": 55, "b": 56, "n": 57, "m": 58,
        ]
        for (letter, code) in letterCodes {
            let lower = String(letter)
            let upper = lower.uppercased()
            let value = UInt32(letter.asciiValue ?? 0)
            add(lower, value, code, lower)
            add(upper, value - 0x20, code, upper)
        }
        for digit in 0...9 {
            let code: UInt32 = digit == 0 ? 19 : UInt32(9 + digit)
            add(String(digit), 0x30 + UInt32(digit), code, String(digit))
        }
        let punctuation: [(String, UInt32, UInt32, String)] = [
            ("minus", 0x2d, 20, "-"), ("equal", 0x3d, 21, "="), ("bracketleft", 0x5b, 34, "["),
            ("bracketright", 0x5d, 35, "]"), ("semicolon", 0x3b, 47, ";"), ("apostrophe", 0x27, 48, "'"),
            ("grave", 0x60, 49, "`"), ("backslash", 0x5c, 51, "\\"), ("comma", 0x2c, 59, ","),
            ("period", 0x2e, 60, "."), ("slash", 0x2f, 61, "/"), ("space", 0x20, 65, " "),
        ]
        for (name, keysym, code, text) in punctuation { add(name, keysym, code, text) }
        // The shifted symbols of the US layout: the same keycode as their unshifted key (X reports the keysym
        // of the shifted level with ShiftMask set).
        for (name, (keysym, text, base)) in shiftedSymbols {
            add(name, keysym, out[base]?.keycode ?? 0, text)
        }
        let functionKeys: [(String, UInt32, UInt32)] = [
            ("Escape", 0xff1b, 9), ("BackSpace", 0xff08, 22), ("Tab", 0xff09, 23), ("ISO_Left_Tab", 0xfe20, 23),
            ("Return", 0xff0d, 36), ("Control_L", 0xffe3, 37), ("Shift_L", 0xffe1, 50), ("Shift_R", 0xffe2, 62),
            ("Alt_L", 0xffe9, 64), ("Caps_Lock", 0xffe5, 66), ("KP_Home", 0xff95, 79), ("KP_Up", 0xff97, 80),
            ("KP_Page_Up", 0xff9a, 81), ("KP_Left", 0xff96, 83), ("KP_Begin", 0xff9d, 84),
            ("KP_Right", 0xff98, 85), ("KP_End", 0xff9c, 87), ("KP_Down", 0xff99, 88),
            ("KP_Page_Down", 0xff9b, 89), ("KP_Insert", 0xff9e, 90), ("KP_Delete", 0xff9f, 91),
            ("KP_Enter", 0xff8d, 104), ("Control_R", 0xffe4, 105), ("Alt_R", 0xffea, 108), ("Home", 0xff50, 110),
            ("Up", 0xff52, 111), ("Page_Up", 0xff55, 112), ("Left", 0xff51, 113), ("Right", 0xff53, 114),
            ("End", 0xff57, 115), ("Down", 0xff54, 116), ("Page_Down", 0xff56, 117), ("Insert", 0xff63, 118),
            ("Delete", 0xffff, 119), ("Super_L", 0xffeb, 133), ("Super_R", 0xffec, 134), ("Menu", 0xff67, 135),
        ]
        for (name, keysym, code) in functionKeys { add(name, keysym, code) }
        let keypadText: [(String, UInt32, UInt32, String)] = [
            ("KP_Multiply", 0xffaa, 63, "*"), ("KP_Subtract", 0xffad, 82, "-"), ("KP_Add", 0xffab, 86, "+"),
            ("KP_Divide", 0xffaf, 106, "/"), ("KP_Decimal", 0xffae, 91, "."),
        ]
        for (name, keysym, code, text) in keypadText { add(name, keysym, code, text) }
        let keypadDigitCodes: [UInt32] = [90, 87, 88, 89, 83, 84, 85, 79, 80, 81]
        for (digit, code) in keypadDigitCodes.enumerated() {
            add("KP_\(digit)", 0xffb0 + UInt32(digit), code, String(digit))
        }
        let functionCodes: [UInt32] = [67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 95, 96]
        for (offset, code) in functionCodes.enumerated() {
            add("F\(offset + 1)", 0xffbe + UInt32(offset), code)
        }
        return out
    }()
}
