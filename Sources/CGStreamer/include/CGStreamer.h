// OnAir's C shim over GStreamer and gst-rtsp-server (Debian's libgstreamer1.0-dev,
// libgstreamer-plugins-base1.0-dev, libgstrtspserver-1.0-dev).
//
// The header names no GStreamer type: every object is an opaque pointer and every call takes
// plain C values, so Swift imports it without GStreamer's include paths (whose pkg-config flags
// carry -pthread, which SwiftPM refuses). It also hides what Swift cannot call: the variadic
// g_object_set and the g_signal_connect macro.
#ifndef ONAIR_CGSTREAMER_H
#define ONAIR_CGSTREAMER_H

#include <stddef.h>
#include <stdint.h>

/// Initialises GStreamer (once per process; later calls return the first result).
/// 0 on success; -1 with a message in `error`.
int onair_gst_initialize(char *error, size_t error_size);

/// GStreamer's version as "major.minor.micro".
void onair_gst_version(char *text, size_t size);

/// Whether an element factory (a plugin's element, e.g. "rtph264pay") is installed.
int onair_gst_has_element(const char *name);

/// Names the calling thread for the kernel (/proc/…/task/*/comm; at most 15 bytes kept).
void onair_name_current_thread(const char *name);

// MARK: - Main loop

/// A GLib main context with its loop; objects attached to it dispatch on the thread that runs it.
typedef struct onair_gst_loop onair_gst_loop;
onair_gst_loop *onair_gst_loop_new(void);
/// Runs the loop on the calling thread until `onair_gst_loop_quit`.
void onair_gst_loop_run(onair_gst_loop *loop);
/// Makes `onair_gst_loop_run` return (from any thread).
void onair_gst_loop_quit(onair_gst_loop *loop);
void onair_gst_loop_free(onair_gst_loop *loop);

// MARK: - Elements

/// Releases a reference to a GStreamer object handed out by this shim.
void onair_gst_object_unref(void *object);
/// Takes another reference to a GStreamer object.
void onair_gst_object_ref(void *object);

/// Sets an appsrc's caps from their text form ("video/x-h264,stream-format=byte-stream").
/// 0 on success, -1 when the text is not caps.
int onair_gst_app_source_set_caps(void *source, const char *caps);

/// What pushing a buffer gave.
enum {
    ONAIR_GST_PUSH_OK = 0,
    ONAIR_GST_PUSH_FLUSHING = 1,  // not started yet, or stopped: the buffer was not taken
    ONAIR_GST_PUSH_ENDED = 2,     // after end of stream
    ONAIR_GST_PUSH_ERROR = 3
};

/// Copies `count` bytes into a new buffer with the given times (nanoseconds, -1: none) and
/// pushes it into an appsrc. `delta_unit`: not a point where decoding can start.
int onair_gst_app_source_push(void *source, const uint8_t *bytes, size_t count, int64_t pts, int64_t dts,
                              int64_t duration, int delta_unit);

/// Bytes waiting in an appsrc's own queue (pushed, not yet taken downstream).
uint64_t onair_gst_app_source_queued_bytes(void *source);

/// Ends an appsrc's stream.
void onair_gst_app_source_end(void *source);

/// What an element's running time is made of, read together under its lock.
typedef struct {
    int has_clock;     // a clock is set (the pipeline has gone, or is going, to PLAYING)
    int playing;       // its current state is PLAYING (a change to it has completed)
    uint64_t now;      // the clock's time (0 without a clock)
    uint64_t base;     // the element's base time (0 until a change to PLAYING sets it)
} onair_gst_clock_reading;

/// Reads an element's clock time and base time.
onair_gst_clock_reading onair_gst_element_clock_reading(void *element);

// MARK: - RTSP server

/// One request's fields, handed to the owner before gst-rtsp-server handles it; every pointer is
/// valid for the call only.
typedef struct onair_rtsp_request {
    const char *method;         // "DESCRIBE" (NULL: unknown)
    const char *uri;            // the request line's URI (NULL: none)
    const char *path;           // the URI's absolute path (NULL: none)
    const char *const *names;   // the headers GStreamer knows by name, `count` of them, in its field order
    const char *const *values;  // their values
    size_t count;
    int64_t received;           // bytes taken from the socket for it (the guard's count), -1: unknown
    uint64_t body_size;         // the body's length
} onair_rtsp_request;

/// Calls from the server's loop thread into the owner. `context` is the owner's pointer.
typedef struct onair_rtsp_callbacks {
    void *context;
    /// Every request, first: an RTSP status code, 200 to let gst-rtsp-server handle it (the owner's
    /// rules: sizes, CSeq, served paths). NULL: every request goes on.
    int (*check_request)(void *context, const onair_rtsp_request *request);
    /// A DESCRIBE that `check_request` let through, from `client` (at `peer`): an RTSP status code, 200 to admit.
    int (*admit)(void *context, void *client, const char *peer);
    /// A client's own media was built: its appsrcs (NULL when the stream is absent, each a new
    /// reference the owner releases), the client it belongs to (a new reference, too) and the
    /// served path it was built for ("/live").
    void (*media_configured)(void *context, void *media, void *video_source, void *audio_source,
                             void *client, const char *peer, const char *path);
    /// A PLAY of a client's media: an RTSP status code, 200 to let it play. `key` is the number of
    /// the key (password) that admitted the request, 0 without credentials.
    int (*play)(void *context, void *media, int key);
    /// The client chose its transport in SETUP ("udp", "tcp" or "multicast").
    void (*media_transport)(void *context, void *media, const char *transport);
    /// A media was unprepared (TEARDOWN, session timeout, client gone): its sources stop.
    void (*media_ended)(void *context, void *media);
    /// A client's connection closed.
    void (*client_closed)(void *context, void *client);
} onair_rtsp_callbacks;

/// A connection's running totals since it opened (OnAirGStreamer's RTSPConnectionSample).
typedef struct onair_rtsp_connection_figures {
    uint64_t consumed;  // bytes the server took from the socket (TCP_INFO's bytes received less FIONREAD's unread)
    uint64_t data;      // bytes of interleaved RTP/RTCP the client's media took, 4-byte frame headers included
} onair_rtsp_connection_figures;

/// Calls from the server into the owner's connection guard. `connection` is the shim's record of
/// one client's connection, valid for the call (and for as long as the client lives).
typedef struct onair_rtsp_guard_callbacks {
    void *context;
    /// A new connection (on the server's loop thread).
    void (*connected)(void *context, void *connection);
    /// The client's request is complete (gst-rtsp-server is handling it, or has answered it):
    /// the bytes it took from the socket since the previous request ended (interleaved RTP/RTCP
    /// not counted), or -1 when that cannot be told.
    int64_t (*request_done)(void *context, void *connection);
    /// The connection closed.
    void (*closed)(void *context, void *connection);
} onair_rtsp_guard_callbacks;

/// Calls from the server's threads into the owner's credential check (OnAirServing's RTSPKeys:
/// every decision is the owner's). `context` is the owner's pointer.
typedef struct onair_rtsp_keys_callbacks {
    void *context;
    /// The number (> 0) of the key a request's credentials name, 0 when none: `method` is its
    /// method ("DESCRIBE"), `authorization` the values of its Authorization headers (`count`, at
    /// most 8), each valid for the call; `peer` the client's numeric address.
    int (*admit)(void *context, const char *method, const char *const *authorization, size_t count, const char *peer);
    /// A request is refused for want of credentials: the owner adds its WWW-Authenticate values
    /// to `response` with `onair_rtsp_response_add_challenge`, during the call.
    void (*challenge)(void *context, void *response);
} onair_rtsp_keys_callbacks;

/// Adds a WWW-Authenticate header with `value` to a response (in `challenge` only).
void onair_rtsp_response_add_challenge(void *response, const char *value);

/// What the server is built with.
typedef struct onair_rtsp_options {
    const char *address;     // "127.0.0.1", "::1", "0.0.0.0"
    int port;                // 0: the system picks one
    const char *path;        // "/live", or several paths separated by spaces ("/live /sub"), each its own mount
    const char *launch;      // gst-launch description of the per-client payloading pipeline; several
                             // separated by newlines: one per path, in `path`'s order (the last
                             // serves any path left)
    onair_rtsp_keys_callbacks keys;  // the credential check (`admit` NULL: no credentials needed)
    int allow_basic;         // Basic is offered besides Digest
    int session_timeout;     // seconds without a request or RTCP before a session is dropped; a
                             // connection without a session and without a request is closed after it too
    unsigned content_length_limit;  // largest request body accepted
    onair_rtsp_guard_callbacks guard;  // the owner's connection limits (see below)
    const char *tls_pem;     // RTSPS: the certificate (chain) and its private key, PEM; NULL: plain RTSP.
                             // With it the media go inside the TLS connection only (RTP interleaved over TCP)
} onair_rtsp_options;

typedef struct onair_rtsp_server onair_rtsp_server;

/// Builds a server and attaches it to `loop` (it answers once the loop runs). NULL with a message on failure.
onair_rtsp_server *onair_rtsp_server_new(onair_gst_loop *loop, const onair_rtsp_options *options,
                                         onair_rtsp_callbacks callbacks, char *error, size_t error_size);
/// The TCP port listened on.
int onair_rtsp_server_port(onair_rtsp_server *server);
/// Puts a new certificate and key (PEM) in force for connections from now on (an RTSPS server
/// only): 0, or -1 with a message when they cannot be read.
int onair_rtsp_server_set_tls(onair_rtsp_server *server, const char *tls_pem, char *error, size_t error_size);
/// Closes every client and detaches the server; call before quitting its loop.
void onair_rtsp_server_close(onair_rtsp_server *server);
void onair_rtsp_server_free(onair_rtsp_server *server);

// MARK: - RTSP connection guard

/// Calls `visit` with each of the server's clients and its connection record (from any thread;
/// each stays valid during its call).
void onair_rtsp_server_each_connection(onair_rtsp_server *server,
                                       void (*visit)(void *context, void *client, void *connection), void *context);
/// Reads a connection's figures: 0, or -1 when they cannot be read (closed, cut, not TCP).
int onair_rtsp_connection_sample(void *connection, onair_rtsp_connection_figures *figures);
/// The connection's number, unique in the process.
uint64_t onair_rtsp_connection_id(void *connection);
/// Ends a connection: its socket shut down both ways, what is unread thrown away
/// (gst-rtsp-server then reads the end of the stream and closes the client). Once only.
void onair_rtsp_connection_cut(void *connection);
/// Whether a client has a session. Not to be called under a lock the server's callbacks take.
int onair_rtsp_client_has_session(void *client);

/// Closes a client's connection (from any thread); its media end.
void onair_rtsp_client_close(void *client);

/// How many transports (client destinations) the streams of a client's media send to now. A
/// TCP transport that gst-rtsp-server found too slow is dropped from its stream without a word to
/// the client, which then gets nothing more on a connection that stays open; this tells.
int onair_rtsp_media_transports(void *media);

#endif
