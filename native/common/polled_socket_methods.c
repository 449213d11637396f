/*
 * ref(), unref() and close(), the same on both classes. The message for a
 * `this` that is no such socket comes as the property's data, so that one
 * function serves both.
 */
#include "polled_socket.h"

#include "js_values.h"

static polled_socket *unwrap_this(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  void *not_this = NULL;
  if (napi_get_cb_info(env, info, &argc, NULL, NULL, &not_this) != napi_ok) return NULL;
  return js_unwrap_this(env, info, &argc, NULL, not_this);
}

static napi_value set_loop_ref(napi_env env, napi_callback_info info, bool keep_alive) {
  polled_socket *socket = unwrap_this(env, info);
  if (socket == NULL) return NULL;
  if (socket->poll_initialized && !socket->closing) {
    if (keep_alive) uv_ref((uv_handle_t *)&socket->poll);
    else uv_unref((uv_handle_t *)&socket->poll);
  }
  return NULL;
}

napi_value polled_socket_ref(napi_env env, napi_callback_info info) { return set_loop_ref(env, info, true); }
napi_value polled_socket_unref(napi_env env, napi_callback_info info) { return set_loop_ref(env, info, false); }

napi_value polled_socket_close(napi_env env, napi_callback_info info) {
  polled_socket *socket = unwrap_this(env, info);
  if (socket == NULL) return NULL;
  polled_socket_begin_close(socket);
  polled_socket_release_js(socket);
  return NULL;
}
