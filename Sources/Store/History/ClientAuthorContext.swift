/// The name of the local client a write is made for, while a control request is served.
///
/// Why a task-local: the name belongs to the request, not to any one store call, and a
/// request reaches the stores through many paths (routes, the engine's sharing calls) that
/// all run on the request's own thread. The control connection binds the name around the
/// handler (`withValue`); `LibraryStore.write` reads it when it records a local transaction,
/// which history then shows as `local:NAME`. Outside a request (dedup, sync, start-up) it is
/// nil and local writes stay `local`.
public enum ClientAuthorContext {
    @TaskLocal public static var name: String?
}
