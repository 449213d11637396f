/*
 * bind(address, port) → the bound port; connect(address, port);
 * disconnect(). Synchronous (a UDP connect sends nothing); errors throw
 * with the errno name as `code`.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "../common/js_errors.h"
#include "../common/js_values.h"
#include "methods.h"
#include "socket_setup.h"

/* Reads (address, port) for the socket's family; false after throwing. */
static bool read_endpoint(napi_env env, const udpb_socket *socket, size_t argc, const napi_value *argv, uint32_t min_port,
                          struct sockaddr_storage *out, socklen_t *length, char *text, size_t size) {
  uint32_t port;
  if (!js_read_string(env, argc > 0 ? argv[0] : NULL, "address", text, size) ||
      !js_read_integer(env, argc > 1 ? argv[1] : NULL, "port", min_port, 65535, &port))
    return false;
  if (!udpb_make_address(socket->family, text, (uint16_t)port, out, length)) {
    char message[160];
    snprintf(message, sizeof message, "\"%s\" is not a numeric IPv%d address", text, socket->family == AF_INET ? 4 : 6);
    napi_throw_type_error(env, NULL, message);
    return false;
  }
  return true;
}

napi_value udpb_bind(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  udpb_socket *socket = udpb_unwrap_this(env, info, &argc, argv, true);
  if (socket == NULL) return NULL;
  struct sockaddr_storage address;
  socklen_t length;
  char text[INET6_ADDRSTRLEN + 8];
  if (!read_endpoint(env, socket, argc, argv, 0, &address, &length, text, sizeof text)) return NULL;
  if (bind(socket->polled.fd, (struct sockaddr *)&address, length) != 0) {
    int error = errno;
    char message[200];
    snprintf(message, sizeof message, "cannot bind UDP %s port %u: %s%s", text,
             (unsigned)ntohs(((struct sockaddr_in *)&address)->sin_port), strerror(error),
             error == EADDRINUSE ? "; choose another port" : "");
    return js_throw_errno(env, error, "bind", message);
  }
  int port = udpb_local_port(socket->polled.fd);
  if (port < 0) return js_throw_errno(env, -port, "getsockname", "cannot read the bound port");
  udpb_update_label(socket);
  return js_number(env, port);
}

napi_value udpb_connect(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  udpb_socket *socket = udpb_unwrap_this(env, info, &argc, argv, true);
  if (socket == NULL) return NULL;
  struct sockaddr_storage address;
  socklen_t length;
  char text[INET6_ADDRSTRLEN + 8];
  if (!read_endpoint(env, socket, argc, argv, 1, &address, &length, text, sizeof text)) return NULL;
  /* Connecting again replaces the peer and keeps the local port (a
   * disconnect would give up a port the system chose). */
  if (connect(socket->polled.fd, (struct sockaddr *)&address, length) != 0) {
    int error = errno;
    char message[200];
    snprintf(message, sizeof message, "cannot connect %s to %s: %s", socket->label, text, strerror(error));
    return js_throw_errno(env, error, "connect", message);
  }
  socket->connected = true;
  udpb_update_label(socket);
  return NULL;
}

napi_value udpb_disconnect(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  udpb_socket *socket = udpb_unwrap_this(env, info, &argc, NULL, true);
  if (socket == NULL) return NULL;
  struct sockaddr_storage address;
  memset(&address, 0, sizeof address);
  address.ss_family = AF_UNSPEC;
  /* Linux returns 0 for AF_UNSPEC; some kernels EAFNOSUPPORT after succeeding. */
  if (connect(socket->polled.fd, (struct sockaddr *)&address, sizeof address) != 0 && errno != EAFNOSUPPORT) {
    int error = errno;
    char message[160];
    snprintf(message, sizeof message, "cannot disconnect %s: %s", socket->label, strerror(error));
    return js_throw_errno(env, error, "connect", message);
  }
  socket->connected = false;
  return NULL;
}
