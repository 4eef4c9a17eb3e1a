/// A small read's answer with the request and the connection's write count it was read at
/// (`Database.totalChanges`): the same request at the same count gets the same answer. The
/// peers of a zone that are all up to date ask for the same delta page and the same signed
/// sets after each commit (50 participants for one tag); all but the first get them from here.
struct RecentRead<Request: Equatable, Answer> {
    /// Only answers of about this many bytes or fewer are kept: a joiner's pages of megabytes
    /// are asked for once each, and would only hold memory.
    static var maximumBytes: Int { 64 * 1024 }

    let request: Request
    let generation: Int64
    let answer: Answer

    func answer(_ request: Request, at generation: Int64) -> Answer? {
        request == self.request && generation == self.generation ? answer : nil
    }
}
