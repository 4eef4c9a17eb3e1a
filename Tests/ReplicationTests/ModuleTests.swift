import Testing

@testable import Replication
