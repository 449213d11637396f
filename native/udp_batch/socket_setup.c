/* See socket_setup.h. */
#define _GNU_SOURCE
#include "socket_setup.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/udp.h>
#include <string.h>
#include <unistd.h>

#ifndef UDP_GRO
#define UDP_GRO 104
#endif

static int fail(int fd, const char *call, udpb_open_result *out) {
  int error = errno;
  if (fd >= 0) close(fd);
  out->failed_call = call;
  return error;
}

static int granted(int fd, int option) {
  int value = 0;
  socklen_t length = sizeof value;
  return getsockopt(fd, SOL_SOCKET, option, &value, &length) == 0 ? value : -1;
}

int udpb_open(const udpb_open_options *options, udpb_open_result *out) {
  memset(out, 0, sizeof *out);
  out->fd = -1;
  int fd = socket(options->family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_UDP);
  if (fd < 0) return fail(fd, "socket", out);
  /* SO_RCVBUF/SO_SNDBUF, capped at net.core.[rw]mem_max, as Node's dgram
   * asks for them: a side-by-side comparison with dgram stays fair. */
  if (options->receive_buffer_bytes > 0 &&
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &options->receive_buffer_bytes, sizeof(int)) != 0)
    return fail(fd, "setsockopt(SO_RCVBUF)", out);
  if (options->send_buffer_bytes > 0 &&
      setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &options->send_buffer_bytes, sizeof(int)) != 0)
    return fail(fd, "setsockopt(SO_SNDBUF)", out);
  int on = 1;
  /* The kernel's count of datagrams dropped for a full receive buffer. */
  if (setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &on, sizeof on) != 0) return fail(fd, "setsockopt(SO_RXQ_OVFL)", out);
  /* Kernels before 5.0 have no UDP_GRO: datagrams then arrive one by one. */
  out->gro = options->gro && setsockopt(fd, SOL_UDP, UDP_GRO, &on, sizeof on) == 0;
  out->receive_buffer_bytes = granted(fd, SO_RCVBUF);
  out->send_buffer_bytes = granted(fd, SO_SNDBUF);
  out->fd = fd;
  return 0;
}

bool udpb_make_address(int family, const char *text, uint16_t port, struct sockaddr_storage *out, socklen_t *length) {
  memset(out, 0, sizeof *out);
  if (family == AF_INET) {
    struct sockaddr_in *v4 = (struct sockaddr_in *)out;
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    *length = sizeof *v4;
    return inet_pton(AF_INET, text, &v4->sin_addr) == 1;
  }
  if (family == AF_INET6) {
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)out;
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    *length = sizeof *v6;
    return inet_pton(AF_INET6, text, &v6->sin6_addr) == 1;
  }
  return false;
}

bool udpb_format_address(const struct sockaddr_storage *address, char *text, size_t size, uint16_t *port) {
  if (address->ss_family == AF_INET) {
    const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
    *port = ntohs(v4->sin_port);
    return inet_ntop(AF_INET, &v4->sin_addr, text, (socklen_t)size) != NULL;
  }
  if (address->ss_family == AF_INET6) {
    const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
    *port = ntohs(v6->sin6_port);
    return inet_ntop(AF_INET6, &v6->sin6_addr, text, (socklen_t)size) != NULL;
  }
  return false;
}

bool udpb_same_address(const struct sockaddr_storage *a, const struct sockaddr_storage *b) {
  if (a->ss_family != b->ss_family) return false;
  if (a->ss_family == AF_INET) {
    const struct sockaddr_in *x = (const struct sockaddr_in *)a, *y = (const struct sockaddr_in *)b;
    return x->sin_port == y->sin_port && x->sin_addr.s_addr == y->sin_addr.s_addr;
  }
  if (a->ss_family == AF_INET6) {
    const struct sockaddr_in6 *x = (const struct sockaddr_in6 *)a, *y = (const struct sockaddr_in6 *)b;
    return x->sin6_port == y->sin6_port && x->sin6_scope_id == y->sin6_scope_id &&
           memcmp(&x->sin6_addr, &y->sin6_addr, sizeof x->sin6_addr) == 0;
  }
  return false;
}

int udpb_local_port(int fd) {
  struct sockaddr_storage address;
  socklen_t length = sizeof address;
  if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) return -errno;
  char text[INET6_ADDRSTRLEN];
  uint16_t port = 0;
  if (!udpb_format_address(&address, text, sizeof text, &port)) return -EAFNOSUPPORT;
  return port;
}

int udpb_take_socket_error(int fd) {
  int error = 0;
  socklen_t length = sizeof error;
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0) return errno;
  return error;
}
