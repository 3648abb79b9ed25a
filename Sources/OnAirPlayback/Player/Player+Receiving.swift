#if os(Linux)
import Foundation
import OnAirCore

#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
import OnAirLive

/// The receiving thread: opens the input, decodes it, writes the `-o` output, hands the media to
/// the sink and keeps the statistics.
extension Player {
    /// Opens the input once and decodes it to its end, a stop or the duration.
    func run() throws {
        let url = configuration.url
        var live = PlaybackInput.isLive(url)
        lock.lock()
        reachedEnd = false
        lock.unlock()
        let decoder = try MediaFileDecoder(
            path: url, options: PlaybackInput.options(for: url),
            videoOutput: MediaFileDecoder.VideoOutput(width: 0, height: 0),
            interrupt: interrupt, nonBlocking: false, lowDelay: live, hardware: configuration.hardware)
        guard decoder.videoStream != nil || decoder.audioStream != nil else { throw PlaybackError.nothingToDecode(url) }
        // A live stream over HTTP (MPEG-TS or fragmented MP4 from a server such as `onair serve`)
        // is played as live from here on: joined at a keyframe, the probe's backlog skipped, and the
        // window catching up to the newest frame, instead of keeping the delay it started with
        // (the keyframe cache's age, ~1 s) as a file's pacing would.
        if !live, PlaybackInput.mayBeLive(url), decoder.isUnbounded, decoder.formatName != "hls" { live = true }
        decoder.waitsForVideoKeyFrame = live
        // Joined recordings and restarted senders jump in time: one timeline, so the clock, the
        // freeze count and a copy carry on across the jump.
        decoder.joinsTimestampJumps = true
        sink?.inputOpened(live: live, hasVideo: decoder.videoStream != nil, hasAudio: decoder.audioStream != nil)
        lock.lock()
        freeze = FreezeDetector(frameRate: decoder.videoStream?.averageFrameRate)
        backlog = BacklogDetector(frameDuration: freeze.frameDuration)
        if !live { backlog.giveUpSeconds = 0 }  // a file has no probe backlog to skip
        if let stream = decoder.audioStream {
            audioInfo = .init(
                codec: stream.codecName, sampleRate: stream.sampleRate, channels: stream.channels,
                decoder: decoder.decoderNames.last ?? stream.codecName)
        }
        lock.unlock()

        var y4m: Y4MWriter?, wav: WAVWriter?, copy: PlayerRemuxer?, resizer: PictureResizer?
        if let output = configuration.output {
            switch Self.outputKind(output, containerMuxer: containerMuxer) {
            case .y4m: y4m = try Y4MWriter(path: output, frameRate: decoder.videoStream?.averageFrameRate ?? 30)
            case .wav: wav = try WAVWriter(path: output)
            case .copy(let format): copy = try PlayerRemuxer(destination: output, format: format, decoder: decoder)
            case nil: throw PlaybackError.unknownOutput(output)
            }
        }
        decoder.packetHandler = { [self] packet in
            lock.lock()
            stats.bytes += packet.data.count
            lock.unlock()
            // A copy starts where decoding does: on the first keyframe.
            if !packet.isBeforeFirstKeyFrame { try copy?.write(packet) }
        }
        let duration = configuration.duration?.inSeconds
        lock.lock()
        let jumpsBefore = changes.timestampJumps  // of inputs opened before (reconnects)
        lock.unlock()
        while !interrupt.isRaised, let output = try decoder.next() {
            let wall = Self.wallNow
            var finished = false
            switch output {
            case .video(let frame):
                let latencySeconds = configuration.measureLatency ? Self.latency(of: frame, wall: wall) : nil
                if let y4m {
                    // A .y4m file has one picture size: later sizes are scaled to the first.
                    if resizer == nil { resizer = PictureResizer(width: frame.width, height: frame.height) }
                    try y4m.write(try resizer!.resize(frame))
                }
                sink?.video(frame)
                lock.lock()
                if firstFrameWall == nil { firstFrameWall = wall }
                if videoInfo == nil, let stream = decoder.videoStream {
                    videoInfo = .init(
                        codec: stream.codecName, width: frame.width, height: frame.height,
                        decoder: decoder.decoderNames.first ?? stream.codecName,
                        hardware: decoder.videoHardware?.device,
                        hardwareUnavailable: decoder.videoHardware?.unavailable ?? [])
                }
                notePictureSizeLocked(frame)
                let pts = frame.pts.seconds
                freeze.frame(pts: pts, wall: wall)
                stats.frames += 1
                if firstVideoPTS == nil { firstVideoPTS = pts }
                lastVideoPTS = max(lastVideoPTS ?? pts, pts)
                if backlog.frame(wall: wall, readWhileProbing: live ? decoder.lastVideoPacketReadWhileProbing : false),
                    let latencySeconds
                {
                    latency.add(latencySeconds)
                    stats.latencyMs = latencySeconds * 1000
                }
                if let duration, let first = firstVideoPTS, pts - first >= duration - freeze.frameDuration / 2 { finished = true }
                lock.unlock()
            case .audio(let buffer):
                try wav?.write(buffer)
                sink?.audio(buffer)
                lock.lock()
                if firstFrameWall == nil { firstFrameWall = wall }
                noteAudioFormatLocked(buffer)
                stats.audioSamples += buffer.frameCount
                let pts = buffer.pts.seconds
                if firstAudioPTS == nil { firstAudioPTS = pts }
                lastAudioPTS = max(lastAudioPTS ?? pts, pts + buffer.duration.seconds)
                if decoder.videoStream == nil, let duration, let first = firstAudioPTS,
                    lastAudioPTS! - first >= duration
                {
                    finished = true
                }
                lock.unlock()
            }
            lock.lock()
            stats.decodeErrors = decoder.decodeErrors + decoder.damagedPackets
            stats.damagedPackets = decoder.damagedPackets
            stats.packetsBeforeKeyFrame = decoder.packetsBeforeKeyFrame
            let jumped = jumpsBefore + decoder.timestampJumps > changes.timestampJumps
            changes.timestampJumps = jumpsBefore + decoder.timestampJumps
            lock.unlock()
            if jumped { sink?.timestampsJumped() }
            if finished {
                lock.lock()
                durationReached = true
                lock.unlock()
                break
            }
        }
        lock.lock()
        reachedEnd = true
        lock.unlock()
        try y4m?.finish()
        try wav?.finish()
        try copy?.finish()
    }

    /// Counts a change of picture size (under `lock`).
    private func notePictureSizeLocked(_ frame: VideoFrame) {
        let size = (width: frame.width, height: frame.height)
        if let last = lastPictureSize, last == size { return }
        if lastPictureSize != nil { changes.pictureSize += 1 }
        if changes.pictureSizes.count < 16 { changes.pictureSizes.append("\(size.width)x\(size.height)") }
        lastPictureSize = size
    }

    /// Counts a change of sample rate or channels (under `lock`).
    private func noteAudioFormatLocked(_ buffer: PCMBuffer) {
        let format = (rate: buffer.sampleRate, channels: buffer.channels)
        if let last = lastAudioFormat, last != format { changes.audioFormat += 1 }
        lastAudioFormat = format
    }

    /// Receiver wall time minus the sender's wall-clock capture time from the frame's second code,
    /// both modulo 2⁴⁸ µs; nil when the frame carries no readable wall-clock code.
    static func latency(of frame: VideoFrame, wall: Double) -> Double? {
        guard let code = FrameCode.readWallClock(from: frame) else { return nil }
        let now = Int64((wall * 1_000_000).rounded()) & FrameCode.wallClockMask
        var difference = (now - code.wallClockMicroseconds) & FrameCode.wallClockMask
        if difference >= 1 << 47 { difference -= 1 << 48 }  // capture "after" receipt: clocks disagree
        return Double(difference) / 1_000_000
    }
}
#endif
#endif
