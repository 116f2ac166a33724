import AXATSPIModel
import AXDBus

// The AT-SPI value shapes on AXDBus's fast path (`DBusFastWriter`): the few writes whose layout is AT-SPI's.

extension DBusFastWriter {
    /// `au`: a state set as two words (low, high).
    @inline(__always) mutating func states(_ states: ATSPIStateSet) {
        array("u") { words in
            words.uint32(states.low)
            words.uint32(states.high)
        }
    }

    /// `(iiii)`.
    mutating func rect(_ rect: ATSPIRect) { structure { fields in fields.fourInts(rect) } }

    /// `iiii` (not a struct: GetCharacterExtents and GetRangeExtents).
    mutating func fourInts(_ rect: ATSPIRect) {
        int32(rect.x)
        int32(rect.y)
        int32(rect.width)
        int32(rect.height)
    }

    /// `sii`: a piece of text and its offsets.
    mutating func textRange(_ range: ATSPITextRange) {
        string(range.text)
        int32(range.start)
        int32(range.end)
    }
}

// libdbus's C `DBusError` struct is visible through CDBus; inside this module the name means AXDBus's error.
typealias DBusError = AXDBus.DBusError
typealias DBusConnection = AXDBus.DBusConnection
typealias DBusMessage = AXDBus.DBusMessage
