import Support
import TestSupport
import Testing

@testable import PeerDaemon

/// The daemon's reading of `peershare-thumbnailer`'s answers, and a batch run of the real one.
struct ThumbnailProcessTests {
    @Test func answersAreReadInOrderUpToTheFirstIncompleteOne() throws {
        let output = Array("ok 3\nabcerror 65 not an image: noise\nok 10\nabc".utf8)
        let answers = ThumbnailProcess.answers(output)
        #expect(answers.count == 2)
        #expect(try answers[0].get() == Array("abc".utf8))
        #expect(answers[1] == .failure(.notAnImage("not an image: noise")))
        #expect(
            ThumbnailProcess.answers(Array("error 66 gone\nerror 69 no vips\n".utf8)) == [
                .failure(.unreadable("gone")), .failure(.failed("no vips")),
            ])
        #expect(ThumbnailProcess.answers(Array("garbage\nok 1\nx".utf8)).isEmpty)
    }

    @Test func aBatchGetsOneAnswerPerFileFromTheRealThumbnailer() throws {
        let directory = try TestDirectory()
        let text = try directory.write("notes.txt", "not an image\n")
        let process = ThumbnailProcess(
            executable: try Products.path("peershare-thumbnailer"), maxBytes: 1 << 20)
        let made = process.thumbnails(ofFiles: [text, directory.path + "/missing.jpg"])
        guard case .failure(.notAnImage) = made[text] else {
            Issue.record("a text file: \(String(describing: made[text]))")
            return
        }
        guard case .failure(.unreadable) = made[directory.path + "/missing.jpg"] else {
            Issue.record("a missing file: \(String(describing: made[directory.path + "/missing.jpg"]))")
            return
        }
        let missing = ThumbnailProcess(executable: directory.path + "/none", maxBytes: 1 << 20)
        guard case .failure(.failed(let reason)) = missing.thumbnails(ofFiles: [text])[text] else {
            Issue.record("no thumbnailer gave no failure")
            return
        }
        #expect(reason.contains("is missing or not executable"))
    }
}
