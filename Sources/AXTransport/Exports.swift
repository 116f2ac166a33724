// The client side of the transport (RPCClient, SyncRPCClient, socket paths, framing) lives in AXRPCClient, which
// the provider and client libraries link without the server; users of the server transport see it through here.
@_exported import AXRPCClient
