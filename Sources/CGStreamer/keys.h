// RTSP authentication with several passwords for one user (token rotation, issue 33).
// Internal to the shim (see keys.c).
#ifndef ONAIR_RTSP_KEYS_H
#define ONAIR_RTSP_KEYS_H

#include <gst/rtsp-server/rtsp-server.h>

/// The field of the context's GstRTSPToken naming the key (a positive number) that admitted it.
#define ONAIR_RTSP_KEY_FIELD "onair.key"

/// A GstRTSPAuth taking user `user` with any of its keys as password: Digest (nonces of its own)
/// and, with `allow_basic`, Basic. Starts with no key (nobody is admitted).
GstRTSPAuth *onair_rtsp_keys_new(const char *user, int allow_basic);
/// Replaces the keys: `passwords[i]` is known by `numbers[i]` (> 0), which an admitted request's
/// token carries in ONAIR_RTSP_KEY_FIELD.
void onair_rtsp_keys_set(GstRTSPAuth *auth, const char *const *passwords, const int *numbers, size_t count);
/// The key number that admitted the request of `ctx` (its token's, or else its credentials'
/// checked against `auth`'s keys now), 0 when none.
int onair_rtsp_keys_admitted(GstRTSPAuth *auth, GstRTSPContext *ctx);

#endif
