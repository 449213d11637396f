/* Batched UDP send with GSO; see batch_io.h. */
#define _GNU_SOURCE
#include "batch_io.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdlib.h>
#include <string.h>

#include "../common/mmsg_send.h"

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif

int udpb_tx_init(udpb_tx *tx, unsigned message_capacity) {
  memset(tx, 0, sizeof *tx);
  tx->message_capacity = message_capacity;
  tx->frame_capacity = message_capacity * UDPB_MAX_SEGMENTS;
  tx->messages = calloc(message_capacity, sizeof *tx->messages);
  tx->vectors = calloc(tx->frame_capacity, sizeof *tx->vectors);
  tx->controls = calloc(message_capacity, sizeof *tx->controls);
  tx->first_frame = calloc(message_capacity, sizeof *tx->first_frame);
  tx->frames = calloc(message_capacity, sizeof *tx->frames);
  if (!tx->messages || !tx->vectors || !tx->controls || !tx->first_frame || !tx->frames) {
    udpb_tx_free(tx);
    return ENOMEM;
  }
  return 0;
}

void udpb_tx_free(udpb_tx *tx) {
  free(tx->messages);
  free(tx->vectors);
  free(tx->controls);
  free(tx->first_frame);
  free(tx->frames);
  memset(tx, 0, sizeof *tx);
}

void udpb_tx_stage(udpb_tx *tx, unsigned index, const void *data, size_t length) {
  tx->vectors[index].iov_base = (void *)data;
  tx->vectors[index].iov_len = length;
}

/* How many staged datagrams from `first` (of `count`) one GSO message can
 * carry: a run of one length, the last possibly shorter, within the limits. */
static unsigned run_length(const udpb_tx *tx, unsigned first, unsigned count) {
  size_t segment = tx->vectors[first].iov_len;
  if (segment == 0 || segment > UDPB_MAX_GSO_BYTES) return 1;
  size_t bytes = segment;
  unsigned run = 1;
  while (first + run < count && run < UDPB_MAX_SEGMENTS) {
    size_t next = tx->vectors[first + run].iov_len;
    if (next == 0 || next > segment || bytes + next > UDPB_MAX_GSO_BYTES) break;
    bytes += next;
    run++;
    if (next < segment) break; /* a shorter datagram ends the run */
  }
  return run;
}

/* Lays out messages for the staged datagrams from `first`: as many as fit
 * in tx->messages. Returns the number of messages. */
static unsigned plan_messages(udpb_tx *tx, unsigned first, unsigned count, const struct sockaddr *to, socklen_t to_length,
                              bool gso) {
  unsigned planned = 0;
  for (unsigned frame = first; frame < count && planned < tx->message_capacity; planned++) {
    unsigned run = gso ? run_length(tx, frame, count) : 1;
    struct msghdr *header = &tx->messages[planned].msg_hdr;
    memset(header, 0, sizeof *header);
    header->msg_name = (void *)to;
    header->msg_namelen = to == NULL ? 0 : to_length;
    header->msg_iov = &tx->vectors[frame];
    header->msg_iovlen = run;
    if (run > 1) {
      header->msg_control = tx->controls[planned].bytes;
      header->msg_controllen = sizeof tx->controls[planned].bytes;
      struct cmsghdr *control = CMSG_FIRSTHDR(header);
      control->cmsg_level = SOL_UDP;
      control->cmsg_type = UDP_SEGMENT;
      control->cmsg_len = CMSG_LEN(sizeof(uint16_t));
      uint16_t segment = (uint16_t)tx->vectors[frame].iov_len;
      memcpy(CMSG_DATA(control), &segment, sizeof segment);
    }
    tx->first_frame[planned] = frame;
    tx->frames[planned] = run;
    frame += run;
  }
  return planned;
}

static bool refuses_gso(int error) { return error == EIO || error == EINVAL || error == ENOPROTOOPT; }

udpb_tx_outcome udpb_tx_send(int fd, udpb_tx *tx, unsigned count, const struct sockaddr *to, socklen_t to_length,
                             bool *gso) {
  udpb_tx_outcome outcome = {0, 0, 0, 0, 0, 0};
  unsigned done = 0; /* datagrams sent or refused */
  unsigned planned = 0, next = 0; /* messages laid out, and the next one to send */
  int interrupted = 0;
  /* Each pass sends at least one message, skips one, re-plans once without
   * GSO, or stops: bounded by count + MMSG_MAX_EINTR_RETRIES + 1 passes. */
  while (done < count) {
    if (next == planned) {
      planned = plan_messages(tx, done, count, to, to_length, *gso);
      next = 0;
    }
    int sent = mmsg_send(fd, tx->messages + next, planned - next, &interrupted);
    if (sent > 0) {
      for (unsigned i = next; i < next + (unsigned)sent; i++) {
        outcome.sent += tx->frames[i];
        outcome.sent_bytes += tx->messages[i].msg_len;
        outcome.messages++;
        if (tx->frames[i] > 1) outcome.gso_messages++;
        done += tx->frames[i];
      }
      next += (unsigned)sent;
      continue;
    }
    int error = -sent;
    if (tx->frames[next] > 1 && refuses_gso(error)) {
      /* This kernel or route cannot segment: stop trying, resend one by one. */
      *gso = false;
      planned = next = 0;
      continue;
    }
    outcome.last_error = error;
    if (mmsg_buffer_full(error)) {
      outcome.refused += count - done;
      break;
    }
    outcome.refused += tx->frames[next];
    done += tx->frames[next];
    next++;
  }
  return outcome;
}
