#if os(Linux)
import Foundation
import OnAir

extension ServeCommand {
    /// The TLS flags: `--tls-cert FILE --tls-key FILE`, or `--tls-self-signed`; nil with neither.
    static func tls(_ arguments: inout ArgumentList) throws -> ServeTLS? {
        let certificate = try arguments.option("--tls-cert")
        let key = try arguments.option("--tls-key")
        let selfSigned = arguments.flag("--tls-self-signed")
        switch (certificate, key, selfSigned) {
        case (nil, nil, false): return nil
        case (nil, nil, true): return .selfSigned(directory: ServeTLS.defaultStateDirectory())
        case (let certificate?, let key?, false): return .files(certificate: certificate, key: key)
        case (_, _, true): throw UsageError("--tls-self-signed makes its own certificate: give it without --tls-cert/--tls-key")
        default: throw UsageError("--tls-cert and --tls-key go together")
        }
    }
}

extension ServeCommand {
    /// On SIGHUP (`HangUpSignal`), re-reads the TLS certificate and key (a renewal) for new
    /// connections; viewers stay.
    static func reloadOnHangUp(_ reload: @escaping @Sendable () throws -> String) {
        HangUpSignal.shared.add {
            do {
                Console.status("SIGHUP: TLS certificate reloaded, SHA-256 fingerprint: \(try reload())")
            } catch {
                Console.status("SIGHUP: TLS certificate not reloaded (still serving the previous one): \(error)")
            }
        }
    }
}
#endif
