#if os(Linux)
import OnAirBitstream

/// Summarises an AAC stream from its frames: profile, rate, channels, frame count, bitrate.
struct AACStreamAnalyzer {
    private(set) var config: AudioSpecificConfig?
    private(set) var frames = 0
    private(set) var byteCount = 0
    var damaged = 0

    /// Adds one AAC frame of `size` bytes described by `config`.
    mutating func add(frameOfSize size: Int, config frameConfig: AudioSpecificConfig) {
        if config == nil { config = frameConfig }
        frames += 1
        byteCount += size
    }

    /// The stream's summary; the duration is the container's, else frames × samples per frame / rate.
    func report(duration containerDuration: Double?) -> ProbedStream? {
        guard let config else { return nil }
        let coded = Double(frames * config.samplesPerFrame) / Double(config.outputSampleRate)
        let duration = containerDuration ?? coded
        return ProbedStream(
            type: "audio", codec: "aac", profile: config.profileName, level: nil,
            width: nil, height: nil, codedWidth: nil, codedHeight: nil,
            chromaFormat: nil, bitDepth: nil, entropyCoding: nil, interlaced: nil,
            frameRate: nil, frames: frames, keyframes: nil, maxGop: nil, bFrames: nil,
            sampleRate: config.outputSampleRate, channels: config.outputChannels,
            duration: duration,
            bitRate: duration > 0 ? Int((Double(byteCount * 8) / duration).rounded()) : 0,
            damaged: damaged
        )
    }
}
#endif
