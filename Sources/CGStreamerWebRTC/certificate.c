#if defined(__linux__)  // Linux-only (GStreamer/GnuTLS): see docs/ARCHITECTURE.md, platform guards
// The DTLS certificate every peer of this process presents: ECDSA on P-256, self-signed, made once.
//
// webrtcbin 1.22 would present GStreamer's default certificate, an RSA one. Browsers take either,
// but some stacks offer only ECDSA cipher suites in their DTLS handshake (aiortc among them), and
// such a peer cannot complete a handshake with an RSA certificate. ECDSA is also what browsers
// make for themselves. Made with GnuTLS (already a dependency through libsrt-gnutls and
// libmicrohttpd); GStreamer's DTLS elements read it through OpenSSL's PEM readers.
#include "certificate.h"

#include <glib.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static gchar *made_pem;
static char made_fingerprint[3 * 32 + 1];
static char made_error[256];

/// Writes the failure of `step` (with GnuTLS's words for `code`) and returns NULL.
static gchar *failed(const char *step, int code) {
    snprintf(made_error, sizeof made_error, "could not make the DTLS certificate (%s: %s)", step, gnutls_strerror(code));
    return NULL;
}

static gchar *make_pem(void) {
    gnutls_x509_privkey_t key = NULL;
    gnutls_x509_crt_t certificate = NULL;
    gnutls_datum_t key_text = {NULL, 0}, certificate_text = {NULL, 0};
    gchar *pem = NULL;
    int code;
    unsigned char serial[9];
    time_t now = time(NULL);
    const char *name = "onair";
    if ((code = gnutls_x509_privkey_init(&key)) < 0) return failed("key", code);
    if ((code = gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA, GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), 0)) < 0) {
        pem = failed("P-256 key", code);
        goto done;
    }
    if ((code = gnutls_x509_crt_init(&certificate)) < 0) {
        pem = failed("certificate", code);
        goto done;
    }
    // A positive serial of 72 random bits; valid from a day ago (clocks differ) for thirty days.
    if ((code = gnutls_rnd(GNUTLS_RND_NONCE, serial, sizeof serial)) < 0) {
        pem = failed("serial", code);
        goto done;
    }
    serial[0] = (serial[0] & 0x7f) | 0x01;
    if ((code = gnutls_x509_crt_set_version(certificate, 3)) < 0 ||
        (code = gnutls_x509_crt_set_serial(certificate, serial, sizeof serial)) < 0 ||
        (code = gnutls_x509_crt_set_activation_time(certificate, now - 24 * 3600)) < 0 ||
        (code = gnutls_x509_crt_set_expiration_time(certificate, now + 30 * 24 * 3600)) < 0 ||
        (code = gnutls_x509_crt_set_dn_by_oid(certificate, GNUTLS_OID_X520_COMMON_NAME, 0, name, (unsigned)strlen(name))) < 0 ||
        (code = gnutls_x509_crt_set_key(certificate, key)) < 0 ||
        (code = gnutls_x509_crt_sign2(certificate, certificate, key, GNUTLS_DIG_SHA256, 0)) < 0) {
        pem = failed("signing", code);
        goto done;
    }
    if ((code = gnutls_x509_crt_export2(certificate, GNUTLS_X509_FMT_PEM, &certificate_text)) < 0 ||
        (code = gnutls_x509_privkey_export2(key, GNUTLS_X509_FMT_PEM, &key_text)) < 0) {
        pem = failed("PEM", code);
        goto done;
    }
    unsigned char digest[32];
    size_t digest_size = sizeof digest;
    if ((code = gnutls_x509_crt_get_fingerprint(certificate, GNUTLS_DIG_SHA256, digest, &digest_size)) < 0 ||
        digest_size != sizeof digest) {
        pem = failed("fingerprint", code);
        goto done;
    }
    for (size_t index = 0; index < digest_size; index++) {
        snprintf(made_fingerprint + 3 * index, 4, index + 1 < digest_size ? "%02X:" : "%02X", digest[index]);
    }
    // The certificate first, then its key: GStreamer reads both from one string.
    pem = g_strdup_printf("%.*s%.*s", (int)certificate_text.size, (const char *)certificate_text.data, (int)key_text.size,
                          (const char *)key_text.data);
done:
    if (certificate_text.data) gnutls_free(certificate_text.data);
    if (key_text.data) {
        memset(key_text.data, 0, key_text.size);
        gnutls_free(key_text.data);
    }
    if (certificate) gnutls_x509_crt_deinit(certificate);
    if (key) gnutls_x509_privkey_deinit(key);
    return pem;
}

const char *onair_webrtc_certificate_pem(char *error, size_t error_size) {
    static gsize made = 0;
    if (g_once_init_enter(&made)) {
        made_pem = make_pem();
        g_once_init_leave(&made, 1);
    }
    if (!made_pem && error && error_size > 0) snprintf(error, error_size, "%s", made_error);
    return made_pem;
}

const char *onair_webrtc_certificate_fingerprint(void) { return made_pem ? made_fingerprint : NULL; }
#endif
