/// Hands freed heap memory back to the system after a burst of calls (glibc keeps freed blocks for reuse, so
/// without a trim `axquery mcp` would stay at its high-water mark after a flood; D-MCP-CONN-1).
enum HeapTrim {
    /// Trims off the caller's thread.
    static func release() {
        Task.detached(priority: .background) { _ = mcp_malloc_trim(0) }
    }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("malloc_trim") private func mcp_malloc_trim(_ pad: Int) -> Int32
