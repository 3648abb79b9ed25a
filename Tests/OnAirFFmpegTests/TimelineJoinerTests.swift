#if os(Linux)
import Testing

@testable import OnAirFFmpeg

/// `TimelineJoiner` on packet sequences shaped like a byte-for-byte join of two MPEG-TS
/// recordings: 25 fps video and 1024-sample AAC at 48 kHz, the second part's timestamps starting
/// again where the first part's did.
@Suite struct TimelineJoinerTests {
    static let video = 0, audio = 1
    static let frame = 0.04, aacFrame = 1024.0 / 48_000

    /// One packet: its track and raw presentation time (decoding time the same: no B-frames).
    struct Packet: Equatable {
        var track: Int
        var time: Double
    }

    /// Runs `packets` through a joiner; the adjusted (time, track) of each, in output order.
    static func join(_ packets: [Packet], into joiner: inout TimelineJoiner<Packet>) -> [(packet: Packet, time: Double, starts: Bool)] {
        var outputs: [(Packet, Double, Bool)] = []
        for packet in packets {
            let duration = packet.track == video ? frame : aacFrame
            for output in joiner.push(packet, track: packet.track, pts: packet.time, dts: packet.time, duration: duration) {
                outputs.append((output.item, output.item.time + output.offset, output.startsSegment))
            }
        }
        for output in joiner.flush() { outputs.append((output.item, output.item.time + output.offset, output.startsSegment)) }
        return outputs
    }

    /// Video and audio from `start` for `seconds`, interleaved by time; audio starts `audioLead` earlier.
    static func part(start: Double, seconds: Double, audioLead: Double) -> [Packet] {
        let videoPackets = stride(from: start, to: start + seconds, by: frame).map { Packet(track: video, time: $0) }
        let audioPackets = stride(from: start - audioLead, to: start + seconds, by: aacFrame).map { Packet(track: audio, time: $0) }
        return (videoPackets + audioPackets).sorted { $0.time < $1.time }
    }

    @Test func aJoinBecomesOneTimelineWithTheSameAVRelation() {
        let first = Self.part(start: 1.4213, seconds: 4, audioLead: 0.0213)
        var second = Self.part(start: 1.4213, seconds: 4, audioLead: 0.0213)
        // The demuxer hands out the first part's last audio packets after the second part's first video.
        var tail = first
        let lastAudio = tail.indices.filter { tail[$0].track == Self.audio }.suffix(3)
        let late = lastAudio.map { tail[$0] }
        for index in lastAudio.reversed() { tail.remove(at: index) }
        // (Each track keeps its own order: the late audio comes before the second part's audio.)
        let firstVideo = second.firstIndex { $0.track == Self.video }!
        let video = second.remove(at: firstVideo)
        second = [video] + late + second
        var joiner = TimelineJoiner<Packet>()
        let outputs = Self.join(tail + second, into: &joiner)
        #expect(joiner.jumps == 1)
        #expect(outputs.count == tail.count + second.count)
        for track in [Self.video, Self.audio] {
            let times = outputs.filter { $0.packet.track == track }.map(\.time)
            // Rising on each track, and each track's packets in their own order.
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "track \(track)")
            #expect(outputs.filter { $0.starts && $0.packet.track == track }.count == 1)
        }
        // Both tracks of the second part moved by one offset: audio still leads video by 21.3 ms.
        let firstOfSecond = outputs.filter(\.starts)
        let offsets = firstOfSecond.map { $0.time - $0.packet.time }
        #expect(offsets.count == 2 && abs(offsets[0] - offsets[1]) < 1e-9)
        // The second part starts where the first ended: no overlap, no gap beyond the audio lead.
        let firstEnd = first.map { $0.time + ($0.track == Self.video ? Self.frame : Self.aacFrame) }.max() ?? 0
        let secondStart = firstOfSecond.map(\.time).min() ?? 0
        #expect(secondStart >= firstEnd - 1e-6 && secondStart < firstEnd + Self.frame, "\(secondStart) after \(firstEnd)")
    }

    @Test func smallStepsBackAndGapsUnderTheBoundAreNotJumps() {
        var joiner = TimelineJoiner<Packet>()
        // Audio 50 ms behind video in the interleaving, then a 5-second hole in the video.
        let packets = [
            Packet(track: Self.video, time: 1.0), Packet(track: Self.audio, time: 0.95),
            Packet(track: Self.video, time: 1.04), Packet(track: Self.video, time: 1.02),
            Packet(track: Self.video, time: 6.04),
        ]
        let outputs = Self.join(packets, into: &joiner)
        #expect(joiner.jumps == 0)
        #expect(outputs.map(\.time) == packets.map(\.time))
    }

    @Test func aJumpForwardBeyondTheBoundIsJoinedToo() {
        var joiner = TimelineJoiner<Packet>()
        let packets =
            (0..<10).map { Packet(track: Self.video, time: Double($0) * Self.frame) }
            + (0..<10).map { Packet(track: Self.video, time: 100 + Double($0) * Self.frame) }
        let outputs = Self.join(packets, into: &joiner)
        #expect(joiner.jumps == 1)
        let times = outputs.map(\.time)
        // Video alone: nothing to wait for, the next frame follows the last one's end.
        #expect(abs(times[10] - 10 * Self.frame) < 1e-9)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - Self.frame) < 1e-9 })
    }

    @Test func aTrackThatNeverJumpsIsWaitedForOnlyAMoment() {
        var joiner = TimelineJoiner<Packet>()
        // Audio stops at the join; video jumps back and runs on: held at most `holdSpan` seconds.
        var packets = Self.part(start: 0, seconds: 2, audioLead: 0)
        packets += (0..<50).map { Packet(track: Self.video, time: Double($0) * Self.frame) }
        var released: [Int] = []
        for (index, packet) in packets.enumerated() {
            let outputs = joiner.push(packet, track: packet.track, pts: packet.time, dts: packet.time, duration: Self.frame)
            if !outputs.isEmpty { released.append(index) }
        }
        #expect(joiner.jumps == 1)
        #expect(!joiner.isHolding)
        // Released after about a second of held video (26 frames), not at the end.
        let jumpIndex = packets.count - 50
        #expect(released.contains { $0 > jumpIndex && $0 <= jumpIndex + 27 })
    }
}
#endif
