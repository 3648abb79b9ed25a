#if defined(__linux__)  // Linux-only (GStreamer/GnuTLS): see docs/ARCHITECTURE.md, platform guards
// See include/CGStreamer.h. Every GStreamer call OnAir makes goes through here.
#include "CGStreamer.h"

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <stdio.h>
#include <string.h>

static void copy_message(char *error, size_t size, const char *message) {
    if (error && size > 0) snprintf(error, size, "%s", message ? message : "unknown GStreamer error");
}

// MARK: - Initialisation

static GOnce initialized = G_ONCE_INIT;
static char init_failure[256];

static gpointer initialize_once(gpointer unused) {
    (void)unused;
    GError *failure = NULL;
    if (!gst_init_check(NULL, NULL, &failure)) {
        copy_message(init_failure, sizeof init_failure, failure ? failure->message : "gst_init_check failed");
        if (failure) g_error_free(failure);
        return GINT_TO_POINTER(1);
    }
    return GINT_TO_POINTER(2);
}

int onair_gst_initialize(char *error, size_t error_size) {
    gpointer result = g_once(&initialized, initialize_once, NULL);
    if (GPOINTER_TO_INT(result) == 2) return 0;
    copy_message(error, error_size, init_failure);
    return -1;
}

void onair_gst_version(char *text, size_t size) {
    guint major, minor, micro, nano;
    gst_version(&major, &minor, &micro, &nano);
    if (text && size > 0) snprintf(text, size, "%u.%u.%u", major, minor, micro);
}

int onair_gst_has_element(const char *name) {
    GstElementFactory *factory = gst_element_factory_find(name);
    if (!factory) return 0;
    gst_object_unref(factory);
    return 1;
}

// MARK: - Elements

void onair_gst_object_unref(void *object) {
    if (object) g_object_unref(object);
}

int onair_gst_app_source_set_caps(void *source, const char *text) {
    GstCaps *caps = gst_caps_from_string(text);
    if (!caps) return -1;
    gst_app_src_set_caps(GST_APP_SRC(source), caps);
    gst_caps_unref(caps);
    return 0;
}

int onair_gst_app_source_push(void *source, const uint8_t *bytes, size_t count, int64_t pts, int64_t dts,
                              int64_t duration, int delta_unit) {
    GstBuffer *buffer = gst_buffer_new_memdup(bytes, count);
    GST_BUFFER_PTS(buffer) = pts < 0 ? GST_CLOCK_TIME_NONE : (GstClockTime)pts;
    GST_BUFFER_DTS(buffer) = dts < 0 ? GST_CLOCK_TIME_NONE : (GstClockTime)dts;
    GST_BUFFER_DURATION(buffer) = duration < 0 ? GST_CLOCK_TIME_NONE : (GstClockTime)duration;
    if (delta_unit) GST_BUFFER_FLAG_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT);
    switch (gst_app_src_push_buffer(GST_APP_SRC(source), buffer)) {
    case GST_FLOW_OK: return ONAIR_GST_PUSH_OK;
    case GST_FLOW_FLUSHING: return ONAIR_GST_PUSH_FLUSHING;
    case GST_FLOW_EOS: return ONAIR_GST_PUSH_ENDED;
    default: return ONAIR_GST_PUSH_ERROR;
    }
}

uint64_t onair_gst_app_source_queued_bytes(void *source) {
    return gst_app_src_get_current_level_bytes(GST_APP_SRC(source));
}

void onair_gst_app_source_end(void *source) { gst_app_src_end_of_stream(GST_APP_SRC(source)); }

onair_gst_clock_reading onair_gst_element_clock_reading(void *element) {
    GstElement *e = GST_ELEMENT(element);
    onair_gst_clock_reading reading = {0, 0, 0, 0};
    GST_OBJECT_LOCK(e);
    GstClock *clock = e->clock ? gst_object_ref(e->clock) : NULL;
    reading.playing = GST_STATE(e) == GST_STATE_PLAYING;
    reading.base = e->base_time;
    GST_OBJECT_UNLOCK(e);
    if (clock) {
        reading.has_clock = 1;
        reading.now = gst_clock_get_time(clock);
        gst_object_unref(clock);
    }
    return reading;
}
#endif
