#if os(Linux)
import OnAirCore

/// Media ver10 (`/onvif/media_service`, `trt:`), Profile S: one fixed profile per served stream
/// (`main`, and `sub` when a sub stream is served) over one video source (the capture) and one
/// AAC encode, with the encode's true size, rate, bitrate and GOP; the RTSP and snapshot URIs.
/// Its encoding enumeration has no H.265: an H.265 encode is listed by media2 only.
package enum ONVIFMediaService {
    /// The video source's token (the one capture).
    static let videoSource = "video-source"
    /// The video source configuration's token.
    static let videoSourceConfiguration = "video-source-config"
    /// The audio source's token.
    static let audioSource = "audio-source"
    /// The audio source configuration's token.
    static let audioSourceConfiguration = "audio-source-config"
    /// The AAC encoder configuration's token (one encode for every profile).
    static let audioEncoderConfiguration = "audio-encoder"

    /// The answer body to `operation`, or its fault.
    package static func answer(_ operation: SOAPElement, _ context: ONVIFContext) throws(ONVIFSOAP.Fault) -> String {
        // Media ver10's encodings are JPEG, MPEG4 and H264: its profiles are the H.264 encodes.
        // The video source is the capture, whatever the main encode's codec: its figures come first.
        let capture = context.profiles.first
        var context = context
        context.profiles = context.profiles.filter { $0.codec == .h264 }
        let profiles = context.profiles
        switch operation.name {
        case "GetServiceCapabilities":
            return "<trt:GetServiceCapabilitiesResponse>\(capabilities(context, prefix: "trt"))</trt:GetServiceCapabilitiesResponse>"
        case "GetProfiles":
            return "<trt:GetProfilesResponse>"
                + profiles.map { profile(tag: "trt:Profiles", $0, context) }.joined() + "</trt:GetProfilesResponse>"
        case "GetProfile":
            let found = try context.profile(operation.childValue("ProfileToken"))
            return "<trt:GetProfileResponse>\(profile(tag: "trt:Profile", found, context))</trt:GetProfileResponse>"
        case "GetVideoSources":
            guard let main = capture else { return "<trt:GetVideoSourcesResponse/>" }
            return "<trt:GetVideoSourcesResponse><trt:VideoSources token=\"\(videoSource)\">"
                + "<tt:Framerate>\(number(main.frameRate))</tt:Framerate><tt:Resolution><tt:Width>\(main.sourceWidth)</tt:Width>"
                + "<tt:Height>\(main.sourceHeight)</tt:Height></tt:Resolution></trt:VideoSources></trt:GetVideoSourcesResponse>"
        case "GetVideoSourceConfigurations":
            return "<trt:GetVideoSourceConfigurationsResponse>"
                + (profiles.first.map { videoSourceConfiguration(tag: "trt:Configurations", $0, uses: profiles.count) } ?? "")
                + "</trt:GetVideoSourceConfigurationsResponse>"
        case "GetVideoSourceConfiguration":
            guard let main = profiles.first, operation.childValue("ConfigurationToken") == videoSourceConfiguration else {
                throw .invalidArgument("NoConfig", "no such video source configuration")
            }
            return
                "<trt:GetVideoSourceConfigurationResponse>\(videoSourceConfiguration(tag: "trt:Configuration", main, uses: profiles.count))"
                + "</trt:GetVideoSourceConfigurationResponse>"
        case "GetVideoEncoderConfigurations":
            return "<trt:GetVideoEncoderConfigurationsResponse>"
                + profiles.map { videoEncoderConfiguration(tag: "trt:Configurations", $0) }.joined()
                + "</trt:GetVideoEncoderConfigurationsResponse>"
        case "GetVideoEncoderConfiguration":
            let found = try encoderProfile(operation.childValue("ConfigurationToken"), context)
            return "<trt:GetVideoEncoderConfigurationResponse>\(videoEncoderConfiguration(tag: "trt:Configuration", found))"
                + "</trt:GetVideoEncoderConfigurationResponse>"
        case "GetVideoEncoderConfigurationOptions":
            var listed = profiles
            if let token = operation.childValue("ConfigurationToken") {
                listed = [try encoderProfile(token, context)]
            } else if let token = operation.childValue("ProfileToken") {
                listed = [try context.profile(token)]
            }
            let sizes = listed.map {
                "<tt:ResolutionsAvailable><tt:Width>\($0.width)</tt:Width><tt:Height>\($0.height)</tt:Height></tt:ResolutionsAvailable>"
            }
            let gops = listed.map(\.keyFrameInterval), rates = listed.map { Int($0.frameRate.rounded()) }
            return "<trt:GetVideoEncoderConfigurationOptionsResponse><trt:Options>"
                + "<tt:QualityRange><tt:Min>0</tt:Min><tt:Max>10</tt:Max></tt:QualityRange><tt:H264>\(sizes.joined())"
                + "<tt:GovLengthRange><tt:Min>\(gops.min() ?? 1)</tt:Min><tt:Max>\(gops.max() ?? 1)</tt:Max></tt:GovLengthRange>"
                + "<tt:FrameRateRange><tt:Min>\(rates.min() ?? 1)</tt:Min><tt:Max>\(rates.max() ?? 1)</tt:Max></tt:FrameRateRange>"
                + "<tt:EncodingIntervalRange><tt:Min>1</tt:Min><tt:Max>1</tt:Max></tt:EncodingIntervalRange>"
                + Set(listed.map(\.profileName)).sorted().map { "<tt:H264ProfilesSupported>\($0)</tt:H264ProfilesSupported>" }.joined()
                + "</tt:H264></trt:Options></trt:GetVideoEncoderConfigurationOptionsResponse>"
        case "GetAudioSources":
            guard let audio = profiles.first?.audio else { return "<trt:GetAudioSourcesResponse/>" }
            return "<trt:GetAudioSourcesResponse><trt:AudioSources token=\"\(audioSource)\"><tt:Channels>\(audio.channels)</tt:Channels>"
                + "</trt:AudioSources></trt:GetAudioSourcesResponse>"
        case "GetAudioSourceConfigurations":
            let configuration =
                profiles.first?.audio == nil ? "" : audioSourceConfiguration(tag: "trt:Configurations", uses: profiles.count)
            return "<trt:GetAudioSourceConfigurationsResponse>\(configuration)</trt:GetAudioSourceConfigurationsResponse>"
        case "GetAudioEncoderConfigurations":
            let configuration =
                profiles.first?.audio.map { audioEncoderConfiguration(tag: "trt:Configurations", $0, uses: profiles.count) } ?? ""
            return "<trt:GetAudioEncoderConfigurationsResponse>\(configuration)</trt:GetAudioEncoderConfigurationsResponse>"
        case "GetStreamUri":
            let setup = operation.child("StreamSetup")
            if setup?.childValue("Stream") == "RTP-Multicast" {
                throw .invalidArgument("InvalidStreamSetup", "multicast is not served: ask for RTP-Unicast")
            }
            if let transport = setup?.child("Transport")?.childValue("Protocol"), !["RTSP", "UDP", "TCP"].contains(transport) {
                throw .invalidArgument("InvalidStreamSetup", "transport \(transport) is not served: ask for RTSP")
            }
            let uri = try context.streamURI(try context.profile(operation.childValue("ProfileToken")))
            return "<trt:GetStreamUriResponse>\(mediaURI(uri))</trt:GetStreamUriResponse>"
        case "GetSnapshotUri":
            let uri = context.snapshotURI(try context.profile(operation.childValue("ProfileToken")))
            return "<trt:GetSnapshotUriResponse>\(mediaURI(uri))</trt:GetSnapshotUriResponse>"
        default:
            throw .actionNotSupported(operation.name)
        }
    }

    /// The media service's `Capabilities` element in `prefix`'s namespace.
    static func capabilities(_ context: ONVIFContext, prefix: String) -> String {
        "<\(prefix):Capabilities SnapshotUri=\"true\" Rotation=\"false\" VideoSourceMode=\"false\" OSD=\"false\">"
            + "<\(prefix):ProfileCapabilities MaximumNumberOfProfiles=\"\(context.profiles.count)\"/>"
            + "<\(prefix):StreamingCapabilities RTPMulticast=\"false\" RTP_TCP=\"true\" RTP_RTSP_TCP=\"true\"/></\(prefix):Capabilities>"
    }

    /// A `tt:MediaUri`'s content for `uri`.
    static func mediaURI(_ uri: String) -> String {
        "<trt:MediaUri>" + ONVIFSOAP.element("tt:Uri", uri)
            + "<tt:InvalidAfterConnect>false</tt:InvalidAfterConnect><tt:InvalidAfterReboot>false</tt:InvalidAfterReboot>"
            + "<tt:Timeout>PT0S</tt:Timeout></trt:MediaUri>"
    }

    /// The profile whose video encoder configuration is `token` (`main-video`).
    static func encoderProfile(_ token: String?, _ context: ONVIFContext) throws(ONVIFSOAP.Fault) -> ONVIFProfile {
        guard let token, token.hasSuffix("-video") else {
            throw .invalidArgument("NoConfig", "no video encoder configuration '\(token ?? "")'")
        }
        return try context.profile(String(token.dropLast("-video".count)))
    }

    /// A number as ONVIF's float fields take it (`30`, `12.5`).
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    static func profile(tag: String, _ profile: ONVIFProfile, _ context: ONVIFContext) -> String {
        var body = "<\(tag) token=\"\(ONVIFSOAP.escaped(profile.token))\" fixed=\"true\">" + ONVIFSOAP.element("tt:Name", profile.token)
        body += videoSourceConfiguration(tag: "tt:VideoSourceConfiguration", profile, uses: context.profiles.count)
        if profile.audio != nil { body += audioSourceConfiguration(tag: "tt:AudioSourceConfiguration", uses: context.profiles.count) }
        body += videoEncoderConfiguration(tag: "tt:VideoEncoderConfiguration", profile)
        if let audio = profile.audio {
            body += audioEncoderConfiguration(tag: "tt:AudioEncoderConfiguration", audio, uses: context.profiles.count)
        }
        return body + "</\(tag)>"
    }

    static func videoSourceConfiguration(tag: String, _ profile: ONVIFProfile, uses: Int) -> String {
        "<\(tag) token=\"\(videoSourceConfiguration)\"><tt:Name>capture</tt:Name><tt:UseCount>\(uses)</tt:UseCount>"
            + "<tt:SourceToken>\(videoSource)</tt:SourceToken>"
            + "<tt:Bounds x=\"0\" y=\"0\" width=\"\(profile.sourceWidth)\" height=\"\(profile.sourceHeight)\"/></\(tag)>"
    }

    static func audioSourceConfiguration(tag: String, uses: Int) -> String {
        "<\(tag) token=\"\(audioSourceConfiguration)\"><tt:Name>capture</tt:Name><tt:UseCount>\(uses)</tt:UseCount>"
            + "<tt:SourceToken>\(audioSource)</tt:SourceToken></\(tag)>"
    }

    static func multicast() -> String {
        "<tt:Multicast><tt:Address><tt:Type>IPv4</tt:Type><tt:IPv4Address>0.0.0.0</tt:IPv4Address></tt:Address>"
            + "<tt:Port>0</tt:Port><tt:TTL>0</tt:TTL><tt:AutoStart>false</tt:AutoStart></tt:Multicast>"
    }

    static func videoEncoderConfiguration(tag: String, _ profile: ONVIFProfile) -> String {
        "<\(tag) token=\"\(ONVIFSOAP.escaped(profile.token))-video\">" + ONVIFSOAP.element("tt:Name", profile.path)
            + "<tt:UseCount>1</tt:UseCount><tt:Encoding>H264</tt:Encoding>"
            + "<tt:Resolution><tt:Width>\(profile.width)</tt:Width><tt:Height>\(profile.height)</tt:Height></tt:Resolution>"
            + "<tt:Quality>5</tt:Quality><tt:RateControl><tt:FrameRateLimit>\(Int(profile.frameRate.rounded()))</tt:FrameRateLimit>"
            + "<tt:EncodingInterval>1</tt:EncodingInterval><tt:BitrateLimit>\(profile.bitRate / 1000)</tt:BitrateLimit></tt:RateControl>"
            + "<tt:H264><tt:GovLength>\(profile.keyFrameInterval)</tt:GovLength><tt:H264Profile>\(profile.profileName)</tt:H264Profile></tt:H264>"
            + multicast() + "<tt:SessionTimeout>PT60S</tt:SessionTimeout></\(tag)>"
    }

    static func audioEncoderConfiguration(tag: String, _ audio: ONVIFProfile.Audio, uses: Int) -> String {
        "<\(tag) token=\"\(audioEncoderConfiguration)\"><tt:Name>aac</tt:Name><tt:UseCount>\(uses)</tt:UseCount>"
            + "<tt:Encoding>AAC</tt:Encoding><tt:Bitrate>\(audio.bitRate / 1000)</tt:Bitrate>"
            + "<tt:SampleRate>\(audio.sampleRate / 1000)</tt:SampleRate>" + multicast()
            + "<tt:SessionTimeout>PT60S</tt:SessionTimeout></\(tag)>"
    }
}
#endif
