/*
 * Batched receive (recvmmsg) and send (sendmmsg) on a non-blocking AF_PACKET
 * socket. The buffers are allocated once per socket; nothing here allocates
 * per frame or per batch.
 */
#ifndef P4INA_AF_PACKET_BATCH_IO_H
#define P4INA_AF_PACKET_BATCH_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <linux/if_packet.h>

#include "../common/mmsg_ring.h"

/* The receive ring: slot_bytes is the longest frame kept (longer ones are
 * truncated and dropped), the addresses are struct sockaddr_ll. */
typedef mmsg_ring afp_rx;

typedef enum afp_frame_kind {
  AFP_FRAME_KEEP,      /* a frame that arrived from the wire */
  AFP_FRAME_OUTGOING,  /* one the interface sent: not ours to receive */
  AFP_FRAME_TRUNCATED, /* longer than the ring's slot_bytes */
} afp_frame_kind;

/* One received frame, and the VLAN tag the kernel stripped from it, if any. */
typedef struct afp_frame {
  const uint8_t *data;
  size_t length;
  bool has_vlan_tag;
  uint16_t vlan_tpid;
  uint16_t vlan_tci;
} afp_frame;

/* 0 or ENOMEM; free with mmsg_ring_free, receive with mmsg_ring_receive. */
int afp_rx_init(afp_rx *rx, unsigned capacity, size_t frame_bytes);
afp_frame_kind afp_rx_frame(const afp_rx *rx, unsigned index, afp_frame *frame);
/* The frame's length on the wire: with its VLAN tag put back. */
size_t afp_frame_wire_length(const afp_frame *frame);
/* Writes the frame as it was on the wire (afp_frame_wire_length bytes). */
void afp_frame_copy(const afp_frame *frame, uint8_t *destination);

typedef struct afp_tx {
  unsigned capacity;
  struct mmsghdr *messages;
  struct iovec *vectors;
} afp_tx;

int afp_tx_init(afp_tx *tx, unsigned capacity); /* 0 or ENOMEM */
void afp_tx_free(afp_tx *tx);
void afp_tx_stage(afp_tx *tx, unsigned index, const void *data, size_t length);

typedef struct afp_tx_outcome {
  unsigned sent;     /* frames the kernel took */
  size_t sent_bytes; /* their bytes */
  unsigned refused;  /* frames dropped; sent + refused = the count asked for */
  int last_error;    /* errno of the last refusal, 0 if none */
} afp_tx_outcome;

/* Sends the first `count` staged frames without blocking. A frame the kernel
 * rejects (too long, too short) is skipped; a full socket buffer drops the
 * rest, as a switch drops on a full egress queue. */
afp_tx_outcome afp_tx_send(int fd, afp_tx *tx, unsigned count);

#endif
