import XCTest

@testable import AXCore

/// Issue 25 item 8: `accessibilityLanguage` is a well-formed BCP 47 tag (RFC 5646 §2.1 syntax; X8).
final class LanguageTagTests: XCTestCase {
    func testWellFormedTags() {
        for tag in [
            "en", "EN-gb", "zh-Hant-TW", "sr-Latn-RS", "es-419", "sl-rozaj-biske", "de-CH-1996", "zh-yue-HK",
            "en-US-u-ca-gregory", "x-klingon", "en-x-private", "haw", "tlh",
        ] {
            XCTAssertTrue(LanguageTag.isWellFormed(tag), tag)
        }
    }

    func testMalformedTags() {
        for tag in [
            "", "not a tag!!", "en_US", "en--", "-en", "en-", "e", "english-language-tag", "en-u", "x", "en-x",
            "en-GB-u", "1en", "en-ü", "en-abcdefghi", "en-x-abcdefghi", String(repeating: "ab-", count: 100) + "ab",
        ] {
            XCTAssertFalse(LanguageTag.isWellFormed(tag), tag)
        }
    }
}
