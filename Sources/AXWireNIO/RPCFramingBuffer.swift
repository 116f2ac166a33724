// The NIO side of the wire (AXWire itself has no NIO, so the provider library builds none, D-PROVIDER-WIRE-1):
// framing a reply into a `ByteBuffer` and timeouts on an event loop.
import AXWire
import NIOCore

extension RPCFraming {
    /// Appends `payload` framed for this framing (NDJSON when still unknown).
    package func encode(_ payload: [UInt8], into out: inout ByteBuffer) {
        switch self {
        case .lsp:
            out.writeString("Content-Length: ")
            out.writeString(String(payload.count))
            out.writeString("\r\n\r\n")
            out.writeBytes(payload)
        case .ndjson, .unknown:
            out.writeBytes(payload)
            out.writeInteger(UInt8(0x0A))
        }
    }
}
