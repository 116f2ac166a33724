import AXHub
import AXWire
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The kiosk operator's files: the guided-access policy (`--policy`) and the operator credential
/// (`--operator-token-file`). File I/O lives here, at the edge; the policy itself is `GuidedAccessPolicy` (AXHub).
enum OperatorFiles {
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads and parses the policy file; every refusal names the file, the line and what to fix.
    static func loadPolicy(_ path: String) throws(Refusal) -> GuidedAccessPolicy {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw Refusal(
                description:
                    "policy file \(path) cannot be read (\(String(cString: strerror(errno)))); create it, e.g. {\"version\": 1, \"apps\": {}}"
            )
        }
        guard status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw Refusal(
                description:
                    "policy file \(path) is writable by group or others, who could change the kiosk's policy; chmod 600 it"
            )
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Refusal(description: "policy file \(path) cannot be read")
        }
        do {
            return try GuidedAccessPolicy.parse(Array(data))
        } catch {
            throw Refusal(description: "policy file \(path), \(error)")
        }
    }

    /// Writes the policy atomically: a temporary file in the same directory (mode 0600), fsync, rename over the
    /// old file, fsync the directory. A crash at any point leaves the old or the new file, never a mix.
    static func savePolicy(_ policy: GuidedAccessPolicy, to path: String) throws(Refusal) {
        let bytes = policy.fileBytes()
        let directory =
            (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        let temporary = "\(path).tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw Refusal(description: "cannot create \(temporary): \(String(cString: strerror(errno)))")
        }
        var written = 0
        let ok: Bool = bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let count = write(descriptor, raw.baseAddress! + written, raw.count - written)
                if count < 0 {
                    if errno == EINTR {
                        continue
                    }
                    return false
                }
                written += count
            }
            return fsync(descriptor) == 0
        }
        let failure = ok ? nil : String(cString: strerror(errno))
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw Refusal(description: "cannot write \(temporary): \(failure)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Refusal(description: "cannot replace \(path): \(reason)")
        }
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Reads the operator token: the file's first line, which must not be empty, and a file no one else may read.
    static func loadOperatorToken(_ path: String) throws(Refusal) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw Refusal(description: "operator token file \(path) cannot be read")
        }
        guard status.st_mode & (S_IRWXG | S_IRWXO) == 0 else {
            throw Refusal(description: "operator token file \(path) is readable by group or others; chmod 600 it")
        }
        // Refused before it is read: a token is one line (D-REL-7).
        guard status.st_size <= POSIX.maxTokenFileBytes else {
            throw Refusal(
                description:
                    "operator token file \(path) has \(status.st_size) bytes; a token file holds one line of at most \(POSIX.maxTokenFileBytes) bytes"
            )
        }
        guard let data = FileManager.default.contents(atPath: path), data.count <= POSIX.maxTokenFileBytes else {
            throw Refusal(description: "operator token file \(path) cannot be read")
        }
        let firstLine =
            String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
        let token = firstLine.trimmingCharacters(in: .whitespaces)
        guard token.utf8.count >= 16 else {
            throw Refusal(
                description:
                    "operator token in \(path) is shorter than 16 bytes; use a long random line (e.g. head -c 32 /dev/urandom | base64)"
            )
        }
        return token
    }
}
