#if defined(__linux__)  // Linux-only (GStreamer/GnuTLS): see docs/ARCHITECTURE.md, platform guards
// GnuTLS for OnAir's HTTPS (see include/COnAirTLS.h). GnuTLS is what Debian builds libmicrohttpd
// against, so the server's TLS and these certificates come from one library.
#include "COnAirTLS.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int fail(char *error, size_t error_size, const char *step, int code) {
    if (error && error_size > 0) snprintf(error, error_size, "%s: %s", step, gnutls_strerror(code));
    return code < 0 ? code : -1;
}

/// A NUL-terminated copy of a GnuTLS datum.
static char *copy_datum(const gnutls_datum_t *datum) {
    char *text = malloc((size_t)datum->size + 1);
    if (!text) return NULL;
    memcpy(text, datum->data, datum->size);
    text[datum->size] = 0;
    return text;
}

static int add_address(gnutls_x509_crt_t certificate, const char *address, char *error, size_t error_size) {
    unsigned char raw[16];
    size_t size;
    if (inet_pton(AF_INET, address, raw) == 1) {
        size = 4;
    } else if (inet_pton(AF_INET6, address, raw) == 1) {
        size = 16;
    } else {
        if (error && error_size > 0) snprintf(error, error_size, "'%s' is not a numeric IP address", address);
        return -1;
    }
    int code = gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_IPADDRESS, raw, (unsigned)size,
                                                    GNUTLS_FSAN_APPEND);
    return code < 0 ? fail(error, error_size, "subjectAltName IP", code) : 0;
}

/// Frees what making a certificate held, the key's text wiped first.
static void release(gnutls_x509_crt_t certificate, gnutls_x509_privkey_t key, gnutls_datum_t *certificate_text,
                    gnutls_datum_t *key_text) {
    gnutls_free(certificate_text->data);
    if (key_text->data) memset(key_text->data, 0, key_text->size);
    gnutls_free(key_text->data);
    if (certificate) gnutls_x509_crt_deinit(certificate);
    if (key) gnutls_x509_privkey_deinit(key);
}

int onair_tls_make_self_signed(const char *common_name, const char *const *addresses, size_t address_count,
                               const char *const *names, size_t name_count, unsigned days, char **certificate_pem,
                               char **key_pem, char *error, size_t error_size) {
    gnutls_x509_privkey_t key = NULL;
    gnutls_x509_crt_t certificate = NULL;
    gnutls_datum_t key_text = {NULL, 0}, certificate_text = {NULL, 0};
    unsigned char serial[16];
    time_t now = time(NULL);
    int code;
    *certificate_pem = NULL;
    *key_pem = NULL;
    if ((code = gnutls_x509_privkey_init(&key)) < 0) return fail(error, error_size, "key", code);
    if ((code = gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA, GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), 0)) < 0) {
        code = fail(error, error_size, "P-256 key", code);
        goto done;
    }
    if ((code = gnutls_x509_crt_init(&certificate)) < 0) {
        code = fail(error, error_size, "certificate", code);
        goto done;
    }
    if ((code = gnutls_rnd(GNUTLS_RND_NONCE, serial, sizeof serial)) < 0) {
        code = fail(error, error_size, "serial", code);
        goto done;
    }
    serial[0] = (serial[0] & 0x7f) | 0x01;  // positive, no leading zero byte
    if ((code = gnutls_x509_crt_set_version(certificate, 3)) < 0 ||
        (code = gnutls_x509_crt_set_serial(certificate, serial, sizeof serial)) < 0 ||
        (code = gnutls_x509_crt_set_activation_time(certificate, now - 24 * 3600)) < 0 ||
        (code = gnutls_x509_crt_set_expiration_time(certificate, now + (time_t)days * 24 * 3600)) < 0 ||
        (code = gnutls_x509_crt_set_dn_by_oid(certificate, GNUTLS_OID_X520_COMMON_NAME, 0, common_name,
                                              (unsigned)strlen(common_name))) < 0 ||
        (code = gnutls_x509_crt_set_basic_constraints(certificate, 0, -1)) < 0 ||
        (code = gnutls_x509_crt_set_key_usage(certificate, GNUTLS_KEY_DIGITAL_SIGNATURE)) < 0 ||
        (code = gnutls_x509_crt_set_key_purpose_oid(certificate, GNUTLS_KP_TLS_WWW_SERVER, 0)) < 0) {
        code = fail(error, error_size, "certificate fields", code);
        goto done;
    }
    for (size_t index = 0; index < address_count; index++) {
        if ((code = add_address(certificate, addresses[index], error, error_size)) < 0) goto done;
    }
    for (size_t index = 0; index < name_count; index++) {
        if ((code = gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_DNSNAME, names[index],
                                                         (unsigned)strlen(names[index]), GNUTLS_FSAN_APPEND)) < 0) {
            code = fail(error, error_size, "subjectAltName DNS", code);
            goto done;
        }
    }
    if ((code = gnutls_x509_crt_set_key(certificate, key)) < 0 ||
        (code = gnutls_x509_crt_sign2(certificate, certificate, key, GNUTLS_DIG_SHA256, 0)) < 0) {
        code = fail(error, error_size, "signing", code);
        goto done;
    }
    if ((code = gnutls_x509_crt_export2(certificate, GNUTLS_X509_FMT_PEM, &certificate_text)) < 0 ||
        (code = gnutls_x509_privkey_export2_pkcs8(key, GNUTLS_X509_FMT_PEM, NULL, GNUTLS_PKCS_PLAIN, &key_text)) < 0) {
        code = fail(error, error_size, "PEM", code);
        goto done;
    }
    *certificate_pem = copy_datum(&certificate_text);
    *key_pem = copy_datum(&key_text);
    if (!*certificate_pem || !*key_pem) {
        onair_tls_free(*certificate_pem);
        onair_tls_free(*key_pem);
        *certificate_pem = *key_pem = NULL;
        code = fail(error, error_size, "memory", GNUTLS_E_MEMORY_ERROR);
        goto done;
    }
    code = 0;
done:
    release(certificate, key, &certificate_text, &key_text);
    return code;
}

int onair_tls_fingerprint(const char *certificate_pem, char *fingerprint, size_t fingerprint_size, char *error,
                          size_t error_size) {
    gnutls_x509_crt_t certificate = NULL;
    gnutls_datum_t text = {(unsigned char *)certificate_pem, (unsigned)strlen(certificate_pem)};
    unsigned char digest[32];
    size_t digest_size = sizeof digest;
    int code;
    if (fingerprint_size < 3 * sizeof digest) return fail(error, error_size, "fingerprint", GNUTLS_E_SHORT_MEMORY_BUFFER);
    if ((code = gnutls_x509_crt_init(&certificate)) < 0) return fail(error, error_size, "certificate", code);
    if ((code = gnutls_x509_crt_import(certificate, &text, GNUTLS_X509_FMT_PEM)) < 0) {
        code = fail(error, error_size, "reading the certificate", code);
    } else if ((code = gnutls_x509_crt_get_fingerprint(certificate, GNUTLS_DIG_SHA256, digest, &digest_size)) < 0 ||
               digest_size != sizeof digest) {
        code = fail(error, error_size, "fingerprint", code < 0 ? code : GNUTLS_E_INTERNAL_ERROR);
    } else {
        for (size_t index = 0; index < digest_size; index++) {
            snprintf(fingerprint + 3 * index, 4, index + 1 < digest_size ? "%02X:" : "%02X", digest[index]);
        }
        code = 0;
    }
    gnutls_x509_crt_deinit(certificate);
    return code;
}

int onair_tls_check_pair(const char *certificate_pem, const char *key_pem, char *error, size_t error_size) {
    gnutls_certificate_credentials_t credentials = NULL;
    gnutls_datum_t certificate = {(unsigned char *)certificate_pem, (unsigned)strlen(certificate_pem)};
    gnutls_datum_t key = {(unsigned char *)key_pem, (unsigned)strlen(key_pem)};
    int code = gnutls_certificate_allocate_credentials(&credentials);
    if (code < 0) return fail(error, error_size, "credentials", code);
    // Checks that the key matches the certificate (GnuTLS compares their public keys).
    code = gnutls_certificate_set_x509_key_mem(credentials, &certificate, &key, GNUTLS_X509_FMT_PEM);
    if (code < 0) code = fail(error, error_size, "the certificate and key", code);
    gnutls_certificate_free_credentials(credentials);
    return code < 0 ? code : 0;
}

int onair_tls_check_priorities(const char *priorities, char *error, size_t error_size) {
    gnutls_priority_t cache = NULL;
    const char *where = NULL;
    int code = gnutls_priority_init(&cache, priorities, &where);
    if (code < 0) {
        if (error && error_size > 0) snprintf(error, error_size, "priority string at '%s': %s", where ? where : "", gnutls_strerror(code));
        return code;
    }
    gnutls_priority_deinit(cache);
    return 0;
}

void onair_tls_free(char *pem) {
    if (!pem) return;
    memset(pem, 0, strlen(pem));
    free(pem);
}

// MARK: certificates replaceable while serving

enum { max_chain = 16, max_slots = 64, max_retired = 256 };

struct onair_tls_credentials {
    gnutls_pcert_st chain[max_chain];
    unsigned count;
    gnutls_privkey_t key;
    unsigned references;  // the slot's one, plus one per server session presenting them (under slots_lock)
};

struct onair_tls_slot {
    unsigned short port;
    struct onair_tls_credentials *current;
    struct onair_tls_credentials *retired[max_retired];
    unsigned retired_count;
};

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static struct onair_tls_slot *slots[max_slots];

static void credentials_free(struct onair_tls_credentials *credentials) {
    if (!credentials) return;
    for (unsigned index = 0; index < credentials->count; index++) gnutls_pcert_deinit(&credentials->chain[index]);
    if (credentials->key) gnutls_privkey_deinit(credentials->key);
    free(credentials);
}

/// Takes one reference away (under slots_lock); whether that was the last, for the caller to free them.
static int credentials_release_locked(struct onair_tls_credentials *credentials) {
    return credentials && --credentials->references == 0;
}

static struct onair_tls_credentials *credentials_read(const char *certificate_pem, const char *key_pem, char *error,
                                                      size_t error_size) {
    struct onair_tls_credentials *credentials = calloc(1, sizeof *credentials);
    if (!credentials) {
        fail(error, error_size, "memory", GNUTLS_E_MEMORY_ERROR);
        return NULL;
    }
    gnutls_datum_t chain = {(unsigned char *)certificate_pem, (unsigned)strlen(certificate_pem)};
    gnutls_datum_t key = {(unsigned char *)key_pem, (unsigned)strlen(key_pem)};
    unsigned count = max_chain;
    int code = gnutls_pcert_list_import_x509_raw(credentials->chain, &count, &chain, GNUTLS_X509_FMT_PEM, 0);
    if (code < 0) {
        fail(error, error_size, "reading the certificate", code);
        free(credentials);
        return NULL;
    }
    credentials->count = count;
    credentials->references = 1;
    if ((code = gnutls_privkey_init(&credentials->key)) < 0 ||
        (code = gnutls_privkey_import_x509_raw(credentials->key, &key, GNUTLS_X509_FMT_PEM, NULL, 0)) < 0) {
        fail(error, error_size, "reading the key", code);
        credentials_free(credentials);
        return NULL;
    }
    if (onair_tls_check_pair(certificate_pem, key_pem, error, error_size) < 0) {
        credentials_free(credentials);
        return NULL;
    }
    return credentials;
}

struct onair_tls_slot *onair_tls_slot_create(const char *certificate_pem, const char *key_pem, char *error,
                                             size_t error_size) {
    struct onair_tls_credentials *credentials = credentials_read(certificate_pem, key_pem, error, error_size);
    if (!credentials) return NULL;
    struct onair_tls_slot *slot = calloc(1, sizeof *slot);
    if (!slot) {
        credentials_free(credentials);
        fail(error, error_size, "memory", GNUTLS_E_MEMORY_ERROR);
        return NULL;
    }
    slot->current = credentials;
    pthread_mutex_lock(&slots_lock);
    int placed = 0;
    for (int index = 0; index < max_slots && !placed; index++) {
        if (!slots[index]) {
            slots[index] = slot;
            placed = 1;
        }
    }
    pthread_mutex_unlock(&slots_lock);
    if (!placed) {
        credentials_free(credentials);
        free(slot);
        if (error && error_size > 0) snprintf(error, error_size, "more than %d TLS servers at once", max_slots);
        return NULL;
    }
    return slot;
}

void onair_tls_slot_bind(struct onair_tls_slot *slot, unsigned short port) {
    pthread_mutex_lock(&slots_lock);
    slot->port = port;
    pthread_mutex_unlock(&slots_lock);
}

int onair_tls_slot_replace(struct onair_tls_slot *slot, const char *certificate_pem, const char *key_pem, char *error,
                           size_t error_size) {
    struct onair_tls_credentials *credentials = credentials_read(certificate_pem, key_pem, error, error_size);
    if (!credentials) return -1;
    pthread_mutex_lock(&slots_lock);
    int code = 0;
    if (slot->retired_count < max_retired) {
        slot->retired[slot->retired_count++] = slot->current;
        slot->current = credentials;
    } else {
        code = -1;
    }
    pthread_mutex_unlock(&slots_lock);
    if (code < 0) {
        credentials_free(credentials);
        if (error && error_size > 0) snprintf(error, error_size, "more than %d certificate reloads", max_retired);
    }
    return code;
}

void onair_tls_slot_free(struct onair_tls_slot *slot) {
    if (!slot) return;
    pthread_mutex_lock(&slots_lock);
    for (int index = 0; index < max_slots; index++) {
        if (slots[index] == slot) slots[index] = NULL;
    }
    // Certificates a server session still presents stay; that session frees them (see onair_tls_server_free).
    for (unsigned index = 0; index < slot->retired_count; index++) {
        if (!credentials_release_locked(slot->retired[index])) slot->retired[index] = NULL;
    }
    if (!credentials_release_locked(slot->current)) slot->current = NULL;
    pthread_mutex_unlock(&slots_lock);
    for (unsigned index = 0; index < slot->retired_count; index++) credentials_free(slot->retired[index]);
    credentials_free(slot->current);
    free(slot);
}

/// Finds the slot of the port the session's socket is bound to and hands over its current
/// certificate chain and key (libmicrohttpd sets the socket as the session's transport).
static int retrieve(gnutls_session_t session, const gnutls_datum_t *authorities, int authority_count,
                    const gnutls_pk_algorithm_t *algorithms, int algorithm_count, gnutls_pcert_st **chain,
                    unsigned int *chain_length, gnutls_privkey_t *key) {
    (void)authorities;
    (void)authority_count;
    (void)algorithms;
    (void)algorithm_count;
    struct sockaddr_storage local;
    socklen_t size = sizeof local;
    int socket = gnutls_transport_get_int(session);
    if (getsockname(socket, (struct sockaddr *)&local, &size) != 0) return -1;
    unsigned short port = local.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&local)->sin6_port)
                                                     : ntohs(((struct sockaddr_in *)&local)->sin_port);
    int found = -1;
    pthread_mutex_lock(&slots_lock);
    for (int index = 0; index < max_slots; index++) {
        if (slots[index] && slots[index]->port == port) {
            *chain = slots[index]->current->chain;
            *chain_length = slots[index]->current->count;
            *key = slots[index]->current->key;
            found = 0;
            break;
        }
    }
    pthread_mutex_unlock(&slots_lock);
    return found;
}

void *onair_tls_retrieve_function(void) { return (void *)retrieve; }

// MARK: server sessions on non-blocking sockets

struct onair_tls_server {
    gnutls_session_t session;
    gnutls_certificate_credentials_t credentials;
    struct onair_tls_credentials *presented;  // one reference, released in onair_tls_server_free
    char message[192];
};

/// Hands over the session's own certificate chain and key (taken from the slot at its creation);
/// the client's authorities and algorithms do not choose among them.
static int server_retrieve(gnutls_session_t session, const gnutls_datum_t *authorities, int authority_count,
                           const gnutls_pk_algorithm_t *algorithms, int algorithm_count, gnutls_pcert_st **chain,
                           unsigned int *chain_length, gnutls_privkey_t *key) {
    (void)authorities, (void)authority_count, (void)algorithms, (void)algorithm_count;
    struct onair_tls_server *server = gnutls_session_get_ptr(session);
    if (!server || !server->presented) return -1;
    *chain = server->presented->chain;
    *chain_length = server->presented->count;
    *key = server->presented->key;
    return 0;
}

/// Notes GnuTLS's words for `code` (and a fatal alert's name) and returns ONAIR_TLS_FAILED.
static int server_failed(struct onair_tls_server *server, const char *step, int code) {
    if (code == GNUTLS_E_FATAL_ALERT_RECEIVED) {
        snprintf(server->message, sizeof server->message, "%s: %s (%s)", step, gnutls_strerror(code),
                 gnutls_alert_get_name(gnutls_alert_get(server->session)));
    } else {
        snprintf(server->message, sizeof server->message, "%s: %s", step, gnutls_strerror(code));
    }
    return ONAIR_TLS_FAILED;
}

/// The status of GNUTLS_E_AGAIN: which way the socket must turn before the call is made again.
static int server_waits(struct onair_tls_server *server) {
    return gnutls_record_get_direction(server->session) ? ONAIR_TLS_WANTS_WRITE : ONAIR_TLS_WANTS_READ;
}

void onair_tls_server_free(struct onair_tls_server *server) {
    if (!server) return;
    if (server->session) gnutls_deinit(server->session);
    if (server->credentials) gnutls_certificate_free_credentials(server->credentials);
    pthread_mutex_lock(&slots_lock);
    int last = credentials_release_locked(server->presented);
    pthread_mutex_unlock(&slots_lock);
    if (last) credentials_free(server->presented);
    free(server);
}

struct onair_tls_server *onair_tls_server_create(int fd, struct onair_tls_slot *slot, const char *priorities,
                                                 char *error, size_t error_size) {
    struct onair_tls_server *server = calloc(1, sizeof *server);
    if (!server) {
        fail(error, error_size, "memory", GNUTLS_E_MEMORY_ERROR);
        return NULL;
    }
    pthread_mutex_lock(&slots_lock);
    server->presented = slot->current;
    server->presented->references++;
    pthread_mutex_unlock(&slots_lock);
    const char *where = NULL;
    int code = gnutls_certificate_allocate_credentials(&server->credentials);
    if (code < 0) {
        fail(error, error_size, "credentials", code);
        onair_tls_server_free(server);
        return NULL;
    }
    gnutls_certificate_set_retrieve_function2(server->credentials, server_retrieve);
    if ((code = gnutls_init(&server->session, GNUTLS_SERVER | GNUTLS_NONBLOCK | GNUTLS_NO_SIGNAL)) < 0 ||
        (code = gnutls_priority_set_direct(server->session, priorities, &where)) < 0 ||
        (code = gnutls_credentials_set(server->session, GNUTLS_CRD_CERTIFICATE, server->credentials)) < 0) {
        fail(error, error_size, where ? "TLS session (priority string)" : "TLS session", code);
        onair_tls_server_free(server);
        return NULL;
    }
    gnutls_session_set_ptr(server->session, server);
    gnutls_certificate_server_set_request(server->session, GNUTLS_CERT_IGNORE);
    gnutls_handshake_set_timeout(server->session, 0);  // no clock in here: the caller's loop decides
    gnutls_transport_set_int(server->session, fd);
    return server;
}

int onair_tls_server_handshake(struct onair_tls_server *server) {
    int code;
    do {
        code = gnutls_handshake(server->session);
    } while (code == GNUTLS_E_INTERRUPTED || code == GNUTLS_E_WARNING_ALERT_RECEIVED);
    if (code == GNUTLS_E_AGAIN) return server_waits(server);
    return code < 0 ? server_failed(server, "TLS handshake", code) : 0;
}

long onair_tls_server_receive(struct onair_tls_server *server, void *bytes, size_t size) {
    ssize_t count;
    do {
        count = gnutls_record_recv(server->session, bytes, size);
        // A renegotiation the client asks for (TLS 1.2) is not made: the session goes on as it is.
    } while (count == GNUTLS_E_INTERRUPTED || count == GNUTLS_E_WARNING_ALERT_RECEIVED || count == GNUTLS_E_REHANDSHAKE);
    if (count == GNUTLS_E_AGAIN) return server_waits(server);
    if (count == GNUTLS_E_PREMATURE_TERMINATION) return 0;  // the socket ended without close_notify
    return count < 0 ? server_failed(server, "TLS receive", (int)count) : (long)count;
}

long onair_tls_server_send(struct onair_tls_server *server, const void *bytes, size_t size) {
    ssize_t count;
    do {
        count = gnutls_record_send(server->session, bytes, size);
    } while (count == GNUTLS_E_INTERRUPTED);
    if (count == GNUTLS_E_AGAIN) return server_waits(server);
    return count < 0 ? server_failed(server, "TLS send", (int)count) : (long)count;
}

size_t onair_tls_server_pending(struct onair_tls_server *server) { return gnutls_record_check_pending(server->session); }

int onair_tls_server_bye(struct onair_tls_server *server) {
    int code;
    do {
        code = gnutls_bye(server->session, GNUTLS_SHUT_WR);
    } while (code == GNUTLS_E_INTERRUPTED);
    if (code == GNUTLS_E_AGAIN) return server_waits(server);
    return code < 0 ? server_failed(server, "TLS close_notify", code) : 0;
}

const char *onair_tls_server_error(const struct onair_tls_server *server) { return server->message; }

// MARK: client sessions

struct onair_tls_client {
    gnutls_session_t session;
    gnutls_certificate_credentials_t credentials;
};

void onair_tls_client_close(struct onair_tls_client *client) {
    if (!client) return;
    if (client->session) {
        gnutls_bye(client->session, GNUTLS_SHUT_WR);
        gnutls_deinit(client->session);
    }
    if (client->credentials) gnutls_certificate_free_credentials(client->credentials);
    free(client);
}

struct onair_tls_client *onair_tls_client_open(int fd, const char *host, const char *ca_file, int verify,
                                               unsigned timeout_ms, char *error, size_t error_size) {
    struct onair_tls_client *client = calloc(1, sizeof *client);
    if (!client) {
        fail(error, error_size, "memory", GNUTLS_E_MEMORY_ERROR);
        return NULL;
    }
    unsigned char address[16];
    int is_address = inet_pton(AF_INET, host, address) == 1 || inet_pton(AF_INET6, host, address) == 1;
    int code = gnutls_certificate_allocate_credentials(&client->credentials);
    if (code >= 0) {
        code = ca_file ? gnutls_certificate_set_x509_trust_file(client->credentials, ca_file, GNUTLS_X509_FMT_PEM)
                       : gnutls_certificate_set_x509_system_trust(client->credentials);
        if (code == 0) code = GNUTLS_E_NO_CERTIFICATE_FOUND;  // no authority read: nothing could verify
    }
    if (code < 0) {
        fail(error, error_size, ca_file ? "reading the CA file" : "reading the system's authorities", code);
        onair_tls_client_close(client);
        return NULL;
    }
    if ((code = gnutls_init(&client->session, GNUTLS_CLIENT)) < 0 ||
        (code = gnutls_priority_set_direct(client->session, "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2", NULL)) < 0 ||
        (code = gnutls_credentials_set(client->session, GNUTLS_CRD_CERTIFICATE, client->credentials)) < 0 ||
        (!is_address && (code = gnutls_server_name_set(client->session, GNUTLS_NAME_DNS, host, strlen(host))) < 0)) {
        fail(error, error_size, "TLS session", code);
        onair_tls_client_close(client);
        return NULL;
    }
    if (verify) gnutls_session_set_verify_cert(client->session, host, 0);
    gnutls_transport_set_int(client->session, fd);
    gnutls_handshake_set_timeout(client->session, timeout_ms);
    do {
        code = gnutls_handshake(client->session);
    } while (code < 0 && !gnutls_error_is_fatal(code));
    if (code < 0) {
        if (code == GNUTLS_E_CERTIFICATE_VERIFICATION_ERROR) {
            gnutls_datum_t words = {NULL, 0};
            unsigned status = gnutls_session_get_verify_cert_status(client->session);
            if (gnutls_certificate_verification_status_print(status, GNUTLS_CRT_X509, &words, 0) >= 0 && error &&
                error_size > 0) {
                snprintf(error, error_size, "the server's certificate was refused: %s", (const char *)words.data);
            }
            gnutls_free(words.data);
        } else {
            fail(error, error_size, "TLS handshake", code);
        }
        gnutls_deinit(client->session);
        client->session = NULL;
        onair_tls_client_close(client);
        return NULL;
    }
    return client;
}

int onair_tls_client_send(struct onair_tls_client *client, const void *bytes, size_t size, char *error,
                          size_t error_size) {
    size_t sent = 0;
    while (sent < size) {
        ssize_t count = gnutls_record_send(client->session, (const char *)bytes + sent, size - sent);
        if (count == GNUTLS_E_AGAIN || count == GNUTLS_E_INTERRUPTED) continue;
        if (count < 0) return fail(error, error_size, "TLS send", (int)count);
        sent += (size_t)count;
    }
    return 0;
}

long onair_tls_client_receive(struct onair_tls_client *client, void *bytes, size_t size, unsigned timeout_ms,
                              char *error, size_t error_size) {
    gnutls_record_set_timeout(client->session, timeout_ms);
    for (;;) {
        ssize_t count = gnutls_record_recv(client->session, bytes, size);
        if (count == GNUTLS_E_AGAIN || count == GNUTLS_E_INTERRUPTED) continue;
        if (count == GNUTLS_E_PREMATURE_TERMINATION) return 0;  // closed without close_notify: HTTP's length decides
        if (count < 0) return fail(error, error_size, "TLS receive", (int)count);
        return (long)count;
    }
}
#endif
