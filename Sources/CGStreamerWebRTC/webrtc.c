#if defined(__linux__)  // Linux-only (GStreamer/GnuTLS): see docs/ARCHITECTURE.md, platform guards
// See include/CGStreamerWebRTC.h. Every webrtcbin call OnAir makes goes through here.
#include "CGStreamerWebRTC.h"
#include "certificate.h"

#define GST_USE_UNSTABLE_API 1
// The RTP session's statistics come as a GValueArray (deprecated in GLib, still what rtpsession hands out).
#define GLIB_DISABLE_DEPRECATION_WARNINGS 1
#include <gst/gst.h>
#include <gst/sdp/sdp.h>
#include <gst/webrtc/webrtc.h>
#include <stdio.h>
#include <string.h>

struct onair_webrtc_peer {
    GstElement *pipeline;
    GstElement *webrtc;
    GObject *session;  // the RTP session of the bundle (rtpbin's session 0), once negotiated
    onair_webrtc_callbacks callbacks;
    GMutex lock;
    gboolean closing;
    char failure[512];
    guint64 rtcp_packets, nacks, plis, firs;
    gint64 last_rtcp;
    gulong probe, rtcp_handler, feedback_handler;
    gulong added_handler, deep_added_handler;
    GstPad *probe_pad;
};

static void copy_message(char *error, size_t size, const char *message) {
    if (error && size > 0) snprintf(error, size, "%s", message ? message : "unknown GStreamer error");
}

// MARK: - Promises

/// Emits `signal` with `argument` and a promise, waits for the reply and returns it (a new copy,
/// NULL when there was none); a reply carrying an "error" becomes a message.
static GstStructure *call_with_promise(GstElement *webrtc, const char *signal, gpointer argument,
                                       char *error, size_t error_size, gboolean *failed) {
    GstPromise *promise = gst_promise_new();
    g_signal_emit_by_name(webrtc, signal, argument, promise);
    GstPromiseResult result = gst_promise_wait(promise);
    const GstStructure *reply = result == GST_PROMISE_RESULT_REPLIED ? gst_promise_get_reply(promise) : NULL;
    GstStructure *copy = reply ? gst_structure_copy(reply) : NULL;
    gst_promise_unref(promise);
    *failed = FALSE;
    if (result != GST_PROMISE_RESULT_REPLIED) {
        char text[160];
        snprintf(text, sizeof text, "webrtcbin did not answer %s", signal);
        copy_message(error, error_size, text);
        *failed = TRUE;
    } else if (copy && gst_structure_has_field(copy, "error")) {
        GError *cause = NULL;
        gst_structure_get(copy, "error", G_TYPE_ERROR, &cause, NULL);
        char text[400];
        snprintf(text, sizeof text, "%s: %s", signal, cause ? cause->message : "failed");
        copy_message(error, error_size, text);
        if (cause) g_error_free(cause);
        *failed = TRUE;
    }
    return copy;
}

static gboolean set_description(GstElement *webrtc, const char *signal, GstWebRTCSDPType type, const char *text,
                                char *error, size_t error_size) {
    GstSDPMessage *sdp = NULL;
    if (gst_sdp_message_new_from_text(text, &sdp) != GST_SDP_OK || !sdp) {
        copy_message(error, error_size, "the session description is not SDP");
        return FALSE;
    }
    GstWebRTCSessionDescription *description = gst_webrtc_session_description_new(type, sdp);
    gboolean failed = FALSE;
    GstStructure *reply = call_with_promise(webrtc, signal, description, error, error_size, &failed);
    if (reply) gst_structure_free(reply);
    gst_webrtc_session_description_free(description);
    return !failed;
}

/// Puts the process certificate's fingerprint in every `a=fingerprint` of `sdp` (see
/// onair_webrtc_certificate_fingerprint: webrtcbin's own is computed over the key too).
static void write_fingerprint(GstSDPMessage *sdp) {
    const char *fingerprint = onair_webrtc_certificate_fingerprint();
    if (!fingerprint) return;
    gchar *value = g_strdup_printf("sha-256 %s", fingerprint);
    for (guint index = 0; index < gst_sdp_message_attributes_len(sdp); index++) {
        const GstSDPAttribute *attribute = gst_sdp_message_get_attribute(sdp, index);
        if (g_strcmp0(attribute->key, "fingerprint") != 0) continue;
        GstSDPAttribute replacement;
        gst_sdp_attribute_set(&replacement, "fingerprint", value);
        gst_sdp_message_replace_attribute(sdp, index, &replacement);
    }
    for (guint media_index = 0; media_index < gst_sdp_message_medias_len(sdp); media_index++) {
        GstSDPMedia *media = (GstSDPMedia *)gst_sdp_message_get_media(sdp, media_index);
        for (guint index = 0; index < gst_sdp_media_attributes_len(media); index++) {
            const GstSDPAttribute *attribute = gst_sdp_media_get_attribute(media, index);
            if (g_strcmp0(attribute->key, "fingerprint") != 0) continue;
            GstSDPAttribute replacement;
            gst_sdp_attribute_set(&replacement, "fingerprint", value);
            gst_sdp_media_replace_attribute(media, index, &replacement);
        }
    }
    g_free(value);
}

/// Creates an offer or an answer (`signal`) and sets it as the local description.
static gboolean make_local_description(GstElement *webrtc, const char *signal, const char *field,
                                       char *error, size_t error_size) {
    gboolean failed = FALSE;
    GstStructure *reply = call_with_promise(webrtc, signal, NULL, error, error_size, &failed);
    GstWebRTCSessionDescription *description = NULL;
    if (!failed && reply) gst_structure_get(reply, field, GST_TYPE_WEBRTC_SESSION_DESCRIPTION, &description, NULL);
    if (reply) gst_structure_free(reply);
    if (failed) return FALSE;
    if (!description) {
        copy_message(error, error_size, "webrtcbin made no session description");
        return FALSE;
    }
    write_fingerprint(description->sdp);
    GstStructure *set = call_with_promise(webrtc, "set-local-description", description, error, error_size, &failed);
    if (set) gst_structure_free(set);
    gst_webrtc_session_description_free(description);
    return !failed;
}

// MARK: - Events from the streaming threads

static GstPadProbeReturn upstream_event(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    onair_webrtc_peer *peer = data;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (event && GST_EVENT_TYPE(event) == GST_EVENT_CUSTOM_UPSTREAM) {
        const GstStructure *structure = gst_event_get_structure(event);
        if (structure && gst_structure_has_name(structure, "GstForceKeyUnit")) {
            g_mutex_lock(&peer->lock);
            gboolean closing = peer->closing;
            g_mutex_unlock(&peer->lock);
            if (!closing && peer->callbacks.keyframe_requested) peer->callbacks.keyframe_requested(peer->callbacks.context);
        }
    }
    return GST_PAD_PROBE_OK;
}

static void receiving_rtcp(GObject *session, GstBuffer *buffer, gpointer data) {
    (void)session; (void)buffer;
    onair_webrtc_peer *peer = data;
    g_mutex_lock(&peer->lock);
    peer->rtcp_packets += 1;
    peer->last_rtcp = g_get_monotonic_time();
    g_mutex_unlock(&peer->lock);
}

static void feedback_rtcp(GObject *session, guint type, guint fbtype, guint sender, guint media, GstBuffer *fci,
                          gpointer data) {
    (void)session; (void)sender; (void)media; (void)fci;
    onair_webrtc_peer *peer = data;
    g_mutex_lock(&peer->lock);
    if (type == 205 && fbtype == 1) peer->nacks += 1;      // RTPFB generic NACK
    if (type == 206 && fbtype == 1) peer->plis += 1;       // PSFB picture loss indication
    if (type == 206 && fbtype == 4) peer->firs += 1;       // PSFB full intra request
    g_mutex_unlock(&peer->lock);
}

static GstBusSyncReply bus_message(GstBus *bus, GstMessage *message, gpointer data) {
    (void)bus;
    onair_webrtc_peer *peer = data;
    if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
        GError *cause = NULL;
        gchar *debug = NULL;
        gst_message_parse_error(message, &cause, &debug);
        g_mutex_lock(&peer->lock);
        if (peer->failure[0] == 0) {
            snprintf(peer->failure, sizeof peer->failure, "%s: %s", GST_OBJECT_NAME(GST_MESSAGE_SRC(message)),
                     cause ? cause->message : "error");
        }
        g_mutex_unlock(&peer->lock);
        if (cause) g_error_free(cause);
        g_free(debug);
    }
    return GST_BUS_DROP;
}

// MARK: - Setting up

static void configure_ice(GstElement *webrtc, const onair_webrtc_options *options) {
    GstWebRTCICE *ice = NULL;
    g_object_get(webrtc, "ice-agent", &ice, NULL);
    if (!ice) return;
    if (options->minimum_port > 0 && options->maximum_port >= options->minimum_port) {
        g_object_set(ice, "min-rtp-port", (guint)options->minimum_port, "max-rtp-port", (guint)options->maximum_port, NULL);
    }
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(ice), "ice-tcp")) g_object_set(ice, "ice-tcp", FALSE, NULL);
    if (options->local_address && options->local_address[0]) {
        gboolean added = FALSE;
        g_signal_emit_by_name(ice, "add-local-ip-address", options->local_address, &added);
    }
    gst_object_unref(ice);
    if (options->stun_server && options->stun_server[0]) g_object_set(webrtc, "stun-server", options->stun_server, NULL);
    if (options->turn_server && options->turn_server[0]) g_object_set(webrtc, "turn-server", options->turn_server, NULL);
}

/// Every transceiver sends only; video ones answer NACKs with retransmissions.
static void configure_transceivers(GstElement *webrtc) {
    GArray *transceivers = NULL;
    g_signal_emit_by_name(webrtc, "get-transceivers", &transceivers);
    if (!transceivers) return;
    for (guint i = 0; i < transceivers->len; i++) {
        GstWebRTCRTPTransceiver *transceiver = g_array_index(transceivers, GstWebRTCRTPTransceiver *, i);
        g_object_set(transceiver, "direction", GST_WEBRTC_RTP_TRANSCEIVER_DIRECTION_SENDONLY, "do-nack", TRUE, NULL);
    }
    g_array_unref(transceivers);
}

static gboolean wait_for_gathering(GstElement *webrtc, double timeout) {
    gint64 deadline = g_get_monotonic_time() + (gint64)(timeout * G_USEC_PER_SEC);
    while (g_get_monotonic_time() < deadline) {
        GstWebRTCICEGatheringState state = GST_WEBRTC_ICE_GATHERING_STATE_NEW;
        g_object_get(webrtc, "ice-gathering-state", &state, NULL);
        if (state == GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE) return TRUE;
        g_usleep(5000);
    }
    return FALSE;
}

// MARK: - Certificate

/// Gives `element`, and every element inside it when it is a bin, the process's certificate where it
/// is a DTLS-SRTP decoder (the one that holds a transport's DTLS agent; its encoder shares the
/// connection). Runs as webrtcbin adds a transport's bins, before they leave the NULL state and
/// before webrtcbin reads the certificate's fingerprint for its description.
static void give_certificate(GstElement *decoder, const char *pem) {
    gchar *held = NULL;
    g_object_get(decoder, "pem", &held, NULL);
    if (g_strcmp0(held, pem) != 0) g_object_set(decoder, "pem", pem, NULL);
    g_free(held);
}

static gboolean is_dtls_decoder(GstElement *element) {
    GstElementFactory *factory = gst_element_get_factory(element);
    return factory && strcmp(GST_OBJECT_NAME(factory), "dtlssrtpdec") == 0;
}

static void present_certificate(GstElement *element, const char *pem) {
    if (is_dtls_decoder(element)) {
        give_certificate(element, pem);
        return;
    }
    if (!GST_IS_BIN(element)) return;
    GstIterator *children = gst_bin_iterate_recurse(GST_BIN(element));
    GValue item = G_VALUE_INIT;
    while (gst_iterator_next(children, &item) == GST_ITERATOR_OK) {
        GstElement *child = g_value_get_object(&item);
        if (is_dtls_decoder(child)) give_certificate(child, pem);
        g_value_reset(&item);
    }
    g_value_unset(&item);
    gst_iterator_free(children);
}

static void element_added(GstBin *bin, GstElement *element, gpointer pem) { present_certificate(element, pem); }

static void deep_element_added(GstBin *bin, GstBin *parent, GstElement *element, gpointer pem) {
    present_certificate(element, pem);
}

static void watch_session(onair_webrtc_peer *peer) {
    GstElement *rtpbin = gst_bin_get_by_name(GST_BIN(peer->webrtc), "rtpbin");
    if (!rtpbin) return;
    GObject *session = NULL;
    g_signal_emit_by_name(rtpbin, "get-internal-session", 0u, &session);
    gst_object_unref(rtpbin);
    if (!session) return;
    peer->session = session;
    peer->rtcp_handler = g_signal_connect(session, "on-receiving-rtcp", G_CALLBACK(receiving_rtcp), peer);
    peer->feedback_handler = g_signal_connect(session, "on-feedback-rtcp", G_CALLBACK(feedback_rtcp), peer);
}

onair_webrtc_peer *onair_webrtc_peer_new(const onair_webrtc_options *options, onair_webrtc_callbacks callbacks,
                                         char **local_description, char *error, size_t error_size) {
    *local_description = NULL;
    GError *cause = NULL;
    GstElement *pipeline = gst_parse_launch(options->launch, &cause);
    if (!pipeline || cause) {
        copy_message(error, error_size, cause ? cause->message : "the pipeline could not be built");
        if (cause) g_error_free(cause);
        if (pipeline) gst_object_unref(pipeline);
        return NULL;
    }
    onair_webrtc_peer *peer = g_new0(onair_webrtc_peer, 1);
    g_mutex_init(&peer->lock);
    peer->pipeline = pipeline;
    peer->callbacks = callbacks;
    peer->webrtc = gst_bin_get_by_name(GST_BIN(pipeline), "webrtc");
    if (!peer->webrtc) {
        copy_message(error, error_size, "the pipeline has no webrtcbin named webrtc");
        onair_webrtc_peer_free(peer);
        return NULL;
    }
    // DTLS with the process's ECDSA certificate instead of GStreamer's default RSA one.
    char certificate_error[256] = "";
    const char *pem = onair_webrtc_certificate_pem(certificate_error, sizeof certificate_error);
    if (!pem) {
        copy_message(error, error_size, certificate_error);
        onair_webrtc_peer_free(peer);
        return NULL;
    }
    peer->added_handler = g_signal_connect(peer->webrtc, "element-added", G_CALLBACK(element_added), (gpointer)pem);
    peer->deep_added_handler = g_signal_connect(peer->webrtc, "deep-element-added", G_CALLBACK(deep_element_added), (gpointer)pem);
    present_certificate(peer->webrtc, pem);
    GstBus *bus = gst_element_get_bus(pipeline);
    gst_bus_set_sync_handler(bus, bus_message, peer, NULL);
    gst_object_unref(bus);
    g_object_set(peer->webrtc, "bundle-policy", GST_WEBRTC_BUNDLE_POLICY_MAX_BUNDLE, NULL);
    // Sender reports map NTP to the media's capture time (the buffers' times), not to when each
    // packet left: video leaves later after its time than audio (encode latency), and send-time
    // mapping would shift the receiver's lip sync by that difference.
    GstElement *rtpbin = gst_bin_get_by_name(GST_BIN(peer->webrtc), "rtpbin");
    if (rtpbin) {
        if (g_object_class_find_property(G_OBJECT_GET_CLASS(rtpbin), "rtcp-sync-send-time")) {
            g_object_set(rtpbin, "rtcp-sync-send-time", FALSE, NULL);
        }
        gst_object_unref(rtpbin);
    }
    configure_ice(peer->webrtc, options);
    GstElement *video = gst_bin_get_by_name(GST_BIN(pipeline), "video");
    if (video) {
        peer->probe_pad = gst_element_get_static_pad(video, "src");
        if (peer->probe_pad) {
            peer->probe = gst_pad_add_probe(peer->probe_pad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, upstream_event, peer, NULL);
        }
        gst_object_unref(video);
    }
    configure_transceivers(peer->webrtc);
    if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
        char text[600];
        g_mutex_lock(&peer->lock);
        snprintf(text, sizeof text, "the pipeline did not start%s%s", peer->failure[0] ? ": " : "", peer->failure);
        g_mutex_unlock(&peer->lock);
        copy_message(error, error_size, text);
        onair_webrtc_peer_free(peer);
        return NULL;
    }
    gboolean ok;
    if (options->remote_offer) {
        ok = set_description(peer->webrtc, "set-remote-description", GST_WEBRTC_SDP_TYPE_OFFER, options->remote_offer,
                             error, error_size);
        if (ok) configure_transceivers(peer->webrtc);
        ok = ok && make_local_description(peer->webrtc, "create-answer", "answer", error, error_size);
    } else {
        ok = make_local_description(peer->webrtc, "create-offer", "offer", error, error_size);
    }
    if (ok && !wait_for_gathering(peer->webrtc, options->timeout)) {
        copy_message(error, error_size, "ICE candidates were not gathered in time");
        ok = FALSE;
    }
    GstWebRTCSessionDescription *local = NULL;
    if (ok) g_object_get(peer->webrtc, "local-description", &local, NULL);
    if (ok && !local) {
        copy_message(error, error_size, "webrtcbin has no local description");
        ok = FALSE;
    }
    if (!ok) {
        if (local) gst_webrtc_session_description_free(local);
        onair_webrtc_peer_free(peer);
        return NULL;
    }
    *local_description = gst_sdp_message_as_text(local->sdp);
    gst_webrtc_session_description_free(local);
    watch_session(peer);
    return peer;
}

int onair_webrtc_peer_set_remote_answer(onair_webrtc_peer *peer, const char *answer, double timeout,
                                        char *error, size_t error_size) {
    (void)timeout;
    if (!set_description(peer->webrtc, "set-remote-description", GST_WEBRTC_SDP_TYPE_ANSWER, answer, error, error_size)) {
        return -1;
    }
    if (!peer->session) watch_session(peer);
    return 0;
}

void *onair_webrtc_peer_source(onair_webrtc_peer *peer, const char *name) {
    return gst_bin_get_by_name(GST_BIN(peer->pipeline), name);
}

// MARK: - Figures

/// Adds what the RTP session knows of our sending sources and, from the peer's sources, its report blocks.
static void add_session_figures(GObject *session, onair_webrtc_figures *figures) {
    GstStructure *stats = NULL;
    g_object_get(session, "stats", &stats, NULL);
    if (!stats) return;
    const GValue *sources = gst_structure_get_value(stats, "source-stats");
    if (sources && G_VALUE_HOLDS(sources, G_TYPE_VALUE_ARRAY)) {
        GValueArray *array = g_value_get_boxed(sources);
        for (guint i = 0; array && i < array->n_values; i++) {
            const GstStructure *source = gst_value_get_structure(g_value_array_get_nth(array, i));
            if (!source) continue;
            gboolean internal = FALSE, sender = FALSE, have_rb = FALSE;
            gst_structure_get_boolean(source, "internal", &internal);
            gst_structure_get_boolean(source, "is-sender", &sender);
            if (internal && sender) {
                guint64 octets = 0, packets = 0;
                if (gst_structure_get_uint64(source, "octets-sent", &octets)) figures->bytes_sent += octets;
                if (gst_structure_get_uint64(source, "packets-sent", &packets)) figures->packets_sent += packets;
                continue;
            }
            // The peer's own source carries the report blocks it sent about our streams.
            gst_structure_get_boolean(source, "have-rb", &have_rb);
            if (internal || !have_rb) continue;
            guint round_trip = 0;
            gint lost = 0;
            if (gst_structure_get_uint(source, "rb-round-trip", &round_trip)) {
                double seconds = round_trip / 65536.0;
                if (seconds > figures->round_trip_seconds) figures->round_trip_seconds = seconds;
            }
            if (gst_structure_get_int(source, "rb-packetslost", &lost)) {
                figures->packets_lost = (figures->packets_lost < 0 ? 0 : figures->packets_lost) + lost;
            }
        }
    }
    gst_structure_free(stats);
}

/// Adds the retransmissions of every `rtprtxsend` inside webrtcbin (one per video stream whose
/// answer took RTX): the NACKs it was asked to serve and the packets it sent again.
static void add_retransmissions(GstElement *webrtc, onair_webrtc_figures *figures) {
    GstIterator *elements = gst_bin_iterate_recurse(GST_BIN(webrtc));
    GValue item = G_VALUE_INIT;
    gboolean done = FALSE;
    while (!done) {
        switch (gst_iterator_next(elements, &item)) {
        case GST_ITERATOR_OK: {
            GstElement *element = g_value_get_object(&item);
            GstElementFactory *factory = gst_element_get_factory(element);
            if (factory && strcmp(GST_OBJECT_NAME(factory), "rtprtxsend") == 0) {
                guint requests = 0, packets = 0;
                g_object_get(element, "num-rtx-requests", &requests, "num-rtx-packets", &packets, NULL);
                figures->retransmission_requests += requests;
                figures->retransmitted_packets += packets;
            }
            g_value_reset(&item);
            break;
        }
        case GST_ITERATOR_RESYNC:
            // The bin changed under the walk: count afresh.
            figures->retransmission_requests = 0;
            figures->retransmitted_packets = 0;
            gst_iterator_resync(elements);
            break;
        default:
            done = TRUE;
            break;
        }
    }
    g_value_unset(&item);
    gst_iterator_free(elements);
}

/// Whether the first transceiver's sender has a DTLS transport in the connected state.
static int dtls_connected(GstElement *webrtc) {
    GstWebRTCRTPTransceiver *transceiver = NULL;
    g_signal_emit_by_name(webrtc, "get-transceiver", 0, &transceiver);
    if (!transceiver) return 0;
    GstWebRTCRTPSender *sender = NULL;
    g_object_get(transceiver, "sender", &sender, NULL);
    gst_object_unref(transceiver);
    if (!sender) return 0;
    GstWebRTCDTLSTransport *transport = NULL;
    g_object_get(sender, "transport", &transport, NULL);
    gst_object_unref(sender);
    if (!transport) return 0;
    GstWebRTCDTLSTransportState state = GST_WEBRTC_DTLS_TRANSPORT_STATE_NEW;
    g_object_get(transport, "state", &state, NULL);
    gst_object_unref(transport);
    return state == GST_WEBRTC_DTLS_TRANSPORT_STATE_CONNECTED;
}

void onair_webrtc_peer_figures(onair_webrtc_peer *peer, onair_webrtc_figures *figures) {
    memset(figures, 0, sizeof *figures);
    figures->round_trip_seconds = -1;
    figures->packets_lost = -1;
    g_mutex_lock(&peer->lock);
    figures->rtcp_packets = peer->rtcp_packets;
    figures->last_rtcp_microseconds = peer->last_rtcp;
    figures->nacks = peer->nacks;
    figures->plis = peer->plis;
    figures->firs = peer->firs;
    g_mutex_unlock(&peer->lock);
    if (peer->session) add_session_figures(peer->session, figures);
    GstWebRTCICEConnectionState state = GST_WEBRTC_ICE_CONNECTION_STATE_NEW;
    g_object_get(peer->webrtc, "ice-connection-state", &state, NULL);
    add_retransmissions(peer->webrtc, figures);
    figures->ice_connection_state = (int)state;
    figures->dtls_connected = dtls_connected(peer->webrtc);
}

int onair_webrtc_peer_failure(onair_webrtc_peer *peer, char *message, size_t size) {
    g_mutex_lock(&peer->lock);
    int failed = peer->failure[0] != 0;
    if (failed) copy_message(message, size, peer->failure);
    g_mutex_unlock(&peer->lock);
    return failed;
}

void onair_webrtc_peer_free(onair_webrtc_peer *peer) {
    if (!peer) return;
    g_mutex_lock(&peer->lock);
    peer->closing = TRUE;
    g_mutex_unlock(&peer->lock);
    if (peer->probe_pad) {
        if (peer->probe) gst_pad_remove_probe(peer->probe_pad, peer->probe);
        gst_object_unref(peer->probe_pad);
    }
    if (peer->session) {
        if (peer->rtcp_handler) g_signal_handler_disconnect(peer->session, peer->rtcp_handler);
        if (peer->feedback_handler) g_signal_handler_disconnect(peer->session, peer->feedback_handler);
    }
    if (peer->webrtc) {
        if (peer->added_handler) g_signal_handler_disconnect(peer->webrtc, peer->added_handler);
        if (peer->deep_added_handler) g_signal_handler_disconnect(peer->webrtc, peer->deep_added_handler);
    }
    if (peer->pipeline) gst_element_set_state(peer->pipeline, GST_STATE_NULL);
    if (peer->session) g_object_unref(peer->session);
    if (peer->webrtc) gst_object_unref(peer->webrtc);
    if (peer->pipeline) {
        GstBus *bus = gst_element_get_bus(peer->pipeline);
        gst_bus_set_sync_handler(bus, NULL, NULL, NULL);
        gst_object_unref(bus);
        gst_object_unref(peer->pipeline);
    }
    g_mutex_clear(&peer->lock);
    g_free(peer);
}

void onair_webrtc_free_text(char *text) { g_free(text); }

const char *onair_webrtc_certificate(char *error, size_t error_size) { return onair_webrtc_certificate_pem(error, error_size); }
#endif
