import OnAirApple
import OnAirBitstream
import OnAirCore
import Testing

/// The forced-keyframe policy, the AAC packetizer, the decoder feed and the audio buffer ring.
@Suite struct KeyFramePolicyTests {
    static func pts(_ index: Int, fps: Int = 30) -> MediaTime { MediaTime(value: Int64(index), timescale: Int32(fps)) }

    @Test func forcesFirstFrameAndEveryInterval() {
        var policy = KeyFramePolicy(settings: VideoEncoderSettings(maxKeyFrameInterval: 10, maxKeyFrameIntervalDuration: 0))
        let forced = (0..<35).filter { policy.forceKeyFrame(at: Self.pts($0), requested: false) }
        #expect(forced == [0, 10, 20, 30])
    }

    @Test func durationLimitWinsWhenShorter() {
        // 30 fps, interval 100 frames, duration 1 s: a keyframe every 30 frames.
        var policy = KeyFramePolicy(settings: VideoEncoderSettings(maxKeyFrameInterval: 100, maxKeyFrameIntervalDuration: 1))
        let forced = (0..<95).filter { policy.forceKeyFrame(at: Self.pts($0), requested: false) }
        #expect(forced == [0, 30, 60, 90])
    }

    @Test func requestsRestartTheCount() {
        var policy = KeyFramePolicy(settings: VideoEncoderSettings(maxKeyFrameInterval: 10, maxKeyFrameIntervalDuration: 0))
        let forced = (0..<25).filter { policy.forceKeyFrame(at: Self.pts($0), requested: $0 == 4) }
        #expect(forced == [0, 4, 14, 24])
        #expect(policy.requested == 1 && policy.forced == 4)
    }

    @Test func encoderKeyFramesMoveTheReference() {
        var policy = KeyFramePolicy(settings: VideoEncoderSettings(maxKeyFrameInterval: 10, maxKeyFrameIntervalDuration: 0))
        var forced: [Int] = []
        for index in 0..<25 {
            if policy.forceKeyFrame(at: Self.pts(index), requested: false) { forced.append(index) }
            // The encoder made frame 6 a keyframe of its own (a scene cut); output comes one frame late.
            if index == 7 { policy.encoded(isKeyframe: true, pts: Self.pts(6)) }
        }
        #expect(forced == [0, 16])
    }
}

@Suite struct AACPacketizerTests {
    static func buffer(
        _ values: [Float], channels: Int, rate: Int = 48_000, format: PCMSampleFormat = .f32, planar: Bool = false,
        pts: MediaTime
    ) -> PCMBuffer {
        let frames = values.count / channels
        func bytes(_ slice: [Float]) -> [UInt8] {
            slice.flatMap { value -> [UInt8] in
                switch format {
                case .f32: return withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
                case .s16: return withUnsafeBytes(of: Int16(value * 32_768).littleEndian, Array.init)
                case .s32: return withUnsafeBytes(of: Int32(Double(value) * 2_147_483_648).littleEndian, Array.init)
                }
            }
        }
        let planes =
            planar
            ? (0..<channels).map { channel in bytes(stride(from: channel, to: values.count, by: channels).map { values[$0] }) }
            : [bytes(values)]
        return PCMBuffer(
            sampleFormat: format, isPlanar: planar, sampleRate: rate, channels: channels, frameCount: frames, planes: planes, pts: pts)
    }

    @Test(arguments: [1, 7, 480, 1023, 1024, 1025, 4096])
    func anyChunkingGivesWholeFramesOnOneTimeline(chunk: Int) throws {
        var packetizer = AACPacketizer(settings: AudioEncoderSettings(sampleRate: 48_000, channels: 2))
        let total = 5_000
        let start = MediaTime(value: 123_456, timescale: 1_000_000)
        let values = (0..<(total * 2)).map { Float($0 % 2000) / 2000 }
        var frames: [AACPacketizer.Frame] = []
        var offset = 0
        while offset < total {
            let count = min(chunk, total - offset)
            let pts = start + MediaTime(value: Int64(offset), timescale: 48_000)
            frames += try packetizer.append(Self.buffer(Array(values[(offset * 2)..<((offset + count) * 2)]), channels: 2, pts: pts))
            offset += count
        }
        frames += packetizer.flush()
        #expect(frames.count == 5)  // 4 whole frames and 904 samples padded
        for (index, frame) in frames.enumerated() {
            #expect(frame.pts == start + MediaTime(value: Int64(index * 1024), timescale: 48_000))
            #expect(frame.samples.count == 2048)
        }
        #expect(frames.map(\.inputFrameCount) == [1024, 1024, 1024, 1024, 904])
        #expect(Array(frames.flatMap(\.samples).prefix(total * 2)) == values)
        #expect(frames.last!.samples.suffix(240).allSatisfy { $0 == 0 })
        #expect(packetizer.timelineRestarts == 0)
    }

    @Test(arguments: [PCMSampleFormat.s16, .s32, .f32], [false, true])
    func everyLayoutReadsTheSameSamples(format: PCMSampleFormat, planar: Bool) throws {
        var packetizer = AACPacketizer(settings: AudioEncoderSettings(sampleRate: 44_100, channels: 2))
        let values: [Float] = (0..<2048).map { Float(($0 * 37) % 256 - 128) / 256 }
        let frames = try packetizer.append(Self.buffer(values, channels: 2, rate: 44_100, format: format, planar: planar, pts: .zero))
        #expect(frames.count == 1)
        for (got, want) in zip(frames[0].samples, values) {
            #expect(abs(got - want) < 1e-4)
        }
    }

    @Test func gapStartsANewTimeline() throws {
        var packetizer = AACPacketizer(settings: AudioEncoderSettings(sampleRate: 48_000, channels: 1))
        var frames = try packetizer.append(Self.buffer([Float](repeating: 0.1, count: 1500), channels: 1, pts: .zero))
        frames += try packetizer.append(Self.buffer([Float](repeating: 0.2, count: 1024), channels: 1, pts: MediaTime(seconds: 1)))
        #expect(frames.map(\.pts) == [.zero, MediaTime(value: 1024, timescale: 48_000), MediaTime(seconds: 1)])
        #expect(frames.map(\.inputFrameCount) == [1024, 476, 1024])
        #expect(packetizer.timelineRestarts == 1)
    }

    @Test func mismatchedInputIsRefused() {
        var packetizer = AACPacketizer(settings: AudioEncoderSettings(sampleRate: 48_000, channels: 2))
        #expect(throws: AppleBackendError.self) { try packetizer.append(Self.buffer([0, 0], channels: 1, pts: .zero)) }
        #expect(throws: AppleBackendError.self) { try packetizer.append(Self.buffer([0, 0], channels: 2, rate: 44_100, pts: .zero)) }
        var short = Self.buffer([0, 0, 0, 0], channels: 2, pts: .zero)
        short.frameCount = 100
        #expect(throws: AppleBackendError.self) { try packetizer.append(short) }
    }
}

@Suite struct H264DecoderFeedTests {
    static let sps1: [UInt8] = [
        0x67, 0x42, 0xC0, 0x1E, 0xDA, 0x02, 0x80, 0xBF, 0xE5, 0x84, 0x00, 0x00, 0x03, 0x00, 0x04, 0x00, 0x00, 0x03, 0x00, 0xC8, 0x3C, 0x58,
        0xBA, 0x80,
    ]
    static let sps2: [UInt8] = [
        0x67, 0x42, 0xC0, 0x1F, 0xDA, 0x01, 0x40, 0x16, 0xE8, 0x40, 0x00, 0x00, 0x03, 0x00, 0x40, 0x00, 0x00, 0x0C, 0x83, 0xC6, 0x0C, 0xA8,
    ]
    static let pps: [UInt8] = [0x68, 0xCE, 0x0F, 0x2C, 0x80]
    static let idr: [UInt8] = [0x65, 0x88, 0x84]
    static let slice: [UInt8] = [0x41, 0x9A, 0x21]

    static func annexB(_ units: [[UInt8]], pts: Int) -> EncodedPacket {
        let nal = units.map { try! H264NALUnit($0) }
        return EncodedPacket(
            mediaType: .video, codec: .h264, data: AnnexB.join(accessUnit: nal), pts: MediaTime(value: Int64(pts), timescale: 30),
            dts: MediaTime(value: Int64(pts), timescale: 30), duration: MediaTime(value: 1, timescale: 30),
            isKeyframe: units.contains(idr), formatDescription: nil)
    }

    static func decoded(_ steps: [H264DecoderFeed.Step]) -> [Bool] {
        steps.compactMap { if case .decode(_, _, _, let key) = $0 { return key } else { return nil } }
    }

    @Test func joiningMidGOPWaitsForAnIDR() throws {
        var feed = H264DecoderFeed()
        #expect(try feed.feed(Self.annexB([Self.slice], pts: 0)) == [.skip(reason: "no parameter sets yet")])
        let key = try feed.feed(Self.annexB([Self.sps1, Self.pps, Self.idr], pts: 1))
        #expect(key.first == .configure(sps: [Self.sps1], pps: [Self.pps]))
        guard case .decode(let sample, let pts, _, true) = key.last else {
            Issue.record("no decode: \(key)")
            return
        }
        #expect(sample == [0, 0, 0, 3] + Self.idr, "4-byte AVCC without parameter sets")
        #expect(pts == MediaTime(value: 1, timescale: 30))
        // The same parameter sets again before the next IDR: no new format description.
        #expect(Self.decoded(try feed.feed(Self.annexB([Self.slice], pts: 2))) == [false])
        #expect(try feed.feed(Self.annexB([Self.sps1, Self.pps, Self.idr], pts: 3)).count == 1)
        #expect(feed.configurations == 1 && feed.skipped == 1)
    }

    @Test func parameterSetChangeReconfiguresAndNeedsAnIDR() throws {
        var feed = H264DecoderFeed()
        _ = try feed.feed(Self.annexB([Self.sps1, Self.pps, Self.idr], pts: 0))
        // New parameter sets arrive alone (out of step with their IDR): slices wait for it.
        #expect(try feed.feed(Self.annexB([Self.sps2, Self.pps], pts: 1)) == [.configure(sps: [Self.sps2], pps: [Self.pps])])
        #expect(try feed.feed(Self.annexB([Self.slice], pts: 2)) == [.skip(reason: "waiting for an IDR")])
        #expect(Self.decoded(try feed.feed(Self.annexB([Self.idr], pts: 3))) == [true])
        feed.decodeFailed()
        #expect(Self.decoded(try feed.feed(Self.annexB([Self.slice], pts: 4))) == [])
        #expect(Self.decoded(try feed.feed(Self.annexB([Self.idr], pts: 5))) == [true])
    }

    @Test func lengthPrefixedPacketsTakeParameterSetsFromTheirDescription() throws {
        var feed = H264DecoderFeed()
        let packager = try H264SamplePackager(outputForm: .avcc)
        let key = try packager.packet(
            sample: try AVCC.sample(from: [try H264NALUnit(Self.idr)], lengthSize: 2), lengthSize: 2, sps: [Self.sps1],
            pps: [Self.pps], pts: .zero, duration: .zero)
        let steps = try feed.feed(key)
        #expect(steps.first == .configure(sps: [Self.sps1], pps: [Self.pps]))
        #expect(Self.decoded(steps) == [true])
        var audio = key
        audio.codec = .aac
        #expect(throws: BitstreamError.self) { try feed.feed(audio) }
    }
}

@Suite struct AudioBufferRingTests {
    @Test func fillsFreeBuffersAndClocksByCompletion() {
        // 3 buffers of 4 frames, 2 bytes per frame, 8 frames per second (so times read easily).
        var ring = AudioBufferRing(bufferCount: 3, framesPerBuffer: 4, bytesPerFrame: 2, sampleRate: 8)
        #expect(ring.bufferByteSize == 8)
        var fills = ring.enqueue([UInt8](0..<6), pts: .zero)  // 3 frames: not a whole buffer
        #expect(fills.isEmpty && ring.pendingFrames == 3)
        fills = ring.enqueue([UInt8](6..<26), pts: MediaTime(value: 3, timescale: 8))  // 10 more: 13 frames
        #expect(fills.map(\.index) == [0, 1, 2])
        #expect(fills[0].bytes == [UInt8](0..<8) && fills[1].bytes == [UInt8](8..<16))
        #expect(fills.map(\.pts) == [.zero, MediaTime(value: 4, timescale: 8), MediaTime(value: 8, timescale: 8)])
        #expect(ring.queuedFrames == 12 && ring.pendingFrames == 1 && ring.playhead == nil)
        #expect(ring.completed(index: 0).isEmpty)
        #expect(ring.playhead == MediaTime(value: 4, timescale: 8))
        #expect(ring.completed(index: 0).isEmpty, "a buffer completes once")
        let last = ring.drain()
        #expect(last.map(\.index) == [0] && last[0].bytes == [24, 25] && last[0].pts == MediaTime(value: 12, timescale: 8))
        #expect(ring.droppedFrames == 0)
    }

    @Test func boundsWhatWaitsAndRestartsOnAJump() {
        var ring = AudioBufferRing(bufferCount: 2, framesPerBuffer: 4, bytesPerFrame: 1, sampleRate: 8)
        _ = ring.enqueue([UInt8](repeating: 1, count: 8), pts: .zero)  // both buffers queued
        _ = ring.enqueue([UInt8](repeating: 2, count: 12), pts: MediaTime(value: 8, timescale: 8))
        #expect(ring.pendingFrames == 8 && ring.droppedFrames == 4, "one ring's worth waits; the oldest go")
        _ = ring.enqueue([UInt8](repeating: 3, count: 2), pts: MediaTime(value: 100, timescale: 8))
        #expect(ring.pendingFrames == 2 && ring.droppedFrames == 12, "a jump drops what was held")
        let fills = ring.completed(index: 1)
        #expect(fills.isEmpty && ring.playhead == MediaTime(value: 8, timescale: 8))
        #expect(ring.drain().first?.pts == MediaTime(value: 100, timescale: 8))
    }
}

@Suite struct PixelBufferFillTests {
    @Test func yuv420pBecomesNV12WithBothStrides() throws {
        // 6×4 picture, source strides 8 (luma) and 4 (chroma), destination strides 16.
        let luma = (0..<32).map { UInt8($0) }
        let u = (0..<8).map { UInt8(100 + $0) }, v = (0..<8).map { UInt8(200 + $0) }
        let frame = VideoFrame(
            width: 6, height: 4, pixelFormat: .yuv420p,
            planes: [.init(bytes: luma, bytesPerRow: 8), .init(bytes: u, bytesPerRow: 4), .init(bytes: v, bytesPerRow: 4)], pts: .zero)
        #expect(try PixelBufferFill.layout(for: .yuv420p) == .nv12)
        var y = [UInt8](repeating: 0xEE, count: 64), uv = [UInt8](repeating: 0xEE, count: 32)
        try y.withUnsafeMutableBytes { try PixelBufferFill.copy(frame, plane: 0, into: $0.baseAddress!, bytesPerRow: 16) }
        try uv.withUnsafeMutableBytes { try PixelBufferFill.copy(frame, plane: 1, into: $0.baseAddress!, bytesPerRow: 16) }
        #expect(Array(y[16..<22]) == [8, 9, 10, 11, 12, 13] && y[22] == 0xEE)
        #expect(Array(uv[0..<6]) == [100, 200, 101, 201, 102, 202] && uv[6] == 0xEE)
        #expect(Array(uv[16..<22]) == [104, 204, 105, 205, 106, 206])
        let back = y.withUnsafeBytes { luma in
            uv.withUnsafeBytes { chroma in
                PixelBufferFill.nv12Frame(
                    width: 6, height: 4, luma: luma, lumaBytesPerRow: 16, chroma: chroma, chromaBytesPerRow: 16, pts: .zero)
            }
        }
        #expect(back.layoutProblem() == nil && back.planes[1].bytes.prefix(6) == uv.prefix(6))
    }

    @Test func unsupportedFormatsAndShortPlanesAreRefused() throws {
        #expect(throws: AppleBackendError.self) { try PixelBufferFill.layout(for: .rgb24) }
        let short = VideoFrame(width: 4, height: 2, pixelFormat: .bgra, planes: [.init(bytes: [0, 0], bytesPerRow: 16)], pts: .zero)
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(throws: AppleBackendError.self) {
            try buffer.withUnsafeMutableBytes { try PixelBufferFill.copy(short, plane: 0, into: $0.baseAddress!, bytesPerRow: 16) }
        }
    }
}

@Suite struct CameraSelectionTests {
    static let cameras = [
        CameraDescriptor(uniqueID: "ext-1", name: "USB", position: .unspecified, formats: []),
        CameraDescriptor(uniqueID: "back-1", name: "Back", position: .back, formats: []),
        CameraDescriptor(uniqueID: "front-1", name: "Front", position: .front, formats: []),
    ]

    @Test func cameraByPositionIDOrFirst() throws {
        #expect(try CameraSelection.camera(for: CameraRequest(spec: "front"), among: Self.cameras).uniqueID == "front-1")
        #expect(try CameraSelection.camera(for: CameraRequest(spec: "back"), among: Self.cameras).uniqueID == "back-1")
        #expect(try CameraSelection.camera(for: CameraRequest(spec: "back-1"), among: Self.cameras).name == "Back")
        #expect(try CameraSelection.camera(for: CameraRequest(spec: ""), among: Self.cameras).uniqueID == "ext-1")
        #expect(throws: AppleBackendError.self) { try CameraSelection.camera(for: .uniqueID("nope"), among: Self.cameras) }
        #expect(throws: AppleBackendError.self) { try CameraSelection.camera(for: .any, among: []) }
    }

    @Test func formatChoice() throws {
        let formats = [
            CameraFormat(width: 1920, height: 1080, maxFrameRate: 30),
            CameraFormat(width: 640, height: 480, maxFrameRate: 30),
            CameraFormat(width: 1280, height: 720, maxFrameRate: 60),
            CameraFormat(width: 640, height: 480, maxFrameRate: 60),
            CameraFormat(width: 3840, height: 2160, maxFrameRate: 24),
        ]
        #expect(try CameraSelection.format(width: 640, height: 480, frameRate: 30, among: formats) == 3, "exact size, higher rate")
        #expect(try CameraSelection.format(width: 1280, height: 720, frameRate: 50, among: formats) == 2)
        #expect(try CameraSelection.format(width: 1000, height: 600, frameRate: 30, among: formats) == 2, "smallest covering")
        #expect(try CameraSelection.format(width: 1920, height: 1080, frameRate: 60, among: formats) == 2, "rate first, then largest")
        #expect(try CameraSelection.format(width: 3840, height: 2160, frameRate: 120, among: formats) == 4, "none reaches the rate")
        #expect(throws: AppleBackendError.self) { try CameraSelection.format(width: 1, height: 1, frameRate: 1, among: []) }
    }

    @Test func hostTimesMapOntoTheSessionClockMonotonically() {
        var mapper = HostTimeMapper(session: MediaTime(value: 5, timescale: 1), hostSeconds: 1000)
        #expect(mapper.sessionTime(ofHostSeconds: 1000.5) == MediaTime(value: 5_500_000, timescale: 1_000_000))
        #expect(mapper.sessionTime(ofHostSeconds: 1000.25) == MediaTime(value: 5_500_000, timescale: 1_000_000), "never backwards")
        #expect(mapper.sessionTime(ofHostSeconds: 1001) == MediaTime(value: 6, timescale: 1))
    }
}
