/// Finds beep onsets in audio that arrives in pieces, keeping only a few seconds in memory.
///
/// Samples are mixed to mono and analysed in windows with an overlap longer than a beep, so a
/// beep that straddles two windows is found once; a ten-minute recording needs no more memory
/// than a five-second one.
struct StreamingBeepDetector {
    private let detector: BeepDetector
    private var window: [Float] = []
    private var windowStart: Double?
    private var sampleRate = 0
    private var lastOnset = -Double.infinity
    /// Beep onsets found so far, in seconds on the buffers' timeline.
    private(set) var onsets: [Double] = []
    private let windowSeconds = 5.0, overlapSeconds = 1.0

    init(detector: BeepDetector = BeepDetector()) {
        self.detector = detector
    }

    /// Adds one decoded buffer; buffers must be contiguous and share one sample rate.
    mutating func add(_ buffer: PCMBuffer) throws(SyncError) {
        let mono = try MonoSamples(buffer)
        if windowStart == nil || mono.sampleRate != sampleRate {
            flush()
            windowStart = mono.startTime
            sampleRate = mono.sampleRate
        }
        window += mono.values
        if Double(window.count) >= windowSeconds * Double(sampleRate) { analyse(final: false) }
    }

    /// Analyses what is left.
    mutating func flush() {
        if windowStart != nil, !window.isEmpty { analyse(final: true) }
        window = []
        windowStart = nil
    }

    private mutating func analyse(final: Bool) {
        guard let start = windowStart, sampleRate > 0 else { return }
        let keep = final ? 0 : Int(overlapSeconds * Double(sampleRate))
        let reportable = window.count - keep
        for sample in detector.onsetSamples(in: window, sampleRate: sampleRate) where sample < reportable {
            let time = start + Double(sample) / Double(sampleRate)
            if time - lastOnset >= detector.minimumSpacing {
                onsets.append(time)
                lastOnset = time
            }
        }
        window.removeFirst(reportable)
        windowStart = start + Double(reportable) / Double(sampleRate)
    }
}
