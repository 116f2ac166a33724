/// An opaque sRGB colour as the app sends it for the contrast audit (`textColor`, `backgroundColor`:
/// `"#RRGGBB"` or `"#RGB"`; D-AUDIT-8). Translucent colours are not accepted: their contrast depends on what
/// lies behind them, which the mirror does not know.
package struct RGBColor: Sendable, Hashable {
    package var red: UInt8
    package var green: UInt8
    package var blue: UInt8

    package init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#RRGGBB` or `#RGB` (hex digits in either case); nil for anything else.
    package init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.first == UInt8(ascii: "#") else { return nil }
        var values: [UInt8] = []
        for digit in digits.dropFirst() {
            guard let value = RGBColor.hexValue(digit) else { return nil }
            values.append(value)
        }
        switch values.count {
        case 6:
            self.init(
                red: values[0] << 4 | values[1], green: values[2] << 4 | values[3], blue: values[4] << 4 | values[5])
        case 3:
            self.init(
                red: values[0] << 4 | values[0], green: values[1] << 4 | values[1], blue: values[2] << 4 | values[2])
        default:
            return nil
        }
    }

    /// `#rrggbb`, lower case.
    package var hex: String {
        let table = Array("0123456789abcdef")
        var out = "#"
        for component in [red, green, blue] {
            out.append(table[Int(component >> 4)])
            out.append(table[Int(component & 0xf)])
        }
        return out
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
