// The RTSP credential check's bridge (see keys.c), internal to the shim; what Swift calls of it
// is in CGStreamer.h.
#ifndef ONAIR_RTSP_KEYS_H
#define ONAIR_RTSP_KEYS_H

#include "CGStreamer.h"

#include <gst/rtsp-server/rtsp-server.h>

/// The field of the context's GstRTSPToken naming the key (a positive number) that admitted it.
#define ONAIR_RTSP_KEY_FIELD "onair.key"

/// A GstRTSPAuth whose every decision is the owner's (`callbacks`, kept): which key a request's
/// credentials name, and a refusal's challenges. `allow_basic`: Basic is offered besides Digest.
GstRTSPAuth *onair_rtsp_keys_new(const onair_rtsp_keys_callbacks *callbacks, int allow_basic);
/// The key number that admitted the request of `ctx` (its token's, or else its credentials'
/// checked by the owner now), 0 when none.
int onair_rtsp_keys_admitted(GstRTSPAuth *auth, GstRTSPContext *ctx);

#endif
