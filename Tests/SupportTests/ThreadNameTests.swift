import Foundation
import Glibc
import Support
import Testing

/// Threads carry the name of their role, so that `top -H`, `ps -L` and `perf` tell a
/// connection's reader from its worker or the checkpointer (without names, threads show
/// the name of whichever thread created them).
@Suite struct ThreadNameTests {
    /// The calling thread's name, as the kernel has it.
    static func currentName() -> String {
        let fd = open("/proc/thread-self/comm", O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = read(fd, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
            .trimmingCharacters(in: .newlines)
    }

    @Test func aJobThreadRunsItsJobsOnAThreadOfItsName() {
        let seen = Guarded<[String]>([])
        let thread = JobThread<Int>(name: "job-test") { jobs in
            seen.update { $0.append(contentsOf: jobs.map { _ in ThreadNameTests.currentName() }) }
        }
        thread.submit(1)
        #expect(seen.wait(until: { $0.count == 1 }, timeout: .seconds(30)) == ["job-test"])
    }

    @Test func anIOThreadNameIsCutToWhatLinuxKeeps() {
        let seen = Guarded<String?>(nil)
        let thread = IOThread.start(name: "a-name-longer-than-fifteen") {
            seen.update { $0 = ThreadNameTests.currentName() }
        }
        thread.join()
        #expect(seen.wait(until: { $0 != nil }, timeout: .seconds(30)) == "a-name-longer-t")
    }
}
