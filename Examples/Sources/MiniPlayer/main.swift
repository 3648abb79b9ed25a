// MiniPlayer URL [SECONDS]
//
// Plays a URL or a file in a window with its sound, until it ends, SECONDS pass or the window is
// closed; prints what it played.
import Foundation
import OnAir

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: MiniPlayer URL [SECONDS]\n".utf8))
    exit(2)
}
var configuration = Player.Configuration(url: arguments[1])
configuration.duration = arguments.count > 2 ? Double(arguments[2]).map { .seconds($0) } : nil
var window = ScreenPlayer.Options()
window.title = "MiniPlayer \(arguments[1])"
do {
    let playback = Playback(configuration, window: window) { event in
        if case .note(let note) = event { print(note) }
    }
    let outcome = try await playback.run()
    let report = outcome.report
    print("\(outcome.reason): \(report.frames) frames, \(report.decodeErrors) decode errors, shown: \(report.display != nil)")
} catch {
    print("MiniPlayer: \(error)")
    exit(1)
}
