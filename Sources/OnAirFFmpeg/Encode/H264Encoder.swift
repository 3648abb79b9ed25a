#if os(Linux)
import CFFmpeg
import Foundation
import OnAirBitstream
import OnAirCore

/// Encodes `VideoFrame`s to H.264 with libavcodec — or to H.265 when `settings.codec` is `.h265` —
/// with a hardware encoder when one opens, else libx264 (libx265).
///
/// Every call blocks while FFmpeg works: use one encoder from one dedicated thread or serial queue,
/// never from Swift's cooperative pool. Output is Annex-B with the parameter sets before every
/// keyframe (H.264: SPS/PPS before every IDR; H.265: VPS/SPS/PPS before every IDR, GOPs closed).
///
/// A frame already in the encoder's size and pixel format whose planes live in memory at a stable
/// address (pooled, decoded, captured or wrapped) is handed to libavcodec without a copy; the
/// encoder holds it only for the duration of `encode` (libx264 takes its picture in then). Other
/// frames are copied or scaled once into the encoder's own input frame. Packets carry the
/// encoder's own payload buffer (no copy).
package final class H264Encoder {
    /// The settings the encoder was opened with (bit rates follow `setBitRate`).
    package private(set) var settings: VideoEncoderSettings
    /// The encoder in use and why earlier candidates were skipped.
    package let selection: EncoderSelection
    /// The H.264 level signalled in the SPS: the fixed one or the smallest that fits (for H.265 the
    /// H.264 level of the same settings; libx265 signals its own).
    package let level: H264Level

    private let context: CodecContext
    private let hardware: HardwareFrames?
    private let inputFormat: AVPixelFormat
    private let staging: OwnedFrame
    private let wrapper: OwnedFrame
    private let packet: OwnedPacket
    private var scaler: PixelScaler?
    private var parameterSets: FormatDescription?
    private var flushed = false
    static let microseconds: Int32 = 1_000_000

    /// Validates `settings`, then opens the named encoder or, for `auto`, the first candidate that opens;
    /// `hardware` says which hardware encoders may be tried at all.
    package init(
        settings: VideoEncoderSettings,
        hardware: HardwareAvailability = .fromEnvironment
    ) throws(EncoderError) {
        do { try settings.validate() } catch { throw .invalidSettings(error) }
        guard let level = settings.resolvedLevel ?? (settings.codec == .h265 ? .l62 : nil) else {
            throw .invalidSettings(SettingsError(field: "profileLevel", value: "\(settings.profileLevel)", allowed: "within level 6.2"))
        }
        let names =
            settings.encoder == "auto" ? EncoderSelection.candidates(for: settings.codec) : [settings.encoder]
        var rejected: [(name: String, reason: String)] = []
        var opened: (CodecContext, HardwareFrames?, AVPixelFormat)?
        for name in names {
            if let reason = hardware.blocked(name) {
                if settings.encoder != "auto" { throw .unavailable(encoder: name, reason: reason) }
                rejected.append((name, reason))
                continue
            }
            do {
                opened = try Self.open(name: name, settings: settings, level: level)
                break
            } catch {
                let reason: String
                switch error {
                case .unavailable(_, let why): reason = why
                default: reason = error.description
                }
                if settings.encoder != "auto" { throw .unavailable(encoder: name, reason: reason) }
                rejected.append((name, reason))
            }
        }
        guard let (context, hardware, inputFormat) = opened else {
            throw .noEncoderOpened(EncoderSelection(chosen: "", rejected: rejected))
        }
        self.settings = settings
        self.level = level
        self.context = context
        self.hardware = hardware
        self.inputFormat = inputFormat
        self.selection = EncoderSelection(chosen: context.name, rejected: rejected)
        staging = try OwnedFrame()
        wrapper = try OwnedFrame()
        packet = try OwnedPacket()
        staging.pointer.pointee.width = Int32(settings.width)
        staging.pointer.pointee.height = Int32(settings.height)
        staging.pointer.pointee.format = inputFormat.rawValue
        try checkEncoder(av_frame_get_buffer(staging.pointer, 0), "av_frame_get_buffer")
    }

    /// Encodes one frame; `forceKeyFrame` makes exactly this frame an IDR. Returns the packets that
    /// became ready (with `realTime`, this frame's packet).
    package func encode(_ frame: VideoFrame, forceKeyFrame: Bool = false) throws(EncoderError) -> [EncodedPacket] {
        guard !flushed else { throw .finished }
        if let problem = frame.layoutProblem() { throw .invalidInput(field: "frame", problem: problem) }
        let input: OwnedFrame
        if try wrap(frame, into: wrapper) {
            input = wrapper
        } else {
            try checkEncoder(av_frame_make_writable(staging.pointer), "av_frame_make_writable")
            try fill(staging, from: frame)
            input = staging
        }
        defer { av_frame_unref(wrapper.pointer) }
        input.pointer.pointee.pts = frame.pts.converted(to: Self.microseconds).value
        input.pointer.pointee.pict_type = forceKeyFrame ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        let submitted = try hardware?.upload(input) ?? input
        var packets: [EncodedPacket] = []
        try context.encode(submitted.pointer, into: packet) { (pointer) throws(EncoderError) in packets.append(makePacket(pointer)) }
        return packets
    }

    /// Drains the frames the encoder still holds; the encoder accepts no frames afterwards.
    package func flush() throws(EncoderError) -> [EncodedPacket] {
        guard !flushed else { return [] }
        flushed = true
        var packets: [EncodedPacket] = []
        try context.encode(nil, into: packet) { (pointer) throws(EncoderError) in packets.append(makePacket(pointer)) }
        return packets
    }

    /// Changes the target and cap bit rates from the next frame on, without a new encoder.
    ///
    /// libx264 reconfigures itself when these change between frames; a cap can only be changed
    /// (not introduced) if the encoder was opened with `dataRateLimits`. Rates above what the
    /// stream's level allows are clamped to the level's maximum (`settings` shows what was
    /// applied); values that are invalid in themselves are refused, leaving the rates unchanged.
    package func setBitRate(average: Int, dataRateLimits: [DataRateLimit]) throws(EncoderError) {
        var changed = settings
        changed.averageBitRate = average
        changed.dataRateLimits = dataRateLimits
        let profile = changed.profileLevel.profile
        let maxBitRate = level.maxBitRate(for: profile), maxBytes = level.maxBufferBits(for: profile) / 8
        changed.averageBitRate = min(changed.averageBitRate, maxBitRate)
        changed.dataRateLimits = changed.dataRateLimits.map { limit in
            var clamped = limit
            if limit.seconds.isFinite, limit.seconds > 0 {
                clamped.bytes = min(clamped.bytes, maxBytes, max(1, Int(Double(maxBitRate) * limit.seconds / 8)))
            }
            return clamped
        }
        do { try changed.validate() } catch { throw .invalidSettings(error) }
        if changed.codec == .h264, let problem = level.violation(of: changed, profile: changed.profileLevel.profile) {
            throw .invalidSettings(problem)
        }
        Self.applyRates(changed, to: context.pointer)
        settings = changed
    }

    // MARK: - Frames and packets

    private func fill(_ target: OwnedFrame, from frame: VideoFrame) throws(EncoderError) {
        let format = frame.pixelFormat.avPixelFormat
        if format == inputFormat, frame.width == settings.width, frame.height == settings.height {
            let planes = target.planes, strides = target.lineSizes
            for (index, plane) in frame.planes.enumerated() {
                guard let destination = planes[index] else { continue }
                let rowBytes = frame.pixelFormat.minimumBytesPerRow(plane: index, width: frame.width)
                let rows = frame.pixelFormat.rows(plane: index, height: frame.height)
                plane.withUnsafeBytes { source in
                    let base = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    for row in 0..<rows {
                        (destination + row * Int(strides[index])).update(from: base + row * plane.bytesPerRow, count: rowBytes)
                    }
                }
            }
            return
        }
        if scaler == nil || scaler!.source != (frame.width, frame.height, format) {
            scaler = try PixelScaler(from: (frame.width, frame.height, format), to: (settings.width, settings.height, inputFormat))
        }
        try scaler!.scale(frame, into: target)
    }

    /// Hands `frame`'s planes to `target` without copying when the encoder takes them as they are
    /// (its size and format, memory at stable addresses); returns whether it did.
    private func wrap(_ frame: VideoFrame, into target: OwnedFrame) throws(EncoderError) -> Bool {
        guard frame.pixelFormat.avPixelFormat == inputFormat, frame.width == settings.width,
            frame.height == settings.height, frame.planes.allSatisfy({ $0.buffer.baseAddress != nil }),
            frame.planes.count <= 4
        else { return false }
        let f = target.pointer
        f.pointee.width = Int32(frame.width)
        f.pointee.height = Int32(frame.height)
        f.pointee.format = inputFormat.rawValue
        for (index, plane) in frame.planes.enumerated() {
            guard let reference = MediaBufferReference.make(plane.buffer, offset: plane.offset, length: plane.byteCount) else {
                av_frame_unref(f)
                throw .ffmpeg(FFmpegError(code: onair_averror(12), operation: "av_buffer_create"))
            }
            withUnsafeMutableBytes(of: &f.pointee.buf) { $0.bindMemory(to: UnsafeMutablePointer<AVBufferRef>?.self)[index] = reference }
            withUnsafeMutableBytes(of: &f.pointee.data) {
                $0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)[index] = reference.pointee.data
            }
            withUnsafeMutableBytes(of: &f.pointee.linesize) { $0.bindMemory(to: Int32.self)[index] = Int32(plane.bytesPerRow) }
        }
        f.pointee.extended_data = withUnsafeMutablePointer(to: &f.pointee.data) {
            $0.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { $0 }
        }
        return true
    }

    private func makePacket(_ p: UnsafeMutablePointer<AVPacket>) -> EncodedPacket {
        // Timestamps first: taking the payload leaves the packet blank.
        let pts = p.pointee.pts == onair_nopts_value() ? 0 : p.pointee.pts
        let dts = p.pointee.dts == onair_nopts_value() ? pts : p.pointee.dts
        let duration =
            p.pointee.duration > 0
            ? p.pointee.duration
            : Int64((Double(Self.microseconds) / settings.expectedFrameRate).rounded())
        let payload = AVPacketStorage.payload(takingFrom: p) ?? MediaBuffer(bytes: OwnedPacket.bytes(of: p))
        if settings.codec == .h265 { return makeHEVCPacket(payload, pts: pts, dts: dts, duration: duration) }
        // The NAL unit types, read in the encoder's own buffer (OnAirBitstream's Annex-B reader).
        let (types, sps, pps) = payload.withUnsafeBytes { bytes -> ([UInt8], [[UInt8]], [[UInt8]]) in
            var types: [UInt8] = [], sps: [[UInt8]] = [], pps: [[UInt8]] = []
            for range in AnnexB.nalUnitRanges(in: bytes) {
                let type = bytes[range.lowerBound] & 0x1F
                types.append(type)
                if type == H264NALUnitType.sps.rawValue { sps.append(Array(bytes[range])) }
                if type == H264NALUnitType.pps.rawValue { pps.append(Array(bytes[range])) }
            }
            return (types, sps, pps)
        }
        let isIDR = types.contains(H264NALUnitType.idr.rawValue)
        var data = payload
        if !sps.isEmpty, !pps.isEmpty {
            parameterSets = .h264(sps: sps, pps: pps)
        } else if isIDR {
            if parameterSets == nil { parameterSets = Self.parameterSets(fromExtradata: context.extradata) }
            if let sets = parameterSets { data = MediaBuffer(bytes: Self.annexB(sets.sps + sets.pps) + payload.bytes) }
        }
        return annexBPacket(.h264, data, pts: pts, dts: dts, duration: duration, isKeyframe: isIDR)
    }

    /// An Annex-B packet of `codec` with the encoder's microsecond times; a keyframe carries the
    /// parameter sets as its format description.
    private func annexBPacket(
        _ codec: MediaCodec, _ data: MediaBuffer, pts: Int64, dts: Int64, duration: Int64, isKeyframe: Bool
    ) -> EncodedPacket {
        EncodedPacket(
            mediaType: .video, codec: codec, payload: data,
            pts: MediaTime(value: pts, timescale: Self.microseconds),
            dts: MediaTime(value: dts, timescale: Self.microseconds),
            duration: MediaTime(value: duration, timescale: Self.microseconds),
            isKeyframe: isKeyframe, formatDescription: isKeyframe ? parameterSets : nil,
            form: .annexB(parameterSetsInBand: true))
    }

    /// An H.265 packet: the parameter sets remembered from its keyframes (or the extradata of an
    /// encoder opened with a global header) and put in front of a keyframe that lacks them.
    private func makeHEVCPacket(_ payload: MediaBuffer, pts: Int64, dts: Int64, duration: Int64) -> EncodedPacket {
        let (sets, isKeyframe) = payload.withUnsafeBytes { Self.hevcUnits(in: $0) }
        var data = payload
        if let description = Self.hevcDescription(sets) {
            parameterSets = description
        } else if isKeyframe {
            if parameterSets == nil { parameterSets = Self.hevcDescription(HEVCByteStream.split(context.extradata).map(\.bytes)) }
            if let sets = parameterSets { data = MediaBuffer(bytes: Self.annexB(sets.parameterSets) + payload.bytes) }
        }
        return annexBPacket(.h265, data, pts: pts, dts: dts, duration: duration, isKeyframe: isKeyframe)
    }

    /// SPS/PPS from Annex-B extradata (what encoders opened with a global header produce).
    private static func parameterSets(fromExtradata extradata: [UInt8]) -> FormatDescription? {
        let units = AnnexB.split(extradata)
        let sps = units.filter { $0.type == .sps }.map(\.bytes)
        let pps = units.filter { $0.type == .pps }.map(\.bytes)
        return sps.isEmpty || pps.isEmpty ? nil : .h264(sps: sps, pps: pps)
    }

    /// `units` each after a four-byte start code.
    private static func annexB(_ units: [[UInt8]]) -> [UInt8] {
        units.flatMap { AnnexB.longStartCode + $0 }
    }
}
#endif
