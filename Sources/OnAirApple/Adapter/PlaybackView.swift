// Apple-only: compiles to nothing on Linux except under the stub check (scripts/apple-stub-check.sh,
// which type-checks the UIKit branch, then with ONAIR_APPLE_STUBS_APPKIT the AppKit one).
#if (canImport(AVFoundation) && (canImport(UIKit) || canImport(AppKit))) || ONAIR_APPLE_STUBS
#if canImport(AVFoundation)
import AVFoundation
import CoreMedia
import CoreVideo
#else
import AppleAPIStubs
#endif
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif
import Foundation
import OnAirCore

#if canImport(UIKit) || (ONAIR_APPLE_STUBS && !ONAIR_APPLE_STUBS_APPKIT)
/// The view class `PlaybackView` is on this platform.
public typealias PlaybackViewBase = UIView
#else
/// The view class `PlaybackView` is on this platform.
public typealias PlaybackViewBase = NSView
#endif

/// A view an app puts in its window to show what a `PlaybackViewPlayer` plays: an
/// AVSampleBufferDisplayLayer filling the view (aspect kept). Pictures reach it on the main actor,
/// through the layer's `sampleBufferRenderer` from iOS 17 / macOS 14 and `enqueue` before. Not yet
/// built on a Mac: see docs/APPLE.md.
@MainActor
public final class PlaybackView: PlaybackViewBase {
    /// The layer the pictures are enqueued on.
    public let displayLayer = AVSampleBufferDisplayLayer()

    /// A view with the given frame.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        attachDisplayLayer()
    }

    /// A view from an interface file.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        attachDisplayLayer()
    }

    private func attachDisplayLayer() {
        displayLayer.videoGravity = .resizeAspect
        #if canImport(UIKit) || (ONAIR_APPLE_STUBS && !ONAIR_APPLE_STUBS_APPKIT)
        layer.addSublayer(displayLayer)
        #else
        wantsLayer = true
        layer?.addSublayer(displayLayer)
        #endif
    }

    #if canImport(UIKit) || (ONAIR_APPLE_STUBS && !ONAIR_APPLE_STUBS_APPKIT)
    /// Keeps the layer the view's size.
    public override func layoutSubviews() {
        super.layoutSubviews()
        displayLayer.frame = bounds
    }
    #else
    /// Keeps the layer the view's size.
    public override func layout() {
        super.layout()
        displayLayer.frame = bounds
    }
    #endif

    /// Shows `buffer` at once (it carries DisplayImmediately: the player decides when).
    func show(_ buffer: CMSampleBuffer) {
        if #available(iOS 17.0, macOS 14.0, *) {
            displayLayer.sampleBufferRenderer.enqueue(buffer)
        } else {
            displayLayer.enqueue(buffer)
        }
    }

    /// Drops what the layer holds (a new stream).
    func flush() {
        if #available(iOS 17.0, macOS 14.0, *) {
            displayLayer.sampleBufferRenderer.flush()
        } else {
            displayLayer.flush()
        }
    }
}

/// Plays H.264 packets and PCM into a `PlaybackView`, as `onair play` plays into its window:
/// `VideoToolboxH264Decoder` decodes (its `H264DecoderFeed` joins mid-GOP and follows parameter-set
/// changes), `AudioQueueSoundOutput` plays the sound, whose played time is the clock, and
/// `PictureTimeline` decides which picture shows when (OnAirLive's `MasterClock` and
/// `FrameScheduler`, the code `onair play` uses). A timer on the player's queue decides every 5 ms;
/// the picture due hops to the main actor for the view. Not yet built on a Mac: see docs/APPLE.md.
/// Unchecked Sendable: VideoToolbox and AudioQueue objects used on the player's serial queue; the view on the main actor
public final class PlaybackViewPlayer: @unchecked Sendable {
    private let view: PlaybackView
    private let lock = NSLock()
    private var sound: AudioQueueSoundOutput?
    private let pictures: DuePictures
    private let decoder: VideoToolboxH264Decoder
    private let queue = DispatchQueue(label: "onair.playback-view")
    private var timer: (any DispatchSourceTimer)?

    /// A player for `view`; with `sound` (its rate and channel count) the sound is the clock,
    /// without it the wall clock from the first picture.
    public init(view: PlaybackView, sound: (sampleRate: Int, channels: Int)?) throws {
        self.view = view
        self.sound = try sound.map { try AudioQueueSoundOutput(sampleRate: $0.sampleRate, channels: $0.channels) }
        let pictures = DuePictures(soundIsClock: sound != nil)
        self.pictures = pictures
        decoder = VideoToolboxH264Decoder(pictures: { pictures.add($0) })
    }

    /// Starts the sound and the picture timer.
    public func start() throws {
        lock.lock()
        defer { lock.unlock() }
        try sound?.start()
        guard timer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: .milliseconds(5))
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
        self.timer = timer
    }

    /// Decodes a video packet (any H.264 form); its picture waits for its time.
    package func video(_ packet: EncodedPacket) throws {
        lock.lock()
        defer { lock.unlock() }
        try decoder.decode(packet)
    }

    /// Queues sound (float or integer PCM at the player's rate and channel count).
    public func audio(_ buffer: PCMBuffer) throws {
        lock.lock()
        defer { lock.unlock() }
        try sound?.play(buffer)
    }

    /// Pictures dropped as late so far.
    public var droppedPictures: Int { pictures.dropped }

    /// Stops the timer and the sound and clears the view's layer.
    public func stop() {
        lock.lock()
        timer?.cancel()
        timer = nil
        sound = nil
        lock.unlock()
        queue.sync {}
        pictures.reset()
        let view = self.view
        Task { @MainActor in view.flush() }
    }

    private func tick() {
        lock.lock()
        let heard = sound?.clock
        lock.unlock()
        guard let picture = pictures.decide(now: ProcessInfo.processInfo.systemUptime, heard: heard),
            let buffer = try? CoreMediaSamples.displayBuffer(picture.image, pts: picture.pts)
        else { return }
        let shown = ShownPicture(buffer: buffer)
        let view = self.view
        Task { @MainActor in view.show(shown.buffer) }
    }
}

/// A sample buffer on its way to the main actor (made on the player's queue, not touched there again).
/// Unchecked Sendable: a CMSampleBuffer made on the player's queue and not touched there again
private struct ShownPicture: @unchecked Sendable {
    let buffer: CMSampleBuffer
}

/// The decoded pictures waiting for their time, shared by the decoder's thread and the timer.
private final class DuePictures: Sendable {
    private let timeline: Locked<PictureTimeline<DecodedPicture>>

    init(soundIsClock: Bool) { timeline = Locked(PictureTimeline(soundIsClock: soundIsClock)) }

    var dropped: Int { timeline.withLock { $0.dropped } }

    func add(_ picture: DecodedPicture) {
        timeline.withLock { $0.add(picture, pts: picture.pts) }
    }

    func decide(now: Double, heard: MediaTime?) -> DecodedPicture? {
        timeline.withLock { $0.decide(now: now, heard: heard).show }
    }

    func reset() {
        timeline.withLock { $0.reset() }
    }
}
#endif
