@_exported import OnAirCore
@_exported import OnAirLive

#if canImport(OnAirAnalysis)
@_exported import OnAirAnalysis
#endif
#if canImport(OnAirPlayback)
@_exported import OnAirPlayback
#endif
#if canImport(OnAirServing)
@_exported import OnAirServing
#endif
#if canImport(OnAirServeConfig)
@_exported import OnAirServeConfig
#endif
#if canImport(OnAirStreaming)
@_exported import OnAirStreaming
#endif
