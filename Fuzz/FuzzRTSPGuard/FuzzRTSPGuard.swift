import OnAirServing

/// libFuzzer entry point for `RTSPGuardPolicy`: the first five bytes choose the limits, then every
/// four bytes are one event — a connection opening, closing, ending a request or being judged —
/// with the time it happens (never going back), the bytes its socket and its media took since the
/// previous event (running totals that only grow, the media's apart from the socket's: readings
/// taken out of step give a negative pending count) and whether it has a session. Checked against
/// figures kept here: a connection is cut on arrival exactly when `connections` are open; a cut
/// gives a reason its figures show (more than `requestBytes` pending, a request pending longer
/// than `requestSeconds` since the last one, idle without a session, interleaved data past the
/// rate), and none is given while every figure is within its limit; one over the byte limit is cut
/// at the judgement that sees it; a cut comes once; the count never goes negative and matches.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard bytes.count >= 5 else { return 0 }
    let limits = RTSPGuardPolicy.Limits(
        connections: Int(bytes[0] % 8), requestBytes: UInt64(bytes[1]) << 4, requestSeconds: Double(bytes[2] % 16) / 4,
        idleSeconds: Double(bytes[3] % 32) / 4, dataPerSecond: UInt64(bytes[4]) << 6)
    var policy = RTSPGuardPolicy(limits: limits)

    var shadows: [UInt64: Shadow] = [:]
    var nextID: UInt64 = 1
    var now = 0.0

    var index = 5
    while index + 4 <= bytes.count {
        let op = bytes[index], pick = bytes[index + 1], step = bytes[index + 2], amount = bytes[index + 3]
        index += 4
        now += Double(step % 64) / 16  // up to about 4 s between events, often none
        let ids = shadows.keys.sorted()
        switch op % 4 {
        case 0:
            let id = nextID
            nextID += 1
            let start = UInt64(amount) << 8
            let verdict = policy.open(id, RTSPGuardPolicy.Sample(consumed: start, data: 0), now: now)
            let full = shadows.count >= limits.connections
            precondition(verdict == (full ? .cut(.tooManyConnections) : .keep), "admission \(verdict) with \(shadows.count) open")
            shadows[id] = Shadow(consumed: start, data: 0, consumedMark: start, dataMark: 0, quiet: now, openData: 0, cut: full)
        case 1:
            guard !ids.isEmpty else { continue }
            let id = ids[Int(pick) % ids.count]
            policy.close(id)
            shadows[id] = nil
        default:
            guard !ids.isEmpty else { continue }
            let id = ids[Int(pick) % ids.count]
            guard var shadow = shadows[id] else { continue }
            // Bytes since the last event (0 to 63, times 1, 16, 256 or 4096): to the socket, the
            // media or both.
            let more = UInt64(amount & 0x3F) << (UInt64(amount >> 6) * 4)
            if op & 0x10 != 0 { shadow.data += more } else { shadow.consumed += more }
            if op & 0x20 != 0 { shadow.consumed += more }
            shadow.session = op & 0x40 != 0
            let sample = RTSPGuardPolicy.Sample(consumed: shadow.consumed, data: shadow.data, hasSession: shadow.session)
            if op % 4 == 2 {
                let size = policy.requestDone(id, sample, now: now)
                precondition(size == UInt64(max(0, shadow.pending)), "request of \(String(describing: size)), pending \(shadow.pending)")
                shadow.consumedMark = shadow.consumed
                shadow.dataMark = shadow.data
                shadow.quiet = now
            } else {
                let verdict = policy.judge(id, sample, now: now)
                check(verdict, shadow, now: now, limits: limits)
                if verdict != .keep { shadow.cut = true }
            }
            shadows[id] = shadow
        }
        precondition(policy.open == shadows.count && policy.open >= 0, "\(policy.open) open, \(shadows.count) known")
    }
    return 0
}

/// What the harness knows of one connection: its running totals, their values at its last
/// complete request, when that was (or when it opened), and whether it was cut.
struct Shadow {
    var consumed: UInt64, data: UInt64, consumedMark: UInt64, dataMark: UInt64
    var quiet: Double, openData: UInt64
    var session = false, cut: Bool
    var pending: Int64 { Int64(consumed - consumedMark) - Int64(data - dataMark) }
}

/// Checks that `verdict` on `shadow` at `now` is one its figures call for.
func check(_ verdict: RTSPGuardPolicy.Verdict, _ shadow: Shadow, now: Double, limits: RTSPGuardPolicy.Limits) {
    let pending = shadow.pending, requestBytes = Int64(limits.requestBytes)
    if shadow.cut {
        precondition(verdict == .keep, "cut twice: \(verdict)")
        return
    }
    switch verdict {
    case .keep:
        precondition(pending <= requestBytes, "kept with \(pending) pending")
    case .cut(.requestTooLarge):
        precondition(pending > requestBytes, "cut as too large with \(pending) pending")
    case .cut(.requestTooSlow):
        precondition(pending > 0 && now - shadow.quiet > limits.requestSeconds, "cut as slow: \(pending) pending, \(now - shadow.quiet) s")
    case .cut(.idle):
        precondition(
            pending <= 0 && !shadow.session && now - shadow.quiet > limits.idleSeconds, "cut as idle: \(pending), \(now - shadow.quiet) s")
    case .cut(.dataTooFast):
        precondition(shadow.data - shadow.openData > limits.dataPerSecond, "cut for data: \(shadow.data - shadow.openData) bytes in all")
    case .cut(.tooManyConnections):
        preconditionFailure("cut for the count when judged")
    }
}
