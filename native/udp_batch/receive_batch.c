/* Batched UDP receive with GRO; see batch_io.h. */
#define _GNU_SOURCE
#include "batch_io.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdlib.h>
#include <string.h>

#ifndef UDP_GRO
#define UDP_GRO 104
#endif

enum { MAX_EINTR_RETRIES = 4 };

int udpb_rx_init(udpb_rx *rx, unsigned capacity, size_t message_bytes) {
  memset(rx, 0, sizeof *rx);
  rx->capacity = capacity;
  rx->message_bytes = message_bytes;
  /* malloc of a large block maps pages lazily: memory is committed only for
   * the message lengths actually received. */
  rx->area = malloc((size_t)capacity * message_bytes);
  rx->messages = calloc(capacity, sizeof *rx->messages);
  rx->vectors = calloc(capacity, sizeof *rx->vectors);
  rx->sources = calloc(capacity, sizeof *rx->sources);
  rx->controls = calloc(capacity, sizeof *rx->controls);
  if (!rx->area || !rx->messages || !rx->vectors || !rx->sources || !rx->controls) {
    udpb_rx_free(rx);
    return ENOMEM;
  }
  for (unsigned i = 0; i < capacity; i++) {
    rx->vectors[i].iov_base = rx->area + (size_t)i * message_bytes;
    rx->vectors[i].iov_len = message_bytes;
  }
  return 0;
}

void udpb_rx_free(udpb_rx *rx) {
  free(rx->area);
  free(rx->messages);
  free(rx->vectors);
  free(rx->sources);
  free(rx->controls);
  memset(rx, 0, sizeof *rx);
}

int udpb_rx_receive(int fd, udpb_rx *rx) {
  /* The kernel overwrites the lengths and flags: reset them every call. */
  for (unsigned i = 0; i < rx->capacity; i++) {
    struct msghdr *header = &rx->messages[i].msg_hdr;
    header->msg_name = &rx->sources[i];
    header->msg_namelen = sizeof rx->sources[i];
    header->msg_iov = &rx->vectors[i];
    header->msg_iovlen = 1;
    header->msg_control = rx->controls[i].bytes;
    header->msg_controllen = sizeof rx->controls[i].bytes;
    header->msg_flags = 0;
    rx->messages[i].msg_len = 0;
  }
  for (int attempt = 0; attempt <= MAX_EINTR_RETRIES; attempt++) {
    int received = recvmmsg(fd, rx->messages, rx->capacity, MSG_DONTWAIT, NULL);
    if (received >= 0) return received;
    if (errno != EINTR) return -errno;
  }
  return -EINTR;
}

void udpb_rx_message(const udpb_rx *rx, unsigned index, udpb_message *message) {
  const struct mmsghdr *received = &rx->messages[index];
  struct msghdr *header = (struct msghdr *)&received->msg_hdr;
  memset(message, 0, sizeof *message);
  message->data = rx->vectors[index].iov_base;
  message->length = received->msg_len;
  message->segment = received->msg_len;
  message->truncated = (header->msg_flags & MSG_TRUNC) != 0;
  message->source = &rx->sources[index];
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
