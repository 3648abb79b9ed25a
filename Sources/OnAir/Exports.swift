@_exported import OnAirBitstream
@_exported import OnAirCore
