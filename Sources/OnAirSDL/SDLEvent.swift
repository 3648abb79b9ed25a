#if os(Linux)
/// What the user did to the window, as the player needs it.
package enum SDLEvent: Sendable, Equatable {
    /// The window was closed, or `q` or Esc pressed.
    case quit
    /// `f`: toggle full screen.
    case toggleFullscreen
    /// `i`: toggle the statistics overlay.
    case toggleOverlay
    /// Space: pause or resume.
    case togglePause
    /// The window needs drawing again (resized, exposed).
    case redraw
}
#endif
