import ControlProtocol
import Foundation
import Glibc
import Support
import TestSupport
import Testing

/// The web gallery over real HTTP to a real daemon: who gets in, what a POST must carry,
/// what the API serves, photo data with ranges, the live stream.
struct WebGalleryTests {
    /// A daemon with one photo (random bytes: no thumbnail is made of it) and its ID.
    static func daemonWithPhoto(_ directory: TestDirectory, arguments: [String] = []) throws -> (
        DaemonProcess, String
    ) {
        let daemon = try DaemonProcess.startReady(in: directory, arguments: arguments)
        let added = try daemon.json("photo", "add", try directory.write("a.bin", bytes: randomBytes(5000)))
        return (daemon, try #require(added["id"]?.stringValue))
    }

    @Test func onlyAOneTimeLoginLinkGetsIn() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let (client, link) = try HTTPTestClient.fromUI(daemon)

        let anonymous = try client.get("/")
        #expect(anonymous.status == 401)
        #expect(anonymous.text.contains("peershare ui"))
        #expect(try client.get("/api/status").status == 401)
        #expect(try client.get("/login?token=" + String(repeating: "0", count: 64)).status == 403)

        let login = try client.get(link)
        #expect(login.status == 303)
        #expect(login.headers["location"] == "/")
        let cookie = try #require(login.headers["set-cookie"])
        #expect(cookie.hasPrefix("peershare_\(client.port)="))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        #expect(try client.get(link).status == 403, "a login link works once")

        client.cookie = String(cookie.prefix { $0 != ";" })
        let page = try client.get("/")
        #expect(page.status == 200)
        #expect(page.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        #expect(page.headers["referrer-policy"] == "no-referrer")
        #expect(page.text.contains(#"name="csrf-token""#))
        #expect(
            try client.get("/assets/app.js").headers["content-type"]?.hasPrefix("application/javascript")
                == true)
        #expect(try client.get("/assets/../index.html").status == 404)
    }

    @Test func everyPostNeedsTheTokenTheOriginAndAHostThatIsNoName() throws {
        let directory = try TestDirectory()
        let (daemon, photo) = try Self.daemonWithPhoto(directory)
        let client = try HTTPTestClient.loggedIn(to: daemon)
        let csrf = try #require(client.csrf)

        let noToken = try client.send(
            "POST", "/api/tag.add", headers: [("Origin", "http://\(client.host)")],
            body: Array(#"{"photo": "\#(photo)", "name": "stolen"}"#.utf8))
        #expect(noToken.status == 403)
        #expect(noToken.json?["error"]?["code"] == "permission_denied")
        let crossSite = try client.api(
            "tag.add", ["photo": .string(photo), "name": "stolen"],
            headers: [("Origin", "http://evil.example")])
        #expect(crossSite.status == 403)
        #expect(
            crossSite.json?["error"]?["message"]
                == "a request from another site (http://evil.example) is refused")
        let wrongToken = try client.send(
            "POST", "/api/tag.add", headers: [("X-PeerShare-CSRF", String(csrf.reversed()))],
            body: Array(#"{"photo": "\#(photo)", "name": "stolen"}"#.utf8))
        #expect(wrongToken.status == 403)
        let rebound = try client.get("/", headers: [("Host", "photos.evil.example:\(client.port)")])
        #expect(rebound.status == 421)
        #expect(try daemon.json("photo", "show", photo)["tags"] == [], "no refused request changed anything")

        let tagged = try client.api("tag.add", ["photo": .string(photo), "name": "sunset"])
        #expect(tagged.status == 200)
        #expect(tagged.json?["ok"] == true)
        #expect(try daemon.json("photo", "show", photo)["tags"]?.arrayValue?.map { $0["name"] } == ["sunset"])
        #expect(try daemon.json("history").arrayValue?.last?["author"] == "local:gallery")
        #expect(try client.get("/", headers: [("Host", "localhost:\(client.port)")]).status == 200)
    }

    @Test func onlyTheGallerysCommandsAreServedAndBadArgumentsChangeNothing() throws {
        let directory = try TestDirectory()
        let (daemon, photo) = try Self.daemonWithPhoto(directory)
        let client = try HTTPTestClient.loggedIn(to: daemon)

        let backup = try client.api("backup", ["dir": .string(directory.path + "/stolen")])
        #expect(backup.status == 404)
        #expect(backup.json?["error"]?["message"] == "the gallery has no command 'backup'")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/stolen"))
        #expect(try client.api("photo.add", ["file": "/etc/passwd"]).status == 404)

        let garbage = try client.send(
            "POST", "/api/tag.add",
            headers: [("Origin", "http://\(client.host)"), ("X-PeerShare-CSRF", client.csrf ?? "")],
            body: Array("{not json".utf8))
        #expect(garbage.status == 400)
        #expect(garbage.json?["error"]?["code"] == "invalid_request")
        let nested = try client.send(
            "POST", "/api/tag.add",
            headers: [("Origin", "http://\(client.host)"), ("X-PeerShare-CSRF", client.csrf ?? "")],
            body: Array((String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)).utf8))
        #expect(nested.status == 400)
        #expect(
            nested.json?["error"]?["message"]?.stringValue?.contains("nests arrays and objects deeper")
                == true)
        let badRating = try client.api("rate", ["photo": .string(photo), "value": 9])
        #expect(badRating.status == 400)
        #expect(try client.api("photo.show", ["photo": "ffffffff"]).status == 404)
        #expect(try daemon.json("photo", "show", photo)["ratings"] == [])
        #expect(try client.api("rate", ["photo": .string(photo), "value": 4]).status == 200)
        #expect(try daemon.json("photo", "show", photo)["ratings"]?.arrayValue?.map { $0["value"] } == [4])
    }

    @Test func photosComeInPagesAndByTheDeviceThatAddedThem() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        var added: [String] = []
        for index in 0..<5 {
            let file = try directory.write("p\(index).bin", bytes: randomBytes(100))
            added.append(try #require(try daemon.json("photo", "add", file)["id"]?.stringValue))
        }
        let client = try HTTPTestClient.loggedIn(to: daemon)
        let all = try #require(try client.api("photo.list").json?["result"]?.arrayValue).compactMap {
            $0["id"]?.stringValue
        }
        #expect(Set(all) == Set(added))

        var paged: [String] = []
        var after: JSON? = nil
        while true {
            var args: JSON = ["limit": 2]
            if let after { args = ["limit": 2, "after": after] }
            let page = try #require(try client.api("photo.list", args).json?["result"]?.arrayValue)
            paged += page.compactMap { $0["id"]?.stringValue }
            guard page.count == 2, let last = page.last?["id"] else { break }
            after = last
        }
        #expect(paged == all, "pages of two hold every photo once, in the list's order")

        let device = try #require(try daemon.json("id")["peer_id"]?.stringValue)
        let mine = try client.api("photo.list", ["device": .string(String(device.prefix(7)))])
        #expect(mine.json?["result"]?.arrayValue?.count == 5)
        #expect(try client.api("photo.list", ["device": "ZZZZZZZ"]).status == 404)
        let tooMany = try client.api("photo.list", ["limit": 5000])
        #expect(tooMany.status == 400)
        #expect(tooMany.json?["error"]?["message"] == "photo.list: limit must be from 1 to 1000, got 5000")
        // The CLI pages the same way.
        let cli = try daemon.json("photo", "list", "--limit", "2", "--after", all[1])
        #expect(cli.arrayValue?.compactMap { $0["id"]?.stringValue } == Array(all[2..<4]))
    }

    @Test func photoDataComesWholeOrInRangesAndThumbnailsAndQRCodesAsImages() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let data = randomBytes(5000)
        let jpegHead: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + randomBytes(200)
        let photo = try #require(
            try daemon.json(
                "photo", "add", try directory.write("a.bin", bytes: data), "--thumbnail",
                try directory.write("t.jpg", bytes: jpegHead))["id"]?.stringValue)
        let client = try HTTPTestClient.loggedIn(to: daemon)

        let whole = try client.get("/data/\(photo)")
        #expect(whole.status == 200 && whole.body == data)
        #expect(whole.headers["accept-ranges"] == "bytes")
        let part = try client.get("/data/\(photo)", headers: [("Range", "bytes=100-199")])
        #expect(part.status == 206 && part.body == Array(data[100..<200]))
        #expect(part.headers["content-range"] == "bytes 100-199/5000")
        let tail = try client.get("/data/\(photo)", headers: [("Range", "bytes=-10")])
        #expect(tail.status == 206 && tail.body == Array(data[4990...]))
        #expect(try client.get("/data/\(photo)", headers: [("Range", "bytes=6000-")]).status == 416)
        #expect(try client.get("/data/ffffffff").status == 404)

        let thumbnail = try client.get("/thumbnail/\(photo)")
        #expect(thumbnail.status == 200 && thumbnail.body == jpegHead)
        #expect(thumbnail.headers["content-type"] == "image/jpeg")
        let qr = try client.get("/qr.svg?text=peershare%3A%2F%2F127.0.0.1%3A7733%2Fx")
        #expect(qr.status == 200 && qr.headers["content-type"] == "image/svg+xml")
        #expect(qr.text.hasPrefix("<svg"))
        #expect(try client.get("/qr.svg").status == 400)
    }

    @Test func changesReachAnOpenLiveStream() throws {
        let directory = try TestDirectory()
        let (daemon, photo) = try Self.daemonWithPhoto(directory)
        let client = try HTTPTestClient.loggedIn(to: daemon)
        let stream = try client.connect()
        try HTTPTestClient.write(
            stream,
            Array(
                "GET /events HTTP/1.1\r\nHost: \(client.host)\r\nCookie: \(client.cookie ?? "")\r\n\r\n".utf8)
        )
        let opened = try HTTPTestClient.read(stream, until: "retry:")
        #expect(opened.contains("text/event-stream"))
        #expect(try daemon.cli("tag", "add", photo, "live-tag").status == 0)
        // A history event names what changed by ID: the photo's new tag link holds its ID.
        let event = try HTTPTestClient.read(stream, until: "\"photo_tag\"")
        #expect(event.contains("event: history"))
        #expect(event.contains(photo))
    }

    @Test func oversizedRequestsFloodsAndSlowClientsLeaveTheDaemonAlone() throws {
        let directory = try TestDirectory()
        let config = try directory.write(
            "peershared.conf",
            "web_max_connections = 4\nweb_connection_timeout = 5\nmax_web_request_bytes = 1KiB\n")
        let (daemon, photo) = try Self.daemonWithPhoto(directory, arguments: ["--config", config])
        let client = try HTTPTestClient.loggedIn(to: daemon)

        let big = try client.api(
            "photo.rename", ["photo": .string(photo), "name": .string(String(repeating: "x", count: 2000))])
        #expect(big.status == 413)
        #expect(big.text.contains("max_web_request_bytes"))
        #expect(try daemon.json("photo", "show", photo)["name"] == "a.bin")

        // Slow clients: each sends half a request and stops; more than the server takes.
        var slow: [TCPSocket] = []
        for _ in 0..<12 {
            if let socket = try? client.connect() {
                try? HTTPTestClient.write(socket, Array("GET / HTTP/1.1\r\nHost: \(client.host)\r\n".utf8))
                slow.append(socket)
            }
        }
        // The daemon answers its control socket and takes photos while they hang.
        #expect(try daemon.cli("ping").status == 0)
        #expect(
            try daemon.cli("photo", "add", try directory.write("b.bin", bytes: randomBytes(100))).status == 0)
        // The server closes each silent connection after web_connection_timeout.
        for socket in slow {
            var byte: UInt8 = 0
            #expect(recv(socket.fileDescriptor, &byte, 1, 0) <= 0, "a silent connection was left open")
        }
        slow.removeAll()
        try waitUntil("the gallery serves again after the slow clients", timeout: .seconds(60)) {
            (try? client.get("/").status) == 200
        }
        #expect(try daemon.cli("ping").status == 0)
    }

    @Test func syncGoesOnWhileTheGalleryIsFlooded() throws {
        let alice = try SharingPeer("alice", config: "web_max_connections = 4\nweb_connection_timeout = 5\n")
        let bob = try SharingPeer("bob")
        for peer in [alice, bob] { peer.join([alice, bob]) }
        let photo = try alice.addPhoto("lake.jpg", bytes: randomBytes(2000))
        let created = try alice.json("share", "create", photo, "--title", "Lake")
        let share = try #require(created["share"]?.stringValue)
        _ = try alice.json("share", "invite", share, bob.id, "--permission", "read-write")
        _ = try bob.json("accept", try #require(created["url"]?.stringValue))
        try bob.syncWait()

        let (gallery, _) = try HTTPTestClient.fromUI(alice.daemon)
        var flood: [TCPSocket] = []
        for _ in 0..<40 {
            if let socket = try? gallery.connect() {
                try? HTTPTestClient.write(socket, Array("GET / HTTP/1.1\r\nHost: \(gallery.host)\r\n".utf8))
                flood.append(socket)
            }
        }
        // Both ways, while the gallery's connections are all taken.
        #expect(try bob.cli("tag", "add", photo, "from-bob").status == 0)
        try waitUntil("bob's tag at alice during the flood", timeout: .seconds(60)) {
            try alice.json("photo", "show", photo)["tags"]?.arrayValue?.contains { $0["name"] == "from-bob" }
                == true
        }
        #expect(try alice.cli("rate", photo, "5").status == 0)
        try waitUntil("alice's rating at bob during the flood", timeout: .seconds(60)) {
            try bob.json("photo", "show", photo)["ratings"]?.arrayValue?.count == 1
        }
        flood.removeAll()
        let client = try HTTPTestClient.loggedIn(to: alice.daemon)
        #expect(try client.get("/").status == 200)
    }
}
