// The JSON-RPC messages, errors and pending-request table live in AXJSONRPC (shared with the client libraries);
// every user of the router and the method table sees them through this module.
@_exported import AXJSONRPC
