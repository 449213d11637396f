/* Batched AF_PACKET I/O; see batch_io.h. */
#define _GNU_SOURCE
#include "batch_io.h"

#include <errno.h>
#include <linux/if_ether.h>
#include <stdlib.h>
#include <string.h>

#include "../common/mmsg_send.h"

#ifndef TP_STATUS_VLAN_TPID_VALID
#define TP_STATUS_VLAN_TPID_VALID (1 << 6)
#endif

enum { MAC_ADDRESSES_BYTES = 12, VLAN_TAG_BYTES = 4 };

int afp_rx_init(afp_rx *rx, unsigned capacity, size_t frame_bytes) {
  /* Room for the one control message we ask for (PACKET_AUXDATA). */
  return mmsg_ring_init(rx, capacity, frame_bytes, sizeof(struct sockaddr_ll), CMSG_SPACE(sizeof(struct tpacket_auxdata)));
}

static const struct tpacket_auxdata *find_auxdata(const struct msghdr *header) {
  for (struct cmsghdr *message = CMSG_FIRSTHDR((struct msghdr *)header); message != NULL;
       message = CMSG_NXTHDR((struct msghdr *)header, message)) {
    if (message->cmsg_level == SOL_PACKET && message->cmsg_type == PACKET_AUXDATA &&
        message->cmsg_len >= CMSG_LEN(sizeof(struct tpacket_auxdata)))
      return (const struct tpacket_auxdata *)CMSG_DATA(message);
  }
  return NULL;
}

afp_frame_kind afp_rx_frame(const afp_rx *rx, unsigned index, afp_frame *frame) {
  const struct mmsghdr *message = &rx->messages[index];
  memset(frame, 0, sizeof *frame);
  frame->data = rx->vectors[index].iov_base;
  frame->length = message->msg_len;
  const struct sockaddr_ll *source = mmsg_ring_address(rx, index);
  if (source->sll_pkttype == PACKET_OUTGOING) return AFP_FRAME_OUTGOING;
  if (message->msg_hdr.msg_flags & MSG_TRUNC) return AFP_FRAME_TRUNCATED;

  const struct tpacket_auxdata *aux = find_auxdata(&message->msg_hdr);
  /* As libpcap does: a stripped tag is valid when flagged or non-zero. */
  if (aux != NULL && (aux->tp_vlan_tci != 0 || (aux->tp_status & TP_STATUS_VLAN_VALID)) &&
      frame->length >= MAC_ADDRESSES_BYTES) {
    frame->has_vlan_tag = true;
    frame->vlan_tci = aux->tp_vlan_tci;
    frame->vlan_tpid = (aux->tp_status & TP_STATUS_VLAN_TPID_VALID) ? aux->tp_vlan_tpid : ETH_P_8021Q;
  }
  return AFP_FRAME_KEEP;
}

size_t afp_frame_wire_length(const afp_frame *frame) {
  return frame->length + (frame->has_vlan_tag ? VLAN_TAG_BYTES : 0);
}

void afp_frame_copy(const afp_frame *frame, uint8_t *destination) {
  if (!frame->has_vlan_tag) {
    memcpy(destination, frame->data, frame->length);
    return;
  }
  memcpy(destination, frame->data, MAC_ADDRESSES_BYTES);
  uint8_t *tag = destination + MAC_ADDRESSES_BYTES;
  tag[0] = (uint8_t)(frame->vlan_tpid >> 8);
  tag[1] = (uint8_t)frame->vlan_tpid;
  tag[2] = (uint8_t)(frame->vlan_tci >> 8);
  tag[3] = (uint8_t)frame->vlan_tci;
  memcpy(tag + VLAN_TAG_BYTES, frame->data + MAC_ADDRESSES_BYTES, frame->length - MAC_ADDRESSES_BYTES);
}

int afp_tx_init(afp_tx *tx, unsigned capacity) {
  memset(tx, 0, sizeof *tx);
  tx->capacity = capacity;
  tx->messages = calloc(capacity, sizeof *tx->messages);
  tx->vectors = calloc(capacity, sizeof *tx->vectors);
  if (!tx->messages || !tx->vectors) {
    afp_tx_free(tx);
    return ENOMEM;
  }
  for (unsigned i = 0; i < capacity; i++) {
    tx->messages[i].msg_hdr.msg_iov = &tx->vectors[i];
    tx->messages[i].msg_hdr.msg_iovlen = 1;
  }
  return 0;
}

void afp_tx_free(afp_tx *tx) {
  free(tx->messages);
  free(tx->vectors);
  memset(tx, 0, sizeof *tx);
}

void afp_tx_stage(afp_tx *tx, unsigned index, const void *data, size_t length) {
  tx->vectors[index].iov_base = (void *)data;
  tx->vectors[index].iov_len = length;
}

afp_tx_outcome afp_tx_send(int fd, afp_tx *tx, unsigned count) {
  afp_tx_outcome outcome = {0, 0, 0, 0};
  unsigned done = 0;
  int interrupted = 0;
  /* Each pass sends at least one frame, skips one, or stops: at most
   * count + MMSG_MAX_EINTR_RETRIES passes. */
  while (done < count) {
    int sent = mmsg_send(fd, tx->messages + done, count - done, &interrupted);
    if (sent > 0) {
      for (int i = 0; i < sent; i++) outcome.sent_bytes += tx->messages[done + (unsigned)i].msg_len;
      done += (unsigned)sent;
      outcome.sent += (unsigned)sent;
      continue;
    }
    outcome.last_error = -sent;
    if (mmsg_buffer_full(-sent)) {
      outcome.refused += count - done;
      break;
    }
    outcome.refused += 1;
    done += 1;
  }
  return outcome;
}
