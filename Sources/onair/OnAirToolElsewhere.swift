#if !os(Linux)
import Foundation

/// The `onair` entry point where the command-line tool is not built: it captures, encodes, serves
/// and plays through FFmpeg, GStreamer, libsrt, libmicrohttpd and SDL2, which only Linux builds
/// link. On Apple platforms an app uses the `OnAir` library (its Apple backend) instead.
@main
enum OnAirToolElsewhere {
    static func main() {
        FileHandle.standardError.write(Data("onair: the command-line tool runs on Linux; on Apple platforms use the OnAir library\n".utf8))
        exit(1)
    }
}
#endif
