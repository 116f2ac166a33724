// The wire both ends share (framing, socket paths, transport errors) moved to AXWire; a client that imports
// AXRPCClient keeps seeing `RPCFraming`, `AXSocketPath` and `RPCTransportError` as before.
@_exported import AXWire
