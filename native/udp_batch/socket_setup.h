/* Opening, binding and connecting a non-blocking UDP socket, and the
 * socket addresses these take. */
#ifndef P4INA_UDP_BATCH_SOCKET_SETUP_H
#define P4INA_UDP_BATCH_SOCKET_SETUP_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

typedef struct udpb_open_options {
  int family;               /* AF_INET or AF_INET6 */
  int receive_buffer_bytes; /* SO_RCVBUF request; 0 keeps the kernel's default */
  int send_buffer_bytes;    /* SO_SNDBUF request; 0 keeps the kernel's default */
  bool gro;                 /* ask for UDP_GRO */
} udpb_open_options;

typedef struct udpb_open_result {
  int fd;
  bool gro; /* the kernel accepted UDP_GRO */
  int receive_buffer_bytes; /* what the kernel granted */
  int send_buffer_bytes;
  const char *failed_call; /* set when opening fails */
} udpb_open_result;

/* 0, or an errno value (out->failed_call names the call). */
int udpb_open(const udpb_open_options *options, udpb_open_result *out);

/* Parses a numeric address of `family` (no host names, no scope ids) and a
 * port into `out`; false when `text` is not one. */
bool udpb_make_address(int family, const char *text, uint16_t port, struct sockaddr_storage *out, socklen_t *length);

/* The address and port as text ("127.0.0.1", "::1"); false for other families. */
bool udpb_format_address(const struct sockaddr_storage *address, char *text, size_t size, uint16_t *port);

/* Whether two socket addresses name the same address and port. */
bool udpb_same_address(const struct sockaddr_storage *a, const struct sockaddr_storage *b);

/* The port the socket is bound to, or -errno. */
int udpb_local_port(int fd);

/* Takes (and clears) the socket's pending error: 0 if none. */
int udpb_take_socket_error(int fd);

#endif
