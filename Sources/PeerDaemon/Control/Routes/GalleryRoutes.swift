import ControlProtocol

/// `ui`: a one-time login URL of the web gallery.
extension ControlRoutes {
    mutating func registerGallery(_ services: DaemonServices) {
        let gallery = services.gallery
        register(.ui) { _ in
            switch gallery.current {
            case .off:
                throw ControlError(
                    .galleryOff,
                    "the web gallery is off (web_listen = off): set web_listen and restart peershared")
            case .failed(let reason):
                throw ControlError(.galleryOff, "the web gallery is not running: \(reason)")
            case .running(let gate):
                return ["url": .string(gate.loginURL()), "base": .string(gate.base)]
            }
        }
    }
}

extension ControlError.Code {
    /// `ui`: the web gallery does not run (turned off, or its port taken).
    static let galleryOff: ControlError.Code = "gallery_off"
}
