import Foundation
import OnAirCore

/// The encoder threads: each drains its queue into its encoder and hands the packets to every sink.
extension LiveSession {
    func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
        encodersDone.startThread(named: name, stackSize: 4 << 20, body)
    }

    func runVideo(_ first: any VideoEncoding) {
        var encoder = first
        var failed = false
        var schedule = KeyFrameSchedule(
            interval: encoder.settings.maxKeyFrameIntervalDuration, frameRate: encoder.settings.expectedFrameRate)
        while let frame = videoQueue.pop() {
            guard !failed else { continue }
            lock.lock()
            let replacement = pendingVideoEncoder
            pendingVideoEncoder = nil
            lock.unlock()
            if let replacement {
                // The old encoder's last packets go out before the new one's first keyframe.
                do { deliver(try encoder.flush()) } catch { notices?("the replaced video encoder failed to flush: \(error)") }
                encoder = replacement
                schedule = KeyFrameSchedule(
                    interval: encoder.settings.maxKeyFrameIntervalDuration, frameRate: encoder.settings.expectedFrameRate)
                lock.lock()
                runningVideoEncoder = replacement
                pendingKeyFrame = true
                appliedBitRate = replacement.settings.averageBitRate
                lock.unlock()
            }
            lock.lock()
            let force = pendingKeyFrame || schedule.isDue(at: frame.pts.seconds)
            if pendingKeyFrame { counters.keyFramesForced += 1 }
            pendingKeyFrame = false
            let bitRate = pendingBitRate
            pendingBitRate = nil
            lock.unlock()
            if let bitRate { applyBitRate(bitRate, to: encoder) }
            do {
                let start = ProcessInfo.processInfo.systemUptime
                let packets = try encoder.encode(frame, forceKeyFrame: force)
                let spent = ProcessInfo.processInfo.systemUptime - start
                let key = packets.contains { $0.mediaType == .video && $0.isKeyframe }
                // Timed on the input frames' clock (a packet's stamps may be on the encoder's own).
                if key { schedule.keyFrameMade(at: frame.pts.seconds) }
                lock.lock()
                counters.encodeSeconds += spent
                counters.encodedFrames += 1
                encodeLatency.add(spent)
                if key { keyFrameEncodeLatency.add(spent) }
                lock.unlock()
                deliver(packets)
            } catch {
                record(error)
                failed = true
            }
        }
        if !failed {
            do { deliver(try encoder.flush()) } catch { record(error) }
        }
    }

    /// Applies a live bitrate change; one that cannot be applied is reported, never fatal.
    private func applyBitRate(_ bitRate: (average: Int, limits: [DataRateLimit]), to encoder: any VideoEncoding) {
        do {
            try encoder.setBitRate(average: bitRate.average, dataRateLimits: bitRate.limits)
            let applied = encoder.settings.averageBitRate
            if applied != bitRate.average {
                notices?("bitrate \(bitRate.average) b/s is above what the stream's level allows: clamped to \(applied) b/s")
            }
            lock.lock()
            appliedBitRate = applied
            lock.unlock()
        } catch {
            notices?("bitrate change to \(bitRate.average) b/s refused (\(error)); staying at \(encoder.settings.averageBitRate) b/s")
        }
    }

    func runAudio(_ encoder: any AudioEncoding) {
        var failed = false
        while let buffer = audioQueue.pop() {
            guard !failed else { continue }
            do { deliver(try encoder.encode(buffer)) } catch {
                record(error)
                failed = true
            }
        }
        if !failed {
            do { deliver(try encoder.flush()) } catch { record(error) }
        }
    }

    private func deliver(_ packets: [EncodedPacket]) {
        guard !packets.isEmpty else { return }
        lock.lock()
        var startKeyFrame = false
        for packet in packets {
            if packet.mediaType == .video {
                counters.framesOut += 1
                counters.videoBytes += packet.byteCount
            } else {
                counters.audioOut += 1
                counters.audioBytes += packet.byteCount
            }
            if startingKeyFrame.note(packet.mediaType, isKeyframe: packet.isKeyframe) { startKeyFrame = true }
        }
        if startKeyFrame { pendingKeyFrame = true }
        let lanes = self.lanes
        lock.unlock()
        // The further encodes' outputs wait for the same sound (`StartingKeyFrame`).
        if startKeyFrame { for lane in lanes { lane.requestKeyFrame() } }
        for packet in packets {
            for runner in runners { runner.enqueue(packet) }
            // The further encodes' sinks carry the same sound.
            if packet.mediaType == .audio { for lane in lanes { lane.deliver([packet]) } }
        }
    }
}
