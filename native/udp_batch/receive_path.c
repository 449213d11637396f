/*
 * From a readable socket to JavaScript: up to MAX_BATCHES_PER_WAKEUP
 * recvmmsg batches per libuv wake-up (then back to the event loop, which
 * wakes us again while datagrams remain), one JavaScript call per batch.
 *
 * A batch reaches JavaScript as onDatagrams(batch, count, sources, origins):
 * - batch: one Buffer, `count` little-endian uint32 datagram lengths, then
 *   the datagrams back to back (GRO-coalesced messages split again);
 * - sources: the batch's distinct senders, [{ address, port }, …];
 * - origins: null when every datagram came from sources[0] (always so on a
 *   connected socket), else a Buffer of `count` little-endian uint16 indexes
 *   into sources.
 * One Buffer per batch (two with mixed senders), none per datagram.
 */
#include "udp_socket.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "../common/js_errors.h"
#include "socket_setup.h"

enum {
  MAX_BATCHES_PER_WAKEUP = 8,
  /* POLLERR with no socket error to take would wake us forever. */
  MAX_UNEXPLAINED_POLL_ERRORS = 16,
};

/* Calls a JavaScript callback as a libuv-driven event: microtasks and
 * nextTicks run after it, and a throw becomes an uncaught exception, as a
 * throw in a 'message' listener of a dgram socket does. */
static void call_js(udpb_socket *socket, napi_ref callback, size_t argc, const napi_value *argv) {
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

static void report_error(udpb_socket *socket, int error, const char *syscall, const char *what) {
  char message[256];
  snprintf(message, sizeof message, "%s on %s failed: %s", what, socket->label, strerror(error));
  napi_value value = js_errno_error(socket->env, error, syscall, message);
  if (value != NULL) call_js(socket, socket->on_error, 1, &value);
}

static void write_le32(uint8_t *out, uint32_t value) {
  out[0] = (uint8_t)value;
  out[1] = (uint8_t)(value >> 8);
  out[2] = (uint8_t)(value >> 16);
  out[3] = (uint8_t)(value >> 24);
}

/* The distinct senders of a batch: indexes of their first message. */
typedef struct senders {
  unsigned count;
  unsigned first_message[UDPB_MAX_RECEIVE_BATCH];
  uint16_t of_message[UDPB_MAX_RECEIVE_BATCH];
} senders;

static void find_senders(const udpb_rx *rx, const unsigned *kept, unsigned kept_count, senders *out) {
  out->count = 0;
  for (unsigned k = 0; k < kept_count; k++) {
    const struct sockaddr_storage *source = udpb_rx_source(rx, kept[k]);
    unsigned s = 0;
    while (s < out->count && !udpb_same_address(udpb_rx_source(rx, out->first_message[s]), source)) s++;
    if (s == out->count) out->first_message[out->count++] = kept[k];
    out->of_message[k] = (uint16_t)s;
  }
}

static napi_value sources_array(udpb_socket *socket, const senders *found) {
  napi_env env = socket->env;
  napi_value array;
  if (napi_create_array_with_length(env, found->count, &array) != napi_ok) return NULL;
  for (unsigned s = 0; s < found->count; s++) {
    char text[INET6_ADDRSTRLEN];
    uint16_t port = 0;
    napi_value entry, address, number;
    if (!udpb_format_address(udpb_rx_source(&socket->rx, found->first_message[s]), text, sizeof text, &port)) text[0] = '\0';
    if (napi_create_object(env, &entry) != napi_ok || napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &address) != napi_ok ||
        napi_create_uint32(env, port, &number) != napi_ok || napi_set_named_property(env, entry, "address", address) != napi_ok ||
        napi_set_named_property(env, entry, "port", number) != napi_ok || napi_set_element(env, array, s, entry) != napi_ok)
      return NULL;
  }
  return array;
}

static void deliver(udpb_socket *socket, unsigned received) {
  udpb_message message;
  unsigned kept[UDPB_MAX_RECEIVE_BATCH];
  unsigned kept_count = 0, datagrams = 0;
  size_t bytes = 0;
  for (unsigned i = 0; i < received; i++) {
    udpb_rx_message(&socket->rx, i, &message);
    socket->counts.received_messages++;
    if (message.has_drop_count) socket->counts.kernel_drops = message.drop_count;
    if (message.truncated) {
      socket->counts.truncated++;
      continue;
    }
    unsigned in_message = udpb_message_datagrams(&message);
    if (in_message > 1) socket->counts.gro_messages++;
    datagrams += in_message;
    bytes += message.length;
    kept[kept_count++] = i;
  }
  if (kept_count == 0) return;
  socket->counts.received_datagrams += datagrams;

  napi_env env = socket->env;
  size_t header_bytes = (size_t)datagrams * 4;
  void *data;
  napi_value batch, count, sources, origins;
  if (napi_create_buffer(env, header_bytes + bytes, &data, &batch) != napi_ok) {
    report_error(socket, ENOMEM, "napi_create_buffer", "allocating a receive batch");
    return;
  }
  senders found;
  find_senders(&socket->rx, kept, kept_count, &found);
  uint8_t *origin_bytes = NULL;
  if (found.count > 1) {
    void *origin_data;
    if (napi_create_buffer(env, (size_t)datagrams * 2, &origin_data, &origins) != napi_ok) return;
    origin_bytes = origin_data;
  } else if (napi_get_null(env, &origins) != napi_ok) {
    return;
  }
  uint8_t *lengths = data;
  uint8_t *out = lengths + header_bytes;
  unsigned slot = 0;
  for (unsigned k = 0; k < kept_count; k++) {
    udpb_rx_message(&socket->rx, kept[k], &message);
    memcpy(out, message.data, message.length);
    out += message.length;
    for (size_t offset = 0; offset < message.length; offset += message.segment) {
      size_t length = message.length - offset < message.segment ? message.length - offset : message.segment;
      if (origin_bytes != NULL) {
        origin_bytes[2 * slot] = (uint8_t)found.of_message[k];
        origin_bytes[2 * slot + 1] = (uint8_t)(found.of_message[k] >> 8);
      }
      write_le32(lengths + 4 * slot++, (uint32_t)length);
    }
  }
  sources = sources_array(socket, &found);
  if (sources == NULL || napi_create_uint32(env, datagrams, &count) != napi_ok) return;
  napi_value argv[4] = {batch, count, sources, origins};
  call_js(socket, socket->on_datagrams, 4, argv);
}

static void receive_batches(udpb_socket *socket) {
  for (int batch = 0; batch < MAX_BATCHES_PER_WAKEUP && !socket->closing; batch++) {
    int received = mmsg_ring_receive(socket->fd, &socket->rx);
    if (received == -EAGAIN || received == -EWOULDBLOCK) return;
    if (received < 0) {
      /* ECONNREFUSED and the like: an ICMP error for an earlier send on a
       * connected socket. The socket stays usable. */
      report_error(socket, -received, "recvmmsg", "receiving");
      return;
    }
    socket->unexplained_poll_errors = 0;
    deliver(socket, (unsigned)received);
    if ((unsigned)received < socket->rx.capacity) return;
  }
}

/* libuv stops the handle when epoll reports POLLERR, which on a UDP socket
 * means a pending error (an ICMP error for an earlier send): it is taken,
 * reported, and polling goes on. */
static void recover_from_poll_error(udpb_socket *socket, int status) {
  int error = udpb_take_socket_error(socket->fd);
  if (error != 0) {
    socket->unexplained_poll_errors = 0;
    report_error(socket, error, "poll", "sending (reported later by the kernel)");
  } else if (++socket->unexplained_poll_errors >= MAX_UNEXPLAINED_POLL_ERRORS) {
    /* A send already took the error: harmless once, a busy loop if endless. */
    report_error(socket, -status, "poll", "receiving stopped after repeated poll errors; reopen the socket");
    return;
  }
  if (socket->closing) return;
  int restart = uv_poll_start(&socket->poll, UV_READABLE, udpb_socket_on_poll);
  if (restart < 0) report_error(socket, -restart, "uv_poll_start", "resuming receive");
}

void udpb_socket_on_poll(uv_poll_t *handle, int status, int events) {
  udpb_socket *socket = handle->data;
  if (socket->closing) return;
  napi_handle_scope scope;
  if (napi_open_handle_scope(socket->env, &scope) != napi_ok) return;
  if (status < 0) recover_from_poll_error(socket, status);
  else if (events & UV_READABLE) receive_batches(socket);
  napi_close_handle_scope(socket->env, scope);
}
