#if os(Linux)
import OnAirTestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// The long tier: runs only with ONAIR_LONG_TESTS=1 (`scripts/test.sh --long`), skipped
    /// otherwise with that reason (`Tools.longTests`).
    static var longTier: Self { .enabled(if: Tools.longTests, "long tier (soak/load): ONAIR_LONG_TESTS=1 or scripts/test.sh --long") }
}
#endif
