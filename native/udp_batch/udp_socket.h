/*
 * One open batched UDP socket as the addon holds it, and the rules that keep
 * its memory valid while libuv, JavaScript and Node's teardown each hold on
 * to it (as native/af_packet/port.h).
 *
 * Lifetime: the struct is freed only when both (a) libuv has finished closing
 * the poll handle (on_handle_closed) and (b) the JavaScript object is gone
 * (its finalizer ran). While the socket is open it holds a strong reference
 * to its own JavaScript object, so an open socket is never collected; closing
 * drops that reference. Node's teardown (process or worker exit) closes a
 * socket still open through an async cleanup hook.
 */
#ifndef P4INA_UDP_BATCH_UDP_SOCKET_H
#define P4INA_UDP_BATCH_UDP_SOCKET_H

#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "batch_io.h"

typedef struct udpb_counts {
  uint64_t received_messages;  /* recvmmsg messages */
  uint64_t received_datagrams; /* datagrams after GRO splitting */
  uint64_t gro_messages;       /* messages that held several datagrams */
  uint64_t truncated;          /* messages longer than the buffer: dropped */
  uint64_t kernel_drops;       /* SO_RXQ_OVFL: dropped for a full receive buffer */
  uint64_t sent_messages;      /* sendmmsg messages the kernel took */
  uint64_t sent_datagrams;
  uint64_t gso_messages;       /* sent messages that carried several datagrams */
  uint64_t send_refused;       /* datagrams send() dropped */
} udpb_counts;

typedef struct udpb_socket {
  napi_env env;
  int fd; /* -1 once closed */
  int family; /* AF_INET or AF_INET6 */
  bool connected;
  bool gso; /* send with UDP_SEGMENT; false once the kernel refused it */
  bool gro; /* UDP_GRO is on */
  char label[80]; /* "UDP socket 127.0.0.1:4000", for messages */

  uv_poll_t poll;
  bool poll_initialized;
  bool closing;        /* close started: no more I/O or callbacks */
  bool handle_closed;  /* libuv is done with `poll` */
  bool finalized;      /* the JavaScript object is gone */
  bool js_released;    /* the references below are deleted */
  unsigned unexplained_poll_errors;

  napi_ref self;         /* strong while open */
  napi_ref on_datagrams; /* (batch, count, sources, origins) => void */
  napi_ref on_error;     /* (error: Error) => void */
  napi_async_context async_context;
  napi_async_cleanup_hook_handle cleanup_hook;

  udpb_rx rx;
  udpb_tx tx;
  udpb_counts counts;
} udpb_socket;

/* Stops I/O: stops and closes the poll handle, closes the fd. Idempotent,
 * never calls JavaScript (safe during teardown). */
void udpb_socket_begin_close(udpb_socket *socket);

/* Deletes the JavaScript references and the async context. Once; only where
 * N-API calls are allowed (a method call or the finalizer). */
void udpb_socket_release_js(udpb_socket *socket);

/* napi_wrap finalizer. */
void udpb_socket_finalize(napi_env env, void *data, void *hint);

/* Registers the teardown hook; call once the poll handle is initialized. */
napi_status udpb_socket_watch_teardown(udpb_socket *socket);

/* Frees a socket that never got a poll handle (failed construction). */
void udpb_socket_free_unstarted(udpb_socket *socket);

/* The libuv callback for readable or failed polls (receive_path.c). */
void udpb_socket_on_poll(uv_poll_t *handle, int status, int events);

#endif
