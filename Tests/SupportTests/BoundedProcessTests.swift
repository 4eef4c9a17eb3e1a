import Glibc
import Support
import Testing

/// A helper program run to its end, or cut short: what the daemon's thumbnails rely on.
struct BoundedProcessTests {
    @Test func theOutputTheErrorAndTheStatusComeBack() throws {
        let output = try BoundedProcess.run(
            "/bin/sh", ["-c", "printf thumb; printf 'why not' >&2; exit 65"], maxOutputBytes: 100,
            timeout: .seconds(30))
        #expect(output.stdout == Array("thumb".utf8))
        #expect(output.stderr == "why not")
        #expect(output.status == 65)
        #expect(!output.timedOut && !output.tooLarge)
    }

    @Test func aProgramThatHangsIsKilledAtTheDeadline() throws {
        let start = ContinuousClock.now
        let output = try BoundedProcess.run(
            "/bin/sleep", ["30"], maxOutputBytes: 100, timeout: .milliseconds(300))
        #expect(output.timedOut)
        #expect(output.status == 128 + SIGKILL)
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    @Test func aProgramThatWritesTooMuchIsKilled() throws {
        let output = try BoundedProcess.run(
            "/bin/sh", ["-c", "yes"], maxOutputBytes: 10_000, timeout: .seconds(30))
        #expect(output.tooLarge)
        #expect(!output.timedOut)
    }

    @Test func aProgramThatCrashesReportsItsSignal() throws {
        let output = try BoundedProcess.run(
            "/bin/sh", ["-c", "kill -SEGV $$"], maxOutputBytes: 100, timeout: .seconds(30))
        #expect(output.status == 128 + SIGSEGV)
    }

    @Test func aMissingProgramIsASystemCallError() {
        #expect(throws: SystemCallError.self) {
            _ = try BoundedProcess.run("/nonexistent/tool", [], maxOutputBytes: 100, timeout: .seconds(5))
        }
    }
}
