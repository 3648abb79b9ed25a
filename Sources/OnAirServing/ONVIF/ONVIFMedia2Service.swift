#if os(Linux)
import OnAirCore

/// Media2 ver20 (`/onvif/media2_service`, `tr2:`), Profile T: every served stream's profile —
/// H.265 ones too (encoding `H265`), which media ver10 leaves out — its configurations in
/// media2's shapes (the GOP and profile as attributes), `Uri` answers for the stream and the snapshot.
package enum ONVIFMedia2Service {
    /// The answer body to `operation`, or its fault.
    package static func answer(_ operation: SOAPElement, _ context: ONVIFContext) throws(ONVIFSOAP.Fault) -> String {
        let profiles = context.profiles
        switch operation.name {
        case "GetServiceCapabilities":
            return "<tr2:GetServiceCapabilitiesResponse>\(capabilities(context))</tr2:GetServiceCapabilitiesResponse>"
        case "GetProfiles":
            var chosen = profiles
            if let token = operation.childValue("Token") { chosen = [try context.profile(token)] }
            return "<tr2:GetProfilesResponse>\(chosen.map { profile($0, context) }.joined())</tr2:GetProfilesResponse>"
        case "GetVideoSourceConfigurations":
            return "<tr2:GetVideoSourceConfigurationsResponse>"
                + (profiles.first.map {
                    ONVIFMediaService.videoSourceConfiguration(tag: "tr2:Configurations", $0, uses: profiles.count)
                } ?? "") + "</tr2:GetVideoSourceConfigurationsResponse>"
        case "GetVideoEncoderConfigurations":
            return "<tr2:GetVideoEncoderConfigurationsResponse>"
                + profiles.map { videoEncoder(tag: "tr2:Configurations", $0) }.joined() + "</tr2:GetVideoEncoderConfigurationsResponse>"
        case "GetVideoEncoderConfigurationOptions":
            let options = profiles.map { profile in
                "<tr2:Options GovLengthRange=\"\(profile.keyFrameInterval) \(profile.keyFrameInterval)\""
                    + " FrameRatesSupported=\"\(ONVIFMediaService.number(profile.frameRate))\" ProfilesSupported=\"\(profile.profileName)\">"
                    + "<tt:Encoding>\(profile.encodingName)</tt:Encoding><tt:QualityRange><tt:Min>0</tt:Min><tt:Max>10</tt:Max></tt:QualityRange>"
                    + "<tt:ResolutionsAvailable><tt:Width>\(profile.width)</tt:Width><tt:Height>\(profile.height)</tt:Height></tt:ResolutionsAvailable>"
                    + "<tt:BitrateRange><tt:Min>\(profile.bitRate / 1000)</tt:Min><tt:Max>\(profile.bitRate / 1000)</tt:Max></tt:BitrateRange>"
                    + "</tr2:Options>"
            }
            return "<tr2:GetVideoEncoderConfigurationOptionsResponse>\(options.joined())</tr2:GetVideoEncoderConfigurationOptionsResponse>"
        case "GetAudioSourceConfigurations":
            let configuration =
                profiles.first?.audio == nil
                ? "" : ONVIFMediaService.audioSourceConfiguration(tag: "tr2:Configurations", uses: profiles.count)
            return "<tr2:GetAudioSourceConfigurationsResponse>\(configuration)</tr2:GetAudioSourceConfigurationsResponse>"
        case "GetAudioEncoderConfigurations":
            let configuration = profiles.first?.audio.map { audioEncoder(tag: "tr2:Configurations", $0, uses: profiles.count) } ?? ""
            return "<tr2:GetAudioEncoderConfigurationsResponse>\(configuration)</tr2:GetAudioEncoderConfigurationsResponse>"
        case "GetStreamUri":
            if let chosen = operation.childValue("Protocol"), !["RtspUnicast", "RTSP"].contains(chosen) {
                throw .invalidArgument("InvalidStreamSetup", "protocol \(chosen) is not served: ask for RtspUnicast")
            }
            let uri = try context.streamURI(try context.profile(operation.childValue("ProfileToken")))
            return "<tr2:GetStreamUriResponse>" + ONVIFSOAP.element("tr2:Uri", uri) + "</tr2:GetStreamUriResponse>"
        case "GetSnapshotUri":
            let uri = context.snapshotURI(try context.profile(operation.childValue("ProfileToken")))
            return "<tr2:GetSnapshotUriResponse>" + ONVIFSOAP.element("tr2:Uri", uri) + "</tr2:GetSnapshotUriResponse>"
        default:
            throw .actionNotSupported(operation.name)
        }
    }

    /// Media2's `tr2:Capabilities`.
    static func capabilities(_ context: ONVIFContext) -> String {
        "<tr2:Capabilities SnapshotUri=\"true\" Rotation=\"false\" VideoSourceMode=\"false\" OSD=\"false\">"
            + "<tr2:ProfileCapabilities MaximumNumberOfProfiles=\"\(context.profiles.count)\""
            + " ConfigurationsSupported=\"VideoSource VideoEncoder AudioSource AudioEncoder\"/>"
            + "<tr2:StreamingCapabilities RTSPStreaming=\"true\" RTPMulticast=\"false\" RTP_RTSP_TCP=\"true\"/></tr2:Capabilities>"
    }

    static func profile(_ profile: ONVIFProfile, _ context: ONVIFContext) -> String {
        let uses = context.profiles.count
        var configurations = ONVIFMediaService.videoSourceConfiguration(tag: "tr2:VideoSource", profile, uses: uses)
        if profile.audio != nil { configurations += ONVIFMediaService.audioSourceConfiguration(tag: "tr2:AudioSource", uses: uses) }
        configurations += videoEncoder(tag: "tr2:VideoEncoder", profile)
        if let audio = profile.audio { configurations += audioEncoder(tag: "tr2:AudioEncoder", audio, uses: uses) }
        return "<tr2:Profiles token=\"\(ONVIFSOAP.escaped(profile.token))\" fixed=\"true\">" + ONVIFSOAP.element("tr2:Name", profile.token)
            + "<tr2:Configurations>\(configurations)</tr2:Configurations></tr2:Profiles>"
    }

    static func videoEncoder(tag: String, _ profile: ONVIFProfile) -> String {
        "<\(tag) token=\"\(ONVIFSOAP.escaped(profile.token))-video\" GovLength=\"\(profile.keyFrameInterval)\" Profile=\"\(profile.profileName)\">"
            + ONVIFSOAP.element("tt:Name", profile.path) + "<tt:UseCount>1</tt:UseCount>"
            + ONVIFSOAP.element("tt:Encoding", profile.encodingName)
            + "<tt:Resolution><tt:Width>\(profile.width)</tt:Width><tt:Height>\(profile.height)</tt:Height></tt:Resolution>"
            + "<tt:RateControl ConstantBitRate=\"false\"><tt:FrameRateLimit>\(ONVIFMediaService.number(profile.frameRate))</tt:FrameRateLimit>"
            + "<tt:BitrateLimit>\(profile.bitRate / 1000)</tt:BitrateLimit></tt:RateControl><tt:Quality>5</tt:Quality></\(tag)>"
    }

    static func audioEncoder(tag: String, _ audio: ONVIFProfile.Audio, uses: Int) -> String {
        "<\(tag) token=\"\(ONVIFMediaService.audioEncoderConfiguration)\"><tt:Name>aac</tt:Name><tt:UseCount>\(uses)</tt:UseCount>"
            + "<tt:Encoding>MP4A-LATM</tt:Encoding><tt:Bitrate>\(audio.bitRate / 1000)</tt:Bitrate>"
            + "<tt:SampleRate>\(audio.sampleRate / 1000)</tt:SampleRate></\(tag)>"
    }
}
#endif
