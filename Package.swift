// swift-tools-version:6.0
// AXServer — the UIKit accessibility model for any UI on Linux.
// Layering (a dependency only ever points down this list):
//   AXJSON            JSON values, parser, serializer (pure)
//   AXSchema          the hierarchy schema declared once: the property table, value forms, codecs and bindings (pure)
//   AXJSONRPC         JSON-RPC 2.0 messages, errors, ids and the pending-request table (client and server)
//   AXProtocol        the protocol catalog: every method and notification declared once, with typed keys (pure)
//   AXWire            what both ends of the socket share: framing, socket paths, POSIX socket helpers, the NIO timer
//                     scheduler, transport errors
//   AXRPCClient       client transport: Unix-socket / TCP client (async and blocking); re-exports AXWire
//   AXCore            view-hierarchy model, store/patches/revisions, UIKit semantics (pure, no I/O)
//   AXQuery           selector language and engine (pure)
//   AXInsight         accessibility audits, screen-reader speech models, tree pictures (pure)
//   AXHub             apps, focus, action routing to providers, event fan-out (no I/O of its own)
//   AXRPCRouter       JSON-RPC 2.0 router and sessions: framing-free dispatch of registered methods (no method knowledge)
//   AXRPC             the server's method table (Methods/ answers each method on the hub); re-exports AXRPCRouter
//   AXTransport       SwiftNIO Unix-socket / TCP server: a connection's handler pipeline in front of an AXRPCRouter
//   CDBus, AXDBus     libdbus system library and its Swift layer
//   CGIO, AXSettings  GIO (GSettings) and the accessibility-settings reader (D-SET-1)
//   AXATSPIModel      the AT-SPI2 model: mapping tables, one typed answer per interface, the event diff (pure)
//   AXATSPI           AT-SPI2 bridge over D-Bus: connections, paths, dispatch (one file per interface), emission
//   AXProvider        Swift provider library (publish a tree, handle actions): AXJSON, AXSchema, AXJSONRPC, AXRPCClient only
//   AXTrace           accessibility traces (Specs/trace.md): the format's lines, the reader, the text of
//                     `axquery trace show`, the recorder's file and its observation calls (AXJSON, AXJSONRPC, AXProtocol)
//   AXMCP             the MCP server of `axquery mcp`: tools over the JSON-RPC client (AXJSON, AXJSONRPC, AXRPCClient)
//   AXClient          Swift automation client library (locators, waits, actions, expectations, events): same
//   AXDemo            the built-in demo app and the generated bench tree (pure)
//   AXRasterizer      SVG → PNG through Debian's rsvg-convert (for tree.render's PNG)
//   AXInProcess       the one in-process route: a connection that runs the real router (demo host, conformance, tests)
//   AXDemoHost        runs the demo app on the provider library (over a socket, or in process into a Hub)
//   AXConformance     the conformance-case runner (in process through AXInProcess, or over a socket)
//   AXTestSupport     for the test targets only: a private dbus-daemon, the D-Bus micro benchmark, the hub's and the
//                     router's fakes, the transport tests' server, temp directory and raw socket
//   AXFuzzTargets     fuzz targets with their invariants (run by axfuzz, replayed on the corpus by the unit tests)
//   AXBenchmarks      selector measurements (used by axbench and the tests only)
//   AXWebDriver       the W3C WebDriver endpoint over a running axserver (HTTP via NIOHTTP1, XPath over the page source)
//   axserver, axquery, axbench, axfuzz, axdriver   executables
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "AXServer",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "axserver", targets: ["axserver"]),
        .executable(name: "axquery", targets: ["axquery"]),
        .executable(name: "axdriver", targets: ["axdriver"]),
        .library(name: "AXProvider", targets: ["AXProvider"]),
        .library(name: "AXClient", targets: ["AXClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
    ],
    targets: [
        .target(name: "AXJSON", swiftSettings: swiftSettings),
        .target(name: "AXSchema", dependencies: ["AXJSON"], swiftSettings: swiftSettings),
        .target(name: "AXJSONRPC", dependencies: ["AXJSON"], swiftSettings: swiftSettings),
        .target(name: "AXProtocol", dependencies: ["AXJSON", "AXJSONRPC"], swiftSettings: swiftSettings),
        .target(
            name: "AXWire", dependencies: ["AXJSON", "AXJSONRPC"], swiftSettings: swiftSettings),
        .target(
            name: "AXWireNIO",
            dependencies: ["AXWire", "AXJSONRPC", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: swiftSettings),
        .target(
            name: "AXRPCClient",
            dependencies: [
                "AXJSON", "AXJSONRPC", "AXProtocol", "AXWire", "AXWireNIO",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ], swiftSettings: swiftSettings),
        .target(
            name: "AXCore",
            dependencies: [
                "AXJSON", "AXSchema",
                .product(name: "HashTreeCollections", package: "swift-collections"),
            ], swiftSettings: swiftSettings),
        .target(
            name: "AXQuery",
            dependencies: [
                "AXCore", "AXJSON", .product(name: "HashTreeCollections", package: "swift-collections"),
            ], swiftSettings: swiftSettings),
        .target(name: "AXInsight", dependencies: ["AXCore", "AXJSON"], swiftSettings: swiftSettings),
        .target(name: "AXHub", dependencies: ["AXCore", "AXSchema", "AXJSON"], swiftSettings: swiftSettings),
        .target(
            name: "AXRPCRouter", dependencies: ["AXJSON", "AXJSONRPC", "AXProtocol"], swiftSettings: swiftSettings),
        .target(
            name: "AXRPC",
            dependencies: [
                "AXRPCRouter", "AXProtocol", "AXHub", "AXQuery", "AXInsight", "AXCore", "AXSchema", "AXJSON",
                "AXJSONRPC", .product(name: "HashTreeCollections", package: "swift-collections"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "AXTransport",
            dependencies: [
                "AXRPCRouter", "AXJSON", "AXJSONRPC", "AXProtocol", "AXWire", "AXWireNIO",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: swiftSettings),
        .systemLibrary(name: "CDBus", path: "Sources/CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "AXDBus", dependencies: ["CDBus"], swiftSettings: swiftSettings),
        .systemLibrary(name: "CGIO", path: "Sources/CGIO", providers: [.apt(["libglib2.0-dev"])]),
        .target(name: "AXSettings", dependencies: ["CGIO", "AXHub", "AXCore"], swiftSettings: swiftSettings),
        .target(name: "AXATSPIModel", dependencies: ["AXCore", "AXJSON"], swiftSettings: swiftSettings),
        .target(
            name: "AXATSPI",
            dependencies: [
                "AXATSPIModel", "AXDBus", "CDBus", "AXHub", "AXCore", "AXJSON",
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: swiftSettings),
        .target(
            name: "AXProvider",
            dependencies: ["AXJSON", "AXSchema", "AXJSONRPC", "AXProtocol", "AXWire"],
            swiftSettings: swiftSettings),
        .target(
            name: "AXClient", dependencies: ["AXJSON", "AXJSONRPC", "AXRPCClient", "AXProtocol", "AXTrace"],
            swiftSettings: swiftSettings),
        .target(name: "AXTrace", dependencies: ["AXJSON", "AXJSONRPC", "AXProtocol"], swiftSettings: swiftSettings),
        .target(
            name: "AXMCP", dependencies: ["AXJSON", "AXJSONRPC", "AXRPCClient", "AXProtocol", "AXTrace"],
            swiftSettings: swiftSettings),
        .target(name: "AXDemo", dependencies: ["AXJSON"], swiftSettings: swiftSettings),
        .target(name: "AXRasterizer", swiftSettings: swiftSettings),
        .target(
            name: "AXInProcess", dependencies: ["AXRPC", "AXRPCRouter", "AXHub", "AXJSON", "AXJSONRPC", "AXProtocol"],
            swiftSettings: swiftSettings),
        .target(
            name: "AXDemoHost",
            dependencies: [
                "AXDemo", "AXProvider", "AXInProcess", "AXHub", "AXRPCRouter", "AXJSON", "AXJSONRPC", "AXProtocol",
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "AXConformance",
            dependencies: ["AXInProcess", "AXHub", "AXJSON", "AXJSONRPC", "AXProtocol", "AXRPCClient"],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "axserver",
            dependencies: [
                "AXCore", "AXHub", "AXRPC", "AXTransport", "AXATSPI", "AXDemo", "AXDemoHost", "AXConformance",
                "AXInProcess", "AXWire", "AXSettings",
                "AXProvider", "AXRasterizer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ], swiftSettings: swiftSettings),
        .executableTarget(
            name: "axquery",
            dependencies: [
                "AXQuery", "AXInsight", "AXCore", "AXJSON", "AXJSONRPC", "AXRPCClient", "AXRPC", "AXHub",
                "AXInProcess", "AXRasterizer",
                "AXMCP", "AXProtocol", "AXTrace",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], swiftSettings: swiftSettings),
        .target(
            name: "AXWebDriver",
            dependencies: [
                "AXCore", "AXJSON", "AXJSONRPC", "AXRPCClient", "AXQuery", "AXProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ], swiftSettings: swiftSettings),
        .executableTarget(
            name: "axdriver",
            dependencies: [
                "AXWebDriver", "AXWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ], swiftSettings: swiftSettings),
        .testTarget(
            name: "AXWebDriverTests",
            dependencies: ["AXWebDriver", "AXJSON", "AXJSONRPC", "AXHub", "AXRPC", "AXRPCClient", "AXTransport"]),
        .target(name: "AXBenchmarks", dependencies: ["AXCore", "AXQuery", "AXJSON"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "axbench",
            dependencies: [
                "AXCore", "AXQuery", "AXInsight", "AXJSON", "AXJSONRPC", "AXRPCClient", "AXWire", "AXDemo", "AXRPC",
                "AXHub", "AXTransport", "AXBenchmarks", "AXClient", "AXProtocol", "AXProvider",
            ], swiftSettings: swiftSettings),
        .target(
            name: "AXFuzzTargets",
            dependencies: [
                "AXJSON", "AXJSONRPC", "AXWire", "AXCore", "AXQuery", "AXHub", "AXRPCRouter", "AXRPC", "AXTransport",
                "AXProtocol", "AXDBus",
                "CDBus",
                "AXATSPI",
                "AXATSPIModel", "AXInsight",
                "AXDemo", "AXConformance", "AXWebDriver", "AXMCP",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ], swiftSettings: swiftSettings),
        .executableTarget(name: "axfuzz", dependencies: ["AXFuzzTargets"], swiftSettings: swiftSettings),
        .testTarget(name: "AXFuzzTargetsTests", dependencies: ["AXFuzzTargets", "AXJSON"]),
        .testTarget(name: "AXJSONTests", dependencies: ["AXJSON"]),
        .testTarget(name: "AXJSONRPCTests", dependencies: ["AXJSONRPC", "AXJSON"]),
        .testTarget(name: "AXWireTests", dependencies: ["AXWire"]),
        .testTarget(name: "AXProtocolTests", dependencies: ["AXProtocol", "AXJSON", "AXJSONRPC"]),
        .testTarget(name: "AXTraceTests", dependencies: ["AXTrace", "AXJSON"]),
        .testTarget(name: "AXSchemaTests", dependencies: ["AXSchema", "AXJSON"]),
        .testTarget(name: "AXCoreTests", dependencies: ["AXCore", "AXJSON", "AXDemo", "AXSchema"]),
        .testTarget(name: "AXInsightTests", dependencies: ["AXInsight", "AXCore", "AXJSON", "AXDemo"]),
        .testTarget(
            name: "AXQueryTests", dependencies: ["AXQuery", "AXCore", "AXJSON", "AXDemo", "AXBenchmarks"]),
        .target(
            name: "AXTestSupport",
            dependencies: [
                "AXDBus", "CDBus", "AXHub", "AXCore", "AXJSON", "AXJSONRPC", "AXProtocol", "AXRPCRouter", "AXTransport",
                "AXWire",
            ], path: "Sources/AXTestSupport",
            swiftSettings: swiftSettings),
        .testTarget(name: "AXDBusTests", dependencies: ["AXDBus", "AXTestSupport"]),
        .testTarget(name: "AXATSPIModelTests", dependencies: ["AXATSPIModel", "AXCore", "AXJSON", "AXDemo"]),
        .testTarget(
            name: "AXATSPITests",
            dependencies: [
                "AXATSPI", "AXATSPIModel", "AXInsight", "AXDBus", "AXHub", "AXCore", "AXJSON", "AXDemo",
                "AXTestSupport",
            ]),
        .testTarget(
            name: "AXRPCTests",
            dependencies: [
                "AXRPC", "AXTransport", "AXHub", "AXCore", "AXJSON", "AXJSONRPC", "AXRPCClient", "AXDemo", "AXProvider",
                "AXTestSupport", "AXProtocol", "AXSchema", "AXDemoHost", "AXInProcess", "AXQuery",
            ]),
        .testTarget(name: "AXHubTests", dependencies: ["AXHub", "AXCore", "AXJSON", "AXTestSupport"]),
        .testTarget(
            name: "AXRPCRouterTests", dependencies: ["AXRPCRouter", "AXJSON", "AXJSONRPC", "AXTestSupport"]),
        .testTarget(
            name: "AXRPCClientTests",
            dependencies: [
                "AXRPCClient", "AXRPCRouter", "AXTransport", "AXJSON", "AXJSONRPC", "AXTestSupport",
                // The transport benchmark lives in axbench; TransportClientTests checks that it detects errors.
                "axbench",
            ]),
        .testTarget(
            name: "AXInProcessTests",
            dependencies: ["AXInProcess", "AXDemoHost", "AXHub", "AXJSON", "AXJSONRPC", "AXProvider"]),
        .testTarget(
            name: "AXClientTests",
            dependencies: [
                "AXClient", "AXTransport", "AXRPC", "AXHub", "AXJSON", "AXJSONRPC", "AXDemoHost", "AXProvider",
                "AXRPCClient",
            ]),
        .testTarget(
            name: "AXTransportTests",
            dependencies: [
                "AXTransport", "AXInProcess", "AXRPC", "AXRPCRouter", "AXRPCClient", "AXWire", "AXWireNIO", "AXHub",
                "AXJSON", "AXTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(name: "AXConformanceTests", dependencies: ["AXConformance", "AXInProcess", "AXJSON"]),
        .testTarget(
            name: "AXProviderTests",
            dependencies: [
                "AXProvider", "AXJSON", "AXJSONRPC", "AXSchema", "AXCore", "AXHub", "AXDemo", "AXDemoHost", "AXRPC",
                "AXRPCClient", "AXTransport", "AXTestSupport", "AXWire",
            ]),
        .testTarget(
            name: "AXMCPTests",
            dependencies: [
                "AXMCP", "AXJSON", "AXJSONRPC", "AXRPCClient", "AXTransport", "AXRPC", "AXHub", "AXDemo", "AXDemoHost",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
