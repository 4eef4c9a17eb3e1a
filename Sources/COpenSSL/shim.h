#ifndef PEERSHARE_COPENSSL_SHIM_H
#define PEERSHARE_COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/hmac.h>

/// Function-like macros Swift cannot import, wrapped as real functions.
static inline int peershare_ssl_ctx_set_min_proto(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}
static inline int peershare_ssl_ctx_set_max_proto(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}
static inline void peershare_ssl_ctx_disable_tickets(SSL_CTX *ctx) {
    SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
}
#endif
