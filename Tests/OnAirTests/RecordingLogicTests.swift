import Foundation
import OnAir
import Testing

/// The pure parts of segmented recording: quantities, path templates, the cut and part schedule,
/// the wall-clock anchor, the start box. No file, no clock: every time is given.
@Suite struct RecordingLogicTests {
    static let utc = TimeZone(identifier: "UTC")!

    @Test func durationsTakeSecondsOrAUnit() throws {
        #expect(try RecordingQuantity.duration("90") == .seconds(90))
        #expect(try RecordingQuantity.duration("1.5") == .milliseconds(1500))
        #expect(try RecordingQuantity.duration("30s") == .seconds(30))
        #expect(try RecordingQuantity.duration("10m") == .seconds(600))
        #expect(try RecordingQuantity.duration("1h") == .seconds(3600))
        #expect(try RecordingQuantity.duration("7d") == .seconds(7 * 86_400))
        for bad in ["", "-1", "1x", "1hh", "h", ".", "1.2.3", "nan", "inf", "1e5", " ", "1 h", String(repeating: "9", count: 40)] {
            #expect(throws: RecordingSettingError.self, "\(bad)") { try RecordingQuantity.duration(bad) }
        }
    }

    @Test func sizesArePowersOfAThousand() throws {
        #expect(try RecordingQuantity.size("500000") == 500_000)
        #expect(try RecordingQuantity.size("2k") == 2000)
        #expect(try RecordingQuantity.size("500M") == 500_000_000)
        #expect(try RecordingQuantity.size("1.5G") == 1_500_000_000)
        #expect(try RecordingQuantity.size("1g") == 1_000_000_000)
        #expect(try RecordingQuantity.size("2T") == 2_000_000_000_000)
        for bad in ["", "-5", "5X", "5MB", "M", "1e3", "99999999999999T"] {
            #expect(throws: RecordingSettingError.self, "\(bad)") { try RecordingQuantity.size(bad) }
        }
    }

    @Test func templateFillsEveryPlaceholder() throws {
        let template = try RecordPathTemplate("rec/%path/%Y-%m-%d/%H-%M-%S-%f_%z_%s%%", timeZone: Self.utc)
        let date = Date(timeIntervalSince1970: 1_796_189_505.25)  // 2026-12-02 05:31:45.25 UTC
        #expect(template.path(pathName: "live", start: date) == "rec/live/2026-12-02/05-31-45-250000_+0000_1796189505%")
        let paris = try RecordPathTemplate("%Y%m%d%H%M%S%z", timeZone: TimeZone(identifier: "Europe/Paris")!)
        #expect(paris.path(pathName: "x", start: date) == "20261202063145+0100")
    }

    @Test func templateReadsItsNamesBack() throws {
        for text in ["rec/%path/%Y-%m-%d/%H-%M-%S-%f", "%path_%s", "%s-%f", "a/%Y%m%d%H%M%S%f%z", "%path/%Y/%m/%d/%H%M%S"] {
            let template = try RecordPathTemplate(text, timeZone: TimeZone(identifier: "America/New_York")!)
            for seconds in [0.0, 1_796_189_505.123456, 1_700_000_000] {
                let date = Date(timeIntervalSince1970: seconds)
                let path = template.path(pathName: "cam/one", start: date)
                let back = try #require(template.startTime(of: path, pathName: "cam/one"), "\(text) → \(path)")
                let precision = text.contains("%f") ? 1e-6 : 1.0
                #expect(abs(back.timeIntervalSince1970 - seconds) < precision, "\(text): \(path)")
            }
        }
        let template = try RecordPathTemplate("rec/%path/%Y-%m-%d_%H-%M-%S", timeZone: Self.utc)
        for foreign in [
            "rec/live/2026-12-02_05-31-4", "rec/live/2026-13-02_05-31-45", "rec/other/2026-12-02_05-31-45",
            "rec/live/2026-12-02_05-31-45x", "rec/live/../2026-12-02_05-31-45", "", "rec/live/2026-12-02_25-31-45",
        ] {
            #expect(template.startTime(of: foreign, pathName: "live") == nil, "\(foreign)")
        }
        #expect(template.root(pathName: "live") == "rec/live")
        #expect(try RecordPathTemplate("%path_%s").root(pathName: "live") == ".")
        #expect(try RecordPathTemplate("/srv/%Y/%m/%d/%H%M%S").root(pathName: "live") == "/srv")
    }

    @Test func templatesThatCannotNameSegmentsApartAreRefused() {
        for bad in ["", "rec/%Y-%m-%d", "rec/%H-%M-%S", "rec/%q%s", "rec/%s%path", "rec/%s%", "rec/%path%s"] {
            #expect(throws: RecordingSettingError.self, "\(bad)") { try RecordPathTemplate(bad) }
        }
        for bad in ["", "../x", "a/../b", "/abs", "a//b", "a b", "é", String(repeating: "a", count: 129)] {
            #expect(throws: RecordingSettingError.self, "\(bad)") { try RecordPathTemplate.validatePathName(bad) }
        }
        #expect(throws: Never.self) { try RecordPathTemplate.validatePathName("cam-1/main_2.hd") }
    }

    @Test func segmentsStartOnAKeyframeAndCutOnTheFirstOnePastTheDuration() {
        var schedule = SegmentSchedule(segmentDuration: 2, partDuration: 1, hasVideo: true)
        func decide(isVideo: Bool, isKeyframe: Bool, time: Double) -> SegmentSchedule.Decision {
            schedule.decide(isVideo: isVideo, isKeyframe: isKeyframe, time: time)
        }
        #expect(decide(isVideo: false, isKeyframe: true, time: 0) == .skip)
        #expect(decide(isVideo: true, isKeyframe: false, time: 0.0) == .skip)
        #expect(decide(isVideo: true, isKeyframe: true, time: 0.5) == .start)
        #expect(decide(isVideo: false, isKeyframe: true, time: 2.6) == .append)  // audio never cuts
        #expect(decide(isVideo: true, isKeyframe: false, time: 2.6) == .append)
        #expect(decide(isVideo: true, isKeyframe: true, time: 2.4) == .append)  // not yet 2 s
        #expect(decide(isVideo: true, isKeyframe: true, time: 3.1) == .cut)
        #expect(schedule.segmentStart == 3.1)
        #expect(decide(isVideo: true, isKeyframe: true, time: 5.1) == .cut)  // exactly the duration
        var audioOnly = SegmentSchedule(segmentDuration: 1, partDuration: 0.5, hasVideo: false)
        func audio(_ time: Double) -> SegmentSchedule.Decision { audioOnly.decide(isVideo: false, isKeyframe: false, time: time) }
        #expect(audio(0) == .start)
        #expect(audio(0.99) == .append)
        #expect(audio(1.0) == .cut)
    }

    @Test func aPartIsDueEveryPartDurationAndRestartsAtACut() {
        var schedule = SegmentSchedule(segmentDuration: 10, partDuration: 1, hasVideo: true)
        let early = schedule.partDue(at: 5)
        #expect(!early)  // no segment yet
        _ = schedule.decide(isVideo: true, isKeyframe: true, time: 0)
        let due = stride(from: 0.0, through: 3.0, by: 0.25).filter { schedule.partDue(at: $0) }
        #expect(due == [1, 2, 3])
        _ = schedule.decide(isVideo: true, isKeyframe: true, time: 10.5)
        let afterCut = [11.0, 11.5].map { schedule.partDue(at: $0) }
        #expect(afterCut == [false, true])
    }

    @Test func theWallClockStaysAnchoredUntilItDisagrees() {
        var anchor = WallClockAnchor(tolerance: 1)
        func wall(_ media: Double, _ now: Date) -> Date { anchor.wallTime(media: media, now: now) }
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        #expect(wall(5, t0) == t0)
        // The clock reads a little late (queueing): names stay back to back with media time.
        #expect(wall(7, t0.addingTimeInterval(2.3)) == t0.addingTimeInterval(2))
        // A step of the clock (NTP) moves the anchor.
        let stepped = t0.addingTimeInterval(60)
        #expect(wall(9, stepped) == stepped)
        #expect(wall(10, stepped.addingTimeInterval(1)) == stepped.addingTimeInterval(1))
    }

    @Test func theStartBoxRoundTripsAndHostileBytesFindNothing() {
        let box = SegmentStartBox(wallClock: Date(timeIntervalSince1970: 1_796_189_505.123456), mediaSeconds: 7200.5)
        let bytes = box.bytes
        #expect(bytes.count == SegmentStartBox.size)
        let ftyp: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0]
        let free: [UInt8] = [0, 0, 0, 8] + Array("free".utf8)
        #expect(SegmentStartBox.find(in: ftyp + free + bytes) == box)
        #expect(SegmentStartBox.find(in: ftyp + free + bytes)?.mediaMicroseconds == 7_200_500_000)
        #expect(SegmentStartBox.find(in: ftyp + Array(bytes.dropLast())) == nil)
        #expect(SegmentStartBox.find(in: [0, 0, 0, 4] + Array("uuid".utf8)) == nil)
        #expect(SegmentStartBox.find(in: [0, 0, 0, 1] + Array("mdat".utf8) + [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]) == nil)
        #expect(SegmentStartBox.find(in: [0xff, 0xff, 0xff, 0xff] + Array("moov".utf8)) == nil)
        #expect(SegmentStartBox.find(in: []) == nil)
    }
}
