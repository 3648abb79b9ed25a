import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Starts the process with no signal blocked. Foundation's `Process` hands a child the signal
    /// mask of the thread that starts it, and the threads tests run on (Dispatch's workers)
    /// block nearly every signal, SIGINT and SIGTERM included: a child started from one never
    /// saw them. `timeout -s INT 10 gst-launch-1.0 -e …` then ran until the server under test
    /// closed, and its TEARDOWN failing there was an ERROR that failed the RTSP players test now
    /// and then; `timeout 8 ffmpeg …` waited for an ffmpeg that could not be stopped.
    public func runUnblocked() throws {
        #if canImport(Glibc)
        var none = sigset_t(), previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        #endif
        try run()
    }
}
