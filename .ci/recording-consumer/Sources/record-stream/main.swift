// Records the synthetic test pattern and tone to a file while streaming it as MPEG-TS over UDP,
// for the time given, printing failures and connection changes as they come.
//
//   record-stream FILE UDP-URL SECONDS
import Foundation
import OnAir

let arguments = CommandLine.arguments
guard arguments.count == 4, let seconds = Double(arguments[3]) else {
    print("usage: record-stream FILE UDP-URL SECONDS")
    exit(2)
}
var settings = SessionSettings()
settings.video = .synthetic
settings.audio = .synthetic
settings.outputs = [arguments[1], arguments[2]]
settings.duration = .seconds(seconds)

do {
    let session = try await SessionBuilder(settings).build()
    let events = session.events()
    let watcher = Task {
        for await event in events {
            switch event {
            case .outputFailed(let failure): print("output failed: \(failure)")
            case .connection(let destination, let change): print("\(destination): \(change)")
            default: break
            }
        }
    }
    let outcome = try await session.run()
    await watcher.value
    try outcome.check()
    print("stopped: \(outcome.reason), \(outcome.statistics.framesOut) video frames encoded")
} catch {
    print("record-stream: \(error)")
    exit(1)
}
