#if defined(__linux__)  // Linux-only (GStreamer/GnuTLS): see docs/ARCHITECTURE.md, platform guards
// See include/CGStreamer.h. Every GStreamer call OnAir makes goes through here.
#define _GNU_SOURCE
#include "CGStreamer.h"
#include "guard.h"
#include "keys.h"

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/rtsp-server/rtsp-server.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void copy_message(char *error, size_t size, const char *message) {
    if (error && size > 0) snprintf(error, size, "%s", message ? message : "unknown GStreamer error");
}

// MARK: - Initialisation

static GOnce initialized = G_ONCE_INIT;
static char init_failure[256];

static gpointer initialize_once(gpointer unused) {
    (void)unused;
    GError *failure = NULL;
    if (!gst_init_check(NULL, NULL, &failure)) {
        copy_message(init_failure, sizeof init_failure, failure ? failure->message : "gst_init_check failed");
        if (failure) g_error_free(failure);
        return GINT_TO_POINTER(1);
    }
    return GINT_TO_POINTER(2);
}

int onair_gst_initialize(char *error, size_t error_size) {
    gpointer result = g_once(&initialized, initialize_once, NULL);
    if (GPOINTER_TO_INT(result) == 2) return 0;
    copy_message(error, error_size, init_failure);
    return -1;
}

void onair_gst_version(char *text, size_t size) {
    guint major, minor, micro, nano;
    gst_version(&major, &minor, &micro, &nano);
    if (text && size > 0) snprintf(text, size, "%u.%u.%u", major, minor, micro);
}

int onair_gst_has_element(const char *name) {
    GstElementFactory *factory = gst_element_factory_find(name);
    if (!factory) return 0;
    gst_object_unref(factory);
    return 1;
}

void onair_name_current_thread(const char *name) {
    char cut[16];
    snprintf(cut, sizeof cut, "%s", name);
    pthread_setname_np(pthread_self(), cut);
}

// MARK: - Main loop

struct onair_gst_loop {
    GMainContext *context;
    GMainLoop *loop;
};

onair_gst_loop *onair_gst_loop_new(void) {
    onair_gst_loop *loop = g_new0(onair_gst_loop, 1);
    loop->context = g_main_context_new();
    loop->loop = g_main_loop_new(loop->context, FALSE);
    return loop;
}

void onair_gst_loop_run(onair_gst_loop *loop) {
    g_main_context_push_thread_default(loop->context);
    g_main_loop_run(loop->loop);
    g_main_context_pop_thread_default(loop->context);
}

void onair_gst_loop_quit(onair_gst_loop *loop) { g_main_loop_quit(loop->loop); }

void onair_gst_loop_free(onair_gst_loop *loop) {
    if (!loop) return;
    g_main_loop_unref(loop->loop);
    g_main_context_unref(loop->context);
    g_free(loop);
}

// MARK: - Elements

void onair_gst_object_unref(void *object) {
    if (object) g_object_unref(object);
}

void onair_gst_object_ref(void *object) {
    if (object) g_object_ref(object);
}

int onair_gst_app_source_set_caps(void *source, const char *text) {
    GstCaps *caps = gst_caps_from_string(text);
    if (!caps) return -1;
    gst_app_src_set_caps(GST_APP_SRC(source), caps);
    gst_caps_unref(caps);
    return 0;
}

int onair_gst_app_source_push(void *source, const uint8_t *bytes, size_t count, int64_t pts, int64_t dts,
                              int64_t duration, int delta_unit) {
    GstBuffer *buffer = gst_buffer_new_memdup(bytes, count);
    GST_BUFFER_PTS(buffer) = pts < 0 ? GST_CLOCK_TIME_NONE : (GstClockTime)pts;
    GST_BUFFER_DTS(buffer) = dts < 0 ? GST_CLOCK_TIME_NONE : (GstClockTime)dts;
    GST_BUFFER_DURATION(buffer) = duration < 0 ? GST_CLOCK_TIME_NONE : (GstClockTime)duration;
    if (delta_unit) GST_BUFFER_FLAG_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT);
    switch (gst_app_src_push_buffer(GST_APP_SRC(source), buffer)) {
    case GST_FLOW_OK: return ONAIR_GST_PUSH_OK;
    case GST_FLOW_FLUSHING: return ONAIR_GST_PUSH_FLUSHING;
    case GST_FLOW_EOS: return ONAIR_GST_PUSH_ENDED;
    default: return ONAIR_GST_PUSH_ERROR;
    }
}

uint64_t onair_gst_app_source_queued_bytes(void *source) {
    return gst_app_src_get_current_level_bytes(GST_APP_SRC(source));
}

void onair_gst_app_source_end(void *source) { gst_app_src_end_of_stream(GST_APP_SRC(source)); }

onair_gst_clock_reading onair_gst_element_clock_reading(void *element) {
    GstElement *e = GST_ELEMENT(element);
    onair_gst_clock_reading reading = {0, 0, 0, 0};
    GST_OBJECT_LOCK(e);
    GstClock *clock = e->clock ? gst_object_ref(e->clock) : NULL;
    reading.playing = GST_STATE(e) == GST_STATE_PLAYING;
    reading.base = e->base_time;
    GST_OBJECT_UNLOCK(e);
    if (clock) {
        reading.has_clock = 1;
        reading.now = gst_clock_get_time(clock);
        gst_object_unref(clock);
    }
    return reading;
}

// MARK: - RTSP server

struct onair_rtsp_server {
    GstRTSPServer *server;
    GMainContext *context;
    guint server_source;
    GSource *cleanup;
    onair_rtsp_callbacks callbacks;
    char **paths;  // the served paths, NULL-terminated
    int session_timeout;
    onair_rtsp_guard_callbacks guard;
    GstRTSPAuth *auth;  // the credential check, and the TLS certificate (NULL: neither)
    guint frame_bytes;  // what an interleaved frame costs beyond its payload (the guard's count)
};

// What one interleaved frame costs on a TLS connection beyond its payload and 4-byte header: a
// record of its own (header 5 bytes, then TLS 1.2's explicit nonce and tag 24 or TLS 1.3's content
// type and tag 17), rounded up. The guard counts it with the interleaved data, so an RTSPS client's
// RTCP is not taken for a request still arriving.
#define TLS_FRAME_OVERHEAD 64

static const char *peer_of(GstRTSPClient *client) {
    GstRTSPConnection *connection = client ? gst_rtsp_client_get_connection(client) : NULL;
    const char *ip = connection ? gst_rtsp_connection_get_ip(connection) : NULL;
    return ip ? ip : "";
}

static void on_unprepared(GstRTSPMedia *media, gpointer data) {
    onair_rtsp_server *self = data;
    self->callbacks.media_ended(self->callbacks.context, media);
}

// gst-rtsp-server's PLAY handling turns rate control back on (an ONVIF Rate-Control header is
// absent, so "yes"), which sets the TCP RTP appsink's sync again after element-added turned it
// off: the sink then held every packet until its running time, the stamps' lead (half a second
// plus the keyframe cache's age, up to a GOP) standing in the client's pipeline as latency and
// backlog. Whenever it comes back on, it is turned off again.
static void keep_unsynced(GObject *sink, GParamSpec *spec, gpointer data) {
    (void)spec;
    (void)data;
    gboolean sync = FALSE;
    g_object_get(sink, "sync", &sync, NULL);
    if (sync) g_object_set(sink, "sync", FALSE, NULL);
}

// The sinks gst-rtsp-server adds per transport (udpsink/multiudpsink for RTP over UDP, appsink for
// TCP) sync to the clock by default, holding each packet until its running time. OnAir's packets
// are live already and a client's first ones come from the keyframe cache (up to a GOP old):
// they go out as soon as they arrive.
static void on_element_added(GstBin *bin, GstElement *element, gpointer data) {
    (void)data;
    onair_rtsp_guard_element_added(bin, element);
    GstElementFactory *factory = gst_element_get_factory(element);
    const char *name = factory ? gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(factory)) : NULL;
    if (name && (strcmp(name, "udpsink") == 0 || strcmp(name, "multiudpsink") == 0 || strcmp(name, "appsink") == 0)) {
        g_object_set(element, "sync", FALSE, NULL);
        g_signal_connect(element, "notify::sync", G_CALLBACK(keep_unsynced), NULL);
    }
}

static void on_media_configure(GstRTSPMediaFactory *factory, GstRTSPMedia *media, gpointer data) {
    onair_rtsp_server *self = data;
    const char *path = g_object_get_data(G_OBJECT(factory), "onair-path");
    // Each client's media is its own: sent as fast as the client's queue gives it, not paced
    // again by the clock (the packets are live already).
    gst_rtsp_media_set_rate_control(media, FALSE);
    GstElement *element = gst_rtsp_media_get_element(media);
    GstElement *video = gst_bin_get_by_name_recurse_up(GST_BIN(element), "video");
    GstElement *audio = gst_bin_get_by_name_recurse_up(GST_BIN(element), "audio");
    GstObject *pipeline = gst_object_get_parent(GST_OBJECT(element));
    GstRTSPContext *ctx = gst_rtsp_context_get_current();
    GstRTSPClient *client = ctx ? ctx->client : NULL;
    if (pipeline && GST_IS_BIN(pipeline)) {
        onair_rtsp_guard_media(client, GST_ELEMENT(pipeline));
        g_signal_connect(pipeline, "element-added", G_CALLBACK(on_element_added), NULL);
    }
    if (pipeline) gst_object_unref(pipeline);
    gst_object_unref(element);
    if (client) g_object_ref(client);
    g_signal_connect(media, "unprepared", G_CALLBACK(on_unprepared), self);
    self->callbacks.media_configured(self->callbacks.context, media, video, audio, client, peer_of(client), path ? path : "");
}

// Every request's first check: its fields handed to the owner (OnAirServing's RTSPRequestRules
// decides sizes, CSeq and served paths), whose status code is the answer. The guard is told the
// request is complete first, which gives the bytes it took.
static GstRTSPStatusCode check_request(onair_rtsp_server *self, GstRTSPContext *ctx) {
    gint64 received = ctx->client ? onair_rtsp_guard_request_done(ctx->client) : -1;
    if (!self->callbacks.check_request) return GST_RTSP_STS_OK;
    onair_rtsp_request request = {NULL, NULL, NULL, NULL, NULL, 0, received, 0};
    GPtrArray *names = g_ptr_array_new();
    GPtrArray *values = g_ptr_array_new();
    GstRTSPMessage *message = ctx->request;
    if (message) {
        request.method = gst_rtsp_method_as_text(message->type_data.request.method);
        request.uri = message->type_data.request.uri;
        for (int field = GST_RTSP_HDR_INVALID + 1; field < GST_RTSP_HDR_LAST; field++) {
            gchar *value = NULL;
            for (gint index = 0; gst_rtsp_message_get_header(message, (GstRTSPHeaderField)field, &value, index) == GST_RTSP_OK;
                 index++) {
                const gchar *name = gst_rtsp_header_as_text((GstRTSPHeaderField)field);
                g_ptr_array_add(names, (gpointer)(name ? name : ""));
                g_ptr_array_add(values, value ? value : "");
            }
        }
        guint8 *body = NULL;
        guint body_size = 0;
        gst_rtsp_message_get_body(message, &body, &body_size);
        request.body_size = body_size;
    }
    if (ctx->uri) request.path = ctx->uri->abspath;
    request.names = (const char *const *)names->pdata;
    request.values = (const char *const *)values->pdata;
    request.count = names->len;
    int code = self->callbacks.check_request(self->callbacks.context, &request);
    g_ptr_array_free(names, TRUE);
    g_ptr_array_free(values, TRUE);
    return (GstRTSPStatusCode)code;
}

static GstRTSPStatusCode on_pre_request(GstRTSPClient *client, GstRTSPContext *ctx, gpointer data) {
    (void)client;
    return check_request(data, ctx);
}

// gst-rtsp-server 1.22 frees the (stack) response when pre-options-request refuses, so OPTIONS
// is refused by turning the prepared response into the refusal and letting it be sent.
static GstRTSPStatusCode on_pre_options(GstRTSPClient *client, GstRTSPContext *ctx, gpointer data) {
    (void)client;
    GstRTSPStatusCode code = check_request(data, ctx);
    if (code != GST_RTSP_STS_OK && ctx->response) {
        gst_rtsp_message_init_response(ctx->response, code, gst_rtsp_status_as_text(code), ctx->request);
    }
    return GST_RTSP_STS_OK;
}

static GstRTSPStatusCode on_pre_describe(GstRTSPClient *client, GstRTSPContext *ctx, gpointer data) {
    onair_rtsp_server *self = data;
    GstRTSPStatusCode code = check_request(self, ctx);
    if (code != GST_RTSP_STS_OK) return code;
    return (GstRTSPStatusCode)self->callbacks.admit(self->callbacks.context, client, peer_of(client));
}

// PLAY is where a client starts to cost a viewer slot: the owner admits it (or refuses) here.
static GstRTSPStatusCode on_pre_play(GstRTSPClient *client, GstRTSPContext *ctx, gpointer data) {
    (void)client;
    onair_rtsp_server *self = data;
    GstRTSPStatusCode code = check_request(self, ctx);
    if (code != GST_RTSP_STS_OK) return code;
    if (!ctx->media) return GST_RTSP_STS_SESSION_NOT_FOUND;
    return (GstRTSPStatusCode)self->callbacks.play(self->callbacks.context, ctx->media, onair_rtsp_keys_admitted(self->auth, ctx));
}

static void on_setup(GstRTSPClient *client, GstRTSPContext *ctx, gpointer data) {
    (void)client;
    onair_rtsp_server *self = data;
    if (!ctx->trans || !ctx->media) return;
    const GstRTSPTransport *transport = gst_rtsp_stream_transport_get_transport(ctx->trans);
    if (!transport) return;
    const char *name = "udp";
    if (transport->lower_transport & GST_RTSP_LOWER_TRANS_TCP) name = "tcp";
    else if (transport->lower_transport & GST_RTSP_LOWER_TRANS_UDP_MCAST) name = "multicast";
    self->callbacks.media_transport(self->callbacks.context, ctx->media, name);
}

static void on_client_closed(GstRTSPClient *client, gpointer data) {
    onair_rtsp_server *self = data;
    self->callbacks.client_closed(self->callbacks.context, client);
}

static void on_new_session(GstRTSPClient *client, GstRTSPSession *session, gpointer data) {
    (void)client;
    onair_rtsp_server *self = data;
    if (self->session_timeout > 0) gst_rtsp_session_set_timeout(session, (guint)self->session_timeout);
}

static void on_client_connected(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
    (void)server;
    onair_rtsp_server *self = data;
    onair_rtsp_guard_connected(&self->guard, client, self->frame_bytes);
    g_signal_connect(client, "new-session", G_CALLBACK(on_new_session), data);
    g_signal_connect(client, "pre-describe-request", G_CALLBACK(on_pre_describe), data);
    g_signal_connect(client, "pre-play-request", G_CALLBACK(on_pre_play), data);
    g_signal_connect(client, "pre-options-request", G_CALLBACK(on_pre_options), data);
    static const char *const checked[] = {"pre-setup-request", "pre-pause-request",
                                          "pre-teardown-request", "pre-get-parameter-request", "pre-set-parameter-request",
                                          "pre-announce-request", "pre-record-request"};
    for (size_t i = 0; i < sizeof checked / sizeof checked[0]; i++) {
        g_signal_connect(client, checked[i], G_CALLBACK(on_pre_request), data);
    }
    g_signal_connect(client, "setup-request", G_CALLBACK(on_setup), data);
    g_signal_connect(client, "closed", G_CALLBACK(on_client_closed), data);
}

static gboolean cleanup_sessions(GstRTSPSessionPool *pool, gpointer data) {
    (void)data;
    gst_rtsp_session_pool_cleanup(pool);
    return TRUE;
}

onair_rtsp_server *onair_rtsp_server_new(onair_gst_loop *loop, const onair_rtsp_options *options,
                                         onair_rtsp_callbacks callbacks, char *error, size_t error_size) {
    onair_rtsp_server *self = g_new0(onair_rtsp_server, 1);
    self->callbacks = callbacks;
    self->context = g_main_context_ref(loop->context);
    self->paths = g_strsplit(options->path, " ", 0);
    self->session_timeout = options->session_timeout;
    self->guard = options->guard;
    self->server = gst_rtsp_server_new();
    char service[16];
    snprintf(service, sizeof service, "%d", options->port);
    gst_rtsp_server_set_address(self->server, options->address);
    gst_rtsp_server_set_service(self->server, service);
    gst_rtsp_server_set_content_length_limit(self->server, options->content_length_limit);

    self->frame_bytes = options->tls_pem ? 4 + TLS_FRAME_OVERHEAD : 4;
    GTlsCertificate *certificate = NULL;
    if (options->tls_pem) {
        // GLib's GnuTLS backend reads its priorities once, from this variable when set: TLS 1.2
        // and 1.3 only (its default still offers 1.0 and 1.1). A value the user set is kept.
        static gsize priorities_set = 0;
        if (g_once_init_enter(&priorities_set)) {
            g_setenv("G_TLS_GNUTLS_PRIORITY", "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2", FALSE);
            g_once_init_leave(&priorities_set, 1);
        }
        GTlsBackend *backend = g_tls_backend_get_default();
        if (!backend || !g_tls_backend_supports_tls(backend)) {
            copy_message(error, error_size, "RTSPS needs GLib's TLS backend: apt-get install glib-networking");
            onair_rtsp_server_free(self);
            return NULL;
        }
        GError *failure = NULL;
        certificate = g_tls_certificate_new_from_pem(options->tls_pem, -1, &failure);
        if (!certificate) {
            copy_message(error, error_size, failure ? failure->message : "the RTSPS certificate cannot be read");
            g_clear_error(&failure);
            onair_rtsp_server_free(self);
            return NULL;
        }
    }
    if (options->keys.admit) {
        self->auth = onair_rtsp_keys_new(&options->keys, options->allow_basic);
    } else if (certificate) {
        // An open RTSPS server still needs an auth to carry its certificate: everyone is a viewer.
        self->auth = gst_rtsp_auth_new();
        GstRTSPToken *anyone = gst_rtsp_token_new(GST_RTSP_TOKEN_MEDIA_FACTORY_ROLE, G_TYPE_STRING, "viewer", NULL);
        gst_rtsp_auth_set_default_token(self->auth, anyone);
        gst_rtsp_token_unref(anyone);
    }
    if (self->auth) {
        if (certificate) gst_rtsp_auth_set_tls_certificate(self->auth, certificate);
        gst_rtsp_server_set_auth(self->server, self->auth);
    }

    // One factory per path, each building a pipeline of its own per client from its path's launch.
    GstRTSPMountPoints *mounts = gst_rtsp_server_get_mount_points(self->server);
    char **launches = g_strsplit(options->launch, "\n", 0);
    guint launch_count = g_strv_length(launches);
    guint index = 0;
    for (char **path = self->paths; *path; path++, index++) {
        if (**path == '\0') continue;
        GstRTSPMediaFactory *factory = gst_rtsp_media_factory_new();
        gst_rtsp_media_factory_set_launch(factory, launch_count == 0 ? "" : launches[MIN(index, launch_count - 1)]);
        gst_rtsp_media_factory_set_shared(factory, FALSE);
        g_object_set_data_full(G_OBJECT(factory), "onair-path", g_strdup(*path), g_free);
        g_signal_connect(factory, "media-configure", G_CALLBACK(on_media_configure), self);
        // Media only inside the TLS connection: no plain RTP beside it over UDP.
        if (certificate) gst_rtsp_media_factory_set_protocols(factory, GST_RTSP_LOWER_TRANS_TCP);
        if (self->auth) {
            gst_rtsp_media_factory_add_role(factory, "viewer",
                                            GST_RTSP_PERM_MEDIA_FACTORY_ACCESS, G_TYPE_BOOLEAN, TRUE,
                                            GST_RTSP_PERM_MEDIA_FACTORY_CONSTRUCT, G_TYPE_BOOLEAN, TRUE, NULL);
        }
        gst_rtsp_mount_points_add_factory(mounts, *path, factory);  // takes the factory
    }
    g_strfreev(launches);
    g_object_unref(mounts);
    if (certificate) g_object_unref(certificate);

    GstRTSPSessionPool *pool = gst_rtsp_server_get_session_pool(self->server);
    g_signal_connect(self->server, "client-connected", G_CALLBACK(on_client_connected), self);
    self->cleanup = gst_rtsp_session_pool_create_watch(pool);
    g_source_set_callback(self->cleanup, (GSourceFunc)cleanup_sessions, NULL, NULL);
    g_source_attach(self->cleanup, self->context);
    g_object_unref(pool);

    self->server_source = gst_rtsp_server_attach(self->server, self->context);
    if (self->server_source == 0) {
        char message[160];
        int bracket = strchr(options->address, ':') != NULL;
        snprintf(message, sizeof message, "cannot listen on %s%s%s:%d (address in use or not available)",
                 bracket ? "[" : "", options->address, bracket ? "]" : "", options->port);
        copy_message(error, error_size, message);
        onair_rtsp_server_free(self);
        return NULL;
    }
    return self;
}

int onair_rtsp_server_port(onair_rtsp_server *server) { return gst_rtsp_server_get_bound_port(server->server); }

int onair_rtsp_server_set_tls(onair_rtsp_server *server, const char *tls_pem, char *error, size_t error_size) {
    if (!server->auth || server->frame_bytes == 4) {
        copy_message(error, error_size, "not an RTSPS server");
        return -1;
    }
    GError *failure = NULL;
    GTlsCertificate *certificate = g_tls_certificate_new_from_pem(tls_pem, -1, &failure);
    if (!certificate) {
        copy_message(error, error_size, failure ? failure->message : "the RTSPS certificate cannot be read");
        g_clear_error(&failure);
        return -1;
    }
    // gst-rtsp-server gives each new connection the auth's certificate at its CONNECT check.
    gst_rtsp_auth_set_tls_certificate(server->auth, certificate);
    g_object_unref(certificate);
    return 0;
}

static GstRTSPFilterResult close_every_client(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
    (void)server; (void)client; (void)data;
    return GST_RTSP_FILTER_REMOVE;
}

void onair_rtsp_server_close(onair_rtsp_server *server) {
    if (server->server_source) {
        GSource *source = g_main_context_find_source_by_id(server->context, server->server_source);
        if (source) g_source_destroy(source);
        server->server_source = 0;
    }
    if (server->cleanup) {
        g_source_destroy(server->cleanup);
        g_source_unref(server->cleanup);
        server->cleanup = NULL;
    }
    gst_rtsp_server_client_filter(server->server, close_every_client, NULL);
}

void onair_rtsp_server_free(onair_rtsp_server *server) {
    if (!server) return;
    onair_rtsp_server_close(server);
    g_object_unref(server->server);
    if (server->auth) g_object_unref(server->auth);
    g_main_context_unref(server->context);
    g_strfreev(server->paths);
    g_free(server);
}

void onair_rtsp_server_each_connection(onair_rtsp_server *server,
                                       void (*visit)(void *context, void *client, void *connection), void *context) {
    onair_rtsp_guard_each(server->server, visit, context);
}

void onair_rtsp_client_close(void *client) { gst_rtsp_client_close(GST_RTSP_CLIENT(client)); }

int onair_rtsp_media_transports(void *media) {
    GstRTSPMedia *client_media = GST_RTSP_MEDIA(media);
    guint count = gst_rtsp_media_n_streams(client_media);
    int transports = 0;
    for (guint index = 0; index < count; index++) {
        GstRTSPStream *stream = gst_rtsp_media_get_stream(client_media, index);
        if (!stream) continue;
        GList *list = gst_rtsp_stream_transport_filter(stream, NULL, NULL);
        transports += (int)g_list_length(list);
        g_list_free_full(list, g_object_unref);
    }
    return transports;
}
#endif
