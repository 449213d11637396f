/*
 * Opening and configuring one AF_PACKET socket on one interface. Plain POSIX
 * and Linux calls only, no N-API: the addon turns the errno values returned
 * here into JavaScript errors.
 */
#ifndef P4INA_AF_PACKET_PACKET_SOCKET_H
#define P4INA_AF_PACKET_PACKET_SOCKET_H

#include <stdbool.h>
#include <stdint.h>

typedef struct afp_open_options {
  int receive_buffer_bytes; /* SO_RCVBUF request; 0 keeps the kernel default */
  int send_buffer_bytes;    /* SO_SNDBUF request; 0 keeps the kernel default */
} afp_open_options;

typedef struct afp_open_result {
  int fd;
  unsigned ifindex;
  /* PACKET_IGNORE_OUTGOING took effect (Linux >= 4.20); otherwise frames the
   * interface sends are dropped in user space by their sll_pkttype. */
  bool kernel_ignores_outgoing;
  /* The interface was down when bound; frames flow once it comes up. */
  bool link_was_down;
  /* The buffer sizes the kernel granted (getsockopt reports twice the request). */
  int receive_buffer_bytes;
  int send_buffer_bytes;
  /* On failure: the call that failed, for the error message. */
  const char *failed_call;
  /* On EPROTOTYPE: the interface's ARPHRD_* link type. */
  unsigned short link_type;
} afp_open_result;

/*
 * Opens a non-blocking, promiscuous AF_PACKET/SOCK_RAW socket that receives
 * every protocol (ETH_P_ALL) arriving on `ifname` and sends on it. Returns 0
 * and fills `out`, or returns an errno value (nothing left open):
 *   ENODEV      no such interface (also for names longer than IFNAMSIZ - 1)
 *   EPERM/EACCES  not root and no CAP_NET_RAW
 *   EPROTOTYPE  the interface does not carry Ethernet frames
 *   other       from the call named in out->failed_call
 */
int afp_open(const char *ifname, const afp_open_options *options, afp_open_result *out);

/* Kernel counters since the previous call (PACKET_STATISTICS resets them). */
typedef struct afp_kernel_counts {
  uint64_t packets; /* frames the socket accepted, including the dropped ones */
  uint64_t drops;   /* frames dropped because the receive buffer was full */
} afp_kernel_counts;

int afp_take_kernel_counts(int fd, afp_kernel_counts *out);

/* Takes and clears the socket's pending error (SO_ERROR); 0 when none. */
int afp_take_socket_error(int fd);

#endif
