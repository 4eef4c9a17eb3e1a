import TestSupport
import Testing

@testable import Store

/// A store gives its cached pages back once, when a timer finds it quiet for a whole period.
@Suite struct StoreMemoryTests {
    @Test func cachedPagesAreReleasedOnceAfterAQuietPeriodAndAgainAfterMoreWork() throws {
        let library = try TestLibrary()
        let store = library.priv
        _ = try library.addPhoto("a.jpg", bytes: [1], tags: ["t"])
        #expect(store.releaseMemoryIfQuiet() == false, "the first look only notes the work")
        #expect(store.releaseMemoryIfQuiet() == true, "quiet for a whole period")
        #expect(store.releaseMemoryIfQuiet() == false, "released once per quiet spell")
        #expect(store.releaseMemoryIfQuiet() == false)
        _ = try store.photos(zone: LibraryStore.defaultZone)
        #expect(store.releaseMemoryIfQuiet() == false, "a read is work too")
        #expect(store.releaseMemoryIfQuiet() == true)
        // The store works on after its pages were released.
        #expect(try store.photos(zone: LibraryStore.defaultZone).map(\.name) == ["a.jpg"])
    }
}
