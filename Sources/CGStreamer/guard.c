// The RTSP connection guard. gst-rtsp-server 1.22 takes any number of header lines into a request
// (each one parsed and kept until the empty line: a client sending "a:b\r\n" forever grows the
// server's memory by about twenty times what it sends), gives a request any time to arrive, keeps
// a connection that never asks for anything, and accepts any number of them. None of that is
// visible through its API while a request is still arriving, so the guard watches the socket:
//
//   pending = bytes the connection has taken from the socket (TCP_INFO's bytes received less
//             what is still unread, FIONREAD) since the client's last complete request
//           − bytes of interleaved RTP/RTCP taken since then (not requests: they go to
//             gst-rtsp-server's appsrcs in the client's media, counted there)
//
// is the part of a request that has arrived but not ended. Four times a second, on a thread of its
// own (gst-rtsp-server reads a connection for as long as bytes keep coming, so a client sending
// header lines faster than it parses them holds the server's loop for as long as it likes): more
// than `request_bytes` pending, or anything pending for longer than `request_seconds`, cuts the
// connection; so does a connection without a session that has asked nothing for `idle_seconds`,
// and one sending interleaved data faster than RTCP ever needs (1 MiB in a second: its queue in
// gst-rtsp-server has no bound). Past `connections` open at once, new ones are cut on arrival.
//
// A cut is a shutdown of the socket (through a duplicate of its descriptor the guard holds, so
// it never touches a number the kernel has given to another socket), with what is still unread
// thrown away: gst-rtsp-server then reads the end of the stream and closes the client itself.
// Each connection's receive buffer is kept small, so little more than the limit is ever read.
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
#define DATA_PER_SECOND (1024 * 1024)

// What the guard knows of one client. Shared (reference-counted) by the client, its media
// pipelines and the pad probes there; everything but `taken` under `lock`.
typedef struct {
    gint refs;
    GMutex lock;
    GPtrArray *sources;    // gst-rtsp-server's appsrcs in the client's media (references)
    guint64 taken;         // atomic: interleaved bytes those appsrcs passed on, 4-byte frame headers included
    int fd;                // the guard's duplicate of the connection's socket (-1: closed)
    gboolean counted;      // among the guard's open connections
    gboolean cut;
    guint64 consumed_mark; // bytes taken from the socket when the last request ended
    guint64 data_mark;     // interleaved bytes then
    gint64 pending_since;  // monotonic µs since part of a request has been waiting (0: none)
    gint64 quiet_since;    // monotonic µs of the last complete request (or of the connection)
    gint64 window_start;   // the current second of interleaved data, and the bytes at its start
    guint64 window_data;
} client_record;

struct onair_rtsp_guard {
    gint refs;
    GstRTSPServer *server;
    onair_rtsp_guard_limits limits;
    gint open;  // atomic
    GMutex lock;
    GCond wake;
    gboolean stopping;
    GThread *thread;
};

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

static onair_rtsp_guard *guard_ref(onair_rtsp_guard *guard) {
    g_atomic_int_inc(&guard->refs);
    return guard;
}

static void guard_unref(onair_rtsp_guard *guard) {
    if (!g_atomic_int_dec_and_test(&guard->refs)) return;
    gst_object_unref(guard->server);
    g_mutex_clear(&guard->lock);
    g_cond_clear(&guard->wake);
    g_free(guard);
}

static void guard_unref_closure(gpointer data, GClosure *closure) {
    (void)closure;
    guard_unref(data);
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

// Interleaved bytes the client's media took: passed on by its appsrcs, or still in their queues.
// Under the record's lock.
static guint64 record_data(client_record *record) {
    guint64 data = __atomic_load_n(&record->taken, __ATOMIC_ACQUIRE);
    for (guint i = 0; i < record->sources->len; i++) {
        GstAppSrc *source = g_ptr_array_index(record->sources, i);
        data += gst_app_src_get_current_level_bytes(source) + 4 * gst_app_src_get_current_level_buffers(source);
    }
    return data;
}

// Ends the connection: shut down both ways, unread bytes discarded. Under the record's lock.
static void record_cut(client_record *record) {
    if (record->fd < 0 || record->cut) return;
    record->cut = TRUE;
    shutdown(record->fd, SHUT_RDWR);
    char discard[16384];
    for (int round = 0; round < 64 && recv(record->fd, discard, sizeof discard, MSG_DONTWAIT) > 0; round++) {}
}

gint64 onair_rtsp_guard_request_done(GstRTSPClient *client) {
    client_record *record = g_object_get_data(G_OBJECT(client), RECORD_KEY);
    if (!record) return -1;
    g_mutex_lock(&record->lock);
    guint64 consumed;
    gint64 size = -1;
    if (record->fd >= 0 && socket_consumed(record->fd, &consumed)) {
        size = (gint64)(consumed - record->consumed_mark) - (gint64)(record_data(record) - record->data_mark);
        if (size < 0) size = 0;
        record->consumed_mark = consumed;
        record->data_mark = record_data(record);
        record->pending_since = 0;
        record->quiet_since = g_get_monotonic_time();
    }
    g_mutex_unlock(&record->lock);
    return size;
}

static void on_closed(GstRTSPClient *client, gpointer data) {
    onair_rtsp_guard *guard = data;
    client_record *record = g_object_get_data(G_OBJECT(client), RECORD_KEY);
    if (!record) return;
    g_mutex_lock(&record->lock);
    // The socket closes once the last descriptor of it does: this one must not keep it open.
    if (record->fd >= 0) close(record->fd);
    record->fd = -1;
    gboolean counted = record->counted;
    record->counted = FALSE;
    g_mutex_unlock(&record->lock);
    if (counted) g_atomic_int_add(&guard->open, -1);
}

static void on_request_done(GstRTSPClient *client, gpointer ctx, gpointer message, gpointer data) {
    (void)ctx; (void)message; (void)data;
    onair_rtsp_guard_request_done(client);
}

void onair_rtsp_guard_connected(onair_rtsp_guard *guard, GstRTSPClient *client) {
    GstRTSPConnection *connection = gst_rtsp_client_get_connection(client);
    GSocket *socket = connection ? gst_rtsp_connection_get_read_socket(connection) : NULL;
    int fd = socket ? dup(g_socket_get_fd(socket)) : -1;
    if (fd < 0) return;
    client_record *record = g_new0(client_record, 1);
    record->refs = 1;
    g_mutex_init(&record->lock);
    record->sources = g_ptr_array_new_with_free_func(gst_object_unref);
    record->fd = fd;
    record->quiet_since = record->window_start = g_get_monotonic_time();
    record->counted = TRUE;
    int size = RECEIVE_BUFFER;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    socket_consumed(fd, &record->consumed_mark);
    g_object_set_data_full(G_OBJECT(client), RECORD_KEY, record, record_unref);
    g_signal_connect_data(client, "closed", G_CALLBACK(on_closed), guard_ref(guard), guard_unref_closure, 0);
    // Every answer ends a request: those the pre-request signals see and the rest (unknown
    // methods, refusals before them).
    g_signal_connect(client, "send-message", G_CALLBACK(on_request_done), NULL);
    if ((unsigned)g_atomic_int_add(&guard->open, 1) >= guard->limits.connections) {
        g_mutex_lock(&record->lock);
        record_cut(record);
        g_mutex_unlock(&record->lock);
    }
}

static GstPadProbeReturn on_interleaved(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    client_record *record = data;
    guint64 bytes = 0;
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
        bytes = gst_buffer_get_size(GST_PAD_PROBE_INFO_BUFFER(info)) + 4;
    } else if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
        GstBufferList *list = GST_PAD_PROBE_INFO_BUFFER_LIST(info);
        for (guint i = 0; i < gst_buffer_list_length(list); i++) bytes += gst_buffer_get_size(gst_buffer_list_get(list, i)) + 4;
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

static gboolean has_session(GstRTSPClient *client) {
    GList *sessions = gst_rtsp_client_session_filter(client, NULL, NULL);
    gboolean any = sessions != NULL;
    g_list_free_full(sessions, g_object_unref);
    return any;
}

typedef enum { KEEP, CUT, CUT_IF_SESSIONLESS } verdict;

static verdict judge(onair_rtsp_guard *guard, client_record *record, gint64 now) {
    guint64 consumed;
    if (record->fd < 0 || record->cut || !socket_consumed(record->fd, &consumed)) return KEEP;
    guint64 data = record_data(record);
    if (now - record->window_start >= G_USEC_PER_SEC) {
        if (data - record->window_data > DATA_PER_SECOND) return CUT;
        record->window_start = now;
        record->window_data = data;
    }
    gint64 pending = (gint64)(consumed - record->consumed_mark) - (gint64)(data - record->data_mark);
    if (pending > (gint64)guard->limits.request_bytes) return CUT;
    if (pending > 0) {
        if (record->pending_since == 0) record->pending_since = now;
        else if ((double)(now - record->pending_since) > guard->limits.request_seconds * G_USEC_PER_SEC) return CUT;
        return KEEP;
    }
    record->pending_since = 0;
    return (double)(now - record->quiet_since) > guard->limits.idle_seconds * G_USEC_PER_SEC ? CUT_IF_SESSIONLESS : KEEP;
}

static GstRTSPFilterResult every_client(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
    (void)server; (void)client; (void)data;
    return GST_RTSP_FILTER_REF;
}

static void check_clients(onair_rtsp_guard *guard) {
    GList *clients = gst_rtsp_server_client_filter(guard->server, every_client, NULL);
    gint64 now = g_get_monotonic_time();
    for (GList *item = clients; item; item = item->next) {
        GstRTSPClient *client = item->data;
        client_record *record = g_object_get_data(G_OBJECT(client), RECORD_KEY);
        if (!record) continue;
        g_mutex_lock(&record->lock);
        verdict said = judge(guard, record, now);
        g_mutex_unlock(&record->lock);
        // (gst-rtsp-server's client lock is not taken under the record's.)
        if (said == CUT_IF_SESSIONLESS && has_session(client)) said = KEEP;
        if (said == KEEP) continue;
        g_mutex_lock(&record->lock);
        record_cut(record);
        g_mutex_unlock(&record->lock);
    }
    g_list_free_full(clients, g_object_unref);
}

static gpointer guard_thread(gpointer data) {
    onair_rtsp_guard *guard = data;
    g_mutex_lock(&guard->lock);
    while (!guard->stopping) {
        gint64 until = g_get_monotonic_time() + G_USEC_PER_SEC / 4;
        while (!guard->stopping && g_cond_wait_until(&guard->wake, &guard->lock, until)) {}
        if (guard->stopping) break;
        g_mutex_unlock(&guard->lock);
        check_clients(guard);
        g_mutex_lock(&guard->lock);
    }
    g_mutex_unlock(&guard->lock);
    return NULL;
}

onair_rtsp_guard *onair_rtsp_guard_new(GstRTSPServer *server, onair_rtsp_guard_limits limits) {
    onair_rtsp_guard *guard = g_new0(onair_rtsp_guard, 1);
    guard->refs = 1;
    guard->server = gst_object_ref(server);
    guard->limits = limits;
    g_mutex_init(&guard->lock);
    g_cond_init(&guard->wake);
    guard->thread = g_thread_new("onair.rtsp-guard", guard_thread, guard);
    return guard;
}

void onair_rtsp_guard_stop(onair_rtsp_guard *guard) {
    if (!guard || !guard->thread) return;
    g_mutex_lock(&guard->lock);
    guard->stopping = TRUE;
    g_cond_signal(&guard->wake);
    g_mutex_unlock(&guard->lock);
    g_thread_join(guard->thread);
    guard->thread = NULL;
}

void onair_rtsp_guard_free(onair_rtsp_guard *guard) {
    if (!guard) return;
    onair_rtsp_guard_stop(guard);
    guard_unref(guard);
}
