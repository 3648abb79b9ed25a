import OnAirBitstream
import Testing

@Suite("AACSamplingFrequency")
struct AACSamplingFrequencyTests {
    @Test func tableHasThirteenRatesInIndexOrder() {
        #expect(AACSamplingFrequency.table == AACTestMedia.allRates)
        for (index, rate) in AACSamplingFrequency.table.enumerated() {
            #expect(AACSamplingFrequency.index(for: rate) == index)
            #expect(AACSamplingFrequency.rate(forIndex: index) == rate)
        }
    }

    @Test func unknownRatesAndIndexesHaveNoEntry() {
        for rate in [0, -1, 44000, 50000, 192000] { #expect(AACSamplingFrequency.index(for: rate) == nil) }
        for index in [-1, 13, 14, 15, 16, Int.max] { #expect(AACSamplingFrequency.rate(forIndex: index) == nil) }
    }
}
