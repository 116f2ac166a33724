/// Hands freed heap memory back to the system after a large app leaves (D-REL-5): glibc keeps freed blocks
/// for reuse, so without a trim the resident size stays at its high-water mark after the app's tree is freed.
enum HeapRelease {
    /// Apps with at least this many views trigger a trim when they leave.
    static let minimumViews = 10_000

    /// Trims off the caller's thread (a trim of a large heap takes milliseconds).
    static func afterLargeRemoval() {
        Task.detached(priority: .background) { _ = hub_malloc_trim(0) }
    }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("malloc_trim") private func hub_malloc_trim(_ pad: Int) -> Int32
