#if os(Linux)
import OnAirServing
import Testing

/// `RTSPGuardPolicy` on figures and times given to it: each limit kept at its value and cut one
/// past it, the idle limit only without a session, the interleaved data window, the connection
/// count. (RTSPServerGuardTests runs it on the real server.)
@Suite struct RTSPGuardPolicyTests {
    static let limits = RTSPGuardPolicy.Limits(
        connections: 3, requestBytes: 1000, requestSeconds: 2, idleSeconds: 5, dataPerSecond: 10_000)

    static func sample(_ consumed: UInt64, data: UInt64 = 0, session: Bool = false) -> RTSPGuardPolicy.Sample {
        RTSPGuardPolicy.Sample(consumed: consumed, data: data, hasSession: session)
    }

    /// A policy with connection 1 opened at time 0, 100 bytes already read from its socket.
    static func opened() -> RTSPGuardPolicy {
        var policy = RTSPGuardPolicy(limits: limits)
        #expect(policy.open(1, sample(100), now: 0) == .keep)
        return policy
    }

    @Test func aRequestOfTheLimitIsKeptAndOneByteMoreIsCut() {
        var policy = Self.opened()
        #expect(policy.judge(1, Self.sample(1100), now: 0.25) == .keep)
        #expect(policy.judge(1, Self.sample(1101), now: 0.5) == .cut(.requestTooLarge))
        // Cut once: then nothing more to do until it closes, and it is still counted.
        #expect(policy.judge(1, Self.sample(5000), now: 0.75) == .keep)
        #expect(policy.open == 1)
    }

    @Test func interleavedDataIsNotTakenForARequest() {
        var policy = Self.opened()
        // 5000 bytes read, 4500 of them RTP/RTCP for the media: 500 of a request pending.
        #expect(policy.judge(1, Self.sample(5100, data: 4500), now: 0.25) == .keep)
        #expect(policy.requestDone(1, Self.sample(5100, data: 4500), now: 0.3) == 500)
        #expect(policy.judge(1, Self.sample(7100, data: 5500), now: 0.5) == .keep)
        #expect(policy.judge(1, Self.sample(7101, data: 5500), now: 0.75) == .cut(.requestTooLarge))
    }

    @Test func aRequestPendingForTheTimeLimitIsKeptAndLongerIsCut() {
        var policy = Self.opened()
        #expect(policy.judge(1, Self.sample(101), now: 1) == .keep)  // pending from here
        #expect(policy.judge(1, Self.sample(150), now: 3) == .keep)  // 2 s: at the limit
        #expect(policy.judge(1, Self.sample(151), now: 3.001) == .cut(.requestTooSlow))
    }

    @Test func aCompleteRequestStartsTheClocksAgain() {
        var policy = Self.opened()
        #expect(policy.judge(1, Self.sample(200), now: 1) == .keep)
        #expect(policy.requestDone(1, Self.sample(300), now: 2.5) == 200)
        // Nothing pending now: the pending clock stops, and the idle one starts from the request.
        #expect(policy.judge(1, Self.sample(300), now: 3.5) == .keep)
        #expect(policy.judge(1, Self.sample(301), now: 4) == .keep)  // a new request from 4 s
        #expect(policy.judge(1, Self.sample(302), now: 6) == .keep)
        #expect(policy.judge(1, Self.sample(303), now: 6.01) == .cut(.requestTooSlow))
        #expect(policy.requestDone(2, Self.sample(0), now: 7) == nil)
    }

    @Test func aConnectionWithoutASessionIdleForTheLimitIsKeptAndLongerIsCut() {
        var policy = Self.opened()
        #expect(policy.judge(1, Self.sample(100), now: 5) == .keep)
        #expect(policy.judge(1, Self.sample(100), now: 5.01) == .cut(.idle))

        var other = Self.opened()
        _ = other.requestDone(1, Self.sample(200), now: 10)
        #expect(other.judge(1, Self.sample(200), now: 15) == .keep)
        #expect(other.judge(1, Self.sample(200), now: 15.01) == .cut(.idle))
    }

    @Test func aConnectionWithASessionIsNeverIdle() {
        var policy = Self.opened()
        #expect(policy.judge(1, Self.sample(100, session: true), now: 600) == .keep)
        // …but its requests are held to their limits all the same.
        #expect(policy.judge(1, Self.sample(1101, session: true), now: 600.25) == .cut(.requestTooLarge))
    }

    @Test func interleavedDataUpToTheRateInASecondIsKeptAndMoreIsCut() {
        var policy = Self.opened()
        // Less than a second since the window began: not judged yet, whatever came.
        #expect(policy.judge(1, Self.sample(100 + 50_000, data: 50_000, session: true), now: 0.75) == .keep)
        var fair = Self.opened()
        #expect(fair.judge(1, Self.sample(10_100, data: 10_000, session: true), now: 1) == .keep)
        #expect(fair.judge(1, Self.sample(20_100, data: 20_000, session: true), now: 2) == .keep)
        #expect(fair.judge(1, Self.sample(30_101, data: 30_001, session: true), now: 3) == .cut(.dataTooFast))
        // Over the window's whole length (here 1.5 s) it is the bytes since its start that count.
        var slow = Self.opened()
        #expect(slow.judge(1, Self.sample(10_100, data: 10_000, session: true), now: 1.5) == .keep)
        #expect(slow.judge(1, Self.sample(20_101, data: 20_001, session: true), now: 3) == .cut(.dataTooFast))
    }

    @Test func connectionsPastTheLimitAreCutOnArrivalUntilOneCloses() {
        var policy = RTSPGuardPolicy(limits: Self.limits)
        for id in UInt64(1)...3 { #expect(policy.open(id, Self.sample(0), now: 0) == .keep) }
        #expect(policy.open(4, Self.sample(0), now: 0) == .cut(.tooManyConnections))
        #expect(policy.open(5, Self.sample(0), now: 0) == .cut(.tooManyConnections))
        #expect(policy.open == 5)
        // Refused ones count until they close, like the rest.
        policy.close(4)
        policy.close(5)
        #expect(policy.open(6, Self.sample(0), now: 1) == .cut(.tooManyConnections))
        policy.close(6)
        policy.close(2)
        policy.close(2)  // twice: nothing more
        #expect(policy.open == 2)
        #expect(policy.open(7, Self.sample(0), now: 2) == .keep)
        #expect(policy.judge(4, Self.sample(99_999), now: 3) == .keep)  // closed: nothing to do
    }

    @Test func readingsOlderThanTheMarksOrOutOfRangeAreNotTakenForRequests() {
        var policy = Self.opened()
        _ = policy.requestDone(1, Self.sample(500, data: 300), now: 1)
        // A reading taken before the request ended and judged after: nothing pending.
        #expect(policy.judge(1, Self.sample(400, data: 300), now: 1.25) == .keep)
        #expect(policy.judge(1, Self.sample(0, data: .max), now: 1.5) == .keep)
        #expect(policy.judge(1, Self.sample(.max, data: 0), now: 1.75) == .cut(.requestTooLarge))
    }
}
#endif
