// The RTSP connection guard's bridge (see guard.c), internal to the shim; what Swift calls of it
// is in CGStreamer.h.
#ifndef ONAIR_RTSP_GUARD_H
#define ONAIR_RTSP_GUARD_H

#include "CGStreamer.h"

#include <gst/gst.h>
#include <gst/rtsp-server/rtsp-server.h>

/// A new connection: recorded, its signals connected, then handed to `callbacks->connected`.
/// `frame_bytes`: what one interleaved frame costs on the wire beyond its payload (4 in clear; on
/// TLS the record's overhead too), counted with the interleaved data.
void onair_rtsp_guard_connected(const onair_rtsp_guard_callbacks *callbacks, GstRTSPClient *client, guint frame_bytes);
/// The client's request is complete (gst-rtsp-server is handling it, or has answered it).
/// Returns the bytes it took from the socket since the previous request ended (interleaved
/// RTP/RTCP not counted), or -1 when the guard cannot tell.
gint64 onair_rtsp_guard_request_done(GstRTSPClient *client);
/// `pipeline` is the pipeline of one of the client's media.
void onair_rtsp_guard_media(GstRTSPClient *client, GstElement *pipeline);
/// An element joined a media's pipeline: gst-rtsp-server's appsrcs there carry the client's
/// interleaved RTP/RTCP, which are not requests and are counted apart.
void onair_rtsp_guard_element_added(GstBin *pipeline, GstElement *element);
/// Calls `visit` with each of the server's clients that has a record, and the record.
void onair_rtsp_guard_each(GstRTSPServer *server, void (*visit)(void *context, void *client, void *connection),
                           void *context);

#endif
