// libsrt (Debian's libsrt-gnutls-dev), used directly for SRT callers and listeners.
#ifndef ONAIR_CSRT_SHIM_H
#define ONAIR_CSRT_SHIM_H
#include <srt/srt.h>
#endif
