// libmicrohttpd (Debian's libmicrohttpd-dev), the HTTP server of `onair serve`.
#ifndef ONAIR_CMICROHTTPD_SHIM_H
#define ONAIR_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
#endif
