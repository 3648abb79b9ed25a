/// The sequence and picture parameter sets seen so far in a stream, by id.
package struct H264ParameterSets: Sendable, Equatable {
    /// Sequence parameter sets by `seq_parameter_set_id`.
    public var sps: [Int: H264SPS] = [:]
    /// Picture parameter sets by `pic_parameter_set_id`.
    public var pps: [Int: H264PPS] = [:]

    /// Creates an empty set.
    public init() {}

    /// Creates a set from the SPS and PPS units among `units`; throws on the first that fails to parse.
    public init(units: [H264NALUnit]) throws(BitstreamError) {
        for unit in units {
            try update(with: unit)
        }
    }

    /// Parses and stores an SPS or PPS unit, replacing any earlier one with the same id; other unit
    /// types are ignored. A unit that fails to parse throws and leaves the set unchanged.
    public mutating func update(with unit: H264NALUnit) throws(BitstreamError) {
        switch unit.type {
        case .sps:
            let parsed = try H264SPS(unit)
            sps[parsed.id] = parsed
        case .pps:
            let known = sps
            let parsed = try H264PPS(unit, spsLookup: { known[$0] })
            pps[parsed.id] = parsed
        default:
            break
        }
    }

    /// The PPS with `id` and the SPS it refers to, or an error naming what is missing.
    public func active(ppsId id: Int) throws(BitstreamError) -> (sps: H264SPS, pps: H264PPS) {
        guard let picture = pps[id] else {
            throw BitstreamError.invalidValue(
                field: "pic_parameter_set_id", value: Int64(id),
                allowed: "a PPS id seen earlier (\(pps.keys.sorted()))")
        }
        guard let sequence = sps[picture.spsId] else {
            throw BitstreamError.invalidValue(
                field: "seq_parameter_set_id", value: Int64(picture.spsId),
                allowed: "an SPS id seen earlier (\(sps.keys.sorted()))")
        }
        return (sequence, picture)
    }
}
