// The fakes and the transport helpers these tests used to define here (RecordingProvider, Sink, FakeKeyForwarder,
// ProtocolFakePeer, ProtocolLocked, TransportTempDir, transportStartServer…) moved to AXTestSupport when the hub,
// router and transport tests got their own targets; re-exported so that every file of this target sees them.
@_exported import AXTestSupport
