/* Starting, closing and freeing a polled socket; the rules are in polled_socket.h. */
#include "polled_socket.h"

#include <stdio.h>
#include <unistd.h>

#include "js_errors.h"
#include "js_values.h"

void polled_socket_init(polled_socket *socket, const polled_socket_class *class_of, napi_env env, int fd,
                        const char *label) {
  socket->class_of = class_of;
  socket->env = env;
  socket->fd = fd;
  socket->label = label;
}

static void free_socket(polled_socket *socket) {
  mmsg_ring_free(&socket->rx);
  socket->class_of->free_owner(socket);
}

static void on_handle_closed(uv_handle_t *handle) {
  polled_socket *socket = handle->data;
  socket->handle_closed = true;
  if (socket->cleanup_hook != NULL) {
    napi_remove_async_cleanup_hook(socket->cleanup_hook);
    socket->cleanup_hook = NULL;
  }
  if (socket->finalized) free_socket(socket);
}

void polled_socket_begin_close(polled_socket *socket) {
  if (socket->closing) return;
  socket->closing = true;
  if (socket->poll_initialized) {
    /* Stopping removes the fd from epoll at once, so closing it right after
     * is safe; the handle's memory stays ours until on_handle_closed. */
    uv_poll_stop(&socket->poll);
    uv_close((uv_handle_t *)&socket->poll, on_handle_closed);
  } else {
    socket->handle_closed = true;
  }
  if (socket->fd >= 0) {
    close(socket->fd);
    socket->fd = -1;
  }
}

void polled_socket_release_js(polled_socket *socket) {
  if (socket->js_released) return;
  socket->js_released = true;
  napi_env env = socket->env;
  if (socket->self != NULL) napi_delete_reference(env, socket->self);
  if (socket->on_data != NULL) napi_delete_reference(env, socket->on_data);
  if (socket->on_error != NULL) napi_delete_reference(env, socket->on_error);
  if (socket->async_context != NULL) napi_async_destroy(env, socket->async_context);
  socket->self = socket->on_data = socket->on_error = NULL;
  socket->async_context = NULL;
}

static void finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  polled_socket *socket = data;
  /* Normally closed already (an open socket holds itself alive); at teardown
   * the finalizer may come first. */
  polled_socket_begin_close(socket);
  polled_socket_release_js(socket);
  socket->finalized = true;
  if (socket->handle_closed) free_socket(socket);
}

static void on_teardown(napi_async_cleanup_hook_handle handle, void *data) {
  (void)handle;
  /* on_handle_closed removes the hook once libuv has let go of the handle. */
  polled_socket_begin_close(data);
}

void polled_socket_free_unstarted(polled_socket *socket) {
  polled_socket_release_js(socket);
  if (socket->fd >= 0) close(socket->fd);
  free_socket(socket);
}


/* Closes a socket whose poll handle exists; NULL after throwing. */
static napi_value fail_started(polled_socket *socket, const char *what) {
  polled_socket_begin_close(socket);
  polled_socket_release_js(socket);
  return js_internal_failure(socket->env, socket->class_of->name, what);
}

napi_value polled_socket_start(polled_socket *socket, napi_value self, napi_value on_data, napi_value on_error) {
  napi_env env = socket->env;
  const polled_socket_class *class_of = socket->class_of;
  napi_value resource_name;
  uv_loop_t *loop;
  if (napi_create_string_utf8(env, class_of->name, NAPI_AUTO_LENGTH, &resource_name) != napi_ok ||
      napi_async_init(env, NULL, resource_name, &socket->async_context) != napi_ok ||
      napi_create_reference(env, on_data, 1, &socket->on_data) != napi_ok ||
      napi_create_reference(env, on_error, 1, &socket->on_error) != napi_ok ||
      napi_get_uv_event_loop(env, &loop) != napi_ok) {
    polled_socket_free_unstarted(socket);
    return js_internal_failure(env, class_of->name, "setting up callbacks");
  }
  int uv_status = uv_poll_init_socket(loop, &socket->poll, socket->fd);
  char message[96];
  snprintf(message, sizeof message, "could not watch the %s", class_of->socket_noun);
  if (uv_status < 0) {
    polled_socket_free_unstarted(socket);
    return js_throw_errno(env, -uv_status, "uv_poll_init_socket", message);
  }
  socket->poll.data = socket;
  socket->poll_initialized = true;
  /* From here on the socket is freed through the close path only. */
  if (napi_wrap(env, self, socket, finalize, NULL, NULL) != napi_ok) {
    socket->finalized = true; /* no JavaScript object will ever finalize it */
    return fail_started(socket, "napi_wrap");
  }
  if (napi_create_reference(env, self, 1, &socket->self) != napi_ok ||
      napi_add_async_cleanup_hook(env, on_teardown, socket, &socket->cleanup_hook) != napi_ok) {
    char what[64];
    snprintf(what, sizeof what, "registering the %s", class_of->self_noun);
    return fail_started(socket, what);
  }
  uv_status = uv_poll_start(&socket->poll, UV_READABLE, polled_socket_on_poll);
  if (uv_status < 0) {
    polled_socket_begin_close(socket);
    polled_socket_release_js(socket);
    return js_throw_errno(env, -uv_status, "uv_poll_start", message);
  }
  return self;
}
