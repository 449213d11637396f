/*
 * A recvmmsg ring: buffers for `capacity` messages, each with room for its
 * data, its sender's address and its control messages, allocated once per
 * socket; nothing here allocates per message or per batch. The two addons
 * differ only in the address and control sizes they ask for.
 */
#ifndef P4INA_COMMON_MMSG_RING_H
#define P4INA_COMMON_MMSG_RING_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

typedef struct mmsg_ring {
  unsigned capacity;    /* messages per recvmmsg call */
  size_t slot_bytes;    /* room per message; longer ones come back with MSG_TRUNC */
  size_t address_bytes; /* room per sender address */
  size_t control_bytes; /* room per message's control messages (a CMSG_SPACE sum) */
  uint8_t *area;        /* capacity * slot_bytes */
  struct mmsghdr *messages;
  struct iovec *vectors;
  uint8_t *addresses; /* capacity * address_bytes */
  uint8_t *controls;  /* capacity * control_bytes */
} mmsg_ring;

/* 0 or ENOMEM (nothing left allocated). */
int mmsg_ring_init(mmsg_ring *ring, unsigned capacity, size_t slot_bytes, size_t address_bytes, size_t control_bytes);
void mmsg_ring_free(mmsg_ring *ring);

/* Receives up to ring->capacity messages without blocking: the count (> 0),
 * or -errno (-EAGAIN when nothing is queued). */
int mmsg_ring_receive(int fd, mmsg_ring *ring);

/* Where message `index`'s sender address was written. */
static inline const void *mmsg_ring_address(const mmsg_ring *ring, unsigned index) {
  return ring->addresses + (size_t)index * ring->address_bytes;
}

#endif
