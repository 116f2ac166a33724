import AXJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who may talk to axdriver over HTTP (Specs/webdriver.md §Trust): the Host header must name a loopback host or
/// an IP literal (a DNS name could be rebound to 127.0.0.1 by a web page), an Origin header must be a loopback
/// origin (browsers send one on cross-site requests), and with a token every request needs HTTP basic auth with
/// the token as password (`http://user:TOKEN@127.0.0.1:4723`, as Appium clients send).
///
/// Header values come from the wire: they are parsed as ASCII bytes only (a non-ASCII digit such as `½` or `٣` is
/// no digit here), with no trapping conversion; anything malformed is a refusal.
package struct WebDriverTrust: Sendable {
    /// The basic-auth password every request must carry, or nil.
    package var authToken: String?
    /// Extra host names accepted in Host and Origin (`--allowed-host`), lowercased.
    package var allowedHosts: Set<String>

    package init(authToken: String? = nil, allowedHosts: Set<String> = []) {
        self.authToken = authToken
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
    }

    /// The refusal for a request with these headers, or nil when it may proceed. A malformed or missing Host is
    /// 400 (the connection is closed after it), a host or origin that is not allowed 403, a missing token 401.
    package func check(headers: [(String, String)]) -> WebDriverResponse? {
        func header(_ name: String) -> [String] {
            headers.filter { $0.0.lowercased() == name }.map(\.1)
        }
        let hosts = header("host")
        guard hosts.count == 1, let host = WebDriverTrust.hostName(hosts[0]) else {
            return refuse(400, "a request needs exactly one Host header naming the driver's host")
        }
        guard WebDriverTrust.isLiteralOrLoopback(host) || allowedHosts.contains(host) else {
            return refuse(
                403,
                "Host '\(hosts[0])' is not a loopback host or an IP address (DNS rebinding protection; see --allowed-host)"
            )
        }
        for origin in header("origin") {
            guard let originHost = WebDriverTrust.originHost(origin),
                WebDriverTrust.isLoopback(originHost) || allowedHosts.contains(originHost)
            else {
                return refuse(403, "Origin '\(origin)' is not allowed (only loopback origins may call axdriver)")
            }
        }
        if let authToken {
            let given = header("authorization").first.flatMap(WebDriverTrust.basicPassword)
            guard let given, WebDriverTrust.constantTimeEqual(given, authToken) else {
                var response = refuse(401, "axdriver needs HTTP basic authentication with its token as the password")
                response.headers.append(("WWW-Authenticate", "Basic realm=\"axdriver\""))
                return response
            }
        }
        return nil
    }

    func refuse(_ status: Int, _ message: String) -> WebDriverResponse {
        WebDriverResponse(
            status: status, body: WebDriverError("unknown error", message, data: ["httpStatus": JSON(status)]).body)
    }

    /// The host of a Host header value (`name`, `name:port`, `[v6]`, `[v6]:port`), lowercased; nil when it is
    /// malformed: a byte outside printable ASCII, a port that is not 1–5 ASCII digits, a bracketed part that is not
    /// a valid IPv6 address, anything after the closing bracket but a port, or a name with characters no host name
    /// has.
    static func hostName(_ value: String) -> String? {
        var bytes = Array(value.utf8)
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        guard !bytes.isEmpty, bytes.count <= 255, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        if lowered.first == UInt8(ascii: "[") { return bracketedHost(lowered) }
        var name = lowered[...]
        if let colon = lowered.firstIndex(of: UInt8(ascii: ":")) {
            guard isPort(lowered[(colon + 1)...]) else { return nil }
            name = lowered[..<colon]
        }
        guard !name.isEmpty, name.allSatisfy(isHostNameByte) else { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    /// `[v6]` or `[v6]:port` (lowercased ASCII) → `[v6]`, when the brackets hold a valid IPv6 address.
    static func bracketedHost(_ lowered: [UInt8]) -> String? {
        guard let close = lowered.firstIndex(of: UInt8(ascii: "]")) else { return nil }
        let rest = lowered[(close + 1)...]
        guard isIPv6(Array(lowered[1..<close])),
            rest.isEmpty || (rest.first == UInt8(ascii: ":") && isPort(rest.dropFirst()))
        else { return nil }
        return String(decoding: lowered[...close], as: UTF8.self)
    }

    /// 1–5 ASCII digits (a port, 0…99999: the value does not matter for trust).
    static func isPort(_ bytes: ArraySlice<UInt8>) -> Bool {
        (1...5).contains(bytes.count) && bytes.allSatisfy(isASCIIDigit)
    }

    static func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// A byte of a DNS name or IPv4 address (lowercase letters, digits, `-`, `.`, `_`).
    static func isHostNameByte(_ byte: UInt8) -> Bool {
        isASCIIDigit(byte) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x2E || byte == 0x5F
    }

    /// The 16 bytes of an IPv6 address written without brackets (`::1`, `fe80::1`, `::ffff:127.0.0.1`), or nil.
    /// Zone ids (`%eth0`) are refused: a Host header has no use for them.
    static func ipv6Bytes(_ literal: [UInt8]) -> [UInt8]? {
        guard (2...45).contains(literal.count),
            literal.allSatisfy({ isASCIIDigit($0) || ($0 >= 0x61 && $0 <= 0x66) || $0 == 0x3A || $0 == 0x2E })
        else { return nil }
        var address = in6_addr()
        let text = String(decoding: literal, as: UTF8.self)
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    static func isIPv6(_ literal: [UInt8]) -> Bool { ipv6Bytes(literal) != nil }

    /// The host of an Origin header (`scheme://host[:port]`); nil for `null` and anything else.
    static func originHost(_ origin: String) -> String? {
        guard let schemeEnd = origin.firstRange(of: "://") else { return nil }
        return hostName(String(origin[schemeEnd.upperBound...]))
    }

    /// `localhost`, 127.0.0.0/8, `[::1]` and `[::ffff:127.x.x.x]` (in any valid spelling).
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || (host.hasPrefix("127.") && isIPv4(host)) { return true }
        guard host.hasPrefix("["), host.hasSuffix("]"), let bytes = ipv6Bytes(Array(host.utf8.dropFirst().dropLast()))
        else { return false }
        let loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF, 127]
        return bytes == loopback || Array(bytes.prefix(13)) == mappedPrefix
    }

    /// Four dot-separated decimal numbers of 1–3 ASCII digits, each at most 255.
    static func isIPv4(_ host: String) -> Bool {
        let parts = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                guard (1...3).contains(part.count), part.allSatisfy(isASCIIDigit) else { return false }
                return part.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
            }
    }

    /// A loopback name, an IPv4 address or a valid bracketed IPv6 address.
    static func isLiteralOrLoopback(_ host: String) -> Bool {
        isLoopback(host) || isIPv4(host)
            || (host.hasPrefix("[") && host.hasSuffix("]") && isIPv6(Array(host.utf8.dropFirst().dropLast())))
    }

    /// The password of a `Basic` Authorization header.
    static func basicPassword(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic", let decoded = base64Decode(String(parts[1])) else {
            return nil
        }
        let text = String(decoding: decoded, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { return text }
        return String(text[text.index(after: colon)...])
    }

    static func base64Decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in text.utf8 {
            let value: UInt32
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
            case UInt8(ascii: "="): continue
            default: return nil
            }
            accumulator = (accumulator << 6) | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((accumulator >> UInt32(bits)) & 0xFF))
            }
        }
        return out
    }

    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
        }
        return difference == 0
    }
}
