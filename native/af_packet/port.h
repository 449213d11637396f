/*
 * One open AF_PACKET port as the addon holds it. Its socket, poll handle,
 * JavaScript references and receive ring are a polled_socket, which also
 * keeps the memory valid while libuv, JavaScript and Node's teardown each
 * hold on to it (native/common/polled_socket.h).
 */
#ifndef P4INA_AF_PACKET_PORT_H
#define P4INA_AF_PACKET_PORT_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/polled_socket.h"
#include "batch_io.h"
#include "packet_socket.h"

typedef struct afp_port {
  polled_socket polled; /* first: the polled_socket callbacks get the port through it */
  unsigned ifindex;
  char ifname[IF_NAMESIZE]; /* polled.label */
  afp_tx tx;

  uint64_t outgoing_skipped;
  uint64_t truncated;
  afp_kernel_counts kernel_total;
} afp_port;

_Static_assert(offsetof(afp_port, polled) == 0, "afp_port_of casts a polled_socket to its port");

static inline afp_port *afp_port_of(polled_socket *polled) { return (afp_port *)polled; }

/* The polled_socket_class callbacks (receive_path.c): onFrames for a
 * received batch, and what a poll error does. */
void afp_port_deliver(polled_socket *polled, unsigned received);
void afp_port_recover_from_poll_error(polled_socket *polled, int status);

#endif
