/// One pixel (or compressed) format a video capture device offers, with the sizes it offers it in.
public struct CaptureFormat: Sendable, Hashable, Codable {
    /// FFmpeg's name for the format ("yuyv422", "mjpeg", "bgr0").
    public var pixelFormat: String
    /// Sizes as "WIDTHxHEIGHT" (a range for stepwise devices, as FFmpeg prints it).
    public var sizes: [String]

    /// Creates a format description.
    public init(pixelFormat: String, sizes: [String]) {
        self.pixelFormat = pixelFormat
        self.sizes = sizes
    }
}
