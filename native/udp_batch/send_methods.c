/*
 * send(frames) to the connected peer and sendTo(frames, address, port):
 * synchronous, never block. Each returns { sent, sentBytes, error }: the
 * datagrams and bytes the kernel took, the rest dropped, and error (else
 * null) saying why.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "../common/js_errors.h"
#include "../common/mmsg_send.h"
#include "../common/send_result.h"
#include "../common/js_values.h"
#include "methods.h"
#include "socket_setup.h"

static napi_value send_frames(napi_env env, udpb_socket *socket, napi_value frames, const struct sockaddr *to,
                              socklen_t to_length) {
  bool is_array = false;
  uint32_t length;
  if (frames == NULL || napi_is_array(env, frames, &is_array) != napi_ok || !is_array ||
      napi_get_array_length(env, frames, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "send takes an array of Buffers");
    return NULL;
  }
  udpb_tx_outcome total = {0, 0, 0, 0, 0, 0};
  for (uint32_t start = 0; start < length; start += socket->tx.frame_capacity) {
    unsigned count = length - start < socket->tx.frame_capacity ? length - start : socket->tx.frame_capacity;
    for (unsigned i = 0; i < count; i++) {
      napi_value element;
      void *data;
      size_t bytes;
      bool is_buffer = false;
      if (napi_get_element(env, frames, start + i, &element) != napi_ok) return NULL;
      if (napi_is_buffer(env, element, &is_buffer) != napi_ok || !is_buffer ||
          napi_get_buffer_info(env, element, &data, &bytes) != napi_ok) {
        char message[96];
        snprintf(message, sizeof message, "frames[%u] is not a Buffer", start + i);
        napi_throw_type_error(env, NULL, message);
        return NULL;
      }
      udpb_tx_stage(&socket->tx, i, data, bytes);
    }
    if (socket->polled.closing) return js_throw_errno(env, EBADF, NULL, "the UDP socket was closed while sending");
    udpb_tx_outcome outcome = udpb_tx_send(socket->polled.fd, &socket->tx, count, to, to_length, &socket->gso);
    total.sent += outcome.sent;
    total.sent_bytes += outcome.sent_bytes;
    socket->counts.sent_messages += outcome.messages;
    socket->counts.sent_datagrams += outcome.sent;
    socket->counts.gso_messages += outcome.gso_messages;
    socket->counts.send_refused += outcome.refused;
    if (outcome.last_error != 0) total.last_error = outcome.last_error;
    /* A full socket buffer will not drain within this call: drop the rest. */
    if (mmsg_buffer_full(outcome.last_error)) {
      socket->counts.send_refused += length - start - count;
      break;
    }
  }
  const char *detail = mmsg_buffer_full(total.last_error) ? " (socket buffer full; the rest of the batch was dropped)" : "";
  return js_send_result(env, total.sent, total.sent_bytes, total.last_error, socket->label, detail);
}

napi_value udpb_send(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value frames = NULL;
  udpb_socket *socket = udpb_unwrap_this(env, info, &argc, &frames, true);
  if (socket == NULL) return NULL;
  return send_frames(env, socket, argc > 0 ? frames : NULL, NULL, 0);
}

napi_value udpb_send_to(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3] = {NULL, NULL, NULL};
  udpb_socket *socket = udpb_unwrap_this(env, info, &argc, argv, true);
  if (socket == NULL) return NULL;
  char text[INET6_ADDRSTRLEN + 8];
  uint32_t port;
  struct sockaddr_storage to;
  socklen_t to_length;
  if (!js_read_string(env, argc > 1 ? argv[1] : NULL, "address", text, sizeof text) ||
      !js_read_integer(env, argc > 2 ? argv[2] : NULL, "port", 1, 65535, &port))
    return NULL;
  if (!udpb_make_address(socket->family, text, (uint16_t)port, &to, &to_length)) {
    char message[160];
    snprintf(message, sizeof message, "\"%s\" is not a numeric IPv%d address", text, socket->family == AF_INET ? 4 : 6);
    napi_throw_type_error(env, NULL, message);
    return NULL;
  }
  return send_frames(env, socket, argv[0], (const struct sockaddr *)&to, to_length);
}
