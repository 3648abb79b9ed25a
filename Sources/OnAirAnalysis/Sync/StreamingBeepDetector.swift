#if os(Linux)
import OnAirCore

/// Finds beep onsets in audio that arrives in pieces, keeping only a few seconds in memory.
///
/// Samples are mixed to mono and analysed in windows with an overlap longer than a beep, so a
/// beep that straddles two windows is found once; a ten-minute recording needs no more memory
/// than a five-second one. Times follow each buffer's presentation timestamp: where a buffer does
/// not start where the previous one ended (a hole or an overlap in the file's timestamps), the
/// window is analysed and a new one starts at the buffer's own time, so a hole shows as the A/V
/// offset it causes instead of being counted over.
package struct StreamingBeepDetector {
    private let detector: BeepDetector
    private var window: [Float] = []
    private var windowStart: Double?
    private var sampleRate = 0
    private var lastOnset = -Double.infinity
    /// Beep onsets found so far, in seconds on the buffers' timeline.
    package private(set) var onsets: [Double] = []
    private let windowSeconds = 5.0, overlapSeconds = 1.0

    package init(detector: BeepDetector = BeepDetector()) {
        self.detector = detector
    }

    /// How far, in seconds, a buffer's timestamp may stray from the end of the previous one before
    /// it starts a new window (more than timestamp rounding, less than any real hole).
    package static let discontinuity = 0.0005

    /// Adds one decoded buffer.
    package mutating func add(_ buffer: PCMBuffer) throws(SyncError) {
        let mono = try MonoSamples(buffer)
        let expected = windowStart.map { $0 + Double(window.count) / Double(max(sampleRate, 1)) }
        if windowStart == nil || mono.sampleRate != sampleRate
            || abs(mono.startTime - (expected ?? mono.startTime)) > Self.discontinuity
        {
            flush()
            windowStart = mono.startTime
            sampleRate = mono.sampleRate
        }
        window += mono.values
        if Double(window.count) >= windowSeconds * Double(sampleRate) { analyse(final: false) }
    }

    /// Analyses what is left.
    package mutating func flush() {
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
#endif
