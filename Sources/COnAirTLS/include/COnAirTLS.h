// GnuTLS for OnAir's HTTPS and RTSPS: a self-signed server certificate, certificate fingerprints,
// server sessions on non-blocking sockets, a client session. A bridge
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
/// theirs (the old ones are freed with the slot, or with the last `onair_tls_server` using them when
/// that comes later). 0, or negative with a message in `error`.
int onair_tls_slot_replace(struct onair_tls_slot *slot, const char *certificate_pem, const char *key_pem, char *error,
                           size_t error_size);

/// Unbinds and frees the slot and every certificate it held that no `onair_tls_server` still uses
/// (after its server has stopped).
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

/// A TLS server session on a connected, non-blocking socket (RTSPS in OnAir's own event loop). No
/// call blocks or waits: each does what the socket allows now and says what it waits for. One
/// thread at a time per session; the socket stays the caller's (no call closes it).
struct onair_tls_server;

/// What the non-blocking server calls return besides a count: the socket must become readable
/// (`ONAIR_TLS_WANTS_READ`) or writable (`ONAIR_TLS_WANTS_WRITE`) before the same call is made
/// again, or the session failed (`ONAIR_TLS_FAILED`, GnuTLS's words in `onair_tls_server_error`).
enum { ONAIR_TLS_WANTS_READ = -1, ONAIR_TLS_WANTS_WRITE = -2, ONAIR_TLS_FAILED = -3 };

/// A server session on `fd` presenting the slot's current certificate and key, which the session
/// keeps (referenced) until it is freed, whatever later replaces them in the slot or frees the slot;
/// `priorities` as for `onair_tls_check_priorities`. NULL with a message in `error`.
struct onair_tls_server *onair_tls_server_create(int fd, struct onair_tls_slot *slot, const char *priorities,
                                                 char *error, size_t error_size);

/// One step of the handshake: 0 when it is done, else a status.
int onair_tls_server_handshake(struct onair_tls_server *server);

/// Receives up to `size` bytes: the count, 0 at the peer's close_notify or the socket's end, or a status.
long onair_tls_server_receive(struct onair_tls_server *server, void *bytes, size_t size);

/// Sends up to `size` bytes (at most one record): the count taken, or a status. After
/// `ONAIR_TLS_WANTS_WRITE` the record is made and waits in the session: the next call must offer the
/// same bytes again, or pass NULL and 0, and returns the count of that record (GnuTLS's rule).
long onair_tls_server_send(struct onair_tls_server *server, const void *bytes, size_t size);

/// How many received bytes the session has decrypted and not yet handed over (the socket may not
/// turn readable for them again).
size_t onair_tls_server_pending(struct onair_tls_server *server);

/// Sends close_notify without waiting for the peer's: 0 when it went out, else a status.
int onair_tls_server_bye(struct onair_tls_server *server);

/// What the last `ONAIR_TLS_FAILED` was, in GnuTLS's words ("" before any); valid until the next call.
const char *onair_tls_server_error(const struct onair_tls_server *server);

/// Frees the session and its reference to the certificate; the socket stays open.
void onair_tls_server_free(struct onair_tls_server *server);

#endif
