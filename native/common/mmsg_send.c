/* See mmsg_send.h. */
#define _GNU_SOURCE
#include "mmsg_send.h"

#include <errno.h>

int mmsg_send(int fd, struct mmsghdr *messages, unsigned count, int *interrupted) {
  for (;;) {
    int sent = sendmmsg(fd, messages, count, MSG_DONTWAIT);
    if (sent > 0) return sent;
    int error = sent == 0 ? EIO : errno;
    if (error == EINTR && (*interrupted)++ < MMSG_MAX_EINTR_RETRIES) continue;
    return -error;
  }
}

bool mmsg_buffer_full(int error) { return error == EAGAIN || error == EWOULDBLOCK || error == ENOBUFS; }
