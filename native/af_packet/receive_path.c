/*
 * Received frames to JavaScript (native/common/polled_socket_receive.c
 * reads the batches), and what a poll error does.
 *
 * A batch reaches JavaScript as one Buffer: `count` little-endian uint32
 * frame lengths, then the frames back to back. One allocation per batch,
 * none per frame.
 */
#include "port.h"

#include <errno.h>

#include "../common/write_le32.h"

void afp_port_deliver(polled_socket *polled, unsigned received) {
  afp_port *port = afp_port_of(polled);
  afp_frame frame;
  size_t frame_bytes = 0;
  unsigned kept = 0;
  for (unsigned i = 0; i < received; i++) {
    switch (afp_rx_frame(&polled->rx, i, &frame)) {
      case AFP_FRAME_KEEP:
        frame_bytes += afp_frame_wire_length(&frame);
        kept++;
        break;
      case AFP_FRAME_OUTGOING:
        port->outgoing_skipped++;
        break;
      case AFP_FRAME_TRUNCATED:
        port->truncated++;
        break;
    }
  }
  if (kept == 0) return;

  napi_env env = polled->env;
  size_t header_bytes = (size_t)kept * 4;
  void *data;
  napi_value batch, count;
  if (napi_create_buffer(env, header_bytes + frame_bytes, &data, &batch) != napi_ok) {
    polled_socket_report_error(polled, ENOMEM, "napi_create_buffer", "allocating a receive batch");
    return;
  }
  uint8_t *lengths = data;
  uint8_t *frames = lengths + header_bytes;
  unsigned slot = 0;
  for (unsigned i = 0; i < received; i++) {
    if (afp_rx_frame(&polled->rx, i, &frame) != AFP_FRAME_KEEP) continue;
    size_t length = afp_frame_wire_length(&frame);
    write_le32(lengths + 4 * slot++, (uint32_t)length);
    afp_frame_copy(&frame, frames);
    frames += length;
  }
  if (napi_create_uint32(env, kept, &count) != napi_ok) return;
  napi_value argv[2] = {batch, count};
  polled_socket_call_js(polled, polled->on_data, 2, argv);
}

/* libuv stops the handle when epoll reports POLLERR. A pending socket error
 * (ENETDOWN when the link goes down) is taken, reported, and polling goes on. */
void afp_port_recover_from_poll_error(polled_socket *polled, int status) {
  int error = afp_take_socket_error(polled->fd);
  bool explained = error != 0;
  if (!explained) {
    polled->unexplained_poll_errors++;
    error = -status;
  }
  polled_socket_report_error(polled, error, "poll", "waiting for frames");
  if (polled->closing) return;
  if (polled->unexplained_poll_errors >= POLLED_MAX_UNEXPLAINED_POLL_ERRORS) {
    uv_poll_stop(&polled->poll);
    polled_socket_report_error(polled, error, "poll", "receiving stopped after repeated poll errors; reopen the port");
    return;
  }
  polled_socket_resume(polled);
}
