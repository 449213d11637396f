# Builds build/Release/af_packet.node, the AF_PACKET port addon
# (native/af_packet; loaded by src/switch/ports/af-packet/load-addon.ts), and
# build/Release/udp_batch.node, the batched UDP socket addon (native/udp_batch;
# loaded by src/net/udp-batch/load-udp-batch-addon.ts). Both compile in the
# shared files of native/common (its README says what each is).
# Linux only: elsewhere the target is empty, so that installing the package
# does not fail, and the loader reports the platform instead.
{
  'targets': [
    {
      'target_name': 'af_packet',
      'conditions': [
        ['OS=="linux"', {
          'sources': [
            'native/af_packet/addon.c',
            'native/af_packet/batch_io.c',
            'native/af_packet/open_error_message.c',
            'native/af_packet/packet_socket.c',
            'native/af_packet/receive_path.c',
            'native/common/js_errors.c',
            'native/common/js_values.c',
            'native/common/mmsg_ring.c',
            'native/common/mmsg_send.c',
            'native/common/polled_socket_lifetime.c',
            'native/common/polled_socket_methods.c',
            'native/common/polled_socket_receive.c',
            'native/common/send_result.c',
          ],
          # N-API 8: async cleanup hooks (Node >= 12.19; package.json wants >= 20).
          'defines': ['NAPI_VERSION=8'],
          'cflags_c': ['-std=gnu11', '-Wall', '-Wextra', '-Wshadow', '-Wstrict-prototypes', '-Wno-unused-parameter'],
          'configurations': {
            'Release': {
              'cflags!': ['-O3'],
              'cflags': ['-O2'],
            },
          },
        }, {
          'type': 'none',
        }],
      ],
    },
    {
      'target_name': 'udp_batch',
      'conditions': [
        ['OS=="linux"', {
          'sources': [
            'native/udp_batch/addon.c',
            'native/udp_batch/address_methods.c',
            'native/udp_batch/receive_batch.c',
            'native/udp_batch/receive_path.c',
            'native/udp_batch/send_batch.c',
            'native/udp_batch/send_methods.c',
            'native/udp_batch/socket_setup.c',
            'native/common/js_errors.c',
            'native/common/js_values.c',
            'native/common/mmsg_ring.c',
            'native/common/mmsg_send.c',
            'native/common/polled_socket_lifetime.c',
            'native/common/polled_socket_methods.c',
            'native/common/polled_socket_receive.c',
            'native/common/send_result.c',
          ],
          'defines': ['NAPI_VERSION=8'],
          'cflags_c': ['-std=gnu11', '-Wall', '-Wextra', '-Wshadow', '-Wstrict-prototypes', '-Wno-unused-parameter'],
          'configurations': {
            'Release': {
              'cflags!': ['-O3'],
              'cflags': ['-O2'],
            },
          },
        }, {
          'type': 'none',
        }],
      ],
    },
  ],
}
