// The RTSP connection guard: limits gst-rtsp-server 1.22 does not set on what a client sends.
// Internal to the shim (see guard.c).
#ifndef ONAIR_RTSP_GUARD_H
#define ONAIR_RTSP_GUARD_H

#include <gst/gst.h>
#include <gst/rtsp-server/rtsp-server.h>

typedef struct onair_rtsp_guard_limits {
    unsigned connections;          // connections open at once (more are closed as they arrive)
    unsigned request_bytes;        // bytes of one request still arriving (more: the connection is cut)
    double request_seconds;        // from a request's first byte to its last
    double idle_seconds;           // a connection without a session and without a request
} onair_rtsp_guard_limits;

typedef struct onair_rtsp_guard onair_rtsp_guard;

/// Starts checking the clients of `server` four times a second, on a thread of its own.
onair_rtsp_guard *onair_rtsp_guard_new(GstRTSPServer *server, onair_rtsp_guard_limits limits);
/// Stops checking (before the server is closed).
void onair_rtsp_guard_stop(onair_rtsp_guard *guard);
void onair_rtsp_guard_free(onair_rtsp_guard *guard);

/// A new connection: watched from now on, or cut at once when `connections` are open already.
void onair_rtsp_guard_connected(onair_rtsp_guard *guard, GstRTSPClient *client);
/// The client's request is complete (gst-rtsp-server is handling it, or has answered it).
/// Returns the bytes it took from the socket since the previous request ended (interleaved
/// RTP/RTCP not counted), or -1 when the guard cannot tell.
gint64 onair_rtsp_guard_request_done(GstRTSPClient *client);
/// `pipeline` is the pipeline of one of the client's media.
void onair_rtsp_guard_media(GstRTSPClient *client, GstElement *pipeline);
/// An element joined a media's pipeline: gst-rtsp-server's appsrcs there carry the client's
/// interleaved RTP/RTCP, which are not requests and are counted apart.
void onair_rtsp_guard_element_added(GstBin *pipeline, GstElement *element);

#endif
