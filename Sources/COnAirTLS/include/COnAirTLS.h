// GnuTLS for OnAir's HTTPS: a self-signed server certificate and certificate fingerprints. A bridge
// only: every decision (which names, where the files live, when to make them) is Swift's.
#ifndef ONAIR_COnAirTLS_H
#define ONAIR_COnAirTLS_H

#include <stddef.h>

/// Makes an ECDSA P-256 key and a self-signed server certificate for it, valid from a day ago for
/// `days` days, with common name `common_name` and one subjectAltName entry per numeric address in
/// `addresses` (IPv4 or IPv6; an address that does not parse is an error) and per DNS name in `names`.
/// On success returns 0 and sets `*certificate_pem` and `*key_pem` (free both with
/// `onair_tls_free`); on failure returns a negative number with a message in `error`.
int onair_tls_make_self_signed(const char *common_name, const char *const *addresses, size_t address_count,
                               const char *const *names, size_t name_count, unsigned days, char **certificate_pem,
                               char **key_pem, char *error, size_t error_size);

/// The SHA-256 fingerprint of the first certificate in `certificate_pem` as "AB:12:…" (95 characters
/// and a NUL in `fingerprint`, which must hold 96). Returns 0, or a negative number with a message in `error`.
int onair_tls_fingerprint(const char *certificate_pem, char *fingerprint, size_t fingerprint_size, char *error,
                          size_t error_size);

/// Whether GnuTLS accepts `key_pem` as a private key for `certificate_pem` (the first certificate):
/// 0 when it does, else a negative number with a message in `error`.
int onair_tls_check_pair(const char *certificate_pem, const char *key_pem, char *error, size_t error_size);

/// Whether GnuTLS accepts `priorities` as a priority string: 0, or negative with a message in `error`.
int onair_tls_check_priorities(const char *priorities, char *error, size_t error_size);

/// Frees what `onair_tls_make_self_signed` returned (wiping it first).
void onair_tls_free(char *pem);

/// The certificates a TLS server presents, replaceable while it runs (renewals without dropping
/// connections): libmicrohttpd asks `onair_tls_retrieve_function()` at each handshake, which finds the
/// slot bound to the port the connection came in on and hands over its current certificate and key.
struct onair_tls_slot;

/// A slot holding `certificate_pem` (a chain of up to 16) and `key_pem`, bound to no port yet; NULL
/// with a message in `error` when GnuTLS cannot read them.
struct onair_tls_slot *onair_tls_slot_create(const char *certificate_pem, const char *key_pem, char *error,
                                             size_t error_size);

/// Binds the slot to the TCP port its server listens on (handshakes on that port use it).
void onair_tls_slot_bind(struct onair_tls_slot *slot, unsigned short port);

/// Replaces the slot's certificate and key for the handshakes to come; sessions already made keep
/// theirs (the old ones are freed with the slot). 0, or negative with a message in `error`.
int onair_tls_slot_replace(struct onair_tls_slot *slot, const char *certificate_pem, const char *key_pem, char *error,
                           size_t error_size);

/// Unbinds and frees the slot and every certificate it held (after its server has stopped).
void onair_tls_slot_free(struct onair_tls_slot *slot);

/// The handshake callback (a `gnutls_certificate_retrieve_function2 *`) for MHD_OPTION_HTTPS_CERT_CALLBACK.
void *onair_tls_retrieve_function(void);

/// A TLS client session on a connected, blocking socket (OnAir's WHIP client over HTTPS).
struct onair_tls_client;

/// Makes the TLS handshake on `fd` for `host` (sent as SNI unless it is an address), within
/// `timeout_ms`: TLS 1.2/1.3, the certificate checked (chain and host name or address, `verify`
/// nonzero) against the authorities in `ca_file` or, when NULL, the system's. NULL with GnuTLS's
/// words (for a refused certificate: why) in `error`.
struct onair_tls_client *onair_tls_client_open(int fd, const char *host, const char *ca_file, int verify,
                                               unsigned timeout_ms, char *error, size_t error_size);

/// Sends all `size` bytes; 0, or negative with a message in `error`.
int onair_tls_client_send(struct onair_tls_client *client, const void *bytes, size_t size, char *error,
                          size_t error_size);

/// Receives up to `size` bytes within `timeout_ms`: the count, 0 at the end of the stream, or
/// negative with a message in `error` (a timeout included).
long onair_tls_client_receive(struct onair_tls_client *client, void *bytes, size_t size, unsigned timeout_ms,
                              char *error, size_t error_size);

/// Ends the session (close_notify, not waiting for the peer's) and frees it; the socket stays open.
void onair_tls_client_close(struct onair_tls_client *client);

#endif
