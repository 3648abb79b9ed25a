#if defined(__linux__)  // Linux-only (GStreamer/GnuTLS): see docs/ARCHITECTURE.md, platform guards
// The RTSP credential check's bridge to gst-rtsp-server 1.22: a GstRTSPAuth subclass whose two
// vfuncs hand the request's method and Authorization values to the owner (OnAirGStreamer's
// RTSPServerKeys to OnAirServing's RTSPKeys over RTSPKeyring, which parses them, keeps the nonces and tries
// every key) and add the owner's WWW-Authenticate values to a refusal. What stays here is what
// Swift cannot hold: the GObject type, and one GstRTSPToken per key number (carrying the number
// in ONAIR_RTSP_KEY_FIELD and the "viewer" role), kept for as long as the auth lives since a
// request's context borrows it.
#include "keys.h"

// Authorization values handed over at most (RTSPKeyring reads no more).
#define AUTHORIZATION_LIMIT 8

typedef struct {
    GstRTSPAuth parent;
    onair_rtsp_keys_callbacks callbacks;
    GMutex lock;            // tokens
    GPtrArray *tokens;      // GstRTSPToken*, one per key number ever given
} OnAirRTSPKeys;

typedef struct {
    GstRTSPAuthClass parent_class;
} OnAirRTSPKeysClass;

G_DEFINE_TYPE(OnAirRTSPKeys, onair_rtsp_keys, GST_TYPE_RTSP_AUTH)

static GstRTSPToken *token_for(OnAirRTSPKeys *self, int number) {
    g_mutex_lock(&self->lock);
    GstRTSPToken *found = NULL;
    for (guint i = 0; i < self->tokens->len && !found; i++) {
        GstRTSPToken *token = g_ptr_array_index(self->tokens, i);
        gint stored = 0;
        gst_structure_get_int(gst_rtsp_token_get_structure(token), ONAIR_RTSP_KEY_FIELD, &stored);
        if (stored == number) found = token;
    }
    if (!found) {
        found = gst_rtsp_token_new(GST_RTSP_TOKEN_MEDIA_FACTORY_ROLE, G_TYPE_STRING, "viewer",
                                   ONAIR_RTSP_KEY_FIELD, G_TYPE_INT, number, NULL);
        g_ptr_array_add(self->tokens, found);
    }
    g_mutex_unlock(&self->lock);
    return found;
}

// The key the request's credentials name, as the owner judges them; 0 when none.
static int request_key(OnAirRTSPKeys *self, GstRTSPContext *ctx) {
    if (!ctx->request) return 0;
    const char *values[AUTHORIZATION_LIMIT];
    gchar *value = NULL;
    gint count = 0;
    while (count < AUTHORIZATION_LIMIT &&
           gst_rtsp_message_get_header(ctx->request, GST_RTSP_HDR_AUTHORIZATION, &value, count) == GST_RTSP_OK && value) {
        values[count++] = value;
    }
    const gchar *method = gst_rtsp_method_as_text(ctx->method);
    GstRTSPConnection *connection = ctx->client ? gst_rtsp_client_get_connection(ctx->client) : NULL;
    const gchar *peer = connection ? gst_rtsp_connection_get_ip(connection) : NULL;
    return self->callbacks.admit(self->callbacks.context, method ? method : "", values, (size_t)count, peer ? peer : "");
}

static gboolean keys_authenticate(GstRTSPAuth *auth, GstRTSPContext *ctx) {
    OnAirRTSPKeys *self = (OnAirRTSPKeys *)auth;
    int found = request_key(self, ctx);
    ctx->token = found > 0 ? token_for(self, found) : NULL;
    return TRUE;
}

static void keys_generate_authenticate_header(GstRTSPAuth *auth, GstRTSPContext *ctx) {
    OnAirRTSPKeys *self = (OnAirRTSPKeys *)auth;
    if (ctx->response) self->callbacks.challenge(self->callbacks.context, ctx->response);
}

void onair_rtsp_response_add_challenge(void *response, const char *value) {
    gst_rtsp_message_add_header(response, GST_RTSP_HDR_WWW_AUTHENTICATE, value);
}

static void keys_finalize(GObject *object) {
    OnAirRTSPKeys *self = (OnAirRTSPKeys *)object;
    g_ptr_array_unref(self->tokens);
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
    self->tokens = g_ptr_array_new_with_free_func((GDestroyNotify)gst_rtsp_token_unref);
}

GstRTSPAuth *onair_rtsp_keys_new(const onair_rtsp_keys_callbacks *callbacks, int allow_basic) {
    OnAirRTSPKeys *self = g_object_new(onair_rtsp_keys_get_type(), NULL);
    self->callbacks = *callbacks;
    GstRTSPAuthMethod methods = GST_RTSP_AUTH_DIGEST;
    if (allow_basic) methods |= GST_RTSP_AUTH_BASIC;
    gst_rtsp_auth_set_supported_methods(GST_RTSP_AUTH(self), methods);
    return GST_RTSP_AUTH(self);
}

int onair_rtsp_keys_admitted(GstRTSPAuth *auth, GstRTSPContext *ctx) {
    gint number = 0;
    if (!ctx) return 0;
    if (ctx->token) gst_structure_get_int(gst_rtsp_token_get_structure(ctx->token), ONAIR_RTSP_KEY_FIELD, &number);
    if (number > 0 || !auth) return number;
    // gst-rtsp-server checks credentials where it finds the media (DESCRIBE, SETUP), not at PLAY:
    // read them here (clients send them on every request once asked).
    return request_key((OnAirRTSPKeys *)auth, ctx);
}
#endif
