#if os(Linux)
import Foundation
import OnAirBitstream
import OnAirCore

#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
#endif

/// Why a file could not be probed.
package enum ProbeError: OnAirError, Equatable {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file holds no H.264, H.265 or AAC stream OnAir understands.
    case noStreams(path: String)
    /// The container could not be opened on this platform.
    case unsupportedContainer(path: String, reason: String)

    /// The failure in words, naming the file.
    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "cannot read \(path): \(reason)"
        case let .noStreams(path): return "\(path): no H.264, H.265 or AAC stream found"
        case let .unsupportedContainer(path, reason): return "cannot open \(path): \(reason)"
        }
    }
}

extension ProbeReport {
    /// Reads the file at `path` with OnAir's own H.264, H.265 and AAC parsers (containers
    /// demuxed with libavformat) and summarises its streams; with `listUnits`, every NAL unit
    /// and ADTS frame is listed too.
    public static func probe(path: String, listUnits: Bool = false) throws -> ProbeReport {
        try Prober.probe(path: path, listUnits: listUnits)
    }
}

/// Reads a media file with OnAir's own H.264, H.265 and AAC parsers and summarises its streams.
///
/// Annex-B `.h264`/`.264`/`.h265`/`.hevc` and ADTS `.aac` files are parsed directly; containers
/// (MP4, MOV, MPEG-TS, MKV, FLV, …) are demuxed with libavformat and the streams inside parsed by us.
package enum Prober {
    /// Probes the file at `path`; with `listUnits`, every NAL unit and ADTS frame is listed too.
    public static func probe(path: String, listUnits: Bool = false) throws -> ProbeReport {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "h264", "264", "avc", "h26l":
            return try probeAnnexB(path: path, listUnits: listUnits)
        case "h265", "265", "hevc":
            return try probeHEVCAnnexB(path: path, listUnits: listUnits)
        case "aac", "adts":
            return try probeADTS(path: path, listUnits: listUnits)
        default:
            return try probeContainer(path: path, listUnits: listUnits)
        }
    }

    static func readFile(_ path: String) throws -> [UInt8] {
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ProbeError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    static func probeAnnexB(path: String, listUnits: Bool) throws -> ProbeReport {
        let bytes = try readFile(path)
        var analyzer = H264StreamAnalyzer()
        var lister = H264UnitLister(stream: 0)
        for range in AnnexB.nalUnitRanges(in: bytes) {
            guard let unit = try? H264NALUnit(Array(bytes[range])) else {
                analyzer.noteDamaged()
                continue
            }
            analyzer.add(unit)
            if listUnits { lister.list(unit, offset: range.lowerBound, pts: nil) }
        }
        analyzer.finish()
        guard let stream = analyzer.report(duration: nil, frameRate: nil, byteCount: nil) else {
            throw ProbeError.noStreams(path: path)
        }
        return ProbeReport(format: "h264", streams: [stream], units: listUnits ? lister.units : nil)
    }

    static func probeHEVCAnnexB(path: String, listUnits: Bool) throws -> ProbeReport {
        let bytes = try readFile(path)
        var analyzer = HEVCStreamAnalyzer()
        var units: [ProbedUnit] = []
        for range in AnnexB.nalUnitRanges(in: bytes) {
            guard let unit = try? HEVCNALUnit(bytes[range]) else {
                analyzer.noteDamaged()
                continue
            }
            analyzer.add(unit)
            if listUnits { units.append(HEVCStreamAnalyzer.listed(unit, stream: 0, offset: range.lowerBound, pts: nil)) }
        }
        analyzer.finish()
        guard let stream = analyzer.report(duration: nil, frameRate: nil, byteCount: nil) else {
            throw ProbeError.noStreams(path: path)
        }
        return ProbeReport(format: "hevc", streams: [stream], units: listUnits ? units : nil)
    }

    static func probeADTS(path: String, listUnits: Bool) throws -> ProbeReport {
        let parsed = ADTS.parse(try readFile(path))
        var analyzer = AACStreamAnalyzer()
        analyzer.damaged = parsed.damagedFrames
        var units: [ProbedUnit] = []
        for frame in parsed.frames {
            guard let config = try? frame.header.audioSpecificConfig() else {
                analyzer.damaged += 1
                continue
            }
            analyzer.add(frameOfSize: frame.header.frameLength, config: config)
            if listUnits {
                units.append(
                    ProbedUnit(
                        stream: 0, type: "ADTS", size: frame.header.frameLength,
                        sliceType: nil, offset: frame.offset, pts: nil))
            }
        }
        guard let stream = analyzer.report(duration: nil) else { throw ProbeError.noStreams(path: path) }
        return ProbeReport(format: "adts", streams: [stream], units: listUnits ? units : nil)
    }

    static func probeContainer(path: String, listUnits: Bool) throws -> ProbeReport {
        #if canImport(OnAirFFmpeg)
        return try ContainerProber(path: path, listUnits: listUnits).run()
        #else
        throw ProbeError.unsupportedContainer(path: path, reason: "no demuxer on this platform yet")
        #endif
    }
}

/// Lists NAL units with their slice types, keeping the parameter sets needed to parse slices.
struct H264UnitLister {
    let stream: Int
    private var parameterSets = H264ParameterSets()
    private(set) var units: [ProbedUnit] = []

    init(stream: Int) { self.stream = stream }

    mutating func list(_ unit: H264NALUnit, offset: Int?, pts: Double?) {
        try? parameterSets.update(with: unit)
        var sliceType: String?
        if unit.type.isVCL, let header = try? H264SliceHeader(unit, parameterSets: parameterSets) {
            sliceType = header.sliceType.description
        }
        units.append(
            ProbedUnit(
                stream: stream, type: unit.type.description, size: unit.bytes.count,
                sliceType: sliceType, offset: offset, pts: pts))
    }
}
#endif
