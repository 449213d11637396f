/* Closing and freeing a port; the rules are in port.h. */
#include "port.h"

#include <stdlib.h>
#include <unistd.h>

static void free_port(afp_port *port) {
  mmsg_ring_free(&port->rx);
  afp_tx_free(&port->tx);
  free(port);
}

static void on_handle_closed(uv_handle_t *handle) {
  afp_port *port = handle->data;
  port->handle_closed = true;
  if (port->cleanup_hook != NULL) {
    napi_remove_async_cleanup_hook(port->cleanup_hook);
    port->cleanup_hook = NULL;
  }
  if (port->finalized) free_port(port);
}

void afp_port_begin_close(afp_port *port) {
  if (port->closing) return;
  port->closing = true;
  if (port->poll_initialized) {
    /* Stopping removes the fd from epoll at once, so closing it right after
     * is safe; the handle's memory stays ours until on_handle_closed. */
    uv_poll_stop(&port->poll);
    uv_close((uv_handle_t *)&port->poll, on_handle_closed);
  } else {
    port->handle_closed = true;
  }
  if (port->fd >= 0) {
    close(port->fd);
    port->fd = -1;
  }
}

void afp_port_release_js(afp_port *port) {
  if (port->js_released) return;
  port->js_released = true;
  napi_env env = port->env;
  if (port->self != NULL) napi_delete_reference(env, port->self);
  if (port->on_frames != NULL) napi_delete_reference(env, port->on_frames);
  if (port->on_error != NULL) napi_delete_reference(env, port->on_error);
  if (port->async_context != NULL) napi_async_destroy(env, port->async_context);
  port->self = port->on_frames = port->on_error = NULL;
  port->async_context = NULL;
}

void afp_port_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  afp_port *port = data;
  /* Normally closed already (an open port holds itself alive); at teardown
   * the finalizer may come first. */
  afp_port_begin_close(port);
  afp_port_release_js(port);
  port->finalized = true;
  if (port->handle_closed) free_port(port);
}

static void on_teardown(napi_async_cleanup_hook_handle handle, void *data) {
  (void)handle;
  /* on_handle_closed removes the hook once libuv has let go of the handle. */
  afp_port_begin_close(data);
}

napi_status afp_port_watch_teardown(afp_port *port) {
  return napi_add_async_cleanup_hook(port->env, on_teardown, port, &port->cleanup_hook);
}

void afp_port_free_unstarted(afp_port *port) {
  afp_port_release_js(port);
  if (port->fd >= 0) close(port->fd);
  free_port(port);
}
