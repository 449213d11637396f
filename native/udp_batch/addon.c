/*
 * The addon's JavaScript face: class UdpBatchSocket.
 *
 *   new UdpBatchSocket(family: 4 | 6, onDatagrams, onError, options?)
 *     options: { batchSize, receiveBufferBytes, sendBufferBytes, gso, gro }
 *     onDatagrams(batch, count, sources, origins): see receive_path.c
 *     onError(error: Error): a receive-side error, or an ICMP error for an
 *       earlier send (ECONNREFUSED…); the socket stays open
 *     sets: receiveBufferBytes, sendBufferBytes (granted), gro (UDP_GRO is on)
 *   bind(address, port): number        the bound port (port 0: the system's choice)
 *   connect(address, port) / disconnect()
 *   send(frames: Buffer[]) / sendTo(frames, address, port): { sent, sentBytes, error }
 *                                       (send_methods.c)
 *   statistics(): see statistics() below
 *   ref() / unref()                     whether the open socket keeps the event loop alive
 *   close()                             idempotent; releases the fd and the poll handle
 * Every method but close() and statistics() throws an Error with code EBADF
 * once the socket is closed.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/js_errors.h"
#include "../common/js_values.h"
#include "methods.h"
#include "socket_setup.h"

enum { MAX_ARGS = 4, MESSAGE_BYTES = 65536 };

static const js_limits BATCH_SIZE = {"batchSize", 64, 1, UDPB_MAX_RECEIVE_BATCH};
static const js_limits RECEIVE_BUFFER = {"receiveBufferBytes", 4u << 20, 0, 1u << 30};
static const js_limits SEND_BUFFER = {"sendBufferBytes", 4u << 20, 0, 1u << 30};

static const char NOT_THIS[] = "not a UdpBatchSocket";

static void free_socket(polled_socket *polled) {
  udpb_socket *socket = udpb_socket_of(polled);
  udpb_tx_free(&socket->tx);
  free(socket);
}

static const polled_socket_class SOCKET_CLASS = {
    .name = "UdpBatchSocket",
    .socket_noun = "UDP socket",
    .self_noun = "socket",
    .deliver = udpb_socket_deliver,
    .recover_from_poll_error = udpb_socket_recover_from_poll_error,
    .free_owner = free_socket,
};

static const char USAGE[] =
    "usage: new UdpBatchSocket(family: 4 | 6, onDatagrams: Function, onError: Function, options?)";

void udpb_update_label(udpb_socket *socket) {
  struct sockaddr_storage address;
  socklen_t length = sizeof address;
  char text[INET6_ADDRSTRLEN];
  uint16_t port = 0;
  if (socket->polled.fd >= 0 && getsockname(socket->polled.fd, (struct sockaddr *)&address, &length) == 0 &&
      udpb_format_address(&address, text, sizeof text, &port))
    snprintf(socket->label, sizeof socket->label, "UDP socket %s%s%s:%u", socket->family == AF_INET6 ? "[" : "", text,
             socket->family == AF_INET6 ? "]" : "", (unsigned)port);
}

/* Reads the constructor's arguments; false after throwing. */
static bool read_arguments(napi_env env, size_t argc, const napi_value *argv, udpb_open_options *open, uint32_t *batch) {
  napi_valuetype types[3] = {napi_undefined, napi_undefined, napi_undefined};
  for (size_t i = 0; i < 3 && i < argc; i++) napi_typeof(env, argv[i], &types[i]);
  if (argc < 3 || types[0] != napi_number || types[1] != napi_function || types[2] != napi_function) {
    napi_throw_type_error(env, NULL, USAGE);
    return false;
  }
  uint32_t family, receive, send;
  if (!js_read_integer(env, argv[0], "family", 4, 6, &family)) return false;
  if (family == 5) {
    napi_throw_range_error(env, NULL, "family must be 4 or 6");
    return false;
  }
  napi_value options = argc > 3 ? argv[3] : NULL;
  if (options == NULL) napi_get_undefined(env, &options);
  bool gro;
  if (!js_read_integer_option(env, options, &BATCH_SIZE, batch) ||
      !js_read_integer_option(env, options, &RECEIVE_BUFFER, &receive) ||
      !js_read_integer_option(env, options, &SEND_BUFFER, &send) ||
      !js_read_boolean_option(env, options, "gro", true, &gro))
    return false;
  open->family = family == 4 ? AF_INET : AF_INET6;
  open->receive_buffer_bytes = (int)receive;
  open->send_buffer_bytes = (int)send;
  open->gro = gro;
  return true;
}

static napi_value construct(napi_env env, napi_callback_info info) {
  size_t argc = MAX_ARGS;
  napi_value argv[MAX_ARGS], self;
  if (!js_read_constructor_call(env, info, &argc, argv, &self, "UdpBatchSocket")) return NULL;
  udpb_open_options open_options;
  uint32_t batch_size;
  bool gso = true;
  if (!read_arguments(env, argc, argv, &open_options, &batch_size) ||
      !js_read_boolean_option(env, argc > 3 ? argv[3] : NULL, "gso", true, &gso))
    return NULL;

  udpb_open_result opened;
  int error = udpb_open(&open_options, &opened);
  if (error != 0) {
    char message[200];
    snprintf(message, sizeof message, "cannot open a UDP socket: %s: %s", opened.failed_call, strerror(error));
    return js_throw_errno(env, error, opened.failed_call, message);
  }
  udpb_socket *socket = calloc(1, sizeof *socket);
  if (socket == NULL) {
    close(opened.fd);
    return js_throw_errno(env, ENOMEM, "calloc", "out of memory opening a UDP socket");
  }
  polled_socket_init(&socket->polled, &SOCKET_CLASS, env, opened.fd, socket->label);
  socket->family = open_options.family;
  socket->gso = gso;
  socket->gro = opened.gro;
  snprintf(socket->label, sizeof socket->label, "an unbound UDP socket");
  if (udpb_rx_init(&socket->polled.rx, batch_size, MESSAGE_BYTES) != 0 || udpb_tx_init(&socket->tx, batch_size) != 0) {
    polled_socket_free_unstarted(&socket->polled);
    return js_throw_errno(env, ENOMEM, "malloc", "out of memory for the socket's buffers; lower batchSize");
  }
  if (polled_socket_start(&socket->polled, self, argv[1], argv[2]) == NULL) return NULL;
  if (!js_set_property(env, self, "receiveBufferBytes", js_number(env, opened.receive_buffer_bytes)) ||
      !js_set_property(env, self, "sendBufferBytes", js_number(env, opened.send_buffer_bytes)) ||
      !js_set_property(env, self, "gro", js_boolean(env, opened.gro))) {
    polled_socket_begin_close(&socket->polled);
    polled_socket_release_js(&socket->polled);
    return js_internal_failure(env, "UdpBatchSocket", "setting the socket's properties");
  }
  return self;
}

udpb_socket *udpb_unwrap_this(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv, bool open) {
  polled_socket *polled = js_unwrap_this(env, info, argc, argv, NOT_THIS);
  if (polled == NULL) return NULL;
  udpb_socket *socket = udpb_socket_of(polled);
  if (open && polled->closing) {
    char message[128];
    snprintf(message, sizeof message, "%s is closed", socket->label);
    js_throw_errno(env, EBADF, NULL, message);
    return NULL;
  }
  return socket;
}

/* Cumulative counts: what was received and sent, and how (GRO, GSO). */
static napi_value statistics(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  udpb_socket *socket = udpb_unwrap_this(env, info, &argc, NULL, false);
  if (socket == NULL) return NULL;
  const udpb_counts *c = &socket->counts;
  napi_value result;
  if (napi_create_object(env, &result) != napi_ok) return NULL;
  js_set_property(env, result, "receivedMessages", js_number(env, (double)c->received_messages));
  js_set_property(env, result, "receivedDatagrams", js_number(env, (double)c->received_datagrams));
  js_set_property(env, result, "groMessages", js_number(env, (double)c->gro_messages));
  js_set_property(env, result, "truncated", js_number(env, (double)c->truncated));
  js_set_property(env, result, "kernelDrops", js_number(env, (double)c->kernel_drops));
  js_set_property(env, result, "sentMessages", js_number(env, (double)c->sent_messages));
  js_set_property(env, result, "sentDatagrams", js_number(env, (double)c->sent_datagrams));
  js_set_property(env, result, "gsoMessages", js_number(env, (double)c->gso_messages));
  js_set_property(env, result, "sendRefused", js_number(env, (double)c->send_refused));
  js_set_property(env, result, "gso", js_boolean(env, socket->gso));
  js_set_property(env, result, "gro", js_boolean(env, socket->gro));
  return result;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor methods[] = {
      {"bind", NULL, udpb_bind, NULL, NULL, NULL, napi_default_method, NULL},
      {"connect", NULL, udpb_connect, NULL, NULL, NULL, napi_default_method, NULL},
      {"disconnect", NULL, udpb_disconnect, NULL, NULL, NULL, napi_default_method, NULL},
      {"send", NULL, udpb_send, NULL, NULL, NULL, napi_default_method, NULL},
      {"sendTo", NULL, udpb_send_to, NULL, NULL, NULL, napi_default_method, NULL},
      {"statistics", NULL, statistics, NULL, NULL, NULL, napi_default_method, NULL},
      {"ref", NULL, polled_socket_ref, NULL, NULL, NULL, napi_default_method, (void *)NOT_THIS},
      {"unref", NULL, polled_socket_unref, NULL, NULL, NULL, napi_default_method, (void *)NOT_THIS},
      {"close", NULL, polled_socket_close, NULL, NULL, NULL, napi_default_method, (void *)NOT_THIS},
  };
  napi_value constructor;
  if (napi_define_class(env, "UdpBatchSocket", NAPI_AUTO_LENGTH, construct, NULL, sizeof methods / sizeof methods[0],
                        methods, &constructor) != napi_ok ||
      napi_set_named_property(env, exports, "UdpBatchSocket", constructor) != napi_ok)
    return NULL;
  return exports;
}
