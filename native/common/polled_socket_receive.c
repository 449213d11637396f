/*
 * From a readable socket to JavaScript: up to MAX_BATCHES_PER_WAKEUP
 * recvmmsg batches per libuv wake-up (then back to the event loop, which
 * wakes us again while messages remain), one JavaScript call per batch (the
 * class's deliver).
 */
#include "polled_socket.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "js_errors.h"

enum { MAX_BATCHES_PER_WAKEUP = 8 };

/* As a libuv-driven event: microtasks and nextTicks run after it, and a
 * throw becomes an uncaught exception, as a throw in a 'message' listener of
 * a dgram socket does. */
void polled_socket_call_js(polled_socket *socket, napi_ref callback, size_t argc, const napi_value *argv) {
  napi_env env = socket->env;
  napi_value function, receiver, result;
  if (callback == NULL || napi_get_reference_value(env, callback, &function) != napi_ok || function == NULL) return;
  if (napi_get_global(env, &receiver) != napi_ok) return;
  napi_status status = napi_make_callback(env, socket->async_context, receiver, function, argc, argv, &result);
  if (status == napi_pending_exception) {
    napi_value exception;
    if (napi_get_and_clear_last_exception(env, &exception) == napi_ok) napi_fatal_exception(env, exception);
  }
}

void polled_socket_report_error(polled_socket *socket, int error, const char *syscall, const char *what) {
  char message[256];
  snprintf(message, sizeof message, "%s on %s failed: %s", what, socket->label, strerror(error));
  napi_value value = js_errno_error(socket->env, error, syscall, message);
  if (value != NULL) polled_socket_call_js(socket, socket->on_error, 1, &value);
}

static void receive_batches(polled_socket *socket) {
  for (int batch = 0; batch < MAX_BATCHES_PER_WAKEUP && !socket->closing; batch++) {
    int received = mmsg_ring_receive(socket->fd, &socket->rx);
    if (received == -EAGAIN || received == -EWOULDBLOCK) return;
    if (received < 0) {
      /* The socket stays usable: ENETDOWN on a packet socket whose link went
       * down, ECONNREFUSED and the like on a connected UDP socket (an ICMP
       * error for an earlier send). */
      polled_socket_report_error(socket, -received, "recvmmsg", "receiving");
      return;
    }
    socket->unexplained_poll_errors = 0;
    socket->class_of->deliver(socket, (unsigned)received);
    if ((unsigned)received < socket->rx.capacity) return;
  }
}

void polled_socket_resume(polled_socket *socket) {
  int restart = uv_poll_start(&socket->poll, UV_READABLE, polled_socket_on_poll);
  if (restart < 0) polled_socket_report_error(socket, -restart, "uv_poll_start", "resuming receive");
}

void polled_socket_on_poll(uv_poll_t *handle, int status, int events) {
  polled_socket *socket = handle->data;
  if (socket->closing) return;
  napi_handle_scope scope;
  if (napi_open_handle_scope(socket->env, &scope) != napi_ok) return;
  if (status < 0) socket->class_of->recover_from_poll_error(socket, status);
  else if (events & UV_READABLE) receive_batches(socket);
  napi_close_handle_scope(socket->env, scope);
}
