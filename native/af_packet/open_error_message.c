/* See open_error_message.h. */
#include "open_error_message.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void afp_describe_open_error(char *out, size_t size, const char *ifname, int error, const char *syscall,
                             unsigned short link_type) {
  switch (error) {
    case EPERM:
    case EACCES:
      snprintf(out, size,
               "AF_PACKET needs root or CAP_NET_RAW: opening a packet socket on %s was refused; run as root "
               "(sudo) or give node the capability (setcap cap_net_raw+ep \"$(command -v node)\")",
               ifname);
      return;
    case ENODEV:
      snprintf(out, size, "no interface %s: check the name with `ip link` in this network namespace", ifname);
      return;
    case EPROTOTYPE:
      snprintf(out, size,
               "interface %s is not an Ethernet interface (ARPHRD link type %u): AF_PACKET ports carry "
               "Ethernet frames",
               ifname, (unsigned)link_type);
      return;
    case EAFNOSUPPORT:
      snprintf(out, size, "this kernel has no AF_PACKET support (%s for %s: %s)", syscall, ifname, strerror(error));
      return;
    default:
      snprintf(out, size, "opening an AF_PACKET port on %s failed: %s: %s", ifname, syscall, strerror(error));
  }
}
