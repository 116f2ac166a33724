import AXCore

/// One line the app draws (its reading content, R93; D-TEXT-APP-4), placed in the element's text: the scalars it
/// covers and its frame in screen coordinates.
package struct TextLineBox: Sendable, Equatable {
    package var start: Int
    package var length: Int
    package var frame: Rect

    /// The app's lines of `node` placed in `text` (AXTextContent.lineRanges), with their screen frames.
    package static func place(_ content: AXTextContent, in text: [Unicode.Scalar]) -> [TextLineBox] {
        zip(content.lineRanges(in: text), content.lines).map { range, line in
            TextLineBox(start: range.lowerBound, length: range.count, frame: line.frame)
        }
    }

    /// The width of one character of the line (its frame shared evenly: the mirror has no glyph metrics).
    var characterWidth: Double { frame.width / Double(max(length, 1)) }
}

extension TextModel {
    /// The line box holding `offset`: the last one starting at or before it.
    func lineBox(at offset: Int) -> TextLineBox? {
        lineBoxes.last { $0.start <= offset } ?? lineBoxes.first
    }

    /// D-TEXT-APP-4: with the app's line boxes, a range within one line is its part of that line's box (characters
    /// share the box's width evenly); a range over several lines is the box around them. Line frames are screen
    /// coordinates, moved like the element's extents into the coordinates asked for.
    func lineBoxExtents(from start: Int, to end: Int, elementExtents: ATSPIRect) -> ATSPIRect {
        guard let first = lineBox(at: start), let last = lineBox(at: max(end - 1, start)) else { return elementExtents }
        let shiftX = Double(elementExtents.x) - elementFrame.x
        let shiftY = Double(elementExtents.y) - elementFrame.y
        if first == last {
            let left = first.frame.x + first.characterWidth * Double(min(start - first.start, first.length))
            let right = first.frame.x + first.characterWidth * Double(min(end - first.start, first.length))
            return ATSPIRect(
                x: clampedInt32(left + shiftX), y: clampedInt32(first.frame.y + shiftY),
                width: clampedInt32(max(right - left, 0)), height: clampedInt32(first.frame.height))
        }
        let union = first.frame.union(last.frame)
        return ATSPIRect(
            x: clampedInt32(union.x + shiftX), y: clampedInt32(union.y + shiftY), width: clampedInt32(union.width),
            height: clampedInt32(union.height))
    }

    /// `GetOffsetAtPoint` with line boxes: the line whose box holds the point's y (else the nearest), then the
    /// column under x (its end past the last character).
    func lineBoxOffset(atScreenPoint point: Point) -> Int32 {
        let line =
            lineBoxes.first { point.y >= $0.frame.y && point.y < $0.frame.y + $0.frame.height }
            ?? lineBoxes.min { abs($0.frame.center.y - point.y) < abs($1.frame.center.y - point.y) }
        guard let line else { return -1 }
        let column = Int((point.x - line.frame.x) / line.characterWidth)
        return Int32(clamping: line.start + min(max(column, 0), line.length))
    }
}
