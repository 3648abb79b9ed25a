#if defined(__linux__)  // Linux-only (GStreamer/GnuTLS): see docs/ARCHITECTURE.md, platform guards
// The RTSP connection guard's bridge to gst-rtsp-server 1.22: what OnAirGStreamer's guard (the
// thread that checks every connection four times a second) and OnAirServing's RTSPGuardPolicy (its
// decisions) cannot reach from Swift. Per connection it keeps a duplicate of the socket's
// descriptor (never a number the kernel has given to another socket) and a count of the
// interleaved RTP/RTCP bytes gst-rtsp-server's appsrcs in the client's media passed on (pad
// probes); it reads what the connection took from its socket (TCP_INFO's bytes received less
// FIONREAD's unread: ioctl is variadic), connects the client's signals, walks the server's clients
// and cuts: a shutdown of the duplicate with what is still unread thrown away, after which
// gst-rtsp-server reads the end of the stream and closes the client itself. Each connection's
// receive buffer is kept small, so little more than a limit is ever read.
#define _GNU_SOURCE
#include "guard.h"

#include <gst/app/gstappsrc.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define RECORD_KEY "onair-guard-record"
#define RECEIVE_BUFFER (64 * 1024)

// What the bridge keeps of one client. Shared (reference-counted) by the client, its media
// pipelines and the pad probes there; everything but `taken` under `lock`.
typedef struct {
    gint refs;
    GMutex lock;
    guint64 id;
    onair_rtsp_guard_callbacks callbacks;
    GPtrArray *sources;    // gst-rtsp-server's appsrcs in the client's media (references)
    guint64 taken;         // atomic: interleaved bytes those appsrcs passed on, `frame_bytes` per frame included
    guint frame_bytes;     // counted per interleaved frame beyond its payload: its 4-byte header, plus a
                           // TLS record's overhead on a TLS connection (each frame comes in a record)
    int fd;                // the duplicate of the connection's socket (-1: closed)
    gboolean cut;
} client_record;

static client_record *record_ref(client_record *record) {
    g_atomic_int_inc(&record->refs);
    return record;
}

static void record_unref(gpointer data) {
    client_record *record = data;
    if (!g_atomic_int_dec_and_test(&record->refs)) return;
    if (record->fd >= 0) close(record->fd);
    g_ptr_array_unref(record->sources);
    g_mutex_clear(&record->lock);
    g_free(record);
}

// Bytes the application has read from a TCP socket: received less unread. The two figures come
// from two calls; a read of bytes received on each side of FIONREAD that agree shows no segment
// arrived in between.
static gboolean socket_consumed(int fd, guint64 *consumed) {
    for (int attempt = 0; attempt < 8; attempt++) {
        struct tcp_info before, after;
        socklen_t size = sizeof before;
        int unread = 0;
        if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &before, &size) != 0) return FALSE;
        if (size < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof before.tcpi_bytes_received) return FALSE;
        if (ioctl(fd, FIONREAD, &unread) != 0 || unread < 0) return FALSE;
        size = sizeof after;
        if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &after, &size) != 0) return FALSE;
        if (before.tcpi_bytes_received == after.tcpi_bytes_received) {
            if ((guint64)unread > before.tcpi_bytes_received) return FALSE;
            *consumed = before.tcpi_bytes_received - (guint64)unread;
            return TRUE;
        }
    }
    return FALSE;
}

int onair_rtsp_connection_sample(void *connection, onair_rtsp_connection_figures *figures) {
    client_record *record = connection;
    g_mutex_lock(&record->lock);
    gboolean read = record->fd >= 0 && !record->cut && socket_consumed(record->fd, &figures->consumed);
    if (read) {
        // Interleaved bytes the client's media took: passed on by its appsrcs, or still in their queues.
        figures->data = __atomic_load_n(&record->taken, __ATOMIC_ACQUIRE);
        for (guint i = 0; i < record->sources->len; i++) {
            GstAppSrc *source = g_ptr_array_index(record->sources, i);
            figures->data += gst_app_src_get_current_level_bytes(source) +
                             (guint64)record->frame_bytes * gst_app_src_get_current_level_buffers(source);
        }
    }
    g_mutex_unlock(&record->lock);
    return read ? 0 : -1;
}

uint64_t onair_rtsp_connection_id(void *connection) { return ((client_record *)connection)->id; }

void onair_rtsp_connection_cut(void *connection) {
    client_record *record = connection;
    g_mutex_lock(&record->lock);
    if (record->fd >= 0 && !record->cut) {
        record->cut = TRUE;
        shutdown(record->fd, SHUT_RDWR);
        char discard[16384];
        for (int round = 0; round < 64 && recv(record->fd, discard, sizeof discard, MSG_DONTWAIT) > 0; round++) {}
    }
    g_mutex_unlock(&record->lock);
}

int onair_rtsp_client_has_session(void *client) {
    GList *sessions = gst_rtsp_client_session_filter(GST_RTSP_CLIENT(client), NULL, NULL);
    int any = sessions != NULL;
    g_list_free_full(sessions, g_object_unref);
    return any;
}

gint64 onair_rtsp_guard_request_done(GstRTSPClient *client) {
    client_record *record = g_object_get_data(G_OBJECT(client), RECORD_KEY);
    return record ? record->callbacks.request_done(record->callbacks.context, record) : -1;
}

static void on_closed(GstRTSPClient *client, gpointer data) {
    (void)data;
    client_record *record = g_object_get_data(G_OBJECT(client), RECORD_KEY);
    if (!record) return;
    g_mutex_lock(&record->lock);
    // The socket closes once the last descriptor of it does: this one must not keep it open.
    gboolean open = record->fd >= 0;
    if (open) close(record->fd);
    record->fd = -1;
    g_mutex_unlock(&record->lock);
    if (open) record->callbacks.closed(record->callbacks.context, record);
}

static void on_request_done(GstRTSPClient *client, gpointer ctx, gpointer message, gpointer data) {
    (void)ctx; (void)message; (void)data;
    onair_rtsp_guard_request_done(client);
}

void onair_rtsp_guard_connected(const onair_rtsp_guard_callbacks *callbacks, GstRTSPClient *client, guint frame_bytes) {
    static guint64 next_id;
    GstRTSPConnection *connection = gst_rtsp_client_get_connection(client);
    GSocket *socket = connection ? gst_rtsp_connection_get_read_socket(connection) : NULL;
    int fd = socket ? dup(g_socket_get_fd(socket)) : -1;
    if (fd < 0) return;
    client_record *record = g_new0(client_record, 1);
    record->refs = 1;
    g_mutex_init(&record->lock);
    record->id = __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
    record->callbacks = *callbacks;
    record->sources = g_ptr_array_new_with_free_func(gst_object_unref);
    record->fd = fd;
    record->frame_bytes = frame_bytes;
    int size = RECEIVE_BUFFER;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    g_object_set_data_full(G_OBJECT(client), RECORD_KEY, record, record_unref);
    g_signal_connect(client, "closed", G_CALLBACK(on_closed), NULL);
    // Every answer ends a request: those the pre-request signals see and the rest (unknown
    // methods, refusals before them).
    g_signal_connect(client, "send-message", G_CALLBACK(on_request_done), NULL);
    callbacks->connected(callbacks->context, record);
}

static GstPadProbeReturn on_interleaved(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    client_record *record = data;
    guint64 bytes = 0;
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
        bytes = gst_buffer_get_size(GST_PAD_PROBE_INFO_BUFFER(info)) + record->frame_bytes;
    } else if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
        GstBufferList *list = GST_PAD_PROBE_INFO_BUFFER_LIST(info);
        for (guint i = 0; i < gst_buffer_list_length(list); i++) bytes += gst_buffer_get_size(gst_buffer_list_get(list, i)) + record->frame_bytes;
    }
    __atomic_add_fetch(&record->taken, bytes, __ATOMIC_RELEASE);
    return GST_PAD_PROBE_OK;
}

void onair_rtsp_guard_media(GstRTSPClient *client, GstElement *pipeline) {
    client_record *record = client ? g_object_get_data(G_OBJECT(client), RECORD_KEY) : NULL;
    if (!record || !pipeline) return;
    g_object_set_data_full(G_OBJECT(pipeline), RECORD_KEY, record_ref(record), record_unref);
}

void onair_rtsp_guard_element_added(GstBin *pipeline, GstElement *element) {
    client_record *record = g_object_get_data(G_OBJECT(pipeline), RECORD_KEY);
    // OnAir's own appsrcs sit inside the media's bin; gst-rtsp-server adds its receiving ones
    // (fed from the client's interleaved channels) to the pipeline itself.
    if (!record || !GST_IS_APP_SRC(element)) return;
    GstPad *pad = gst_element_get_static_pad(element, "src");
    if (!pad) return;
    g_mutex_lock(&record->lock);
    g_ptr_array_add(record->sources, gst_object_ref(element));
    g_mutex_unlock(&record->lock);
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST, on_interleaved,
                      record_ref(record), record_unref);
    gst_object_unref(pad);
}

static GstRTSPFilterResult every_client(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
    (void)server; (void)client; (void)data;
    return GST_RTSP_FILTER_REF;
}

void onair_rtsp_guard_each(GstRTSPServer *server, void (*visit)(void *context, void *client, void *connection),
                           void *context) {
    GList *clients = gst_rtsp_server_client_filter(server, every_client, NULL);
    for (GList *item = clients; item; item = item->next) {
        client_record *record = g_object_get_data(G_OBJECT(item->data), RECORD_KEY);
        if (record) visit(context, item->data, record);
    }
    g_list_free_full(clients, g_object_unref);
}
#endif
