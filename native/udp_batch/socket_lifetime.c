/* Closing and freeing a socket; the rules are in udp_socket.h. */
#include "udp_socket.h"

#include <stdlib.h>
#include <unistd.h>

static void free_socket(udpb_socket *socket) {
  mmsg_ring_free(&socket->rx);
  udpb_tx_free(&socket->tx);
  free(socket);
}

static void on_handle_closed(uv_handle_t *handle) {
  udpb_socket *socket = handle->data;
  socket->handle_closed = true;
  if (socket->cleanup_hook != NULL) {
    napi_remove_async_cleanup_hook(socket->cleanup_hook);
    socket->cleanup_hook = NULL;
  }
  if (socket->finalized) free_socket(socket);
}

void udpb_socket_begin_close(udpb_socket *socket) {
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

void udpb_socket_release_js(udpb_socket *socket) {
  if (socket->js_released) return;
  socket->js_released = true;
  napi_env env = socket->env;
  if (socket->self != NULL) napi_delete_reference(env, socket->self);
  if (socket->on_datagrams != NULL) napi_delete_reference(env, socket->on_datagrams);
  if (socket->on_error != NULL) napi_delete_reference(env, socket->on_error);
  if (socket->async_context != NULL) napi_async_destroy(env, socket->async_context);
  socket->self = socket->on_datagrams = socket->on_error = NULL;
  socket->async_context = NULL;
}

void udpb_socket_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  udpb_socket *socket = data;
  /* Normally closed already (an open socket holds itself alive); at teardown
   * the finalizer may come first. */
  udpb_socket_begin_close(socket);
  udpb_socket_release_js(socket);
  socket->finalized = true;
  if (socket->handle_closed) free_socket(socket);
}

static void on_teardown(napi_async_cleanup_hook_handle handle, void *data) {
  (void)handle;
  /* on_handle_closed removes the hook once libuv has let go of the handle. */
  udpb_socket_begin_close(data);
}

napi_status udpb_socket_watch_teardown(udpb_socket *socket) {
  return napi_add_async_cleanup_hook(socket->env, on_teardown, socket, &socket->cleanup_hook);
}

void udpb_socket_free_unstarted(udpb_socket *socket) {
  udpb_socket_release_js(socket);
  if (socket->fd >= 0) close(socket->fd);
  free_socket(socket);
}
