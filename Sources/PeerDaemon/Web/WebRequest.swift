/// One HTTP request to the gallery, as libmicrohttpd parsed it: what the routes read.
///
/// Headers, cookies and query arguments are looked up through closures onto the live
/// connection (libmicrohttpd keeps them), so a request costs no copies of what it does not ask for.
struct WebRequest {
    let method: String
    /// The path, without the query (libmicrohttpd splits it off and decodes it).
    let path: String
    let body: [UInt8]
    let header: (String) -> String?
    let cookie: (String) -> String?
    let query: (String) -> String?
}
