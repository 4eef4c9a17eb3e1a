#ifndef PEERSHARE_CMICROHTTPD_SHIM_H
#define PEERSHARE_CMICROHTTPD_SHIM_H
/* GNU libmicrohttpd from Debian (libmicrohttpd-dev): the web gallery's HTTP server. Swift
   cannot call C variadic functions, so MHD_start_daemon's option list is fixed here. */
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* Starts a server on an already listening socket: one thread per connection (so a handler
   may block on SQLite or wait for events), at most `connection_limit` connections,
   `timeout_seconds` of silence before a connection is closed, `memory_limit` bytes per
   connection for its request line and headers, `stack_size` bytes of stack per thread. */
static inline struct MHD_Daemon *peershare_mhd_start(
    int listen_fd, MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls, unsigned int connection_limit,
    unsigned int timeout_seconds, size_t memory_limit, size_t stack_size)
{
    return MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC,
        0, NULL, NULL, handler, handler_cls,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket) listen_fd,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_THREAD_STACK_SIZE, stack_size,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
        MHD_OPTION_END);
}
#endif
