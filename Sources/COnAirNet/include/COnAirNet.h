// Linux's epoll, eventfd and accept4 for OnAir's event-driven servers (Swift's Glibc module does not
// bring <sys/epoll.h> or <sys/eventfd.h>, and epoll_event is a packed struct Swift cannot lay out).
// A bridge only: every decision is Swift's (OnAirServing/Net).
#ifndef ONAIR_COnAirNet_H
#define ONAIR_COnAirNet_H

#include <stdint.h>

/// The events a descriptor is waited for and reported with (epoll's values).
enum {
    ONAIR_NET_READABLE = 0x001,  // EPOLLIN
    ONAIR_NET_WRITABLE = 0x004,  // EPOLLOUT
    ONAIR_NET_ERROR = 0x008,     // EPOLLERR
    ONAIR_NET_HANGUP = 0x010,    // EPOLLHUP
    ONAIR_NET_PEER_CLOSED = 0x2000,  // EPOLLRDHUP
};

/// A new epoll instance (close-on-exec), or -1 with errno set.
int onair_net_epoll_create(void);

/// Adds (`operation` 0), changes (1) or removes (2) `fd` in `epoll`, waiting for `events`.
/// 0, or -1 with errno set.
int onair_net_epoll_set(int epoll, int operation, int fd, uint32_t events);

/// Waits up to `timeout_ms` (-1: no limit) for at most `capacity` ready descriptors, written to
/// `fds` and `events`; returns their count (0 at the timeout), or -1 with errno set (EINTR too).
int onair_net_epoll_wait(int epoll, int *fds, uint32_t *events, int capacity, int timeout_ms);

/// A non-blocking, close-on-exec eventfd counter starting at 0, or -1 with errno set.
int onair_net_eventfd(void);

/// The next connection waiting on `listener`, non-blocking and close-on-exec, with its peer's
/// address in `address` (a `struct sockaddr_storage` of `*length` bytes, updated); -1 with errno
/// set when none waits. (No system header here: one included by this module would take its
/// declarations away from Glibc's in a whole-module build.)
int onair_net_accept(int listener, void *address, uint32_t *length);

#endif
