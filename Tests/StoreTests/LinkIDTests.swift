import Testing

@testable import Store

/// A link's ID is PHOTO/TAG: the two columns it determines, and the IDs that are refused.
@Suite struct LinkIDTests {
    @Test func aLinkIDSplitsAtItsOneSlash() throws {
        let columns = try #require(Entity.link.derivedColumns(id: "photo-1/tag-2"))
        #expect(columns.map(\.column) == ["photo_id", "tag_id"])
        #expect(columns.map(\.value) == [.text("photo-1"), .text("tag-2")])
        let accented = try #require(Entity.link.derivedColumns(id: "été/ü"))
        #expect(accented.map(\.value) == [.text("été"), .text("ü")])
    }

    @Test func anIDWithoutBothSidesOrWithTwoSlashesIsMalformed() {
        for id in ["", "/", "photo", "/tag", "photo/", "a/b/c", "a//b"] {
            #expect(Entity.link.derivedColumns(id: id) == nil, "\(id)")
        }
    }

    @Test func otherEntitiesDeriveNothing() {
        #expect(Entity.photo.derivedColumns(id: "a/b")?.isEmpty == true)
    }
}
