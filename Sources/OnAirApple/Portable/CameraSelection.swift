import OnAirCore

/// Where a camera sits on the device.
public enum CameraPosition: String, Sendable, Hashable, CaseIterable {
    /// Facing the user.
    case front
    /// Facing away from the user.
    case back
    /// Not known, or not fixed (external cameras, Macs).
    case unspecified
}

/// One way a camera can capture: a size and the highest frame rate at that size.
public struct CameraFormat: Sendable, Hashable {
    /// Width and height in pixels.
    public var width: Int, height: Int
    /// The highest frame rate the format supports.
    public var maxFrameRate: Double

    /// Creates a format.
    public init(width: Int, height: Int, maxFrameRate: Double) {
        self.width = width
        self.height = height
        self.maxFrameRate = maxFrameRate
    }
}

/// A camera as the system lists it.
public struct CameraDescriptor: Sendable, Hashable {
    /// The system's stable identifier (AVCaptureDevice's `uniqueID`).
    public var uniqueID: String
    /// A human-readable name.
    public var name: String
    /// Where it sits.
    public var position: CameraPosition
    /// Its formats, in the system's order.
    public var formats: [CameraFormat]

    /// Creates a descriptor.
    public init(uniqueID: String, name: String, position: CameraPosition, formats: [CameraFormat]) {
        self.uniqueID = uniqueID
        self.name = name
        self.position = position
        self.formats = formats
    }
}

/// Which camera to open: by position, by unique ID, or the first one.
public enum CameraRequest: Sendable, Hashable, CustomStringConvertible {
    /// The first camera at this position.
    case position(CameraPosition)
    /// The camera with this unique ID.
    case uniqueID(String)
    /// The first camera listed.
    case any

    /// Reads a spec: empty or `default` for any, `front` or `back`, anything else a unique ID.
    public init(spec: String) {
        switch spec.lowercased() {
        case "", "default": self = .any
        case "front": self = .position(.front)
        case "back": self = .position(.back)
        default: self = .uniqueID(spec)
        }
    }

    /// The request as a spec.
    public var description: String {
        switch self {
        case .position(let position): return position.rawValue
        case .uniqueID(let id): return id
        case .any: return "default"
        }
    }
}

/// The decisions of opening a camera, made from plain lists so they are tested everywhere: which
/// device, which of its formats, and where its host-clock timestamps fall on the session's clock.
public enum CameraSelection {
    /// The camera `request` names among `cameras`; throws naming the cameras there are.
    public static func camera(for request: CameraRequest, among cameras: [CameraDescriptor]) throws(AppleBackendError)
        -> CameraDescriptor
    {
        let found: CameraDescriptor?
        switch request {
        case .any: found = cameras.first
        case .position(let position): found = cameras.first { $0.position == position }
        case .uniqueID(let id): found = cameras.first { $0.uniqueID == id }
        }
        guard let found else {
            let listed = cameras.map { "\($0.name) (\($0.position.rawValue), \($0.uniqueID))" }.joined(separator: "; ")
            throw AppleBackendError(
                operation: "camera \(request)", detail: cameras.isEmpty ? "no camera on this device" : "not found among: \(listed)")
        }
        return found
    }

    /// The index of the format to capture `width`×`height` at `frameRate`: among the formats that
    /// reach the rate (all of them when none does), the exact size, else the smallest that covers
    /// the size, else the largest; ties go to the higher rate, then the earlier format.
    public static func format(width: Int, height: Int, frameRate: Double, among formats: [CameraFormat]) throws(AppleBackendError)
        -> Int
    {
        guard !formats.isEmpty else { throw AppleBackendError(operation: "camera format", detail: "the camera lists no format") }
        let indexed = Array(formats.enumerated())
        let fast = indexed.filter { $0.element.maxFrameRate >= frameRate - 0.01 }
        let pool = fast.isEmpty ? indexed : fast
        func area(_ format: CameraFormat) -> Int { format.width * format.height }
        func better(_ a: (offset: Int, element: CameraFormat), _ b: (offset: Int, element: CameraFormat)) -> Bool {
            if area(a.element) != area(b.element) { return area(a.element) < area(b.element) }
            if a.element.maxFrameRate != b.element.maxFrameRate { return a.element.maxFrameRate > b.element.maxFrameRate }
            return a.offset < b.offset
        }
        if let exact = pool.filter({ $0.element.width == width && $0.element.height == height }).min(by: better) {
            return exact.offset
        }
        if let covering = pool.filter({ $0.element.width >= width && $0.element.height >= height }).min(by: better) {
            return covering.offset
        }
        return pool.max { better($0, $1) }!.offset
    }
}

/// Maps the capture device's host-clock timestamps (seconds) onto the session's `CaptureClock`,
/// from one reading of both clocks taken together; never goes backwards.
public struct HostTimeMapper: Sendable {
    private let sessionAtAnchor: MediaTime
    private let hostAtAnchor: Double
    private var last: MediaTime?

    /// A mapper anchored where the session clock read `session` while the host clock read `hostSeconds`.
    public init(session: MediaTime, hostSeconds: Double) {
        sessionAtAnchor = session
        hostAtAnchor = hostSeconds
    }

    /// The session time of a host-clock timestamp, in microseconds; at least the previous one.
    public mutating func sessionTime(ofHostSeconds host: Double) -> MediaTime {
        var time =
            sessionAtAnchor.converted(to: 1_000_000)
            + MediaTime(value: Int64(((host - hostAtAnchor) * 1e6).rounded()), timescale: 1_000_000)
        if let last, time < last { time = last }
        last = time
        return time
    }
}
