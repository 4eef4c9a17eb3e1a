/// Every control command group the daemon serves.
///
/// A new group is one file (`Routes/PhotoRoutes.swift` with `extension ControlRoutes {
/// mutating func registerPhotos(_ services: DaemonServices) }`) plus one line here.
extension ControlRoutes {
    static func catalog(_ services: DaemonServices) -> ControlRoutes {
        var routes = ControlRoutes()
        routes.registerDaemonInfo(services)
        routes.registerPhotos(services)
        routes.registerPhotoEdits(services)
        routes.registerTags(services)
        routes.registerRatings(services)
        routes.registerHistory(services)
        routes.registerWatch(services)
        routes.registerShares(services)
        routes.registerShareRequests(services)
        routes.registerPeers(services)
        routes.registerDevices(services)
        routes.registerNames(services)
        routes.registerBackup(services)
        routes.registerDoctor(services)
        routes.registerGallery(services)
        return routes
    }
}
