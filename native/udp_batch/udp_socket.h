/*
 * One open batched UDP socket as the addon holds it. Its socket, poll
 * handle, JavaScript references and receive ring are a polled_socket, which
 * also keeps the memory valid while libuv, JavaScript and Node's teardown
 * each hold on to it (native/common/polled_socket.h).
 */
#ifndef P4INA_UDP_BATCH_UDP_SOCKET_H
#define P4INA_UDP_BATCH_UDP_SOCKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/polled_socket.h"
#include "batch_io.h"

typedef struct udpb_counts {
  uint64_t received_messages;  /* recvmmsg messages */
  uint64_t received_datagrams; /* datagrams after GRO splitting */
  uint64_t gro_messages;       /* messages that held several datagrams */
  uint64_t truncated;          /* messages longer than the buffer: dropped */
  uint64_t kernel_drops;       /* SO_RXQ_OVFL: dropped for a full receive buffer */
  uint64_t sent_messages;      /* sendmmsg messages the kernel took */
  uint64_t sent_datagrams;
  uint64_t gso_messages;       /* sent messages that carried several datagrams */
  uint64_t send_refused;       /* datagrams send() dropped */
} udpb_counts;

typedef struct udpb_socket {
  polled_socket polled; /* first: the polled_socket callbacks get the socket through it */
  int family; /* AF_INET or AF_INET6 */
  bool connected;
  bool gso; /* send with UDP_SEGMENT; false once the kernel refused it */
  bool gro; /* UDP_GRO is on */
  char label[80]; /* "UDP socket 127.0.0.1:4000", for messages (polled.label) */
  udpb_tx tx;
  udpb_counts counts;
} udpb_socket;

_Static_assert(offsetof(udpb_socket, polled) == 0, "udpb_socket_of casts a polled_socket to its socket");

static inline udpb_socket *udpb_socket_of(polled_socket *polled) { return (udpb_socket *)polled; }

/* The polled_socket_class callbacks (receive_path.c): onDatagrams for a
 * received batch, and what a poll error does. */
void udpb_socket_deliver(polled_socket *polled, unsigned received);
void udpb_socket_recover_from_poll_error(polled_socket *polled, int status);

#endif
