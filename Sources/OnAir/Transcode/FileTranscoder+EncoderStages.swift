#if canImport(OnAirFFmpeg)
import Foundation
import OnAirCore
import OnAirFFmpeg
import OnAirLive

/// The encoder stages: frames queued to the H.264 thread, samples to the AAC thread, and the
/// packets both write to every sink.
extension FileTranscoder {
    /// Queues `frame` for the video encoder, marking it as a keyframe when a forced time is due.
    func submit(_ frame: VideoFrame) {
        guard videoEncoder != nil else { return }
        var force = false
        while let next = keyFrameTimes.first, frame.pts.seconds >= next - 1e-6 {
            keyFrameTimes.removeFirst()
            force = true
        }
        videoQueue.push((frame, force), overflow: .wait)
    }

    /// The video encoder thread: encodes queued frames, then drains the encoder.
    func runVideo(_ encoder: H264Encoder) {
        while let (frame, force) = videoQueue.pop() {
            guard !failed else { continue }  // keep taking frames so that the decoder never blocks
            do {
                submitted[frame.pts.converted(to: 1_000_000).value] = ProcessInfo.processInfo.systemUptime
                try deliver(try encoder.encode(frame, forceKeyFrame: force))
                lock.withLock { progress.mediaSeconds = max(progress.mediaSeconds, frame.pts.seconds) }
            } catch {
                record(error)
            }
        }
        guard !failed else { return }
        do { try deliver(try encoder.flush()) } catch { record(error) }
    }

    /// The audio encoder thread: resamples and encodes queued samples, then drains the encoder.
    func runAudio(_ encoder: AACEncoder) {
        while let buffer = audioQueue.pop() {
            guard !failed else { continue }
            do {
                try deliver(try encoder.encode(buffer))
                lock.withLock { progress.mediaSeconds = max(progress.mediaSeconds, buffer.pts.seconds) }
            } catch {
                record(error)
            }
        }
        guard !failed else { return }
        do { try deliver(try encoder.flush()) } catch { record(error) }
    }

    /// Whether decoding or encoding failed (the stages then only drain their queues).
    var failed: Bool { lock.withLock { failure != nil } }

    /// Keeps the first error of decoding or encoding.
    func record(_ error: any Error) {
        lock.withLock { if failure == nil { failure = error } }
    }

    /// The progress with `wall` seconds since the start.
    func snapshot(wall: Double) -> Progress {
        lock.withLock {
            progress.wallSeconds = wall
            return progress
        }
    }

    /// Writes packets to every sink, one encoder thread at a time.
    func deliver(_ packets: [EncodedPacket]) throws {
        guard !packets.isEmpty else { return }
        let now = ProcessInfo.processInfo.systemUptime
        var latencies: [(seconds: Double, key: Bool)] = []
        for packet in packets where packet.mediaType == .video {
            if let start = submitted.removeValue(forKey: packet.pts.converted(to: 1_000_000).value) {
                latencies.append((now - start, packet.isKeyframe))
            }
        }
        lock.lock()
        defer { lock.unlock() }
        for latency in latencies {
            progress.encodeLatency.add(latency.seconds)
            if latency.key { progress.keyFrameEncodeLatency.add(latency.seconds) }
        }
        for packet in packets {
            if packet.mediaType == .video {
                progress.videoFrames += 1
                progress.videoBytes += packet.byteCount
            } else {
                progress.audioFrames += 1
                progress.audioBytes += packet.byteCount
            }
            for (index, sink) in sinks.enumerated() where failures[index] == nil {
                do { try sink.write(packet) } catch {
                    fail(index, error)
                    if failures.count == sinks.count { throw error }
                }
            }
        }
    }
}
#endif
