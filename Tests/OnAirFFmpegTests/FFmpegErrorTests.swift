#if os(Linux)
import CFFmpeg
import Testing

@testable import OnAirFFmpeg

@Suite struct FFmpegErrorTests {
    @Test func carriesFFmpegsOwnMessage() {
        let error = FFmpegError(code: onair_averror(2), operation: "avformat_open_input(missing.mp4)")
        #expect(error.message == "No such file or directory")
        #expect(error.description == "avformat_open_input(missing.mp4): No such file or directory")
        #expect(FFmpegError(code: onair_averror_eof(), operation: "read").isEndOfFile)
    }
}
#endif
