/*
 * Received datagrams to JavaScript (native/common/polled_socket_receive.c
 * reads the batches), and what a poll error does.
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
#include <string.h>

#include "../common/write_le32.h"
#include "socket_setup.h"

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

static napi_value sources_array(polled_socket *polled, const senders *found) {
  napi_env env = polled->env;
  napi_value array;
  if (napi_create_array_with_length(env, found->count, &array) != napi_ok) return NULL;
  for (unsigned s = 0; s < found->count; s++) {
    char text[INET6_ADDRSTRLEN];
    uint16_t port = 0;
    napi_value entry, address, number;
    if (!udpb_format_address(udpb_rx_source(&polled->rx, found->first_message[s]), text, sizeof text, &port)) text[0] = '\0';
    if (napi_create_object(env, &entry) != napi_ok || napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &address) != napi_ok ||
        napi_create_uint32(env, port, &number) != napi_ok || napi_set_named_property(env, entry, "address", address) != napi_ok ||
        napi_set_named_property(env, entry, "port", number) != napi_ok || napi_set_element(env, array, s, entry) != napi_ok)
      return NULL;
  }
  return array;
}

void udpb_socket_deliver(polled_socket *polled, unsigned received) {
  udpb_socket *socket = udpb_socket_of(polled);
  udpb_message message;
  unsigned kept[UDPB_MAX_RECEIVE_BATCH];
  unsigned kept_count = 0, datagrams = 0;
  size_t bytes = 0;
  for (unsigned i = 0; i < received; i++) {
    udpb_rx_message(&polled->rx, i, &message);
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

  napi_env env = polled->env;
  size_t header_bytes = (size_t)datagrams * 4;
  void *data;
  napi_value batch, count, sources, origins;
  if (napi_create_buffer(env, header_bytes + bytes, &data, &batch) != napi_ok) {
    polled_socket_report_error(polled, ENOMEM, "napi_create_buffer", "allocating a receive batch");
    return;
  }
  senders found;
  find_senders(&polled->rx, kept, kept_count, &found);
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
    udpb_rx_message(&polled->rx, kept[k], &message);
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
  sources = sources_array(polled, &found);
  if (sources == NULL || napi_create_uint32(env, datagrams, &count) != napi_ok) return;
  napi_value argv[4] = {batch, count, sources, origins};
  polled_socket_call_js(polled, polled->on_data, 4, argv);
}

/* libuv stops the handle when epoll reports POLLERR, which on a UDP socket
 * means a pending error (an ICMP error for an earlier send): it is taken,
 * reported, and polling goes on. */
void udpb_socket_recover_from_poll_error(polled_socket *polled, int status) {
  int error = udpb_take_socket_error(polled->fd);
  if (error != 0) {
    polled->unexplained_poll_errors = 0;
    polled_socket_report_error(polled, error, "poll", "sending (reported later by the kernel)");
  } else if (++polled->unexplained_poll_errors >= POLLED_MAX_UNEXPLAINED_POLL_ERRORS) {
    /* A send already took the error: harmless once, a busy loop if endless. */
    polled_socket_report_error(polled, -status, "poll", "receiving stopped after repeated poll errors; reopen the socket");
    return;
  }
  if (polled->closing) return;
  polled_socket_resume(polled);
}
