/// What a SIGHUP reload changes: settings that apply live are taken from the new
/// configuration; those bound at start-up (sockets, state directory) keep their running
/// values and are reported, so the log says a restart is needed.
struct ReloadPlan: Equatable {
    /// The settings to run with from now on.
    let settings: DaemonSettings
    /// Keys whose new value needs a restart, sorted.
    let restartRequired: [String]

    init(running: DaemonSettings, loaded: DaemonSettings) {
        var settings = loaded
        var restartRequired: [String] = []
        if loaded.listen != running.listen {
            restartRequired.append("listen")
            settings.listen = running.listen
        }
        if loaded.controlSocket != running.controlSocket {
            restartRequired.append("control_socket")
            settings.controlSocket = running.controlSocket
        }
        if loaded.stateDirectory != running.stateDirectory {
            restartRequired.append("state_dir")
            settings.stateDirectory = running.stateDirectory
        }
        self.settings = settings
        self.restartRequired = restartRequired.sorted()
    }
}
