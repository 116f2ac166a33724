// The JSON-RPC router and sessions live in AXRPCRouter (no method knowledge); this module is the server's method
// table. Code that imports AXRPC to install the methods keeps seeing `RPCRouter`, `RPCSession` and `RPCPeer`.
@_exported import AXRPCRouter
