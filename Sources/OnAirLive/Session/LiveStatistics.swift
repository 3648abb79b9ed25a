/// A once-a-second snapshot of a running session, as printed on stderr and written as JSON lines.
public struct LiveStatistics: Sendable, Codable, Equatable {
    /// Seconds since the session started.
    public var elapsed: Double = 0
    /// Video frames captured and encoded per second over the last interval.
    public var fpsIn: Double = 0, fpsOut: Double = 0
    /// Totals since the start.
    public var framesIn = 0, framesOut = 0
    /// Video frames lost since the start: dropped late before encoding, or not captured in time by the source.
    public var droppedFrames = 0
    /// The part of `droppedFrames` the source could not capture in time.
    public var sourceSkippedFrames = 0
    /// Audio buffers captured and AAC frames encoded since the start.
    public var audioBuffersIn = 0, audioFramesOut = 0
    /// Bits per second of each stream over the last interval.
    public var videoBitRate = 0, audioBitRate = 0
    /// Per-frame encode time over the last interval, in milliseconds.
    public var encodeLatencyMs: Double = 0
    /// Per-frame encode time since the start, in milliseconds: median and 99th percentile of every
    /// frame. Zero until a frame was encoded.
    public var encodeLatencyP50Ms: Double = 0, encodeLatencyP99Ms: Double = 0
    /// The median encode time of keyframes alone, in milliseconds (a keyframe costs an encoder several times a
    /// predicted frame). Zero until a keyframe was encoded.
    public var keyFrameEncodeLatencyMs: Double = 0
    /// Video keyframes made on request since the start (a WebRTC viewer joining or asking, a reconnecting
    /// output, a restarted encode), not those the keyframe interval makes.
    public var keyFramesForced = 0
    /// Bytes the segmented recordings wrote and segments their retention deleted since the start
    /// (nil without a segmented recording).
    public var recordingBytesWritten: Int64?, recordingSegmentsDeleted: Int?
    /// Items waiting in the video and audio encoder queues, and the deepest sink queue.
    public var videoQueue = 0, audioQueue = 0, sinkQueue = 0
    /// Packets a sink dropped (a stalled network sink), since the start.
    public var sinkDroppedPackets = 0
    /// Resident memory of the process in bytes.
    public var residentBytes = 0
    /// The encoder's current average bitrate target (changes with adaptive bitrate).
    public var targetBitRate = 0
    /// The picture size the video encoder running now makes (a reload may restart it at another); nil without video.
    public var videoWidth: Int?, videoHeight: Int?
    /// Network outputs connected now.
    public var networkConnected = 0
    /// Network connections re-established after one was lost, since the start (all network outputs).
    public var reconnects = 0
    /// Seconds network outputs spent without their connection after first making it (summed over outputs).
    public var offlineSeconds = 0.0
    /// Packets network outputs did not send because they were offline or waiting for a keyframe.
    public var networkDroppedPackets = 0
    /// Times a network output's backlog passed `maximumNetworkBacklog` and was cut (summed over outputs).
    public var backlogSkips = 0
    /// Bytes the network outputs sent since the start (summed over outputs).
    public var networkBytesSent = 0
    /// Seconds of media waiting to be sent on the most backlogged network output.
    public var networkQueueSeconds = 0.0
    /// Bytes waiting to be sent on the most backlogged network output.
    public var networkQueueBytes = 0
    /// Video bitrate changes adaptive bitrate made since the start.
    public var bitRateChanges = 0
    /// The latest adaptive bitrate change and its reason, e.g. "abr: 2500 → 1200 kb/s (link 1.1 Mb/s, queue 0.8 s)".
    public var lastBitRateDecision: String?
    /// Adaptive bitrate's estimate of what the worst link carries, in bits per second (nil until measured).
    public var linkEstimate: Int?
    /// Adaptive bitrate's view of the worst link's queueing delay in seconds (queue, transport
    /// buffer and the network's queue in the round trip).
    public var queueingDelay = 0.0

    enum CodingKeys: String, CodingKey {
        case elapsed
        case fpsIn = "fps_in", fpsOut = "fps_out", framesIn = "frames_in", framesOut = "frames_out"
        case droppedFrames = "dropped_frames", sourceSkippedFrames = "source_skipped_frames"
        case audioBuffersIn = "audio_buffers_in", audioFramesOut = "audio_frames_out"
        case videoBitRate = "video_bitrate", audioBitRate = "audio_bitrate"
        case encodeLatencyMs = "encode_latency_ms"
        case encodeLatencyP50Ms = "encode_latency_p50_ms", encodeLatencyP99Ms = "encode_latency_p99_ms"
        case keyFrameEncodeLatencyMs = "keyframe_encode_latency_ms", keyFramesForced = "keyframes_forced"
        case recordingBytesWritten = "recording_bytes_written", recordingSegmentsDeleted = "recording_segments_deleted"
        case videoQueue = "video_queue", audioQueue = "audio_queue", sinkQueue = "sink_queue"
        case sinkDroppedPackets = "sink_dropped_packets"
        case residentBytes = "resident_bytes"
        case targetBitRate = "target_bitrate", videoWidth = "video_width", videoHeight = "video_height"
        case networkConnected = "network_connected", reconnects, offlineSeconds = "offline_seconds"
        case networkDroppedPackets = "network_dropped_packets", backlogSkips = "backlog_skips"
        case networkBytesSent = "network_bytes_sent", networkQueueSeconds = "network_queue_seconds"
        case networkQueueBytes = "network_queue_bytes"
        case bitRateChanges = "bitrate_changes", lastBitRateDecision = "bitrate_decision"
        case linkEstimate = "link_estimate", queueingDelay = "queueing_delay"
    }
}
