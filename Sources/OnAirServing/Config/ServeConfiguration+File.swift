import OnAirServeConfig

extension ServeConfiguration {
    /// Takes what a configuration file says that has no flag: the address ranges allowed to read
    /// `/metrics` and `/healthz`/`/readyz` (loopback when the file does not say).
    public mutating func apply(_ resolution: ServeConfigResolution) {
        metricsAddresses = resolution.addressRanges("metrics-addresses")
        healthAddresses = resolution.addressRanges("health-addresses")
    }
}
