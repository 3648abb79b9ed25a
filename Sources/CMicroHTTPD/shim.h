// libmicrohttpd (Debian's libmicrohttpd-dev), the HTTP server of `onair serve`.
#ifndef ONAIR_CMICROHTTPD_SHIM_H
#define ONAIR_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <pthread.h>
#include <microhttpd.h>

/// glibc's, declared here: its header shows it only under _GNU_SOURCE.
extern int pthread_setname_np(pthread_t thread, const char *name);

/// Names the calling thread (the first 15 bytes of `name`, as Linux keeps them).
static inline void onair_mhd_name_current_thread(const char *name) {
    char cut[16];
    snprintf(cut, sizeof cut, "%s", name);
    pthread_setname_np(pthread_self(), cut);
}

/// Where libmicrohttpd's error messages go: a plain function of one formatted line (Swift cannot
/// take a va_list callback).
typedef void (*onair_mhd_log_sink)(void *context, const char *message);

/// The sink and its context, kept alive by the caller for the daemon's lifetime.
struct onair_mhd_logger {
    onair_mhd_log_sink sink;
    void *context;
};

static inline void onair_mhd_log(void *cls, const char *format, va_list arguments) {
    char line[512];
    vsnprintf(line, sizeof line, format, arguments);
    struct onair_mhd_logger *logger = (struct onair_mhd_logger *) cls;
    logger->sink(logger->context, line);
}

/// Starts a daemon on `address` with the limits OnAir sets and `extra` options (an array ending in
/// MHD_OPTION_END; MHD_start_daemon is variadic, which Swift cannot call).
static inline struct MHD_Daemon *onair_mhd_start_with(unsigned int flags, const struct sockaddr *address,
        MHD_AccessHandlerCallback handler, void *handler_context,
        MHD_NotifyConnectionCallback notify, MHD_RequestCompletedCallback completed, void *notify_context,
        unsigned int connection_limit, unsigned int per_ip_limit, unsigned int timeout_seconds,
        size_t memory_limit, size_t stack_size, struct onair_mhd_logger *logger, struct MHD_OptionItem *extra) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_EXTERNAL_LOGGER, onair_mhd_log, (void *) logger,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_THREAD_STACK_SIZE, stack_size,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_context,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, notify_context,
                            MHD_OPTION_ARRAY, extra,
                            MHD_OPTION_END);
}

/// Starts a plain-HTTP daemon on `address` with the limits OnAir sets.
static inline struct MHD_Daemon *onair_mhd_start(unsigned int flags, const struct sockaddr *address,
        MHD_AccessHandlerCallback handler, void *handler_context,
        MHD_NotifyConnectionCallback notify, MHD_RequestCompletedCallback completed, void *notify_context,
        unsigned int connection_limit, unsigned int per_ip_limit, unsigned int timeout_seconds,
        size_t memory_limit, size_t stack_size, struct onair_mhd_logger *logger) {
    struct MHD_OptionItem none[] = {{MHD_OPTION_END, 0, NULL}};
    return onair_mhd_start_with(flags, address, handler, handler_context, notify, completed, notify_context, connection_limit,
                                per_ip_limit, timeout_seconds, memory_limit, stack_size, logger, none);
}

/// Starts an HTTPS-only daemon whose certificate comes from `retrieve` (a
/// `gnutls_certificate_retrieve_function2 *`) at each handshake, so it can change while serving.
static inline struct MHD_Daemon *onair_mhd_start_tls_callback(unsigned int flags, const struct sockaddr *address,
        MHD_AccessHandlerCallback handler, void *handler_context,
        MHD_NotifyConnectionCallback notify, MHD_RequestCompletedCallback completed, void *notify_context,
        unsigned int connection_limit, unsigned int per_ip_limit, unsigned int timeout_seconds,
        size_t memory_limit, size_t stack_size, struct onair_mhd_logger *logger,
        void *retrieve, const char *priorities) {
    struct MHD_OptionItem tls[] = {
        {MHD_OPTION_HTTPS_CERT_CALLBACK, 0, retrieve},
        {MHD_OPTION_HTTPS_PRIORITIES, 0, (void *) priorities},
        {MHD_OPTION_END, 0, NULL},
    };
    return onair_mhd_start_with(flags | MHD_USE_TLS, address, handler, handler_context, notify, completed, notify_context,
                                connection_limit, per_ip_limit, timeout_seconds, memory_limit, stack_size, logger, tls);
}

/// The port the daemon listens on (the system's pick when 0 was asked for), or 0.
static inline uint16_t onair_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// The peer's address of a connection, or NULL.
static inline const struct sockaddr *onair_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

/// The socket of a connection, or -1.
static inline int onair_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}
#endif
