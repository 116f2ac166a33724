// axfuzz: runs the fuzz targets of AXFuzzTargets.
//   axfuzz TARGET FILE|DIR...      replays inputs (files, or every file in a directory) and reports broken invariants
//   axfuzz --list                  lists the targets
//   axfuzz --write-dbus-seeds DIR  writes the marshalled AT-SPI method calls seeding the dbus target
// Built by Tools/fuzz.sh with -sanitize=fuzzer,address and -D AXFUZZ_LIBFUZZER, `axfuzz TARGET [libFuzzer flags]
// [corpus dirs]` runs libFuzzer on the target instead (any invariant broken is reported and aborts, as a crash).
import AXFuzzTargets

#if canImport(Glibc)
    import Glibc
#endif

/// Prints to standard error.
func printError(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { buffer in
        _ = write(2, buffer.baseAddress, buffer.count)
    }
}

/// Reads a whole file; nil when it cannot be read.
func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let read = fread(&chunk, 1, chunk.count, file)
        if read <= 0 { break }
        bytes.append(contentsOf: chunk[0..<read])
    }
    return bytes
}

/// The regular files at `path` (itself, or the files directly inside it), sorted.
func inputFiles(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [path] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name.hasPrefix(".") { continue }
        names.append(path + "/" + name)
    }
    return names.sorted()
}

/// Writes `bytes` to `path`.
func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
    guard let file = fopen(path, "wb") else { return false }
    defer { fclose(file) }
    return fwrite(bytes, 1, bytes.count, file) == bytes.count
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    printError("usage: axfuzz TARGET FILE|DIR... | axfuzz --list | axfuzz --write-dbus-seeds DIR")
    exit(2)
}
if arguments[1] == "--list" {
    for target in FuzzTarget.all {
        print(target.name + "\t" + target.summary)
    }
    exit(0)
}
if arguments[1] == "--write-dbus-seeds" {
    guard arguments.count == 3 else {
        printError("usage: axfuzz --write-dbus-seeds DIR")
        exit(2)
    }
    for seed in DBusSeeds.marshalled() {
        guard writeFile(arguments[2] + "/seed-" + seed.name, seed.bytes) else {
            printError("cannot write to \(arguments[2])")
            exit(1)
        }
    }
    exit(0)
}
// libFuzzer's merge and fork modes start the program again with its own flags only: the target name then
// comes from AXFUZZ_TARGET, which the first run sets.
let namedTarget = FuzzTarget.named(arguments[1])
let inheritedTarget = getenv("AXFUZZ_TARGET").flatMap { FuzzTarget.named(String(cString: $0)) }
guard let target = namedTarget ?? inheritedTarget else {
    printError("unknown target '\(arguments[1])'; targets: \(FuzzTarget.all.map(\.name).joined(separator: ", "))")
    exit(2)
}
let targetArgumentCount = namedTarget == nil ? 0 : 1

#if AXFUZZ_LIBFUZZER
    /// libFuzzer's entry point taking the callback (from the fuzzer runtime linked by -sanitize=fuzzer).
    // swift-format-ignore: AlwaysUseLowerCamelCase
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// The target libFuzzer calls (set before the driver starts, read only afterwards).
    nonisolated(unsafe) var selectedTarget = target

    // libFuzzer sees the program name followed by everything after the target name.
    setenv("AXFUZZ_TARGET", target.name, 1)
    var driverArguments = [arguments[0]] + arguments.dropFirst(1 + targetArgumentCount)
    var argc = Int32(driverArguments.count)
    var cArguments: [UnsafeMutablePointer<CChar>?] = driverArguments.map { strdup($0) } + [nil]
    let status = cArguments.withUnsafeMutableBufferPointer { buffer -> Int32 in
        var argv = buffer.baseAddress!
        return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
            let failures = selectedTarget.run(bytes)
            if !failures.isEmpty {
                printError("axfuzz: \(selectedTarget.name): invariant broken: " + failures.joined(separator: "; "))
                abort()
            }
            return 0
        }
    }
    exit(status)
#else
    var inputs = 0
    var broken = 0
    for path in arguments.dropFirst(1 + targetArgumentCount) {
        for file in inputFiles(path) {
            guard let bytes = readFile(file) else {
                printError("cannot read \(file)")
                exit(2)
            }
            inputs += 1
            let failures = target.run(bytes)
            if !failures.isEmpty {
                broken += 1
                printError("\(file): " + failures.joined(separator: "; "))
            }
        }
    }
    print("\(target.name): \(inputs) inputs, \(broken) broken")
    exit(broken == 0 ? 0 : 1)
#endif
