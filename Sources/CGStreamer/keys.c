// RTSP authentication with several passwords for one user: gst-rtsp-server's GstRTSPAuth keeps one
// Digest password per user name, so rotating the token (user "onair", the token as password)
// needs this subclass, which checks a request's Digest response (or Basic password) against each
// key in turn, in time that does not depend on where the first difference is.
#include "keys.h"

#include <string.h>

typedef struct {
    GstRTSPAuth parent;
    GMutex lock;
    gchar *user;
    gboolean allow_basic;
    GPtrArray *passwords;   // gchar*
    GArray *numbers;        // int
    GPtrArray *tokens;      // GstRTSPToken*, one per key number ever given (a context borrows them)
    GHashTable *nonces;     // nonce -> issue time (monotonic µs)
} OnAirRTSPKeys;

typedef struct {
    GstRTSPAuthClass parent_class;
} OnAirRTSPKeysClass;

G_DEFINE_TYPE(OnAirRTSPKeys, onair_rtsp_keys, GST_TYPE_RTSP_AUTH)

static const gint64 nonce_lifetime = 300 * G_USEC_PER_SEC;
static const guint nonce_capacity = 4096;

static gboolean equal_in_constant_time(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b), n = la > lb ? la : lb;
    unsigned char difference = la == lb ? 0 : 1;
    for (size_t i = 0; i < n; i++) difference |= (unsigned char)((i < la ? a[i] : 0) ^ (i < lb ? b[i] : 0));
    return difference == 0;
}

static GstRTSPToken *token_for(OnAirRTSPKeys *self, int number) {
    for (guint i = 0; i < self->tokens->len; i++) {
        GstRTSPToken *token = g_ptr_array_index(self->tokens, i);
        gint stored = 0;
        gst_structure_get_int(gst_rtsp_token_get_structure(token), ONAIR_RTSP_KEY_FIELD, &stored);
        if (stored == number) return token;
    }
    GstRTSPToken *token = gst_rtsp_token_new(GST_RTSP_TOKEN_MEDIA_FACTORY_ROLE, G_TYPE_STRING, "viewer",
                                             ONAIR_RTSP_KEY_FIELD, G_TYPE_INT, number, NULL);
    g_ptr_array_add(self->tokens, token);
    return token;
}

static const char *param(GstRTSPAuthCredential *credential, const char *name) {
    for (GstRTSPAuthParam **p = credential->params; p && *p; p++) {
        if ((*p)->name && g_ascii_strcasecmp((*p)->name, name) == 0) return (*p)->value;
    }
    return NULL;
}

// The key number whose password `matches`, 0 when none; every key is tried.
static int find_key(OnAirRTSPKeys *self, gboolean (*matches)(const char *password, gpointer data), gpointer data) {
    int found = 0;
    for (guint i = 0; i < self->passwords->len; i++) {
        if (matches(g_ptr_array_index(self->passwords, i), data) && !found) found = g_array_index(self->numbers, int, i);
    }
    return found;
}

typedef struct {
    const char *method, *realm, *user, *uri, *nonce, *response;
} digest_request;

static gboolean digest_matches(const char *password, gpointer data) {
    digest_request *request = data;
    gchar *expected = gst_rtsp_generate_digest_auth_response(NULL, request->method, request->realm, request->user,
                                                             password, request->uri, request->nonce);
    gboolean equal = expected && equal_in_constant_time(expected, request->response);
    g_free(expected);
    return equal;
}

static gboolean basic_matches(const char *password, gpointer data) { return equal_in_constant_time(password, data); }

static int digest_key(OnAirRTSPKeys *self, GstRTSPContext *ctx, GstRTSPAuthCredential *credential) {
    digest_request request = {
        .method = gst_rtsp_method_as_text(ctx->method), .realm = param(credential, "realm"),
        .user = param(credential, "username"), .uri = param(credential, "uri"), .nonce = param(credential, "nonce"),
        .response = param(credential, "response"),
    };
    if (!request.method || !request.realm || !request.user || !request.uri || !request.nonce || !request.response) return 0;
    if (strcmp(request.user, self->user) != 0) return 0;
    gpointer issued = NULL;
    if (!g_hash_table_lookup_extended(self->nonces, request.nonce, NULL, &issued)) return 0;
    if (g_get_monotonic_time() - *(gint64 *)issued > nonce_lifetime) return 0;
    return find_key(self, digest_matches, &request);
}

static int basic_key(OnAirRTSPKeys *self, GstRTSPAuthCredential *credential) {
    if (!self->allow_basic || !credential->authorization) return 0;
    gsize length = 0;
    guchar *decoded = g_base64_decode(credential->authorization, &length);
    gchar *text = g_strndup((const gchar *)decoded, length);
    g_free(decoded);
    int found = 0;
    char *colon = strchr(text, ':');
    if (colon) {
        *colon = 0;
        if (strcmp(text, self->user) == 0) found = find_key(self, basic_matches, colon + 1);
    }
    g_free(text);
    return found;
}

// The key the request's credentials name, 0 when none (under the lock).
static int request_key(OnAirRTSPKeys *self, GstRTSPContext *ctx) {
    if (!ctx->request) return 0;
    GstRTSPAuthCredential **credentials = gst_rtsp_message_parse_auth_credentials(ctx->request, GST_RTSP_HDR_AUTHORIZATION);
    int found = 0;
    for (GstRTSPAuthCredential **c = credentials; c && *c && !found; c++) {
        if ((*c)->scheme == GST_RTSP_AUTH_DIGEST) found = digest_key(self, ctx, *c);
        else if ((*c)->scheme == GST_RTSP_AUTH_BASIC) found = basic_key(self, *c);
    }
    if (credentials) gst_rtsp_auth_credentials_free(credentials);
    return found;
}

static gboolean keys_authenticate(GstRTSPAuth *auth, GstRTSPContext *ctx) {
    OnAirRTSPKeys *self = (OnAirRTSPKeys *)auth;
    g_mutex_lock(&self->lock);
    int found = request_key(self, ctx);
    ctx->token = found ? token_for(self, found) : NULL;
    g_mutex_unlock(&self->lock);
    return TRUE;
}

static gboolean nonce_expired(gpointer key, gpointer value, gpointer now) {
    (void)key;
    return *(gint64 *)now - *(gint64 *)value > nonce_lifetime;
}

static void keys_generate_authenticate_header(GstRTSPAuth *auth, GstRTSPContext *ctx) {
    OnAirRTSPKeys *self = (OnAirRTSPKeys *)auth;
    gchar *nonce = g_strdup_printf("%08x%08x%08x%08x", g_random_int(), g_random_int(), g_random_int(), g_random_int());
    gint64 *now = g_new(gint64, 1);
    *now = g_get_monotonic_time();
    g_mutex_lock(&self->lock);
    if (g_hash_table_size(self->nonces) >= nonce_capacity) g_hash_table_foreach_remove(self->nonces, nonce_expired, now);
    if (g_hash_table_size(self->nonces) >= nonce_capacity) g_hash_table_remove_all(self->nonces);
    g_hash_table_insert(self->nonces, g_strdup(nonce), now);
    g_mutex_unlock(&self->lock);
    gchar *digest = g_strdup_printf("Digest realm=\"onair\", nonce=\"%s\"", nonce);
    gst_rtsp_message_add_header(ctx->response, GST_RTSP_HDR_WWW_AUTHENTICATE, digest);
    if (self->allow_basic) gst_rtsp_message_add_header(ctx->response, GST_RTSP_HDR_WWW_AUTHENTICATE, "Basic realm=\"onair\"");
    g_free(digest);
    g_free(nonce);
}

static void keys_finalize(GObject *object) {
    OnAirRTSPKeys *self = (OnAirRTSPKeys *)object;
    g_free(self->user);
    g_ptr_array_unref(self->passwords);
    g_array_unref(self->numbers);
    g_ptr_array_unref(self->tokens);
    g_hash_table_unref(self->nonces);
    g_mutex_clear(&self->lock);
    G_OBJECT_CLASS(onair_rtsp_keys_parent_class)->finalize(object);
}

static void onair_rtsp_keys_class_init(OnAirRTSPKeysClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = keys_finalize;
    GST_RTSP_AUTH_CLASS(klass)->authenticate = keys_authenticate;
    GST_RTSP_AUTH_CLASS(klass)->generate_authenticate_header = keys_generate_authenticate_header;
}

static void onair_rtsp_keys_init(OnAirRTSPKeys *self) {
    g_mutex_init(&self->lock);
    self->passwords = g_ptr_array_new_with_free_func(g_free);
    self->numbers = g_array_new(FALSE, FALSE, sizeof(int));
    self->tokens = g_ptr_array_new_with_free_func((GDestroyNotify)gst_rtsp_token_unref);
    self->nonces = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

GstRTSPAuth *onair_rtsp_keys_new(const char *user, int allow_basic) {
    OnAirRTSPKeys *self = g_object_new(onair_rtsp_keys_get_type(), NULL);
    self->user = g_strdup(user);
    self->allow_basic = allow_basic != 0;
    GstRTSPAuthMethod methods = GST_RTSP_AUTH_DIGEST;
    if (allow_basic) methods |= GST_RTSP_AUTH_BASIC;
    gst_rtsp_auth_set_supported_methods(GST_RTSP_AUTH(self), methods);
    return GST_RTSP_AUTH(self);
}

void onair_rtsp_keys_set(GstRTSPAuth *auth, const char *const *passwords, const int *numbers, size_t count) {
    OnAirRTSPKeys *self = (OnAirRTSPKeys *)auth;
    g_mutex_lock(&self->lock);
    g_ptr_array_set_size(self->passwords, 0);
    g_array_set_size(self->numbers, 0);
    for (size_t i = 0; i < count; i++) {
        g_ptr_array_add(self->passwords, g_strdup(passwords[i]));
        g_array_append_val(self->numbers, numbers[i]);
    }
    g_mutex_unlock(&self->lock);
}

int onair_rtsp_keys_admitted(GstRTSPAuth *auth, GstRTSPContext *ctx) {
    gint number = 0;
    if (!ctx) return 0;
    if (ctx->token) gst_structure_get_int(gst_rtsp_token_get_structure(ctx->token), ONAIR_RTSP_KEY_FIELD, &number);
    if (number > 0 || !auth) return number;
    // gst-rtsp-server checks credentials where it finds the media (DESCRIBE, SETUP), not at PLAY:
    // read them here (clients send them on every request once asked).
    OnAirRTSPKeys *self = (OnAirRTSPKeys *)auth;
    g_mutex_lock(&self->lock);
    number = request_key(self, ctx);
    g_mutex_unlock(&self->lock);
    return number;
}
