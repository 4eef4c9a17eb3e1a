import Support
import Testing

/// Waiting on a `Guarded` value: what a waiter sees when another thread changes it.
@Suite struct GuardedTests {
    @Test func aWaiterWakesWhenAnotherThreadUpdatesTheValue() {
        let flag = Guarded(false)
        let setter = IOThread.start { flag.update { $0 = true } }
        #expect(flag.wait(until: { $0 }, timeout: .seconds(30)) == true)
        setter.join()
    }

    @Test func aWaitThatTimesOutReturnsTheValueAsItIs() {
        let count = Guarded(1)
        let started = ContinuousClock.now
        #expect(count.wait(until: { $0 > 1 }, timeout: .milliseconds(50)) == 1)
        #expect(ContinuousClock.now - started >= .milliseconds(50))
    }

    @Test func whatRunsAfterTheWaitSeesAndChangesTheValueUnderTheSameLock() {
        let queue = Guarded<[Int]>([])
        let producer = IOThread.start {
            for item in 1...100 { queue.update { $0.append(item) } }
        }
        var taken: [Int] = []
        while taken.count < 100 {
            taken += queue.wait(
                until: { !$0.isEmpty }, timeout: .seconds(30),
                then: { items in
                    defer { items = [] }
                    return items
                })
        }
        producer.join()
        #expect(taken == Array(1...100))
    }
}
