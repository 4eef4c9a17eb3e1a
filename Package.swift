// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PeerShare",
    products: [
        .executable(name: "peershared", targets: ["PeerDaemon"]),
        .executable(name: "peershare", targets: ["PeerShareCLI"]),
        .executable(name: "peershare-bench", targets: ["Bench"]),
        .executable(name: "peershare-thumbnailer", targets: ["Thumbnailer"]),
        .library(name: "Support", targets: ["Support"]),
        .library(name: "Store", targets: ["Store"]),
        .library(name: "Replication", targets: ["Replication"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(name: "CLinux"),
        // QR codes of share and link URLs, drawn by `peershare ... --qr`.
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // Thumbnails the daemon makes of photos added without one (SPEC §14).
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        // The web gallery's HTTP server (a C shim fixes MHD_start_daemon's variadic options).
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // What every module uses: locks, conditions, threads, system-call errors, sockets,
        // HOST:PORT and SHA-256. Dependencies point one way:
        // Support <- Store <- Replication <- PeerDaemon; ControlProtocol uses Support too.
        .target(name: "Support", dependencies: ["COpenSSL", "CLinux"]),
        .target(name: "Store", dependencies: ["Support", "CSQLite", "CLinux"]),
        .target(name: "Replication", dependencies: ["Support", "Store", "COpenSSL", "CLinux"]),
        .target(name: "ControlProtocol", dependencies: ["Support"]),
        .target(name: "Thumbnails", dependencies: ["CVips"]),
        // QR codes of URLs: drawn in a terminal by the CLI, as SVG by the gallery.
        .target(name: "QRCode", dependencies: ["CQRencode"]),
        .executableTarget(
            name: "PeerDaemon",
            dependencies: [
                "Support", "Store", "Replication", "ControlProtocol", "CMicroHTTPD", "QRCode",
            ],
            // The gallery's pages, scripts and styles, compiled into the binary.
            resources: [.embedInCode("Web/Assets")]
        ),
        // The process the daemon runs for each thumbnail, so image decoders stay out of it.
        .executableTarget(name: "Thumbnailer", dependencies: ["Thumbnails", "Support"]),
        .executableTarget(name: "PeerShareCLI", dependencies: ["Support", "ControlProtocol", "QRCode"]),
        .executableTarget(
            name: "Bench", dependencies: ["Support", "Store", "Replication", "CLinux", "Thumbnails"]),
        // What every test target shares: temp directories, waits on conditions, test
        // libraries, and real daemons and CLIs run as processes.
        .target(
            name: "TestSupport", dependencies: ["Support", "Store", "ControlProtocol"],
            path: "Tests/TestSupport"),
        .testTarget(name: "SupportTests", dependencies: ["Support", "TestSupport"]),
        .testTarget(name: "ThumbnailsTests", dependencies: ["Thumbnails", "CVips", "TestSupport"]),
        .testTarget(name: "StoreTests", dependencies: ["Support", "Store", "TestSupport"]),
        .testTarget(
            name: "ReplicationTests", dependencies: ["Support", "Replication", "Store", "TestSupport"]),
        .testTarget(
            name: "PeerDaemonTests",
            dependencies: [
                "Support", "PeerDaemon", "PeerShareCLI", "ControlProtocol", "Replication", "Store",
                "TestSupport", "CQRencode", "QRCode", "Thumbnails",
            ]
        ),
    ]
)
