import OnAirBitstream
import Testing

/// Access-unit detection on hand-made streams: fields, POC type 1, redundant and partitioned
/// slices, parameter sets between slices, trailing units and damaged units.
@Suite("H264 access unit splitter")
struct H264AccessUnitSplitterTests {
    typealias Synthetic = H264SyntheticStream

    @Test func fieldPairsArePairedAndCountedOnce() throws {
        let sps = Synthetic.SPS(frameMbsOnly: false)
        let pps = Synthetic.PPS()
        let fields: [Synthetic.Slice] = [
            .init(nalType: 5, nalRefIdc: 3, sliceType: 7, frameNum: 0, fieldPic: true, bottomField: false, idrPicId: 0),
            .init(nalType: 1, nalRefIdc: 3, sliceType: 0, frameNum: 0, fieldPic: true, bottomField: true, picOrderCntLsb: 1),
            .init(nalType: 1, nalRefIdc: 3, sliceType: 0, frameNum: 1, fieldPic: true, bottomField: false, picOrderCntLsb: 4),
            .init(nalType: 1, nalRefIdc: 3, firstMb: 2, sliceType: 0, frameNum: 1, fieldPic: true, bottomField: false, picOrderCntLsb: 4),
            .init(nalType: 1, nalRefIdc: 3, sliceType: 0, frameNum: 1, fieldPic: true, bottomField: true, picOrderCntLsb: 5),
            // A lone top field, then a frame.
            .init(nalType: 1, nalRefIdc: 3, sliceType: 0, frameNum: 2, fieldPic: true, bottomField: false, picOrderCntLsb: 8),
            .init(nalType: 1, nalRefIdc: 3, sliceType: 0, frameNum: 3, picOrderCntLsb: 12),
        ]
        let units = [Synthetic.sps(sps), Synthetic.pps(pps)] + fields.map { Synthetic.slice($0, sps: sps, pps: pps) }
        let accessUnits = H264AccessUnitSplitter.split(units)
        #expect(accessUnits.count == 6)
        #expect(accessUnits.map(\.isSecondField) == [false, true, false, true, false, false])
        #expect(accessUnits.map(\.isField) == [true, true, true, true, true, false])
        #expect(accessUnits.map(\.sliceCount) == [1, 1, 2, 1, 1, 1])
        #expect(accessUnits[0].isIDR && !accessUnits[1].isIDR)
        #expect(accessUnits[1].firstSlice?.bottomField == true)
        #expect(AnnexB.join(units) == accessUnits.flatMap { AnnexB.join(accessUnit: $0.units) })
    }

    @Test func pictureOrderCountTypeOneDeltasSeparatePictures() throws {
        let sps = Synthetic.SPS(picOrderCntType: 1)
        let pps = Synthetic.PPS(bottomFieldPicOrderInFramePresent: true)
        let slices: [Synthetic.Slice] = [
            .init(nalRefIdc: 0, sliceType: 1, frameNum: 1, deltaPicOrderCnt: (0, 0)),
            .init(nalRefIdc: 0, firstMb: 3, sliceType: 1, frameNum: 1, deltaPicOrderCnt: (0, 0)),
            .init(nalRefIdc: 0, sliceType: 1, frameNum: 1, deltaPicOrderCnt: (2, 0)),
            .init(nalRefIdc: 0, sliceType: 1, frameNum: 1, deltaPicOrderCnt: (2, 1)),
        ]
        let units = [Synthetic.sps(sps), Synthetic.pps(pps)] + slices.map { Synthetic.slice($0, sps: sps, pps: pps) }
        var splitter = H264AccessUnitSplitter()
        let accessUnits = units.flatMap { splitter.push($0) } + splitter.finish()
        #expect(splitter.damagedUnits == 0)
        #expect(accessUnits.map(\.sliceCount) == [2, 1, 1])
        #expect(accessUnits[1].firstSlice?.deltaPicOrderCnt0 == 2)
        #expect(accessUnits[2].firstSlice?.deltaPicOrderCnt1 == 1)
        #expect(accessUnits.allSatisfy { $0.primarySliceType == .b })
        let parsed = try H264SPS(units[0])
        #expect(parsed.picOrderCntType == 1 && parsed.offsetsForRefFrame == [2] && parsed.offsetForNonRefPic == -1)
    }

    @Test func eachPictureIdentifierStartsANewPicture() throws {
        let sps = Synthetic.SPS()
        let pps0 = Synthetic.PPS(id: 0, bottomFieldPicOrderInFramePresent: true)
        let pps1 = Synthetic.PPS(id: 1)
        let base = Synthetic.Slice(nalRefIdc: 2, frameNum: 1, picOrderCntLsb: 2)
        func variant(_ change: (inout Synthetic.Slice) -> Void) -> Synthetic.Slice {
            var slice = base
            change(&slice)
            return slice
        }
        let changes: [(String, Synthetic.Slice)] = [
            ("frame_num", variant { $0.frameNum = 2 }),
            ("pic_parameter_set_id", variant { $0.ppsId = 1 }),
            ("nal_ref_idc becoming zero", variant { $0.nalRefIdc = 0 }),
            ("pic_order_cnt_lsb", variant { $0.picOrderCntLsb = 4 }),
            ("delta_pic_order_cnt_bottom", variant { $0.deltaPicOrderCntBottom = 1 }),
            (
                "IDR flag",
                variant {
                    $0.nalType = 5; $0.sliceType = 2
                }
            ),
        ]
        for (what, changed) in changes {
            let slices = [base, variant { $0.firstMb = 4 }, changed]
            let units =
                [Synthetic.sps(sps), Synthetic.pps(pps0), Synthetic.pps(pps1)]
                + slices.map { Synthetic.slice($0, sps: sps, pps: $0.ppsId == 0 ? pps0 : pps1) }
            let accessUnits = H264AccessUnitSplitter.split(units)
            #expect(accessUnits.map(\.sliceCount) == [2, 1], "\(what)")
        }
        // nal_ref_idc changing between non-zero values does not start a picture.
        let same = [
            base,
            variant {
                $0.nalRefIdc = 3; $0.firstMb = 4
            },
        ]
        let units = [Synthetic.sps(sps), Synthetic.pps(pps0)] + same.map { Synthetic.slice($0, sps: sps, pps: pps0) }
        #expect(H264AccessUnitSplitter.split(units).map(\.sliceCount) == [2])
    }

    @Test func consecutiveIDRPicturesAreToldApartByIdrPicId() throws {
        let sps = Synthetic.SPS()
        let pps = Synthetic.PPS()
        let slices: [Synthetic.Slice] = [
            .init(nalType: 5, nalRefIdc: 3, sliceType: 7, idrPicId: 0),
            .init(nalType: 5, nalRefIdc: 3, firstMb: 6, sliceType: 7, idrPicId: 0),
            .init(nalType: 5, nalRefIdc: 3, sliceType: 7, idrPicId: 1),
        ]
        let units = [Synthetic.sps(sps), Synthetic.pps(pps)] + slices.map { Synthetic.slice($0, sps: sps, pps: pps) }
        let accessUnits = H264AccessUnitSplitter.split(units)
        #expect(accessUnits.map(\.sliceCount) == [2, 1])
        #expect(accessUnits.allSatisfy { $0.isIDR && $0.primarySliceType == .i })
    }

    @Test func parameterSetsBetweenSlicesStayInThePicture() throws {
        let sps = Synthetic.SPS()
        let pps = Synthetic.PPS()
        let first = Synthetic.slice(.init(frameNum: 1, picOrderCntLsb: 2), sps: sps, pps: pps)
        let second = Synthetic.slice(.init(firstMb: 6, frameNum: 1, picOrderCntLsb: 2), sps: sps, pps: pps)
        let next = Synthetic.slice(.init(frameNum: 2, picOrderCntLsb: 4), sps: sps, pps: pps)
        let sei = try H264NALUnit([0x06, 0x05, 0x01, 0x00, 0x80])
        let units = [Synthetic.sps(sps), Synthetic.pps(pps), first, Synthetic.pps(pps), second, sei, Synthetic.sps(sps), next]
        let accessUnits = H264AccessUnitSplitter.split(units)
        #expect(accessUnits.count == 2)
        #expect(accessUnits[0].units.map(\.type) == [.sps, .pps, .slice, .pps, .slice])
        #expect(accessUnits[1].units.map(\.type) == [.sei, .sps, .slice])
        let joined = AnnexB.join(units)
        #expect(AnnexB.split(joined) == units)
    }

    @Test func delimitersEndOfSequenceFillerAndTrailingUnits() throws {
        let sps = Synthetic.SPS()
        let pps = Synthetic.PPS()
        let aud = try H264NALUnit([0x09, 0x10])
        let filler = try H264NALUnit([0x0C, 0xFF, 0xFF, 0x80])
        let endOfSequence = try H264NALUnit([0x0A])
        let sei = try H264NALUnit([0x06, 0x06, 0x01, 0x84, 0x80])
        let units = [
            aud, Synthetic.sps(sps), Synthetic.pps(pps),
            Synthetic.slice(.init(nalType: 5, nalRefIdc: 3, sliceType: 2), sps: sps, pps: pps), filler, endOfSequence,
            aud, Synthetic.slice(.init(nalType: 5, nalRefIdc: 3, sliceType: 2, idrPicId: 1), sps: sps, pps: pps), sei,
        ]
        var splitter = H264AccessUnitSplitter()
        var completed: [H264AccessUnit] = []
        for unit in units { completed += splitter.push(unit) }
        #expect(completed.count == 1)
        #expect(completed[0].units.map(\.type) == [.accessUnitDelimiter, .sps, .pps, .idr, .fillerData, .endOfSequence])
        let rest = splitter.finish()
        #expect(rest.count == 2)
        #expect(rest[0].units.map(\.type) == [.accessUnitDelimiter, .idr])
        #expect(rest[1].units.map(\.type) == [.sei] && !rest[1].hasVCL)
        #expect(rest[1].recoveryFrameCount == 0)
        #expect(splitter.finish().isEmpty)
    }

    @Test func redundantAndPartitionedSlicesJoinTheirPicture() throws {
        let sps = Synthetic.SPS(profileIdc: 88)
        let pps = Synthetic.PPS(redundantPicCntPresent: true)
        let slices: [Synthetic.Slice] = [
            .init(nalType: 2, sliceType: 0, frameNum: 1, picOrderCntLsb: 2, sliceId: 0),
            .init(nalType: 1, sliceType: 0, frameNum: 1, picOrderCntLsb: 2, redundantPicCnt: 1),
            .init(nalType: 2, sliceType: 0, frameNum: 2, picOrderCntLsb: 4, sliceId: 0),
        ]
        var units = [Synthetic.sps(sps), Synthetic.pps(pps)] + slices.map { Synthetic.slice($0, sps: sps, pps: pps) }
        // Partitions B and C (slice_id 0, no header) after the first partition A.
        units.insert(try H264NALUnit([0x43, 0x80]), at: 3)
        units.insert(try H264NALUnit([0x44, 0x80]), at: 4)
        let accessUnits = H264AccessUnitSplitter.split(units)
        #expect(accessUnits.count == 2)
        #expect(accessUnits[0].units.map(\.type.rawValue) == [7, 8, 2, 3, 4, 1])
        #expect(accessUnits[0].sliceCount == 1)
        #expect(accessUnits[0].firstSlice?.sliceId == 0)
        let redundant = try H264SliceHeader(units[5], parameterSets: H264ParameterSets(units: units))
        #expect(redundant.redundantPicCnt == 1)
    }

    @Test func separateColourPlanesFormOnePicture() throws {
        let sps = Synthetic.SPS(profileIdc: 244, chromaFormatIdc: 3, separateColourPlane: true)
        let pps = Synthetic.PPS()
        let slices = (0..<3).map { plane in
            Synthetic.Slice(nalType: 5, nalRefIdc: 3, sliceType: 7, colourPlaneId: plane)
        }
        let units = [Synthetic.sps(sps), Synthetic.pps(pps)] + slices.map { Synthetic.slice($0, sps: sps, pps: pps) }
        let accessUnits = H264AccessUnitSplitter.split(units)
        #expect(accessUnits.count == 1 && accessUnits[0].sliceCount == 3)
        let parsed = try H264SPS(units[0])
        #expect(parsed.separateColourPlane && parsed.chromaArrayType == 0 && parsed.profileName == "High 4:4:4 Predictive")
        let headers = try units[2...].map { try H264SliceHeader($0, parameterSets: H264ParameterSets(units: units)) }
        #expect(headers.map(\.colourPlaneId) == [0, 1, 2])
    }

    @Test func damagedUnitsAreCountedAndKept() throws {
        let sps = Synthetic.SPS()
        let pps = Synthetic.PPS()
        let good = Synthetic.slice(.init(frameNum: 1, picOrderCntLsb: 2), sps: sps, pps: pps)
        let unknownPPS = Synthetic.slice(.init(ppsId: 7, frameNum: 1, picOrderCntLsb: 2), sps: sps, pps: Synthetic.PPS(id: 7))
        let brokenSPS = try H264NALUnit([0x67, 0x64])
        let brokenPPS = try H264NALUnit([0x68])
        let units = [
            Synthetic.sps(sps), Synthetic.pps(pps), good, unknownPPS, brokenSPS, brokenPPS,
            Synthetic.slice(.init(frameNum: 2, picOrderCntLsb: 4), sps: sps, pps: pps),
        ]
        var splitter = H264AccessUnitSplitter()
        let accessUnits = units.flatMap { splitter.push($0) } + splitter.finish()
        #expect(splitter.damagedUnits == 3)
        #expect(accessUnits.flatMap(\.units) == units)
        #expect(accessUnits.map(\.damagedUnits) == [1, 2])
        #expect(accessUnits.map(\.sliceCount) == [2, 1])
    }

    @Test func sliceHeaderDetailsParse() throws {
        let sps = Synthetic.SPS(crop: (1, 2, 1, 1), timing: (1001, 60000))
        let pps = Synthetic.PPS(
            cabac: true, numSliceGroups: 2, sliceGroupMapType: 4, sliceGroupChangeRate: 3,
            weightedPred: true, weightedBipredIdc: 1, transform8x8Mode: true)
        let units = [Synthetic.sps(sps), Synthetic.pps(pps)]
        let sets = try H264ParameterSets(units: units)
        let parsedSPS = try #require(sets.sps[0])
        #expect((parsedSPS.width, parsedSPS.height) == (64 - 6, 48 - 4))
        #expect(parsedSPS.frameRate == 60000.0 / 2002.0)
        let parsedPPS = try #require(sets.pps[0])
        #expect(parsedPPS.numSliceGroups == 2 && parsedPPS.sliceGroupChangeRate == 3 && parsedPPS.transform8x8Mode)
        let slice = Synthetic.slice(
            .init(
                sliceType: 5, frameNum: 3, picOrderCntLsb: 6, reorderList0: true,
                memoryManagementOperations: [1, 4, 5], sliceQpDelta: -3), sps: sps, pps: pps)
        let header = try H264SliceHeader(slice, parameterSets: sets)
        #expect(header.sliceType == .p && header.sliceTypeRaw == 5 && header.frameNum == 3)
        #expect(header.refPicListModified && header.hasPredWeightTable)
        #expect(header.memoryManagementOperations == [1, 4, 5] && header.hasMMCO5)
        #expect(header.cabacInitIdc == 0 && header.sliceQpDelta == -3)
        #expect(header.sliceAlphaC0OffsetDiv2 == 1 && header.sliceBetaOffsetDiv2 == -1)
        #expect(header.sliceGroupChangeCycle == 1)
        let bSlice = Synthetic.slice(.init(sliceType: 1, frameNum: 3, picOrderCntLsb: 4), sps: sps, pps: pps)
        let bHeader = try H264SliceHeader(bSlice, parameterSets: sets)
        #expect(bHeader.directSpatialMvPred == true && bHeader.hasPredWeightTable)
        #expect(bHeader.numRefIdxL1Active == 1)
    }
}
