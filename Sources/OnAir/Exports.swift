@_exported import OnAirBitstream
@_exported import OnAirCore
@_exported import OnAirLive
