/*
 * A non-blocking socket that libuv polls and a JavaScript object owns, with
 * a recvmmsg ring: what AfPacketSocket (native/af_packet/port.h) and
 * UdpBatchSocket (native/udp_batch/udp_socket.h) hold in common. Each puts
 * one as the first member of its own struct and says what differs in a
 * polled_socket_class.
 *
 * Lifetime: the owner is freed only when both (a) libuv has finished closing
 * the poll handle (on_handle_closed) and (b) the JavaScript object is gone
 * (its finalizer ran). While the socket is open it holds a strong reference
 * to its own JavaScript object, so an open socket is never collected;
 * closing drops that reference. Node's teardown (process or worker exit)
 * closes a socket still open through an async cleanup hook.
 */
#ifndef P4INA_COMMON_POLLED_SOCKET_H
#define P4INA_COMMON_POLLED_SOCKET_H

#include <node_api.h>
#include <stdbool.h>
#include <uv.h>

#include "mmsg_ring.h"

/* POLLERR with no socket error to take would wake us forever. */
enum { POLLED_MAX_UNEXPLAINED_POLL_ERRORS = 16 };

typedef struct polled_socket polled_socket;

typedef struct polled_socket_class {
  const char *name;        /* "AfPacketSocket": the async resource, internal failures */
  const char *socket_noun; /* "packet socket": "could not watch the packet socket" */
  const char *self_noun;   /* "port": "registering the port" */
  /* Hands the first `received` messages of socket->rx to JavaScript. */
  void (*deliver)(polled_socket *socket, unsigned received);
  /* libuv stopped the handle on POLLERR: report, then polled_socket_resume
   * or give up. */
  void (*recover_from_poll_error)(polled_socket *socket, int status);
  /* Frees the owner's own buffers and the owner (socket->rx is freed already). */
  void (*free_owner)(polled_socket *socket);
} polled_socket_class;

struct polled_socket {
  const polled_socket_class *class_of;
  napi_env env;
  int fd;            /* -1 once closed */
  const char *label; /* the owner's name for itself in messages: an interface, an address */
  mmsg_ring rx;

  uv_poll_t poll;
  bool poll_initialized;
  bool closing;       /* close started: no more I/O or callbacks */
  bool handle_closed; /* libuv is done with `poll` */
  bool finalized;     /* the JavaScript object is gone */
  bool js_released;   /* the references below are deleted */
  unsigned unexplained_poll_errors;

  napi_ref self;     /* strong while open */
  napi_ref on_data;  /* onFrames / onDatagrams */
  napi_ref on_error; /* (error: Error) => void */
  napi_async_context async_context;
  napi_async_cleanup_hook_handle cleanup_hook;
};

/* Fills in what the owner knows before polled_socket_start; the rest starts
 * zeroed (the owner is calloc'd). `label` must live as long as the socket. */
void polled_socket_init(polled_socket *socket, const polled_socket_class *class_of, napi_env env, int fd,
                        const char *label);

/* Makes the callbacks, starts polling, wraps `self` and keeps it alive while
 * open; `self` or NULL after throwing. On failure before the poll handle
 * exists the owner is freed at once, after it through the close path. */
napi_value polled_socket_start(polled_socket *socket, napi_value self, napi_value on_data, napi_value on_error);

/* Stops I/O: stops and closes the poll handle, closes the fd. Idempotent,
 * never calls JavaScript (safe during teardown). */
void polled_socket_begin_close(polled_socket *socket);

/* Deletes the JavaScript references and the async context. Once; only where
 * N-API calls are allowed (a method call or the finalizer). */
void polled_socket_release_js(polled_socket *socket);

/* Frees a socket that never got a poll handle (failed construction). */
void polled_socket_free_unstarted(polled_socket *socket);

/* Calls a JavaScript callback as a libuv-driven event. */
void polled_socket_call_js(polled_socket *socket, napi_ref callback, size_t argc, const napi_value *argv);

/* onError(Error "<what> on <label> failed: <strerror>"), code from `error`. */
void polled_socket_report_error(polled_socket *socket, int error, const char *syscall, const char *what);

/* Starts polling again after a poll error; onError if it cannot. */
void polled_socket_resume(polled_socket *socket);

/* The libuv callback for readable or failed polls. */
void polled_socket_on_poll(uv_poll_t *handle, int status, int events);

/* The ref(), unref() and close() methods; the property's data is the
 * message to throw when `this` is no such socket ("not an AfPacketSocket"). */
napi_value polled_socket_ref(napi_env env, napi_callback_info info);
napi_value polled_socket_unref(napi_env env, napi_callback_info info);
napi_value polled_socket_close(napi_env env, napi_callback_info info);

#endif
