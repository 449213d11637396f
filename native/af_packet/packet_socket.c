/*
 * Opening an AF_PACKET socket the way a switch port needs it. The order of
 * the steps matters: the socket is created with protocol 0, so that it
 * receives nothing from any interface until bind() names ours together with
 * ETH_P_ALL; created with ETH_P_ALL it would queue frames from every
 * interface in the namespace until bound.
 */
#define _GNU_SOURCE
#include "packet_socket.h"

/* glibc's net/ headers before linux/ ones: in that order they share struct
 * definitions instead of redefining them. */
#include <net/if.h>
#include <net/if_arp.h>

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23 /* linux/if_packet.h since 4.20 */
#endif

/* Tries the FORCE variant first: as root it may exceed net.core.[rw]mem_max;
 * without CAP_NET_ADMIN the plain option still gets up to that limit. */
static int request_buffer(int fd, int force_option, int option, int bytes) {
  if (bytes <= 0) return 0;
  if (setsockopt(fd, SOL_SOCKET, force_option, &bytes, sizeof bytes) == 0) return 0;
  if (setsockopt(fd, SOL_SOCKET, option, &bytes, sizeof bytes) == 0) return 0;
  return errno;
}

static int granted_buffer(int fd, int option) {
  int bytes = 0;
  socklen_t length = sizeof bytes;
  if (getsockopt(fd, SOL_SOCKET, option, &bytes, &length) != 0) return -1;
  return bytes;
}

static int fail(int fd, const char *call, afp_open_result *out) {
  int error = errno;
  out->failed_call = call;
  if (fd >= 0) close(fd);
  out->fd = -1;
  return error != 0 ? error : EIO;
}

int afp_open(const char *ifname, const afp_open_options *options, afp_open_result *out) {
  memset(out, 0, sizeof *out);
  out->fd = -1;

  if (ifname[0] == '\0' || strlen(ifname) >= IF_NAMESIZE) {
    out->failed_call = "if_nametoindex";
    return ENODEV;
  }
  unsigned ifindex = if_nametoindex(ifname);
  if (ifindex == 0) {
    int error = errno;
    out->failed_call = "if_nametoindex";
    /* glibc reports an unknown name as ENODEV; treat every miss alike. */
    return error == 0 || error == ENXIO ? ENODEV : error;
  }
  out->ifindex = ifindex;

  int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return fail(-1, "socket", out);

  if (request_buffer(fd, SO_RCVBUFFORCE, SO_RCVBUF, options->receive_buffer_bytes) != 0)
    return fail(fd, "setsockopt(SO_RCVBUF)", out);
  if (request_buffer(fd, SO_SNDBUFFORCE, SO_SNDBUF, options->send_buffer_bytes) != 0)
    return fail(fd, "setsockopt(SO_SNDBUF)", out);

  /* Auxiliary data carries the VLAN tag the kernel strips on receive. */
  int on = 1;
  if (setsockopt(fd, SOL_PACKET, PACKET_AUXDATA, &on, sizeof on) != 0)
    return fail(fd, "setsockopt(PACKET_AUXDATA)", out);

  if (setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &on, sizeof on) == 0) {
    out->kernel_ignores_outgoing = true;
  } else if (errno != ENOPROTOOPT && errno != EINVAL) {
    return fail(fd, "setsockopt(PACKET_IGNORE_OUTGOING)", out);
  }

  struct packet_mreq membership;
  memset(&membership, 0, sizeof membership);
  membership.mr_ifindex = (int)ifindex;
  membership.mr_type = PACKET_MR_PROMISC;
  if (setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &membership, sizeof membership) != 0)
    return fail(fd, "setsockopt(PACKET_ADD_MEMBERSHIP)", out);

  struct sockaddr_ll address;
  memset(&address, 0, sizeof address);
  address.sll_family = AF_PACKET;
  address.sll_protocol = htons(ETH_P_ALL);
  address.sll_ifindex = (int)ifindex;
  if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) return fail(fd, "bind", out);

  struct sockaddr_ll bound;
  socklen_t bound_length = sizeof bound;
  if (getsockname(fd, (struct sockaddr *)&bound, &bound_length) != 0) return fail(fd, "getsockname", out);
  if (bound.sll_hatype != ARPHRD_ETHER) {
    out->link_type = bound.sll_hatype;
    errno = EPROTOTYPE;
    return fail(fd, "getsockname", out);
  }

  /* Binding to a down interface leaves ENETDOWN pending; it is no error for
   * a switch port (the link may come up later), so take it here. */
  out->link_was_down = afp_take_socket_error(fd) == ENETDOWN;

  out->receive_buffer_bytes = granted_buffer(fd, SO_RCVBUF);
  out->send_buffer_bytes = granted_buffer(fd, SO_SNDBUF);
  out->fd = fd;
  return 0;
}

int afp_take_kernel_counts(int fd, afp_kernel_counts *out) {
  struct tpacket_stats stats;
  socklen_t length = sizeof stats;
  memset(out, 0, sizeof *out);
  if (getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &stats, &length) != 0) return errno;
  out->packets = stats.tp_packets;
  out->drops = stats.tp_drops;
  return 0;
}

int afp_take_socket_error(int fd) {
  int error = 0;
  socklen_t length = sizeof error;
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0) return errno;
  return error;
}
