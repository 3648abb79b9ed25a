// OnAir's C shim over GStreamer (Debian's libgstreamer1.0-dev, libgstreamer-plugins-base1.0-dev):
// its start, version and elements, and the appsrc that WebRTC peers and WHIP are fed through.
//
// The header names no GStreamer type: every object is an opaque pointer and every call takes
// plain C values, so Swift imports it without GStreamer's include paths (whose pkg-config flags
// carry -pthread, which SwiftPM refuses).
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

// MARK: - Elements

/// Releases a reference to a GStreamer object handed out by this shim.
void onair_gst_object_unref(void *object);

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

#endif
