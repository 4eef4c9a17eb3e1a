#ifndef PEERSHARE_CQRENCODE_SHIM_H
#define PEERSHARE_CQRENCODE_SHIM_H
/* Debian's libqrencode (libqrencode-dev): `peershare share create --qr` draws the share
   URL as a QR code in the terminal. */
#include <qrencode.h>
#endif
