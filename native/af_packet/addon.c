/*
 * The addon's JavaScript face: class AfPacketSocket.
 *
 *   new AfPacketSocket(ifname, onFrames, onError, options)
 *     options: { batchSize, maxFrameBytes, receiveBufferBytes, sendBufferBytes }
 *     onFrames(batch: Buffer, count: number): see receive_path.c for the layout
 *     onError(error: Error): a receive-side error; the socket stays open
 *     sets: ifindex, kernelIgnoresOutgoing, linkWasDown, receiveBufferBytes, sendBufferBytes
 *   send(frames: Buffer[]): { sent, sentBytes, error }
 *                                       frames and bytes the kernel took; the rest were
 *                                       dropped, and error (else null) says why
 *   statistics(): { outgoingSkipped, truncated, kernelPackets, kernelDrops }
 *   ref() / unref()                     whether the open port keeps the event loop alive
 *   close()                             idempotent; releases the fd and the poll handle
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/js_errors.h"
#include "../common/js_values.h"
#include "../common/mmsg_send.h"
#include "../common/send_result.h"
#include "open_error_message.h"
#include "port.h"

enum { MAX_ARGS = 4 };

static const char NOT_THIS[] = "not an AfPacketSocket";

static void free_port(polled_socket *polled) {
  afp_port *port = afp_port_of(polled);
  afp_tx_free(&port->tx);
  free(port);
}

static const polled_socket_class PORT_CLASS = {
    .name = "AfPacketSocket",
    .socket_noun = "packet socket",
    .self_noun = "port",
    .deliver = afp_port_deliver,
    .recover_from_poll_error = afp_port_recover_from_poll_error,
    .free_owner = free_port,
};

static const js_limits BATCH_SIZE = {"batchSize", 64, 1, 1024};
static const js_limits MAX_FRAME_BYTES = {"maxFrameBytes", 65536 + 256, 64, 1u << 18};
static const js_limits RECEIVE_BUFFER = {"receiveBufferBytes", 4u << 20, 0, 1u << 30};
static const js_limits SEND_BUFFER = {"sendBufferBytes", 4u << 20, 0, 1u << 30};

/* Reads options[name] as an integer in [min, max]; false after throwing.
 * Unlike js_read_integer_option, options must be undefined or an object
 * (null and other values fail inside N-API), as this class always did. */
static bool read_option(napi_env env, napi_value options, const js_limits *spec, uint32_t *out) {
  *out = spec->fallback;
  napi_valuetype type;
  napi_value value;
  if (napi_typeof(env, options, &type) != napi_ok) return false;
  if (type == napi_undefined) return true;
  if (napi_get_named_property(env, options, spec->name, &value) != napi_ok) return false;
  if (napi_typeof(env, value, &type) != napi_ok) return false;
  if (type == napi_undefined) return true;
  char what[64];
  snprintf(what, sizeof what, "options.%s", spec->name);
  return js_read_integer(env, value, what, spec->min, spec->max, out);
}

static napi_value construct(napi_env env, napi_callback_info info) {
  size_t argc = MAX_ARGS;
  napi_value argv[MAX_ARGS], self;
  if (!js_read_constructor_call(env, info, &argc, argv, &self, "AfPacketSocket")) return NULL;
  napi_valuetype types[3] = {napi_undefined, napi_undefined, napi_undefined};
  for (size_t i = 0; i < 3 && i < argc; i++) napi_typeof(env, argv[i], &types[i]);
  if (argc < 3 || types[0] != napi_string || types[1] != napi_function || types[2] != napi_function) {
    napi_throw_type_error(env, NULL, "usage: new AfPacketSocket(ifname: string, onFrames: Function, onError: Function, options?)");
    return NULL;
  }
  napi_value options = argc > 3 ? argv[3] : NULL;
  if (options == NULL) napi_get_undefined(env, &options);

  /* Longer than any interface name, so that messages show what was asked. */
  char ifname[256];
  size_t name_length;
  if (napi_get_value_string_utf8(env, argv[0], ifname, sizeof ifname, &name_length) != napi_ok) return NULL;
  if (strlen(ifname) != name_length) {
    napi_throw_type_error(env, NULL, "an interface name cannot contain NUL characters");
    return NULL;
  }
  uint32_t batch_size, max_frame_bytes, receive_buffer, send_buffer;
  if (!read_option(env, options, &BATCH_SIZE, &batch_size) || !read_option(env, options, &MAX_FRAME_BYTES, &max_frame_bytes) ||
      !read_option(env, options, &RECEIVE_BUFFER, &receive_buffer) || !read_option(env, options, &SEND_BUFFER, &send_buffer))
    return NULL;

  afp_open_options open_options = {(int)receive_buffer, (int)send_buffer};
  afp_open_result opened;
  int error = afp_open(ifname, &open_options, &opened);
  if (error != 0) {
    char message[640];
    afp_describe_open_error(message, sizeof message, ifname, error, opened.failed_call, opened.link_type);
    return js_throw_errno(env, error, opened.failed_call, message);
  }

  afp_port *port = calloc(1, sizeof *port);
  if (port == NULL) {
    close(opened.fd);
    return js_throw_errno(env, ENOMEM, "calloc", "out of memory opening an AF_PACKET port");
  }
  polled_socket_init(&port->polled, &PORT_CLASS, env, opened.fd, port->ifname);
  port->ifindex = opened.ifindex;
  memcpy(port->ifname, ifname, name_length + 1); /* afp_open checked it fits */
  if (afp_rx_init(&port->polled.rx, batch_size, max_frame_bytes) != 0 || afp_tx_init(&port->tx, batch_size) != 0) {
    polled_socket_free_unstarted(&port->polled);
    return js_throw_errno(env, ENOMEM, "malloc", "out of memory for the port's frame buffers; lower batchSize or maxFrameBytes");
  }
  if (polled_socket_start(&port->polled, self, argv[1], argv[2]) == NULL) return NULL;

  if (!js_set_property(env, self, "ifindex", js_number(env, opened.ifindex)) ||
      !js_set_property(env, self, "kernelIgnoresOutgoing", js_boolean(env, opened.kernel_ignores_outgoing)) ||
      !js_set_property(env, self, "linkWasDown", js_boolean(env, opened.link_was_down)) ||
      !js_set_property(env, self, "receiveBufferBytes", js_number(env, opened.receive_buffer_bytes)) ||
      !js_set_property(env, self, "sendBufferBytes", js_number(env, opened.send_buffer_bytes))) {
    polled_socket_begin_close(&port->polled);
    polled_socket_release_js(&port->polled);
    return js_internal_failure(env, "AfPacketSocket", "setting the port's properties");
  }
  return self;
}

/* The port behind `this`, or NULL after throwing. */
static afp_port *unwrap_this(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv) {
  polled_socket *polled = js_unwrap_this(env, info, argc, argv, NOT_THIS);
  return polled == NULL ? NULL : afp_port_of(polled);
}

static napi_value throw_closed(napi_env env, const afp_port *port) {
  char message[96];
  snprintf(message, sizeof message, "the AF_PACKET port on %s is closed", port->ifname);
  return js_throw_errno(env, EBADF, NULL, message);
}

static napi_value send_frames(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value frames;
  afp_port *port = unwrap_this(env, info, &argc, &frames);
  if (port == NULL) return NULL;
  if (port->polled.closing) return throw_closed(env, port);
  bool is_array = false;
  uint32_t length;
  if (argc < 1 || napi_is_array(env, frames, &is_array) != napi_ok || !is_array ||
      napi_get_array_length(env, frames, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "send takes an array of Buffers");
    return NULL;
  }
  afp_tx_outcome total = {0, 0, 0, 0};
  for (uint32_t start = 0; start < length; start += port->tx.capacity) {
    unsigned count = length - start < port->tx.capacity ? length - start : port->tx.capacity;
    for (unsigned i = 0; i < count; i++) {
      napi_value element;
      void *data;
      size_t bytes;
      if (napi_get_element(env, frames, start + i, &element) != napi_ok) return NULL;
      if (napi_get_buffer_info(env, element, &data, &bytes) != napi_ok) {
        char message[96];
        snprintf(message, sizeof message, "frames[%u] is not a Buffer", start + i);
        napi_throw_type_error(env, NULL, message);
        return NULL;
      }
      afp_tx_stage(&port->tx, i, data, bytes);
    }
    if (port->polled.closing) return throw_closed(env, port); /* an element getter closed us */
    afp_tx_outcome outcome = afp_tx_send(port->polled.fd, &port->tx, count);
    total.sent += outcome.sent;
    total.sent_bytes += outcome.sent_bytes;
    if (outcome.last_error != 0) total.last_error = outcome.last_error;
    /* A full socket buffer will not drain within this call: drop the rest. */
    if (mmsg_buffer_full(outcome.last_error)) break;
  }
  return js_send_result(env, total.sent, total.sent_bytes, total.last_error, port->ifname, "");
}

static napi_value statistics(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  afp_port *port = unwrap_this(env, info, &argc, NULL);
  if (port == NULL) return NULL;
  afp_kernel_counts since_last;
  if (port->polled.fd >= 0 && afp_take_kernel_counts(port->polled.fd, &since_last) == 0) {
    port->kernel_total.packets += since_last.packets;
    port->kernel_total.drops += since_last.drops;
  }
  napi_value result;
  if (napi_create_object(env, &result) != napi_ok) return NULL;
  js_set_property(env, result, "outgoingSkipped", js_number(env, (double)port->outgoing_skipped));
  js_set_property(env, result, "truncated", js_number(env, (double)port->truncated));
  js_set_property(env, result, "kernelPackets", js_number(env, (double)port->kernel_total.packets));
  js_set_property(env, result, "kernelDrops", js_number(env, (double)port->kernel_total.drops));
  return result;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor methods[] = {
      {"send", NULL, send_frames, NULL, NULL, NULL, napi_default_method, NULL},
      {"statistics", NULL, statistics, NULL, NULL, NULL, napi_default_method, NULL},
      {"ref", NULL, polled_socket_ref, NULL, NULL, NULL, napi_default_method, (void *)NOT_THIS},
      {"unref", NULL, polled_socket_unref, NULL, NULL, NULL, napi_default_method, (void *)NOT_THIS},
      {"close", NULL, polled_socket_close, NULL, NULL, NULL, napi_default_method, (void *)NOT_THIS},
  };
  napi_value constructor;
  if (napi_define_class(env, "AfPacketSocket", NAPI_AUTO_LENGTH, construct, NULL, sizeof methods / sizeof methods[0], methods,
                        &constructor) != napi_ok ||
      napi_set_named_property(env, exports, "AfPacketSocket", constructor) != napi_ok)
    return NULL;
  return exports;
}
