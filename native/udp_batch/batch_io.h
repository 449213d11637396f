/*
 * Batched UDP receive (recvmmsg, with UDP GRO) and send (sendmmsg, with UDP
 * GSO) on a non-blocking socket. The buffers are allocated once per socket;
 * nothing here allocates per datagram or per batch.
 */
#ifndef P4INA_UDP_BATCH_BATCH_IO_H
#define P4INA_UDP_BATCH_BATCH_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "../common/mmsg_ring.h"

/* The kernel's limits for one GSO message: segments (UDP_MAX_SEGMENTS on
 * older kernels; newer ones allow more) and the payload of one IPv4 datagram. */
enum { UDPB_MAX_SEGMENTS = 64, UDPB_MAX_GSO_BYTES = 65507 };

/* The most messages one recvmmsg call takes (the batchSize option's maximum). */
enum { UDPB_MAX_RECEIVE_BATCH = 1024 };

/* The receive ring: slot_bytes is room for a whole GRO-coalesced message,
 * the addresses are the senders' struct sockaddr_storage. */
typedef mmsg_ring udpb_rx;

/* One received message: one datagram, or several of `segment` bytes (the
 * last may be shorter) that GRO coalesced. */
typedef struct udpb_message {
  const uint8_t *data;
  size_t length;
  size_t segment; /* bytes per datagram; == length for a plain datagram */
  bool truncated; /* longer than the ring's slot_bytes: dropped */
  bool has_drop_count;
  uint32_t drop_count; /* SO_RXQ_OVFL: the socket's drops so far */
  const struct sockaddr_storage *source;
} udpb_message;

/* 0 or ENOMEM; free with mmsg_ring_free, receive with mmsg_ring_receive. */
int udpb_rx_init(udpb_rx *rx, unsigned capacity, size_t message_bytes);
/* The sender of message `index`. */
const struct sockaddr_storage *udpb_rx_source(const udpb_rx *rx, unsigned index);
void udpb_rx_message(const udpb_rx *rx, unsigned index, udpb_message *message);
/* How many datagrams a message holds. */
unsigned udpb_message_datagrams(const udpb_message *message);

typedef union udpb_tx_control {
  struct cmsghdr align;
  char bytes[CMSG_SPACE(sizeof(uint16_t))];
} udpb_tx_control;

typedef struct udpb_tx {
  unsigned message_capacity; /* messages per sendmmsg call */
  unsigned frame_capacity;   /* datagrams staged at once: message_capacity * UDPB_MAX_SEGMENTS */
  struct mmsghdr *messages;
  struct iovec *vectors;       /* one per staged datagram */
  udpb_tx_control *controls;   /* one per message */
  unsigned *first_frame;       /* per message: its first staged datagram */
  unsigned *frames;            /* per message: how many datagrams it carries */
} udpb_tx;

int udpb_tx_init(udpb_tx *tx, unsigned message_capacity); /* 0 or ENOMEM */
void udpb_tx_free(udpb_tx *tx);
void udpb_tx_stage(udpb_tx *tx, unsigned index, const void *data, size_t length);

typedef struct udpb_tx_outcome {
  unsigned sent;        /* datagrams the kernel took */
  size_t sent_bytes;    /* their bytes */
  unsigned refused;     /* datagrams dropped; sent + refused = the count asked for */
  unsigned messages;    /* sendmmsg messages the kernel took */
  unsigned gso_messages; /* of which carried several datagrams */
  int last_error;       /* errno of the last refusal, 0 if none */
} udpb_tx_outcome;

/*
 * Sends the first `count` staged datagrams without blocking, to the
 * connected peer (`to` NULL) or to `to`. With *gso, runs of datagrams of one
 * length (the last may be shorter) leave as one message each; if the kernel
 * refuses GSO, *gso becomes false and the datagrams go one per message.
 * A datagram the kernel rejects is skipped; a full socket buffer drops the
 * rest, as a switch drops on a full egress queue.
 */
udpb_tx_outcome udpb_tx_send(int fd, udpb_tx *tx, unsigned count, const struct sockaddr *to, socklen_t to_length,
                             bool *gso);

#endif
