#if os(Linux)
#if canImport(OnAirFFmpeg)
import OnAirBitstream
import OnAirFFmpeg

/// Probes a container file: libavformat demuxes, OnAir's parsers read the H.264, H.265 and AAC inside.
struct ContainerProber {
    let path: String
    let listUnits: Bool

    /// Per-stream state while packets are read.
    private struct Track {
        var stream: MediaFileReader.Stream
        var reportIndex: Int
        var h264: H264StreamAnalyzer?
        var hevc: HEVCStreamAnalyzer?
        var aac: AACStreamAnalyzer?
        var avccLengthSize: Int?
        var audioConfig: AudioSpecificConfig?
        var lister: H264UnitLister
        var packetBytes = 0
        var firstPTS: Double?
        var endPTS: Double?
    }

    func run() throws -> ProbeReport {
        let reader: MediaFileReader
        do {
            reader = try MediaFileReader(path: path)
        } catch {
            throw ProbeError.unsupportedContainer(path: path, reason: "\(error)")
        }
        var tracks: [Int: Track] = [:]
        for stream in reader.streams where ["h264", "hevc", "aac"].contains(stream.codecName) {
            var track = Track(stream: stream, reportIndex: tracks.count, lister: H264UnitLister(stream: tracks.count))
            if stream.codecName == "h264" {
                track.h264 = H264StreamAnalyzer()
                if let record = try? AVCDecoderConfigurationRecord(parsing: stream.extradata) {
                    track.avccLengthSize = record.lengthSize
                    for unit in record.sequenceParameterSets + record.pictureParameterSets {
                        track.h264?.add(unit, countBytes: false)
                    }
                }
            } else if stream.codecName == "hevc" {
                track.hevc = HEVCStreamAnalyzer()
                if let record = try? HEVCDecoderConfigurationRecord(parsing: stream.extradata) {
                    track.avccLengthSize = record.lengthSize
                    for unit in record.parameterSets { track.hevc?.add(unit, countBytes: false) }
                }
            } else {
                track.aac = AACStreamAnalyzer()
                track.audioConfig = try? AudioSpecificConfig(parsing: stream.extradata)
            }
            tracks[stream.index] = track
        }
        guard !tracks.isEmpty else { throw ProbeError.noStreams(path: path) }
        var units: [ProbedUnit] = []
        while let packet = try reader.nextPacket() {
            guard var track = tracks[packet.streamIndex] else { continue }
            track.packetBytes += packet.data.count
            if let pts = packet.pts {
                track.firstPTS = min(track.firstPTS ?? pts, pts)
                track.endPTS = max(track.endPTS ?? pts, pts + packet.duration)
            }
            if track.h264 != nil {
                readVideo(packet, into: &track)
            } else if track.hevc != nil {
                readHEVC(packet, into: &track, units: &units)
            } else {
                readAudio(packet, into: &track, units: &units)
            }
            tracks[packet.streamIndex] = track
        }
        var streams: [ProbedStream] = []
        for track in tracks.values.sorted(by: { $0.reportIndex < $1.reportIndex }) {
            let duration = track.endPTS.flatMap { end in track.firstPTS.map { end - $0 } } ?? track.stream.duration
            if var h264 = track.h264 {
                h264.finish()
                if let report = h264.report(
                    duration: duration, frameRate: track.stream.averageFrameRate,
                    byteCount: track.packetBytes)
                {
                    streams.append(report)
                }
                units += track.lister.units
            } else if var hevc = track.hevc {
                hevc.finish()
                if let report = hevc.report(
                    duration: duration, frameRate: track.stream.averageFrameRate, byteCount: track.packetBytes)
                {
                    streams.append(report)
                }
            } else if let aac = track.aac, var report = aac.report(duration: duration) {
                if let duration, duration > 0 { report.bitRate = Int((Double(track.packetBytes * 8) / duration).rounded()) }
                streams.append(report)
            }
        }
        guard !streams.isEmpty else { throw ProbeError.noStreams(path: path) }
        return ProbeReport(format: reader.formatName, streams: streams, units: listUnits ? units : nil)
    }

    /// A video packet's NAL units: length-prefixed when the stream's configuration record gave a
    /// length size, Annex-B otherwise; nil (counted as damaged by the caller) when they do not parse.
    private func nalUnits<Unit>(
        _ packet: MediaFileReader.Packet, lengthSize: Int?, prefixed: ([UInt8], Int) throws -> [Unit],
        annexB: ([UInt8]) -> [Unit]
    ) -> [Unit]? {
        guard let lengthSize else { return annexB(packet.data) }
        return try? prefixed(packet.data, lengthSize)
    }

    private func readVideo(_ packet: MediaFileReader.Packet, into track: inout Track) {
        guard
            let units = nalUnits(
                packet, lengthSize: track.avccLengthSize, prefixed: { try AVCC.units(in: $0, lengthSize: $1) }, annexB: AnnexB.split)
        else { return track.h264?.noteDamaged() ?? () }
        for unit in units {
            track.h264?.add(unit)
            if listUnits { track.lister.list(unit, offset: nil, pts: packet.pts) }
        }
    }

    private func readHEVC(_ packet: MediaFileReader.Packet, into track: inout Track, units listed: inout [ProbedUnit]) {
        guard
            let units = nalUnits(
                packet, lengthSize: track.avccLengthSize, prefixed: { try HEVCByteStream.units(inSample: $0, lengthSize: $1) },
                annexB: HEVCByteStream.split)
        else { return track.hevc?.noteDamaged() ?? () }
        for unit in units {
            track.hevc?.add(unit)
            if listUnits { listed.append(HEVCStreamAnalyzer.listed(unit, stream: track.reportIndex, offset: nil, pts: packet.pts)) }
        }
    }

    private func readAudio(_ packet: MediaFileReader.Packet, into track: inout Track, units: inout [ProbedUnit]) {
        if packet.data.count >= 2, packet.data[0] == 0xFF, packet.data[1] & 0xF6 == 0xF0 {
            // ADTS inside the container (MPEG-TS): each packet holds one or more ADTS frames.
            let parsed = ADTS.parse(packet.data)
            track.aac?.damaged += parsed.damagedFrames
            for frame in parsed.frames {
                guard let config = try? frame.header.audioSpecificConfig() else {
                    track.aac?.damaged += 1
                    continue
                }
                track.aac?.add(frameOfSize: frame.header.frameLength, config: config)
                if listUnits {
                    units.append(
                        ProbedUnit(
                            stream: track.reportIndex, type: "ADTS", size: frame.header.frameLength,
                            sliceType: nil, offset: nil, pts: packet.pts))
                }
            }
        } else if let config = track.audioConfig {
            track.aac?.add(frameOfSize: packet.data.count, config: config)
            if listUnits {
                units.append(
                    ProbedUnit(
                        stream: track.reportIndex, type: "AAC", size: packet.data.count,
                        sliceType: nil, offset: nil, pts: packet.pts))
            }
        } else {
            track.aac?.damaged += 1
        }
    }
}
#endif
#endif
