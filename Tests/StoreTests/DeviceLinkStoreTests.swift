import TestSupport
import Testing

@testable import Store

/// `device_links`: a link is used once, before it expires; open links are bounded.
@Suite struct DeviceLinkStoreTests {
    @Test func aLinkIsUsedOnceAndOnlyBeforeItExpires() throws {
        let store = try TestLibrary().priv
        try store.addDeviceLink(tokenHash: "a", expiresAt: 2_000, name: "desk", now: 1_000)
        try store.addDeviceLink(tokenHash: "b", expiresAt: 2_000, name: nil, now: 1_000)
        #expect(try store.useDeviceLink(tokenHash: "zz", now: 1_500) == .unknown)
        #expect(try store.useDeviceLink(tokenHash: "a", now: 1_500) == .used(name: "desk"))
        #expect(try store.useDeviceLink(tokenHash: "a", now: 1_600) == .alreadyUsed(at: 1_500))
        #expect(try store.useDeviceLink(tokenHash: "b", now: 2_000) == .expired(at: 2_000))
    }

    @Test func atMostSixteenLinksAreOpenAtOnce() throws {
        let store = try TestLibrary().priv
        for n in 0..<LibraryStore.maximumOpenDeviceLinks {
            try store.addDeviceLink(tokenHash: "t\(n)", expiresAt: 10_000, name: nil, now: 1_000)
        }
        #expect(throws: StoreError.self) {
            try store.addDeviceLink(tokenHash: "one more", expiresAt: 10_000, name: nil, now: 1_000)
        }
        // Expired ones make room.
        try store.addDeviceLink(tokenHash: "later", expiresAt: 30_000, name: nil, now: 20_000)
    }
}
