// OnAir's C shim over GStreamer's webrtcbin (Debian's gstreamer1.0-plugins-bad with gstreamer1.0-nice,
// headers in libgstreamer-plugins-bad1.0-dev): one WebRTC peer per viewer (WHEP) or publisher (WHIP).
//
// Like CGStreamer's header it names no GStreamer type: peers are opaque, every call takes plain C
// values, so Swift imports it without GStreamer's include paths. GStreamer must have been started
// (CGStreamer's onair_gst_initialize) before a peer is made.
#ifndef ONAIR_CGSTREAMER_WEBRTC_H
#define ONAIR_CGSTREAMER_WEBRTC_H

#include <stddef.h>
#include <stdint.h>

/// Calls from GStreamer's streaming threads into the owner; `context` is the owner's pointer.
typedef struct onair_webrtc_callbacks {
    void *context;
    /// The peer asked for a keyframe (an RTCP PLI or FIR became an upstream force-key-unit event).
    void (*keyframe_requested)(void *context);
} onair_webrtc_callbacks;

/// How a peer is built.
typedef struct onair_webrtc_options {
    /// gst-launch description of the pipeline; it must hold a `webrtcbin name=webrtc` and may hold
    /// appsrcs named `video` and `audio` linked to it.
    const char *launch;
    /// The remote offer (WHEP: the viewer's); NULL to make the offer ourselves (WHIP).
    const char *remote_offer;
    /// The only local address host candidates are gathered on ("127.0.0.1"); NULL or "": all of them.
    const char *local_address;
    /// UDP ports the ICE agent may use (0, 0: any).
    int minimum_port, maximum_port;
    /// "stun://host:port" and "turn(s)://user:pass@host:port", or NULL for none.
    const char *stun_server, *turn_server;
    /// Seconds to wait for each negotiation step and for candidate gathering.
    double timeout;
} onair_webrtc_options;

/// Counters of one peer, as GStreamer's RTP session saw them.
typedef struct onair_webrtc_figures {
    uint64_t rtcp_packets;          // RTCP compound packets received from the peer
    int64_t last_rtcp_microseconds; // g_get_monotonic_time() of the last one (0: none yet)
    uint64_t nacks, plis, firs;     // feedback messages received
    double round_trip_seconds;      // from the last receiver report (-1: none)
    int64_t packets_lost;           // cumulative, from the last receiver report (-1: none)
    uint64_t bytes_sent, packets_sent;
    uint64_t retransmission_requests;  // packets the peer's NACKs asked rtprtxsend for
    uint64_t retransmitted_packets;    // RTX packets rtprtxsend sent for them
    int ice_connection_state;       // GstWebRTCICEConnectionState: 0 new … 2 connected, 3 completed, 4 failed, 5 disconnected, 6 closed
    int dtls_connected;             // the first transceiver's DTLS transport finished its handshake
} onair_webrtc_figures;

typedef struct onair_webrtc_peer onair_webrtc_peer;

/// Builds the pipeline, sets it playing and negotiates: with a remote offer, answers it; either way
/// waits until every local candidate is gathered. On success `local_description` receives the local
/// SDP (g_malloc'd text the caller frees with onair_webrtc_free_text). NULL with a message on failure.
onair_webrtc_peer *onair_webrtc_peer_new(const onair_webrtc_options *options, onair_webrtc_callbacks callbacks,
                                         char **local_description, char *error, size_t error_size);

/// Applies the remote answer to an offer this peer made. 0, or -1 with a message.
int onair_webrtc_peer_set_remote_answer(onair_webrtc_peer *peer, const char *answer, double timeout,
                                        char *error, size_t error_size);

/// The appsrc named `name` in the peer's pipeline (a new reference the caller releases with
/// CGStreamer's onair_gst_object_unref), or NULL.
void *onair_webrtc_peer_source(onair_webrtc_peer *peer, const char *name);

/// Reads the peer's counters (RTCP arrivals and feedback, the sender's statistics).
void onair_webrtc_peer_figures(onair_webrtc_peer *peer, onair_webrtc_figures *figures);

/// Whether the pipeline posted an error; its message goes into `message`.
int onair_webrtc_peer_failure(onair_webrtc_peer *peer, char *message, size_t size);

/// Stops the pipeline and frees the peer (no callback runs after it returns).
void onair_webrtc_peer_free(onair_webrtc_peer *peer);

/// The DTLS certificate and private key (PEM) every peer of this process presents: ECDSA on P-256,
/// self-signed, made on first use (GStreamer's own would be RSA, which ECDSA-only peers refuse).
/// NULL with a message when it could not be made; owned by the shim.
const char *onair_webrtc_certificate(char *error, size_t error_size);

/// Frees text handed out by this shim.
void onair_webrtc_free_text(char *text);

#endif
