/* See mmsg_ring.h. */
#define _GNU_SOURCE
#include "mmsg_ring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mmsg_send.h"

int mmsg_ring_init(mmsg_ring *ring, unsigned capacity, size_t slot_bytes, size_t address_bytes, size_t control_bytes) {
  memset(ring, 0, sizeof *ring);
  ring->capacity = capacity;
  ring->slot_bytes = slot_bytes;
  ring->address_bytes = address_bytes;
  ring->control_bytes = control_bytes;
  /* malloc of a large block maps pages lazily: memory is committed only for
   * the message lengths actually received. */
  ring->area = malloc((size_t)capacity * slot_bytes);
  ring->messages = calloc(capacity, sizeof *ring->messages);
  ring->vectors = calloc(capacity, sizeof *ring->vectors);
  /* calloc aligns the blocks; address_bytes and control_bytes (a sizeof and
   * a CMSG_SPACE) keep every element aligned too. */
  ring->addresses = calloc(capacity, address_bytes);
  ring->controls = calloc(capacity, control_bytes);
  if (!ring->area || !ring->messages || !ring->vectors || !ring->addresses || !ring->controls) {
    mmsg_ring_free(ring);
    return ENOMEM;
  }
  for (unsigned i = 0; i < capacity; i++) {
    ring->vectors[i].iov_base = ring->area + (size_t)i * slot_bytes;
    ring->vectors[i].iov_len = slot_bytes;
  }
  return 0;
}

void mmsg_ring_free(mmsg_ring *ring) {
  free(ring->area);
  free(ring->messages);
  free(ring->vectors);
  free(ring->addresses);
  free(ring->controls);
  memset(ring, 0, sizeof *ring);
}

int mmsg_ring_receive(int fd, mmsg_ring *ring) {
  /* The kernel overwrites the lengths and flags: reset them every call. */
  for (unsigned i = 0; i < ring->capacity; i++) {
    struct msghdr *header = &ring->messages[i].msg_hdr;
    header->msg_name = ring->addresses + (size_t)i * ring->address_bytes;
    header->msg_namelen = (socklen_t)ring->address_bytes;
    header->msg_iov = &ring->vectors[i];
    header->msg_iovlen = 1;
    header->msg_control = ring->controls + (size_t)i * ring->control_bytes;
    header->msg_controllen = ring->control_bytes;
    header->msg_flags = 0;
    ring->messages[i].msg_len = 0;
  }
  for (int attempt = 0; attempt <= MMSG_MAX_EINTR_RETRIES; attempt++) {
    int received = recvmmsg(fd, ring->messages, ring->capacity, MSG_DONTWAIT, NULL);
    if (received >= 0) return received;
    if (errno != EINTR) return -errno;
  }
  return -EINTR;
}
