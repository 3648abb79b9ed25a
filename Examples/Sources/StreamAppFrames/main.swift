// StreamAppFrames URL FILE SECONDS
//
// Makes its own pictures (a bar sweeping across a gradient) and sound (a 440 Hz tone), hands them
// to OnAir through an AppSource, and streams the one encode to URL while recording it to FILE.
import Foundation
import OnAir

let arguments = CommandLine.arguments
guard arguments.count == 4, let seconds = Double(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: StreamAppFrames URL FILE SECONDS\n".utf8))
    exit(2)
}
let (width, height, rate, sampleRate) = (640, 360, 30.0, 48_000)

let source = AppSource(name: "generated", mediaTypes: [.video, .audio])
var settings = SessionSettings()
settings.videoEncoder = VideoEncoderSettings(width: width, height: height, expectedFrameRate: rate, averageBitRate: 1_000_000)
settings.audioEncoder = AudioEncoderSettings(sampleRate: sampleRate, channels: 1, bitRate: 96_000)
settings.outputs = [arguments[1], arguments[2]]
let session = try SessionBuilder(settings)
    .sources([source])
    .onEvent { event in
        switch event {
        case .outputFailed(let failure): print("output failed: \(failure)")
        case .connection(let destination, let change): print("\(destination): \(change)")
        default: break
        }
    }
    .build()
try session.start()

// Sound on its own thread, 20 ms at a time, stamped on the session clock.
let audio = Thread {
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
        source.send(
            PCMBuffer(
                sampleFormat: .f32, isPlanar: false, sampleRate: sampleRate, channels: 1,
                frameCount: samplesPerRun, planes: [bytes], pts: pts))
        sent += samplesPerRun
        let ahead = pts.seconds - source.elapsed
        if ahead > 0 { Thread.sleep(forTimeInterval: ahead) }
    }
}
audio.start()

// Pictures on this thread, one per frame interval.
var frameIndex = 0
while Double(frameIndex) / rate < seconds {
    let due = Double(frameIndex) / rate
    let ahead = due - source.elapsed
    if ahead > 0 { Thread.sleep(forTimeInterval: ahead) }
    var frame = VideoFrame(
        width: width, height: height, pixelFormat: .yuv420p,
        pts: MediaTime(value: Int64(frameIndex), timescale: Int32(rate)))
    // One row (the gradient with the bar on it), repeated down the picture.
    let bar = (frameIndex * 8) % width
    let row = (0..<width).map { column in abs(column - bar) < 12 ? UInt8(235) : UInt8(16 + column * 200 / width) }
    frame.planes[0] = VideoFrame.Plane(bytes: Array([[UInt8]](repeating: row, count: height).joined()), bytesPerRow: width)
    frame.planes[1] = VideoFrame.Plane(bytes: [UInt8](repeating: 128, count: width * height / 4), bytesPerRow: width / 2)
    frame.planes[2] = VideoFrame.Plane(bytes: [UInt8](repeating: 128, count: width * height / 4), bytesPerRow: width / 2)
    source.send(frame)
    frameIndex += 1
}
while !audio.isFinished { Thread.sleep(forTimeInterval: 0.01) }
source.finish()
let outcome = try session.runBlocking()
print("sent \(outcome.statistics.framesOut) frames, \(outcome.statistics.droppedFrames) dropped (\(outcome.reason))")
do {
    try outcome.check()
} catch {
    print(error)
    exit(1)
}
