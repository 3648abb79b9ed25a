#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `scripts/package-deb.sh`: the .deb's control fields (the C libraries in Depends, the example
/// configuration a conffile), its files (binary, units, configuration, man page), and the packaged
/// binary running from an unpacked copy. (Installing it into a clean Debian root is outside CI.)
@Suite struct PackageDebTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(
        .enabled(
            if: Tools.executable(onPath: "dpkg-deb") != nil && Tools.executable(onPath: "fakeroot") != nil, "dpkg-deb or fakeroot missing"))
    func thePackageHoldsTheToolUnitsConfigurationAndManPage() throws {
        let dir = try Tools.temporaryDirectory("package-deb")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Uncompressed: what is checked is the package's contents, and xz of the binary took a
        // minute beside the other lane.
        let built = try Tools.run(
            "env", ["ONAIR_DEB_COMPRESSION=none", "bash", Self.root.appendingPathComponent("scripts/package-deb.sh").path, dir.path])
        try #require(built.status == 0, "\(built.stderr)")
        let deb = built.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb.hasPrefix(dir.path + "/onair_") && deb.hasSuffix(".deb"))
        let info = try Tools.run("dpkg-deb", ["--field", deb])
        let fields = info.stdoutText
        #expect(fields.contains("Package: onair"))
        let depends = fields.split(separator: "\n").first { $0.hasPrefix("Depends: ") } ?? ""
        for library in [
            "libavcodec59", "libavformat59", "libgstreamer1.0-0", "libmicrohttpd12", "libyaml-0-2",
            "libsrt1.5-gnutls", "glib-networking", "gstreamer1.0-nice",
        ] {
            #expect(depends.contains(library + " ") || depends.contains(library + ",") || depends.hasSuffix(library), "\(library)")
        }
        #expect(!depends.contains("libswiftCore"), "the Swift runtime is linked in")
        #expect(!depends.contains("libgstrtspserver"), "serve's RTSP is its own, not gst-rtsp-server's")
        let conffiles = try Tools.run("sh", ["-c", "dpkg-deb --ctrl-tarfile '\(deb)' | tar -xO ./conffiles"])
        #expect(conffiles.stdoutText == "/etc/onair/onair.yml\n")
        let contents = try Tools.run("dpkg-deb", ["--contents", deb]).stdoutText
        for path in [
            "./usr/bin/onair", "./lib/systemd/system/onair.service", "./lib/systemd/system/onair@.service", "./etc/onair/onair.yml",
            "./usr/share/man/man1/onair.1.gz",
        ] {
            #expect(contents.contains(path), "\(path)")
        }
        let unpacked = dir.appendingPathComponent("root")
        try #require(try Tools.run("dpkg-deb", ["-x", deb, unpacked.path]).status == 0)
        let binary = unpacked.appendingPathComponent("usr/bin/onair").path
        // The package's version starts with the tool's own (`onair --version`).
        let version = try Tools.run(binary, ["--version"])
        let release = version.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "onair ", with: "")
        #expect(version.status == 0 && !release.isEmpty && fields.contains("Version: \(release)+git"), "\(version.stdoutText)")
        let help = try Tools.run(binary, ["serve", "--help"])
        #expect(help.status == 0 && help.stdoutText.contains("--config FILE"))
        // The shipped configuration is one the packaged binary accepts.
        let printed = try Tools.run(
            binary, ["serve", "--config", unpacked.appendingPathComponent("etc/onair/onair.yml").path, "--print-config"])
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdoutText.contains("max-viewers: 32"))
        let manual = try Tools.run("sh", ["-c", "zcat '\(unpacked.path)/usr/share/man/man1/onair.1.gz'"]).stdoutText
        #expect(manual.hasPrefix(".TH ONAIR 1") && manual.contains(".SH \"ONAIR SERVE\"") && manual.contains("--print-config"))
    }
}
#endif
