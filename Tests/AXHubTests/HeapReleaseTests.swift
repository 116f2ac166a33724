import XCTest

@testable import AXHub

#if canImport(Glibc)
    import Glibc
#endif

/// Memory returns after a large reply (issue 35 item 2, D-PERF-2): the heap a reply's many small blocks leave free
/// between live ones stays resident until the allocator is asked to give it back; `afterLargeReply` asks within
/// the 2 s the issue allows.
final class HeapReleaseTests: XCTestCase {
    /// The process's resident size (`/proc/self/statm`), in bytes.
    func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    func testFreedHeapBetweenLiveBlocksIsReturnedAfterALargeReply() {
        // 48 MB of 240-byte blocks, one in 64 kept: the free runs between them hold whole pages that glibc keeps
        // resident (only the top of the heap is returned on free).
        let count = 200_000
        var blocks: [UnsafeMutableRawPointer] = []
        blocks.reserveCapacity(count)
        for _ in 0..<count {
            let block = UnsafeMutableRawPointer.allocate(byteCount: 240, alignment: 16)
            block.initializeMemory(as: UInt8.self, repeating: 1, count: 240)
            blocks.append(block)
        }
        var kept: [UnsafeMutableRawPointer] = []
        for (index, block) in blocks.enumerated() {
            if index % 64 == 0 { kept.append(block) } else { block.deallocate() }
        }
        defer {
            for block in kept { block.deallocate() }
        }
        let before = residentBytes()
        HeapRelease.afterLargeReply(bytes: HeapRelease.minimumReplyBytes)
        let deadline = ContinuousClock.now + .seconds(2)
        var after = before
        while ContinuousClock.now < deadline && before - after < 20 << 20 {
            usleep(50_000)
            after = residentBytes()
        }
        XCTAssertGreaterThanOrEqual(
            before - after, 20 << 20, "resident \(before >> 20) MB before, \(after >> 20) MB 2 s after the trim request"
        )
    }
}
