/*
 * One open AF_PACKET port as the addon holds it, and the rules that keep its
 * memory valid while libuv, JavaScript and Node's teardown each hold on to it.
 *
 * Lifetime: the struct is freed only when both (a) libuv has finished closing
 * the poll handle (on_handle_closed) and (b) the JavaScript object is gone
 * (its finalizer ran). While the port is open it holds a strong reference to
 * its own JavaScript object, so an open port is never collected; closing
 * drops that reference. Node's teardown (process or worker exit) closes a
 * port still open through an async cleanup hook.
 */
#ifndef P4INA_AF_PACKET_PORT_H
#define P4INA_AF_PACKET_PORT_H

#include <net/if.h>
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "batch_io.h"
#include "packet_socket.h"

typedef struct afp_port {
  napi_env env;
  int fd; /* -1 once closed */
  unsigned ifindex;
  char ifname[IF_NAMESIZE];

  uv_poll_t poll;
  bool poll_initialized;
  bool closing;        /* close started: no more I/O or callbacks */
  bool handle_closed;  /* libuv is done with `poll` */
  bool finalized;      /* the JavaScript object is gone */
  bool js_released;    /* the references below are deleted */
  unsigned unexplained_poll_errors;

  napi_ref self;      /* strong while open */
  napi_ref on_frames; /* (batch: Buffer, count: number) => void */
  napi_ref on_error;  /* (error: Error) => void */
  napi_async_context async_context;
  napi_async_cleanup_hook_handle cleanup_hook;

  afp_rx rx;
  afp_tx tx;

  uint64_t outgoing_skipped;
  uint64_t truncated;
  afp_kernel_counts kernel_total;
} afp_port;

/* Stops I/O: stops and closes the poll handle, closes the fd. Idempotent,
 * never calls JavaScript (safe during teardown). */
void afp_port_begin_close(afp_port *port);

/* Deletes the JavaScript references and the async context. Once; only where
 * N-API calls are allowed (a method call or the finalizer). */
void afp_port_release_js(afp_port *port);

/* napi_wrap finalizer. */
void afp_port_finalize(napi_env env, void *data, void *hint);

/* Registers the teardown hook; call once the poll handle is initialized. */
napi_status afp_port_watch_teardown(afp_port *port);

/* Frees a port that never got a poll handle (failed construction). */
void afp_port_free_unstarted(afp_port *port);

/* The libuv callback for readable or failed polls (receive_path.c). */
void afp_port_on_poll(uv_poll_t *handle, int status, int events);

#endif
