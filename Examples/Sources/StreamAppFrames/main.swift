// StreamAppFrames URL FILE SECONDS
//
// Makes its own pictures (a bar sweeping across a gradient) and sound (a 440 Hz tone), hands them
// to OnAir through an AppSource, and streams the one encode to URL while recording it to FILE.
// Structured concurrency throughout: the session runs in an `async let`, its events are read
// with `for await`, and the picture and sound makers are two child tasks paced by Task.sleep.
import Foundation
import OnAir

let arguments = CommandLine.arguments
guard arguments.count == 4, let seconds = Double(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: StreamAppFrames URL FILE SECONDS\n".utf8))
    exit(2)
}
let (width, height, rate, sampleRate) = (640, 360, 30.0, 48_000)

/// Waits until `due` seconds of the source's clock (its time since the session started).
func wait(until due: Double, on source: AppSource) async throws {
    let ahead = due - source.elapsed
    if ahead > 0 { try await Task.sleep(for: .seconds(ahead)) }
}

/// Sound, 20 ms at a time, stamped on the session clock.
func makeSound(into source: AppSource, seconds: Double) async throws {
    let samplesPerRun = sampleRate / 50
    var phase = 0.0
    var sent = 0
    while source.isRunning && Double(sent) / Double(sampleRate) < seconds {
        let pts = MediaTime(value: Int64(sent), timescale: Int32(sampleRate))
        var samples = [Float](repeating: 0, count: samplesPerRun)
        for index in samples.indices {
            samples[index] = Float(sin(phase) * 0.3)
            phase += 2 * Double.pi * 440 / Double(sampleRate)
        }
        let bytes = samples.withUnsafeBytes { [UInt8]($0) }
        await source.send(
            PCMBuffer(
                sampleFormat: .f32, isPlanar: false, sampleRate: sampleRate, channels: 1,
                frameCount: samplesPerRun, planes: [bytes], pts: pts))
        sent += samplesPerRun
        try await wait(until: pts.seconds, on: source)
    }
}

/// Pictures, one per frame interval.
func makePictures(into source: AppSource, seconds: Double) async throws {
    var frameIndex = 0
    while source.isRunning && Double(frameIndex) / rate < seconds {
        try await wait(until: Double(frameIndex) / rate, on: source)
        var frame = VideoFrame(
            width: width, height: height, pixelFormat: .yuv420p,
            pts: MediaTime(value: Int64(frameIndex), timescale: Int32(rate)))
        // One row (the gradient with the bar on it), repeated down the picture.
        let bar = (frameIndex * 8) % width
        let row = (0..<width).map { column in abs(column - bar) < 12 ? UInt8(235) : UInt8(16 + column * 200 / width) }
        frame.planes[0] = VideoFrame.Plane(bytes: Array([[UInt8]](repeating: row, count: height).joined()), bytesPerRow: width)
        frame.planes[1] = VideoFrame.Plane(bytes: [UInt8](repeating: 128, count: width * height / 4), bytesPerRow: width / 2)
        frame.planes[2] = VideoFrame.Plane(bytes: [UInt8](repeating: 128, count: width * height / 4), bytesPerRow: width / 2)
        await source.send(frame)
        frameIndex += 1
    }
}

/// Streams and records `seconds` of made media; returns the session's outcome.
func stream(to outputs: [String], seconds: Double) async throws -> SessionOutcome {
    let source = AppSource(name: "generated", mediaTypes: [.video, .audio])
    var settings = SessionSettings()
    settings.videoEncoder = VideoEncoderSettings(width: width, height: height, expectedFrameRate: rate, averageBitRate: 1_000_000)
    settings.audioEncoder = AudioEncoderSettings(sampleRate: sampleRate, channels: 1, bitRate: 96_000)
    settings.outputs = outputs
    let session = try await SessionBuilder(settings).sources([source]).build()
    // The events, read as they come: failures and connection changes are never dropped.
    let events = session.events()
    let printer = Task {
        for await event in events {
            switch event {
            case .outputFailed(let failure): print("output failed: \(failure)")
            case .connection(let destination, let change): print("\(destination): \(change)")
            default: break
            }
        }
    }
    try session.start()
    // Runs until the source finishes (every file finished then).
    async let outcome = session.run()
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await makeSound(into: source, seconds: seconds) }
        group.addTask { try await makePictures(into: source, seconds: seconds) }
        try await group.waitForAll()
    }
    source.finish()
    let result = try await outcome
    await printer.value
    return result
}

let outcome = try await stream(to: [arguments[1], arguments[2]], seconds: seconds)
print("sent \(outcome.statistics.framesOut) frames, \(outcome.statistics.droppedFrames) dropped (\(outcome.reason))")
do {
    try outcome.check()
} catch {
    print(error)
    exit(1)
}
