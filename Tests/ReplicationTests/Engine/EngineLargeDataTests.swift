import Foundation
import Glibc
import Store
import Synchronization
import TestSupport
import Testing

@testable import Replication

/// A 200 MB photo crosses with flat memory: chunks are requested a few at a time, written as
/// they come and hashed on the way, so neither peer ever holds more than a few chunks.
///
/// Swift Testing runs every other test in this process at the same time, and their memory
/// would be counted too (a full `swift test` adds up to ~40 MiB of noise). So the transfer
/// runs in a child process — this test binary, filtered to this test — which reports its
/// own growth: VmHWM (peak resident size) at the end minus VmRSS before the transfer. Both
/// peers live in that child, so the figure covers both sides.
@Suite struct EngineLargeDataTests {
    static let outputVariable = "PEERSHARE_MEMORY_PROBE_OUTPUT"
    static let limit = 64 << 20

    @Test func aLargePhotoReplicatesWithFlatMemory() async throws {
        if let output = ProcessInfo.processInfo.environment[Self.outputVariable] {
            let (baseline, peak) = try await Self.transfer()
            try "\(baseline) \(peak)\n".write(toFile: output, atomically: true, encoding: .utf8)
            return
        }
        let directory = try TestDirectory()
        defer { directory.remove() }
        let output = directory.file("memory")
        let child = try Self.runChild(output: output)
        let figures = try? String(contentsOfFile: output, encoding: .utf8).split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard child == 0, let figures, figures.count == 2 else {
            Issue.record("the memory probe process failed (status \(child))")
            return
        }
        let growth = figures[1] - figures[0]
        print(
            "200 MB photo in a child process: RSS \(figures[0] >> 20) MiB before, peak \(figures[1] >> 20) MiB"
        )
        #expect(growth < Self.limit, "peak RSS grew by \(growth >> 20) MiB while a 200 MiB photo crossed")
    }

    /// Runs this test alone in a new process of this test binary; returns its exit status.
    /// Uses `posix_spawn` directly: Foundation's `Process.run()` on Linux can crash the
    /// parent (swift-corelibs-foundation#5472).
    static func runChild(output: String) throws -> Int32 {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { throw POSIXError(.ENOENT) }
        let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let arguments = [
            executable, "--testing-library", "swift-testing", "--filter",
            "aLargePhotoReplicatesWithFlatMemory",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment[outputVariable] = output
        let envStrings = environment.map { "\($0.key)=\($0.value)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = envStrings.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        var exit: Int32 = 0
        while waitpid(pid, &exit, 0) < 0 && errno == EINTR {}
        return (exit & 0x7F) == 0 ? (exit >> 8) & 0xFF : -1
    }

    /// Owner → participant, 200 MB; returns (RSS before, peak RSS after) in bytes.
    static func transfer() async throws -> (Int, Int) {
        let size = 200 << 20
        let owner = try EnginePeer("owner")
        let participant = try EnginePeer("participant")
        let file = owner.directory.file("large.raw")
        try writePattern(to: file, megabytes: size >> 20)
        let photo = try owner.library.addPhoto(file: file, name: "large.raw")
        unlink(file)
        let baseline = ProcessMemory.read("VmRSS")
        ProcessMemory.resetPeak()
        _ = try shareZone(owner: owner, with: [participant], photo: photo)
        let arrived = await eventually(timeout: .seconds(300)) {
            try participant.shared.photo(photo)?.pending == false
        }
        let peak = ProcessMemory.read("VmHWM")
        #expect(arrived)
        let hash = try #require(try participant.shared.photo(photo)).sha256
        #expect(participant.shared.blobs.contains(hash))
        return (baseline, peak)
    }

    /// 1 MiB blocks of pseudo-random bytes, each different, written straight to disk.
    static func writePattern(to path: String, megabytes: Int) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var random = SeededRandom(seed: 200)
        var block = random.bytes(1 << 20)
        for index in 0..<megabytes {
            block.withUnsafeMutableBytes { $0.storeBytes(of: UInt64(index), as: UInt64.self) }
            let written = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == block.count else { throw POSIXError(.EIO) }
        }
    }
}

/// The process's memory figures from /proc/self/status.
enum ProcessMemory {
    /// A `Vm…` line of /proc/self/status, in bytes.
    static func read(_ key: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            return (Int(line.filter(\.isNumber)) ?? 0) * 1024
        }
        return 0
    }

    /// Resets VmHWM to the current RSS (writing 5 to /proc/self/clear_refs), so that the
    /// peak measured is the transfer's, not the set-up's (the import of the 200 MB file).
    static func resetPeak() {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return }
        _ = write(fd, "5", 1)
        close(fd)
    }
}
