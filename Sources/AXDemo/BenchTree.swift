import AXJSON

/// A generated hierarchy of N leaf controls mixed like the GTK4 reference app (Tools/gtk4_reference_app.py):
/// leaves cycle through button, label, switch, slider and text field, in horizontal groups of 10 inside
/// vertical groups of 50, in one scroll view. Groups are semantic-group containers so the accessibility tree
/// has the same shape as GTK's panels.
package enum BenchTree {
    package static let appName = "axserver-bench"

    package static func snapshot(leaves n: Int) -> JSON {
        var outers: [JSON] = []
        var leaf = 0
        var y = 0.0
        var outerIndex = 0
        while leaf < n {
            var inners: [JSON] = []
            var iy = 0.0
            var innerIndex = 0
            while innerIndex < 5 && leaf < n {
                var kids: [JSON] = []
                for k in 0..<10 where leaf < n {
                    kids.append(leafView(leaf, x: Double(k) * 80))
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
                    "g\(outerIndex)", "UIStackView", [0, y, 800, iy],
                    ["accessibilityContainerType": "semanticGroup"], children: inners))
            y += iy
            outerIndex += 1
        }
        let scroll = V.view(
            "scroll", "UIScrollView", [0, 0, 800, 600], ["accessibilityContainerType": "semanticGroup"],
            children: outers)
        let window = V.view(
            "benchWindow", "UIWindow", [0, 0, 800, 600],
            ["isKeyWindow": true, "windowTitle": .string("AXServer Bench N=\(n)")], children: [scroll])
        return ["windows": [window]]
    }

    static func leafView(_ i: Int, x: Double) -> JSON {
        let f = [x, 5, 75, 30]
        switch i % 5 {
        case 0: return V.view("n\(i)", "UIButton", f, ["title": .string("Button \(i)")])
        case 1: return V.view("n\(i)", "UILabel", f, ["text": .string("Label \(i)")])
        case 2: return V.view("n\(i)", "UISwitch", f, ["title": .string("Check \(i)"), "isOn": .bool(i % 2 == 0)])
        case 3:
            return V.view(
                "n\(i)", "UISlider", f,
                ["accessibilityLabel": .string("Scale \(i)"), "value": .number(Double(i % 100)), "maximumValue": 100])
        default: return V.view("n\(i)", "UITextField", f, ["accessibilityLabel": .string("Entry \(i)"), "text": ""])
        }
    }
}
