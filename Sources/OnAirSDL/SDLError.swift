#if os(Linux)
import CSDL2
import OnAirCore

/// A failure of SDL2 (window, renderer, texture or audio device), with SDL's own message.
package struct SDLError: OnAirError, Equatable {
    /// What was being done ("open a window", "open the audio device", …).
    package var operation: String
    /// SDL's message (`SDL_GetError()`) at the time.
    package var message: String

    /// Creates an error for `operation` with SDL's current message.
    init(_ operation: String) {
        self.operation = operation
        message = String(cString: SDL_GetError())
    }

    /// Creates an error with an explicit message.
    package init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    /// "could not OPERATION: MESSAGE".
    package var description: String { "could not \(operation): \(message.isEmpty ? "unknown SDL error" : message)" }
}
#endif
