import TestSupport
import Testing

@testable import Store

/// Links have no index by photo since migration 19: a photo's links are found on the ID
/// index (`LibraryStore.linksOf`), and the unset ones `live_links` looks for on a partial
/// index. A query that no longer matches would scan every link of the library, or every link
/// of the photo once per link, for each photo shown; these plans say it does not.
@Suite struct LinkLookupPlanTests {
    @Test func aPhotosLinksAreSearchedOnTheIDIndexNeverScanned() throws {
        let library = try TestLibrary()
        let photo = try library.addPhoto("beach.jpg", tags: ["sea", "sand"])
        let store = library.priv
        let queries = [
            "SELECT tag_id FROM photo_tags pt WHERE \(LibraryStore.linksOf(photo: "?1", link: "pt")) AND linked = 1",
            """
            SELECT DISTINCT w.id FROM live_links l JOIN tags w ON w.id = l.winner
            WHERE \(LibraryStore.linksOf(photo: "?1", link: "l"))
            """,
        ]
        for query in queries {
            let plan = try store.read { db in
                try db.query("EXPLAIN QUERY PLAN " + query, photo) { $0.string(3) }
            }
            #expect(!plan.contains { $0.hasPrefix("SCAN pt") || $0.hasPrefix("SCAN o") }, "\(plan)")
            #expect(plan.contains { $0.contains("(id>? AND id<?)") }, "\(plan)")
        }
        // The removals `live_links` looks for, on the partial index of unset links.
        let view = try store.read { db in
            try db.query("EXPLAIN QUERY PLAN " + queries[1], photo) { $0.string(3) }
        }
        #expect(
            view.contains { $0.contains("SEARCH o USING INDEX photo_tags_unlinked (photo_id=?)") }, "\(view)")
        #expect(try store.photo(photo)?.tags.map(\.name) == ["sand", "sea"])
    }
}
