// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PeerShare",
    products: [
        .executable(name: "peershared", targets: ["PeerDaemon"]),
        .executable(name: "peershare", targets: ["PeerShareCLI"]),
        .executable(name: "peershare-bench", targets: ["Bench"]),
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
        // What every module uses: locks, conditions, threads, system-call errors, sockets,
        // HOST:PORT and SHA-256. Dependencies point one way:
        // Support <- Store <- Replication <- PeerDaemon; ControlProtocol uses Support too.
        .target(name: "Support", dependencies: ["COpenSSL", "CLinux"]),
        .target(name: "Store", dependencies: ["Support", "CSQLite", "CLinux"]),
        .target(name: "Replication", dependencies: ["Support", "Store", "COpenSSL", "CLinux"]),
        .target(name: "ControlProtocol", dependencies: ["Support"]),
        .executableTarget(
            name: "PeerDaemon",
            dependencies: ["Support", "Store", "Replication", "ControlProtocol"]
        ),
        .executableTarget(name: "PeerShareCLI", dependencies: ["Support", "ControlProtocol"]),
        .executableTarget(name: "Bench", dependencies: ["Support", "Store", "Replication", "CLinux"]),
        .testTarget(name: "SupportTests", dependencies: ["Support"]),
        .testTarget(name: "StoreTests", dependencies: ["Support", "Store"]),
        .testTarget(name: "ReplicationTests", dependencies: ["Support", "Replication", "Store"]),
        .testTarget(
            name: "PeerDaemonTests",
            dependencies: ["Support", "PeerDaemon", "ControlProtocol", "Replication", "Store"]
        ),
    ]
)
