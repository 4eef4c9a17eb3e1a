/// A harness failure, with whatever context (a daemon's stderr, a command's output)
/// explains it.
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
