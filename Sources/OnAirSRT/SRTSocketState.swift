#if os(Linux)
import CSRT

/// Where an SRT socket is in its life (`srt_getsockstate`).
package enum SRTSocketState: String, Sendable, Equatable {
    case initial, opened, listening, connecting, connected, broken, closing, closed, nonexistent

    init(_ status: SRT_SOCKSTATUS) {
        switch status {
        case SRTS_INIT: self = .initial
        case SRTS_OPENED: self = .opened
        case SRTS_LISTENING: self = .listening
        case SRTS_CONNECTING: self = .connecting
        case SRTS_CONNECTED: self = .connected
        case SRTS_BROKEN: self = .broken
        case SRTS_CLOSING: self = .closing
        case SRTS_CLOSED: self = .closed
        default: self = .nonexistent
        }
    }
}
#endif
