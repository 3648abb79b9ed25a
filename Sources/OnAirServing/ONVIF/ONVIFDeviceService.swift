#if os(Linux)
import Foundation
import OnAirCore

/// The device service (`/onvif/device_service`, `tds:`): identity, clock, capabilities and the
/// addresses of the other services. Nothing changes the device: `Set*`, `Create*`, `Delete*`,
/// `SystemReboot` and the rest answer `ter:ActionNotSupported`.
package enum ONVIFDeviceService {
    /// The ONVIF version reported (`SupportedVersions`, each service's `Version`).
    static let version = (major: 2, minor: 60)

    /// The answer body to `operation`, or its fault.
    package static func answer(_ operation: SOAPElement, _ context: ONVIFContext, now: Date) throws(ONVIFSOAP.Fault) -> String {
        switch operation.name {
        case "GetDeviceInformation":
            return "<tds:GetDeviceInformationResponse>" + ONVIFSOAP.element("tds:Manufacturer", "OnAir")
                + ONVIFSOAP.element("tds:Model", "onair serve") + ONVIFSOAP.element("tds:FirmwareVersion", "1.0")
                + ONVIFSOAP.element("tds:SerialNumber", context.identity.uuid) + ONVIFSOAP.element("tds:HardwareId", "onair")
                + "</tds:GetDeviceInformationResponse>"
        case "GetSystemDateAndTime":
            let time = dateTime(now)
            return "<tds:GetSystemDateAndTimeResponse><tds:SystemDateAndTime><tt:DateTimeType>NTP</tt:DateTimeType>"
                + "<tt:DaylightSavings>false</tt:DaylightSavings><tt:TimeZone><tt:TZ>UTC0</tt:TZ></tt:TimeZone>"
                + "<tt:UTCDateTime>\(time)</tt:UTCDateTime><tt:LocalDateTime>\(time)</tt:LocalDateTime>"
                + "</tds:SystemDateAndTime></tds:GetSystemDateAndTimeResponse>"
        case "GetCapabilities":
            return
                "<tds:GetCapabilitiesResponse><tds:Capabilities>\(deviceCapabilities(context))\(eventsCapabilities(context))\(mediaCapabilities(context))"
                + "</tds:Capabilities></tds:GetCapabilitiesResponse>"
        case "GetServices":
            let include = operation.childValue("IncludeCapability") == "true"
            let services =
                [
                    (ONVIFSOAP.device, "device", serviceCapabilities(context)),
                    (ONVIFSOAP.media, "media", ONVIFMediaService.capabilities(context, prefix: "trt")),
                    (ONVIFSOAP.media2, "media2", ONVIFMedia2Service.capabilities(context)),
                ] + (context.events ? [(ONVIFSOAP.events, "events", ONVIFEventsService.capabilities)] : [])
            let entries = services.map { namespace, service, capabilities in
                "<tds:Service>" + ONVIFSOAP.element("tds:Namespace", namespace) + ONVIFSOAP.element("tds:XAddr", context.address(service))
                    + (include ? "<tds:Capabilities>\(capabilities)</tds:Capabilities>" : "")
                    + "<tds:Version><tt:Major>\(version.major)</tt:Major><tt:Minor>\(version.minor)</tt:Minor></tds:Version></tds:Service>"
            }
            return "<tds:GetServicesResponse>\(entries.joined())</tds:GetServicesResponse>"
        case "GetServiceCapabilities":
            return "<tds:GetServiceCapabilitiesResponse>\(serviceCapabilities(context))</tds:GetServiceCapabilitiesResponse>"
        case "GetScopes":
            return "<tds:GetScopesResponse>"
                + context.scopes.map {
                    "<tds:Scopes><tt:ScopeDef>Fixed</tt:ScopeDef><tt:ScopeItem>\(ONVIFSOAP.escaped($0))</tt:ScopeItem></tds:Scopes>"
                }
                .joined() + "</tds:GetScopesResponse>"
        case "GetHostname":
            var name = [CChar](repeating: 0, count: 256)
            let hostname =
                gethostname(&name, name.count - 1) == 0
                ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "onair"
            return "<tds:GetHostnameResponse><tds:HostnameInformation><tt:FromDHCP>false</tt:FromDHCP>"
                + ONVIFSOAP.element("tt:Name", hostname) + "</tds:HostnameInformation></tds:GetHostnameResponse>"
        case "GetNetworkInterfaces":
            guard let (interface, address) = context.identity.hardwareAddress else { throw .actionNotSupported(operation.name) }
            return "<tds:GetNetworkInterfacesResponse><tds:NetworkInterfaces token=\"\(ONVIFSOAP.escaped(interface))\">"
                + "<tt:Enabled>true</tt:Enabled><tt:Info>" + ONVIFSOAP.element("tt:Name", interface)
                + ONVIFSOAP.element("tt:HwAddress", address) + "<tt:MTU>1500</tt:MTU></tt:Info>"
                + "</tds:NetworkInterfaces></tds:GetNetworkInterfacesResponse>"
        case "GetWsdlUrl":
            return "<tds:GetWsdlUrlResponse><tds:WsdlUrl>http://www.onvif.org/</tds:WsdlUrl></tds:GetWsdlUrlResponse>"
        case "GetEndpointReference":
            return
                "<tds:GetEndpointReferenceResponse><tds:GUID>urn:uuid:\(context.identity.uuid)</tds:GUID></tds:GetEndpointReferenceResponse>"
        case "GetUsers":
            return "<tds:GetUsersResponse></tds:GetUsersResponse>"
        default:
            throw .actionNotSupported(operation.name)
        }
    }

    /// `<tt:Time>…</tt:Time><tt:Date>…</tt:Date>` of `date` in UTC.
    static func dateTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return "<tt:Time><tt:Hour>\(parts.hour ?? 0)</tt:Hour><tt:Minute>\(parts.minute ?? 0)</tt:Minute>"
            + "<tt:Second>\(parts.second ?? 0)</tt:Second></tt:Time><tt:Date><tt:Year>\(parts.year ?? 1970)</tt:Year>"
            + "<tt:Month>\(parts.month ?? 1)</tt:Month><tt:Day>\(parts.day ?? 1)</tt:Day></tt:Date>"
    }

    /// GetCapabilities' `tt:Device`.
    static func deviceCapabilities(_ context: ONVIFContext) -> String {
        let no = { (tags: [String]) in tags.map { "<tt:\($0)>false</tt:\($0)>" }.joined() }
        return "<tt:Device>" + ONVIFSOAP.element("tt:XAddr", context.address("device"))
            + "<tt:Network>\(no(["IPFilter", "ZeroConfiguration", "IPVersion6", "DynDNS"]))</tt:Network>"
            + "<tt:System>\(no(["DiscoveryResolve", "DiscoveryBye", "RemoteDiscovery", "SystemBackup", "SystemLogging", "FirmwareUpgrade"]))"
            + "<tt:SupportedVersions><tt:Major>\(version.major)</tt:Major><tt:Minor>\(version.minor)</tt:Minor></tt:SupportedVersions></tt:System>"
            + "<tt:IO><tt:InputConnectors>0</tt:InputConnectors><tt:RelayOutputs>0</tt:RelayOutputs></tt:IO>"
            + "<tt:Security><tt:TLS1.1>false</tt:TLS1.1><tt:TLS1.2>\(context.secure)</tt:TLS1.2>"
            + no(["OnboardKeyGeneration", "AccessPolicyConfig", "X.509Token", "SAMLToken", "KerberosToken", "RELToken"])
            + "</tt:Security></tt:Device>"
    }

    /// GetCapabilities' `tt:Events` (PullPoint only), empty without the events service.
    static func eventsCapabilities(_ context: ONVIFContext) -> String {
        guard context.events else { return "" }
        return "<tt:Events>" + ONVIFSOAP.element("tt:XAddr", context.address("events"))
            + "<tt:WSSubscriptionPolicySupport>false</tt:WSSubscriptionPolicySupport><tt:WSPullPointSupport>true</tt:WSPullPointSupport>"
            + "<tt:WSPausableSubscriptionManagerInterfaceSupport>false</tt:WSPausableSubscriptionManagerInterfaceSupport></tt:Events>"
    }

    /// GetCapabilities' `tt:Media`.
    static func mediaCapabilities(_ context: ONVIFContext) -> String {
        "<tt:Media>" + ONVIFSOAP.element("tt:XAddr", context.address("media"))
            + "<tt:StreamingCapabilities><tt:RTPMulticast>false</tt:RTPMulticast><tt:RTP_TCP>true</tt:RTP_TCP>"
            + "<tt:RTP_RTSP_TCP>true</tt:RTP_RTSP_TCP></tt:StreamingCapabilities></tt:Media>"
    }

    /// The device service's `tds:Capabilities`.
    static func serviceCapabilities(_ context: ONVIFContext) -> String {
        "<tds:Capabilities><tds:Network IPFilter=\"false\" ZeroConfiguration=\"false\" IPVersion6=\"false\" DynDNS=\"false\"/>"
            + "<tds:Security TLS1.2=\"\(context.secure)\" UsernameToken=\"true\" HttpDigest=\"true\"/>"
            + "<tds:System DiscoveryResolve=\"false\" DiscoveryBye=\"false\" RemoteDiscovery=\"false\" SystemBackup=\"false\""
            + " SystemLogging=\"false\" FirmwareUpgrade=\"false\"/></tds:Capabilities>"
    }
}
#endif
