import OnAirCore

/// Some outputs failed while the rest were finished; thrown at the end of a run.
public struct OutputsFailedError: OnAirError {
    /// The outputs that failed, in the order they failed.
    public var failures: [OutputFailure]

    /// Wraps the failed outputs.
    public init(failures: [OutputFailure]) {
        self.failures = failures
    }

    /// How many outputs failed, then each one's destination and error.
    public var description: String {
        "\(failures.count) output\(failures.count == 1 ? "" : "s") failed: "
            + failures.map { "\($0.destination) (\($0.reason))" }.joined(separator: "; ")
    }
}
