#if os(Linux)
import CSDL2
import OnAirCore

/// A resizable SDL2 window that shows yuv420p video frames at their aspect ratio, with an
/// optional text overlay drawn with `BitmapFont`.
///
/// Create, use and destroy it on one thread (SDL's video functions are not thread-safe); that
/// thread must also call `pollEvents()`.
package final class SDLWindow {
    private var window: OpaquePointer?
    private var renderer: OpaquePointer?
    private var texture: OpaquePointer?
    private var textureSize = (width: 0, height: 0)
    private var isFullscreen = false
    /// Frames whose size differed from the previous one (the texture was made again).
    package private(set) var sizeChanges = 0

    /// Opens a `width`×`height` window (centred, resizable; full screen when asked) titled `title`.
    ///
    /// Throws when there is no display to open it on.
    package init(title: String, width: Int, height: Int, fullscreen: Bool = false) throws(SDLError) {
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        // Let a compositor (if any) leave the window alone, and never block the main thread on vsync.
        SDL_SetHint(SDL_HINT_RENDER_VSYNC, "0")
        guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else { throw SDLError("initialise SDL video") }
        let centred = Int32(bitPattern: 0x2FFF_0000)  // SDL_WINDOWPOS_CENTERED
        var flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_SHOWN.rawValue
        if fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        guard let window = SDL_CreateWindow(title, centred, centred, Int32(max(width, 16)), Int32(max(height, 16)), flags) else {
            let error = SDLError("open a window")
            SDL_QuitSubSystem(SDL_INIT_VIDEO)
            throw error
        }
        self.window = window
        isFullscreen = fullscreen
        renderer = SDL_CreateRenderer(window, -1, 0)
        guard renderer != nil else {
            let error = SDLError("create a renderer")
            close()
            throw error
        }
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        clear()
    }

    deinit { close() }

    /// Destroys the texture, renderer and window (also done when the window is released).
    package func close() {
        if let texture { SDL_DestroyTexture(texture) }
        if let renderer { SDL_DestroyRenderer(renderer) }
        if let window {
            SDL_DestroyWindow(window)
            SDL_QuitSubSystem(SDL_INIT_VIDEO)
        }
        texture = nil
        renderer = nil
        window = nil
    }

    /// The window title.
    package var title: String {
        get { window.map { String(cString: SDL_GetWindowTitle($0)) } ?? "" }
        set { if let window { SDL_SetWindowTitle(window, newValue) } }
    }

    /// Switches between full screen (at the desktop's resolution) and a window.
    package func toggleFullscreen() {
        guard let window else { return }
        isFullscreen.toggle()
        SDL_SetWindowFullscreen(window, isFullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0)
    }

    /// Resizes the window to `width`×`height` and centres it again (not in full screen).
    package func setSize(width: Int, height: Int) {
        guard let window, !isFullscreen, width > 0, height > 0 else { return }
        SDL_SetWindowSize(window, Int32(width), Int32(height))
        let centred = Int32(bitPattern: 0x2FFF_0000)  // SDL_WINDOWPOS_CENTERED
        SDL_SetWindowPosition(window, centred, centred)
    }

    /// Size of the window's drawable area in pixels.
    package var outputSize: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        return (Int(w), Int(h))
    }

    /// Uploads a frame's pixels into the video texture (made again when the size changes).
    ///
    /// This is the one place that reads a `VideoFrame`'s plane layout; yuv420p is the only
    /// format taken.
    package func upload(_ frame: VideoFrame) throws(SDLError) {
        guard frame.pixelFormat == .yuv420p, frame.layoutProblem() == nil else {
            throw SDLError(
                operation: "show a frame",
                message: "\(frame.pixelFormat) \(frame.width)x\(frame.height) frames are not shown (yuv420p only)")
        }
        if texture == nil || textureSize != (frame.width, frame.height) {
            if texture != nil { sizeChanges += 1 }
            if let texture { SDL_DestroyTexture(texture) }
            texture = SDL_CreateTexture(
                renderer, SDL_PIXELFORMAT_IYUV.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                Int32(frame.width), Int32(frame.height))
            guard texture != nil else { throw SDLError("create a \(frame.width)x\(frame.height) texture") }
            textureSize = (frame.width, frame.height)
        }
        let y = frame.planes[0], u = frame.planes[1], v = frame.planes[2]
        let status = y.bytes.withUnsafeBufferPointer { yp in
            u.bytes.withUnsafeBufferPointer { up in
                v.bytes.withUnsafeBufferPointer { vp in
                    SDL_UpdateYUVTexture(
                        texture, nil, yp.baseAddress, Int32(y.bytesPerRow), up.baseAddress,
                        Int32(u.bytesPerRow), vp.baseAddress, Int32(v.bytesPerRow))
                }
            }
        }
        guard status == 0 else { throw SDLError("upload a frame") }
    }

    /// Where the picture goes in the window: as large as fits, centred, at its aspect ratio.
    package static func fit(picture: (width: Int, height: Int), into output: (width: Int, height: Int))
        -> (x: Int, y: Int, width: Int, height: Int)
    {
        guard picture.width > 0, picture.height > 0, output.width > 0, output.height > 0 else { return (0, 0, 0, 0) }
        var width = output.width
        var height = (width * picture.height + picture.width / 2) / picture.width
        if height > output.height {
            height = output.height
            width = (height * picture.width + picture.height / 2) / picture.height
        }
        return ((output.width - width) / 2, (output.height - height) / 2, width, height)
    }

    /// Draws the last uploaded picture, then `lines` of overlay text at the top left and a
    /// `banner` (a status such as "stream stopped") in the middle, and shows the result.
    package func present(lines: [String] = [], banner: String? = nil) {
        guard let renderer else { return }
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        let output = outputSize
        if let texture {
            let place = Self.fit(picture: textureSize, into: output)
            var rect = SDL_Rect(x: Int32(place.x), y: Int32(place.y), w: Int32(place.width), h: Int32(place.height))
            SDL_RenderCopy(renderer, texture, nil, &rect)
        }
        let scale = max(1, min(output.width, output.height) / 240)
        if !lines.isEmpty {
            let width = lines.map(BitmapFont.width(of:)).max() ?? 0
            draw(box: (4, 4, (width + 4) * scale, (lines.count * 9 + 3) * scale))
            for (index, line) in lines.enumerated() {
                draw(text: line, x: 4 + 2 * scale, y: 4 + (2 + index * 9) * scale, scale: scale)
            }
        }
        if let banner {
            let big = scale * 2
            let width = BitmapFont.width(of: banner) * big, height = BitmapFont.glyphHeight * big
            let x = max(0, (output.width - width) / 2), y = max(0, (output.height - height) / 2)
            draw(box: (x - 2 * big, y - 2 * big, width + 4 * big, height + 4 * big))
            draw(text: banner, x: x, y: y, scale: big)
        }
        SDL_RenderPresent(renderer)
    }

    private func draw(box: (x: Int, y: Int, width: Int, height: Int)) {
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 160)
        var rect = SDL_Rect(x: Int32(box.x), y: Int32(box.y), w: Int32(box.width), h: Int32(box.height))
        SDL_RenderFillRect(renderer, &rect)
    }

    private func draw(text: String, x: Int, y: Int, scale: Int) {
        let rects = BitmapFont.pixels(of: text).map {
            SDL_Rect(x: Int32(x + $0.x * scale), y: Int32(y + $0.y * scale), w: Int32(scale), h: Int32(scale))
        }
        SDL_SetRenderDrawColor(renderer, 255, 255, 255, 255)
        _ = rects.withUnsafeBufferPointer { SDL_RenderFillRects(renderer, $0.baseAddress, Int32($0.count)) }
    }

    /// Fills the window black and shows it.
    package func clear() {
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        SDL_RenderPresent(renderer)
    }

    /// The events waiting for the window, translated (others are discarded).
    package func pollEvents() -> [SDLEvent] {
        var events: [SDLEvent] = []
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {
            switch event.type {
            case SDL_QUIT.rawValue:
                events.append(.quit)
            case SDL_WINDOWEVENT.rawValue:
                let kind = UInt32(event.window.event)
                if kind == SDL_WINDOWEVENT_CLOSE.rawValue { events.append(.quit) }
                if kind == SDL_WINDOWEVENT_EXPOSED.rawValue || kind == SDL_WINDOWEVENT_SIZE_CHANGED.rawValue {
                    events.append(.redraw)
                }
            case SDL_KEYDOWN.rawValue:
                switch event.key.keysym.sym {
                case Int32(SDLK_q.rawValue), Int32(SDLK_ESCAPE.rawValue): events.append(.quit)
                case Int32(SDLK_f.rawValue): events.append(.toggleFullscreen)
                case Int32(SDLK_i.rawValue): events.append(.toggleOverlay)
                case Int32(SDLK_SPACE.rawValue): events.append(.togglePause)
                default: break
                }
            default:
                break
            }
        }
        return events
    }
}
#endif
