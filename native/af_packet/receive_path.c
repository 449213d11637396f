/*
 * From a readable socket to JavaScript: up to MAX_BATCHES_PER_WAKEUP
 * recvmmsg batches per libuv wake-up (then back to the event loop, which
 * wakes us again while frames remain), one JavaScript call per batch.
 *
 * A batch reaches JavaScript as one Buffer: `count` little-endian uint32
 * frame lengths, then the frames back to back. One allocation per batch,
 * none per frame.
 */
#include "port.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../common/js_errors.h"

enum {
  MAX_BATCHES_PER_WAKEUP = 8,
  /* POLLERR with no socket error to take would wake us forever. */
  MAX_UNEXPLAINED_POLL_ERRORS = 16,
};

/* Calls a JavaScript callback as a libuv-driven event: microtasks and
 * nextTicks run after it, and a throw becomes an uncaught exception, as a
 * throw in a 'message' listener of a dgram socket does. */
static void call_js(afp_port *port, napi_ref callback, size_t argc, const napi_value *argv) {
  napi_env env = port->env;
  napi_value function, receiver, result;
  if (callback == NULL || napi_get_reference_value(env, callback, &function) != napi_ok || function == NULL) return;
  if (napi_get_global(env, &receiver) != napi_ok) return;
  napi_status status = napi_make_callback(env, port->async_context, receiver, function, argc, argv, &result);
  if (status == napi_pending_exception) {
    napi_value exception;
    if (napi_get_and_clear_last_exception(env, &exception) == napi_ok) napi_fatal_exception(env, exception);
  }
}

static void report_error(afp_port *port, int error, const char *syscall, const char *what) {
  char message[256];
  snprintf(message, sizeof message, "%s on %s failed: %s", what, port->ifname, strerror(error));
  napi_value value = js_errno_error(port->env, error, syscall, message);
  if (value != NULL) call_js(port, port->on_error, 1, &value);
}

static void write_le32(uint8_t *out, uint32_t value) {
  out[0] = (uint8_t)value;
  out[1] = (uint8_t)(value >> 8);
  out[2] = (uint8_t)(value >> 16);
  out[3] = (uint8_t)(value >> 24);
}

static void deliver(afp_port *port, unsigned received) {
  afp_frame frame;
  size_t frame_bytes = 0;
  unsigned kept = 0;
  for (unsigned i = 0; i < received; i++) {
    switch (afp_rx_frame(&port->rx, i, &frame)) {
      case AFP_FRAME_KEEP:
        frame_bytes += afp_frame_wire_length(&frame);
        kept++;
        break;
      case AFP_FRAME_OUTGOING:
        port->outgoing_skipped++;
        break;
      case AFP_FRAME_TRUNCATED:
        port->truncated++;
        break;
    }
  }
  if (kept == 0) return;

  napi_env env = port->env;
  size_t header_bytes = (size_t)kept * 4;
  void *data;
  napi_value batch, count;
  if (napi_create_buffer(env, header_bytes + frame_bytes, &data, &batch) != napi_ok) {
    report_error(port, ENOMEM, "napi_create_buffer", "allocating a receive batch");
    return;
  }
  uint8_t *lengths = data;
  uint8_t *frames = lengths + header_bytes;
  unsigned slot = 0;
  for (unsigned i = 0; i < received; i++) {
    if (afp_rx_frame(&port->rx, i, &frame) != AFP_FRAME_KEEP) continue;
    size_t length = afp_frame_wire_length(&frame);
    write_le32(lengths + 4 * slot++, (uint32_t)length);
    afp_frame_copy(&frame, frames);
    frames += length;
  }
  if (napi_create_uint32(env, kept, &count) != napi_ok) return;
  napi_value argv[2] = {batch, count};
  call_js(port, port->on_frames, 2, argv);
}

static void receive_batches(afp_port *port) {
  for (int batch = 0; batch < MAX_BATCHES_PER_WAKEUP && !port->closing; batch++) {
    int received = mmsg_ring_receive(port->fd, &port->rx);
    if (received == -EAGAIN || received == -EWOULDBLOCK) return;
    if (received < 0) {
      /* ENETDOWN when the link went down: the socket stays usable. */
      report_error(port, -received, "recvmmsg", "receiving");
      return;
    }
    port->unexplained_poll_errors = 0;
    deliver(port, (unsigned)received);
    if ((unsigned)received < port->rx.capacity) return;
  }
}

/* libuv stops the handle when epoll reports POLLERR. A pending socket error
 * (ENETDOWN when the link goes down) is taken, reported, and polling goes on. */
static void recover_from_poll_error(afp_port *port, int status) {
  int error = afp_take_socket_error(port->fd);
  bool explained = error != 0;
  if (!explained) {
    port->unexplained_poll_errors++;
    error = -status;
  }
  report_error(port, error, "poll", "waiting for frames");
  if (port->closing) return;
  if (port->unexplained_poll_errors >= MAX_UNEXPLAINED_POLL_ERRORS) {
    uv_poll_stop(&port->poll);
    report_error(port, error, "poll", "receiving stopped after repeated poll errors; reopen the port");
    return;
  }
  int restart = uv_poll_start(&port->poll, UV_READABLE, afp_port_on_poll);
  if (restart < 0) report_error(port, -restart, "uv_poll_start", "resuming receive");
}

void afp_port_on_poll(uv_poll_t *handle, int status, int events) {
  afp_port *port = handle->data;
  if (port->closing) return;
  napi_handle_scope scope;
  if (napi_open_handle_scope(port->env, &scope) != napi_ok) return;
  if (status < 0) recover_from_poll_error(port, status);
  else if (events & UV_READABLE) receive_batches(port);
  napi_close_handle_scope(port->env, scope);
}
