// VideoToolbox, AudioToolbox and AVFoundation backends live here; compiled only on Apple platforms.
#if canImport(VideoToolbox)
import OnAirCore
#endif
