/* The sendmmsg call both addons' send loops make, and how they read its errors. */
#ifndef P4INA_COMMON_MMSG_SEND_H
#define P4INA_COMMON_MMSG_SEND_H

#include <stdbool.h>
#include <sys/socket.h>

/* Declared by <sys/socket.h> only with _GNU_SOURCE, which not every includer defines. */
struct mmsghdr;

/* EINTR retries per recvmmsg call, and per send call (across its sendmmsg calls). */
enum { MMSG_MAX_EINTR_RETRIES = 4 };

/* sendmmsg without blocking: the messages sent (> 0), or an errno value
 * negated (-EIO when the kernel took none without saying why). EINTR is
 * retried while `*interrupted`, counted across one send call's passes,
 * stays within MMSG_MAX_EINTR_RETRIES. */
int mmsg_send(int fd, struct mmsghdr *messages, unsigned count, int *interrupted);

/* A full socket buffer: it will not drain within this call, so the rest of
 * the batch is dropped, as a switch drops on a full egress queue. */
bool mmsg_buffer_full(int error);

#endif
