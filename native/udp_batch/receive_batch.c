/* Batched UDP receive with GRO; see batch_io.h. */
#define _GNU_SOURCE
#include "batch_io.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <string.h>

#ifndef UDP_GRO
#define UDP_GRO 104
#endif

int udpb_rx_init(udpb_rx *rx, unsigned capacity, size_t message_bytes) {
  /* Room for the control messages we ask for: UDP_GRO (an int) and
   * SO_RXQ_OVFL (a uint32 drop counter). */
  return mmsg_ring_init(rx, capacity, message_bytes, sizeof(struct sockaddr_storage),
                        CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(uint32_t)));
}

const struct sockaddr_storage *udpb_rx_source(const udpb_rx *rx, unsigned index) { return mmsg_ring_address(rx, index); }

void udpb_rx_message(const udpb_rx *rx, unsigned index, udpb_message *message) {
  const struct mmsghdr *received = &rx->messages[index];
  struct msghdr *header = (struct msghdr *)&received->msg_hdr;
  memset(message, 0, sizeof *message);
  message->data = rx->vectors[index].iov_base;
  message->length = received->msg_len;
  message->segment = received->msg_len;
  message->truncated = (header->msg_flags & MSG_TRUNC) != 0;
  message->source = udpb_rx_source(rx, index);
  for (struct cmsghdr *control = CMSG_FIRSTHDR(header); control != NULL; control = CMSG_NXTHDR(header, control)) {
    if (control->cmsg_level == SOL_UDP && control->cmsg_type == UDP_GRO && control->cmsg_len >= CMSG_LEN(sizeof(int))) {
      int segment;
      memcpy(&segment, CMSG_DATA(control), sizeof segment);
      if (segment > 0 && (size_t)segment < message->length) message->segment = (size_t)segment;
    } else if (control->cmsg_level == SOL_SOCKET && control->cmsg_type == SO_RXQ_OVFL &&
               control->cmsg_len >= CMSG_LEN(sizeof(uint32_t))) {
      memcpy(&message->drop_count, CMSG_DATA(control), sizeof message->drop_count);
      message->has_drop_count = true;
    }
  }
}

unsigned udpb_message_datagrams(const udpb_message *message) {
  if (message->segment == 0 || message->segment >= message->length) return 1;
  return (unsigned)((message->length + message->segment - 1) / message->segment);
}
