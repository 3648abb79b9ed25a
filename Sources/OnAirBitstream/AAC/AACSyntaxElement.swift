/// The id_syn_ele values of a raw_data_block (ISO/IEC 14496-3 Table 4.85).
enum AACSyntaxElement {
    /// single_channel_element.
    static let singleChannel = 0
    /// channel_pair_element.
    static let channelPair = 1
    /// coupling_channel_element.
    static let couplingChannel = 2
    /// lfe_channel_element.
    static let lfeChannel = 3
    /// data_stream_element.
    static let dataStream = 4
    /// program_config_element.
    static let programConfig = 5
    /// fill_element.
    static let fill = 6
    /// The terminator.
    static let end = 7
}
