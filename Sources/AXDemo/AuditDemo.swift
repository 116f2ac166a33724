import AXJSON

/// A second demo screen, "Checkout", that deliberately gets a few things wrong: one mistake per audit check, and
/// nothing else. `axserver --demo-audit` serves it as the app `axserver-audit-demo`; `axquery audit` on it must
/// report exactly `expectedFindings` (Specs/decisions.md §Audits). It is static: it handles no actions.
package enum AuditDemo {
    package static let appName = "axserver-audit-demo"

    /// The mistakes, as (check, element): written from the screen's design below, one per deliberate error.
    package static let expectedFindings: [(check: String, element: String)] = [
        ("hitRegion", "closeButton"),
        ("sufficientElementDescription", "shareIcon"),
        ("sufficientElementDescription", "submitButton"),
        ("trait", "couponButton"),
        ("parentChild", "giftCard"),
        ("action", "itemCell"),
        ("textClipped", "deliveryLabel"),
        ("contrast", "taxNote"),
        ("duplicateSpeakableText", "removeSecond"),
        ("duplicateClickableBounds", "shareOverlay"),
        // The same mistake seen from underneath: Share covers all of Like, so no tap reaches it (D-HIT-1).
        ("hitRegion", "likeButton"),
        ("unlabeledImage", "brandLogo"),
        ("unlabeledEditableText", "promoField"),
        ("linkPurposeUnclear", "termsLink"),
        ("elementDetection", "payButton"),
        ("focusable", "saveCart"),
        ("focusGroup", "shippingGroup"),
        ("emptyRotor", "navBar"),
        ("unmaskedSecret", "pinField"),
    ]

    package static func snapshot() -> JSON {
        let width = 390.0
        let content: [JSON] = [
            // Mistake (emptyRotor): a "Discounts" rotor with nothing in it.
            V.view(
                "navBar", "UINavigationBar", [0, 47, width, 44],
                [
                    "title": "Checkout", "accessibilityCustomRotors": [["name": "Discounts", "items": JSON.array([])]],
                ],
                children: [
                    // Mistake (hitRegion): a 28×28 close button.
                    V.view("closeButton", "UIButton", [width - 44, 8, 28, 28], ["title": "Close"])
                ]),
            V.view(
                "page", "UIView", [0, 91, width, 700], ["backgroundColor": "#FFFFFF"],
                children: [
                    V.view(
                        "summaryHeader", "UILabel", [16, 8, 300, 30],
                        [
                            "text": "Order summary", "accessibilityTraits": ["header"],
                            "textColor": "#1C1C1E", "fontSize": 20,
                        ]),
                    // Mistake (action): two custom actions with the same name.
                    V.view(
                        "itemCell", "UITableViewCell", [0, 48, width, 56],
                        [
                            "accessibilityCustomActions": [
                                ["id": "save", "name": "Save for later"],
                                ["id": "saveAgain", "name": "Save for later"],
                            ]
                        ],
                        children: [
                            V.view("itemTitle", "UILabel", [16, 8, 250, 22], ["text": "Wireless headphones"]),
                            V.view("itemPrice", "UILabel", [16, 30, 250, 20], ["text": "$89.00"]),
                        ]),
                    // Mistake (duplicateSpeakableText): two sibling buttons that both say "Remove".
                    V.view("removeFirst", "UIButton", [16, 112, 170, 44], ["title": "Remove"]),
                    V.view("removeSecond", "UIButton", [204, 112, 170, 44], ["title": "Remove"]),
                    // Mistake (textClipped): 15 pt text in a frame far too narrow for it.
                    V.view(
                        "deliveryLabel", "UILabel", [16, 164, 90, 20],
                        ["text": "Estimated delivery: Tuesday", "fontSize": 15]),
                    // Mistake (contrast): light grey text on the white page.
                    V.view(
                        "taxNote", "UILabel", [124, 164, 250, 20],
                        ["text": "Tax included", "textColor": "#BBBBBB", "fontSize": 15]),
                    // Mistake (unlabeledEditableText): a field with neither label nor placeholder.
                    V.view("promoField", "UITextField", [16, 196, 240, 44], [:]),
                    // Mistake (trait): a UIButton whose traits drop the button trait.
                    V.view(
                        "couponButton", "UIButton", [264, 196, 110, 44],
                        ["title": "Apply", "accessibilityTraits": ["staticText"]]),
                    // Mistake (parentChild): a switch inside an element.
                    V.view(
                        "giftCard", "UIView", [16, 252, 358, 60],
                        ["isAccessibilityElement": true, "accessibilityLabel": "Gift wrap"],
                        children: [
                            V.view("giftSwitch", "UISwitch", [290, 14, 51, 31], ["isOn": false])
                        ]),
                    // Mistake (unlabeledImage): an exposed image with no label.
                    V.view("brandLogo", "UIImageView", [16, 324, 44, 44], ["isAccessibilityElement": true]),
                    // Mistake (sufficientElementDescription): an icon button with no label…
                    V.view("shareIcon", "UIButton", [72, 324, 44, 44], [:]),
                    // Mistake (duplicateClickableBounds): …and a second button exactly on top of another.
                    V.view("likeButton", "UIButton", [128, 324, 120, 44], ["title": "Like"]),
                    V.view("shareOverlay", "UIButton", [128, 324, 120, 44], ["title": "Share"]),
                    // Mistake (unmaskedSecret): a PIN field that shows what is typed.
                    V.view(
                        "pinField", "UITextField", [260, 324, 114, 44],
                        ["accessibilityLabel": "Card PIN", "text": "1234"]),
                    // Mistake (linkPurposeUnclear): a link that says "Click here".
                    V.view(
                        "termsLink", "UIButton", [16, 380, 200, 44],
                        ["title": "Click here", "accessibilityTraits": ["link"]]),
                    // Mistake (elementDetection): the pay button is hidden from assistive technology.
                    V.view(
                        "payButton", "UIButton", [16, 436, 358, 50],
                        ["title": "Pay with card", "isAccessibilityElement": false]),
                    // Mistake (sufficientElementDescription): a label that repeats its role.
                    V.view("submitButton", "UIButton", [16, 498, 358, 50], ["title": "Submit order button"]),
                    // Done right: a labelled, large, high-contrast button.
                    V.view(
                        "placeOrder", "UIButton", [16, 560, 358, 50],
                        [
                            "title": "Place order", "textColor": "#FFFFFF",
                            "backgroundColor": "#0A58CA", "fontSize": 17,
                        ]),
                    // Mistake (focusable): a button a keyboard user can never focus.
                    V.view(
                        "saveCart", "UIButton", [16, 620, 170, 44], ["title": "Save cart", "canBecomeFocused": false]),
                    // Mistake (focusGroup): a focus group that holds only a label.
                    V.view(
                        "shippingGroup", "UIView", [204, 620, 170, 44], ["focusGroupIdentifier": "shipping"],
                        children: [
                            V.view("shippingLabel", "UILabel", [0, 12, 170, 20], ["text": "Standard shipping"])
                        ]),
                ]),
        ]
        let window = V.view(
            "checkoutWindow", "UIWindow", [0, 0, width, 844], ["isKeyWindow": true, "windowTitle": "Checkout"],
            children: content)
        return ["windows": [window]]
    }
}
