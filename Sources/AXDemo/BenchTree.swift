import AXJSON

/// A generated hierarchy of N leaf controls mixed like the GTK4 reference app (Tools/gtk4_reference_app.py):
/// leaves cycle through button, label, switch, slider and text field, in horizontal groups of 10 inside
/// vertical groups of 50, in one scroll view. Groups are semantic-group containers so the accessibility tree
/// has the same shape as GTK's panels.
package enum BenchTree {
    package static let appName = "axserver-bench"

    package static func snapshot(leaves leafCount: Int) -> JSON {
        var outers: [JSON] = []
        var leaf = 0
        var originY = 0.0
        var outerIndex = 0
        while leaf < leafCount {
            var inners: [JSON] = []
            var iy = 0.0
            var innerIndex = 0
            while innerIndex < 5 && leaf < leafCount {
                var kids: [JSON] = []
                for column in 0..<10 where leaf < leafCount {
                    kids.append(leafView(leaf, x: Double(column) * 80))
                    leaf += 1
                }
                inners.append(
                    V.view(
                        "g\(outerIndex)_\(innerIndex)", "UIStackView", [0, iy, 800, 40],
                        ["accessibilityContainerType": "semanticGroup"], children: kids))
                iy += 40
                innerIndex += 1
            }
            outers.append(
                V.view(
                    "g\(outerIndex)", "UIStackView", [0, originY, 800, iy],
                    ["accessibilityContainerType": "semanticGroup"], children: inners))
            originY += iy
            outerIndex += 1
        }
        let scroll = V.view(
            "scroll", "UIScrollView", [0, 0, 800, 600], ["accessibilityContainerType": "semanticGroup"],
            children: outers)
        let window = V.view(
            "benchWindow", "UIWindow", [0, 0, 800, 600],
            ["isKeyWindow": true, "windowTitle": .string("AXServer Bench N=\(leafCount)")], children: [scroll])
        return ["windows": [window]]
    }

    static func leafView(_ number: Int, x originX: Double) -> JSON {
        let frame = [originX, 5, 75, 30]
        switch number % 5 {
        case 0: return V.view("n\(number)", "UIButton", frame, ["title": .string("Button \(number)")])
        case 1: return V.view("n\(number)", "UILabel", frame, ["text": .string("Label \(number)")])
        case 2:
            return V.view(
                "n\(number)", "UISwitch", frame, ["title": .string("Check \(number)"), "isOn": .bool(number % 2 == 0)])
        case 3:
            return V.view(
                "n\(number)", "UISlider", frame,
                [
                    "accessibilityLabel": .string("Scale \(number)"), "value": .number(Double(number % 100)),
                    "maximumValue": 100,
                ])
        default:
            return V.view(
                "n\(number)", "UITextField", frame, ["accessibilityLabel": .string("Entry \(number)"), "text": ""])
        }
    }
}
