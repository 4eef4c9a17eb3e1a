import Dispatch
import Support
import TestSupport
import Testing

@testable import Store

/// One store used from several threads at once, as the daemon's connections do.
@Suite struct ConcurrencyTests {
    final class Failures: @unchecked Sendable {
        private let lock = Lock()
        private var errors: [String] = []
        var all: [String] { lock.withLock { errors } }
        func add(_ error: any Error) { lock.withLock { errors.append("\(error)") } }
    }

    @Test func concurrentWritesAreSerialisedIntoOneEntryEach() throws {
        let lib = try TestLibrary()
        let photo = try lib.addPhoto("shared.jpg")
        let writers = 8
        let perWriter = 25
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: writers) { w in
            for i in 0..<perWriter {
                do {
                    switch i % 3 {
                    case 0: _ = try lib.priv.rate(photo: photo, value: i % 5 + 1)
                    case 1: _ = try lib.priv.tag(photo: photo, name: "w\(w)-\(i)")
                    default: _ = try lib.priv.photos()
                    }
                } catch {
                    failures.add(error)
                }
            }
        }
        #expect(failures.all.isEmpty)
        let writes = writers * (0..<perWriter).filter { $0 % 3 != 2 }.count
        let entries = try lib.priv.history(since: 1)
        #expect(entries.count == writes)
        #expect(Set(entries.map(\.token)).count == writes)
        let tokens = entries.map(\.token)
        #expect(tokens == tokens.sorted())
        #expect(
            try lib.priv.ratings(ofPhoto: photo).count == writers
                * (0..<perWriter).filter { $0 % 3 == 0 }.count)
        #expect(
            try lib.priv.photo(photo)?.tags.count == writers * (0..<perWriter).filter { $0 % 3 == 1 }.count)
        #expect(try lib.priv.integrityCheck() == "ok")
    }
}
