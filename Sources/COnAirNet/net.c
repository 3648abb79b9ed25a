#if defined(__linux__)  // Linux-only (epoll): see docs/ARCHITECTURE.md, platform guards
// Linux's epoll, eventfd and accept4 for OnAir's event-driven servers (see include/COnAirNet.h).
#define _GNU_SOURCE
#include "COnAirNet.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

int onair_net_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int onair_net_epoll_set(int epoll, int operation, int fd, uint32_t events) {
    static const int operations[] = {EPOLL_CTL_ADD, EPOLL_CTL_MOD, EPOLL_CTL_DEL};
    if (operation < 0 || operation > 2) return -1;
    struct epoll_event event = {.events = events, .data.fd = fd};
    return epoll_ctl(epoll, operations[operation], fd, &event);
}

int onair_net_epoll_wait(int epoll, int *fds, uint32_t *events, int capacity, int timeout_ms) {
    struct epoll_event ready[64];
    if (capacity > 64) capacity = 64;
    if (capacity < 1) return 0;
    int count = epoll_wait(epoll, ready, capacity, timeout_ms);
    for (int index = 0; index < count; index++) {
        fds[index] = ready[index].data.fd;
        events[index] = ready[index].events;
    }
    return count;
}

int onair_net_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

int onair_net_accept(int listener, void *address, uint32_t *length) {
    socklen_t size = *length;
    int fd = accept4(listener, (struct sockaddr *)address, &size, SOCK_NONBLOCK | SOCK_CLOEXEC);
    *length = size;
    return fd;
}
#endif
