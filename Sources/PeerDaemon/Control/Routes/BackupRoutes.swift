import ControlProtocol
import Store
import Synchronization

/// `backup`: a consistent copy of the running daemon's library and identity.
extension ControlRoutes {
    mutating func registerBackup(_ services: DaemonServices) {
        let library = services.library
        registerWithProgress(.backup) { args, progress in
            let directory = try args.absolutePath("dir")
            let writer = BackupWriter(
                library: library, identityDirectory: services.state.settings.stateDirectory + "/identity",
                peerID: services.state.peerID.description)
            let copied = Mutex<Int64>(0)
            let started = ContinuousClock.now
            let manifest = try progress.track(
                total: try library.backupDataBytes(), measure: { copied.withLock { $0 } }
            ) {
                try writer.write(into: directory) { count in copied.withLock { $0 += Int64(count) } }
            }
            let elapsed = ContinuousClock.now - started
            services.logger.info(
                "backup written",
                [
                    "dir": directory, "photos": "\(manifest.files.compactMap(\.photos).reduce(0, +))",
                    "data_files": "\(manifest.data.files)", "seconds": "\(elapsed.components.seconds)",
                ])
            return [
                "dir": .string(directory),
                "photos": .int(manifest.files.compactMap(\.photos).reduce(0, +)),
                "data_files": .int(manifest.data.files), "data_bytes": .int(Int(manifest.data.bytes)),
                "pending_data": .int(manifest.data.pending), "created_at": .string(manifest.createdAt),
            ]
        }
    }
}
