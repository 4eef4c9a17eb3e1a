// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PeerShare",
    products: [
        .executable(name: "peershared", targets: ["PeerDaemon"]),
        .executable(name: "peershare", targets: ["PeerShareCLI"]),
        .executable(name: "peershare-bench", targets: ["Bench"]),
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
        .target(name: "Store", dependencies: ["CSQLite", "COpenSSL", "CLinux"]),
        .target(name: "Replication", dependencies: ["Store", "COpenSSL", "CLinux"]),
        .target(name: "ControlProtocol"),
        .executableTarget(
            name: "PeerDaemon",
            dependencies: ["Store", "Replication", "ControlProtocol"]
        ),
        .executableTarget(name: "PeerShareCLI", dependencies: ["ControlProtocol"]),
        .executableTarget(name: "Bench", dependencies: ["Store", "Replication", "CLinux"]),
        // What every test target shares: temp directories, waits on conditions, test
        // libraries, and real daemons and CLIs run as processes.
        .target(name: "TestSupport", dependencies: ["Store", "ControlProtocol"], path: "Tests/TestSupport"),
        .testTarget(name: "StoreTests", dependencies: ["Store", "TestSupport"]),
        .testTarget(name: "ReplicationTests", dependencies: ["Replication", "Store", "TestSupport"]),
        .testTarget(
            name: "PeerDaemonTests",
            dependencies: [
                "PeerDaemon", "PeerShareCLI", "ControlProtocol", "Replication", "Store", "TestSupport",
            ]
        ),
    ]
)
