/*
 * tls.c - barbu serve --tls-cert/--tls-key: the certificate and its key are
 * read and matched here, with OpenSSL, before anything else starts, so that
 * a wrong file is one clear sentence and not a server half up.  The TLS
 * itself is libwebsockets' (server.c gives it the two files).
 */
#include <errno.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* A key protected by a passphrase is refused rather than asked for: the
 * server runs unattended. */
static int no_passphrase(char *buf, int size, int rwflag, void *u)
{
    (void)buf;
    (void)size;
    (void)rwflag;
    (void)u;
    return -1;
}

/* OpenSSL's last error in words, or "". */
static const char *ssl_reason(void)
{
    unsigned long e = ERR_peek_last_error();
    const char *r = e ? ERR_reason_error_string(e) : NULL;
    return r ? r : "";
}

int srv_tls_check(const char *cert_path, const char *key_path, char *why, size_t cap)
{
    int rc = -1;
    X509 *cert = NULL;
    EVP_PKEY *key = NULL;
    ERR_clear_error();
    FILE *f = fopen(cert_path, "r");
    if (f == NULL) {
        snprintf(why, cap, "cannot read the certificate %s: %s", cert_path, strerror(errno));
        goto out;
    }
    cert = PEM_read_X509(f, NULL, no_passphrase, NULL);
    fclose(f);
    if (cert == NULL) {
        snprintf(why, cap, "%s holds no certificate in PEM form (-----BEGIN CERTIFICATE-----)%s%s",
                 cert_path, *ssl_reason() ? ": " : "", ssl_reason());
        goto out;
    }
    f = fopen(key_path, "r");
    if (f == NULL) {
        snprintf(why, cap, "cannot read the key %s: %s", key_path, strerror(errno));
        goto out;
    }
    ERR_clear_error();
    key = PEM_read_PrivateKey(f, NULL, no_passphrase, NULL);
    fclose(f);
    if (key == NULL) {
        snprintf(why, cap,
                 "%s holds no private key in PEM form, or one locked by a passphrase "
                 "(the server cannot ask for it: use a key without one)%s%s",
                 key_path, *ssl_reason() ? ": " : "", ssl_reason());
        goto out;
    }
    if (X509_check_private_key(cert, key) != 1) {
        snprintf(why, cap, "the key %s does not belong to the certificate %s", key_path, cert_path);
        goto out;
    }
    /* Browsers refuse such a certificate, but the operator may be renewing
     * it: a warning, not a refusal. */
    if (X509_cmp_current_time(X509_get0_notAfter(cert)) < 0)
        fprintf(stderr, "barbu serve: warning: the certificate %s has expired\n", cert_path);
    else if (X509_cmp_current_time(X509_get0_notBefore(cert)) > 0)
        fprintf(stderr, "barbu serve: warning: the certificate %s is not valid yet\n", cert_path);
    rc = 0;
out:
    X509_free(cert);
    EVP_PKEY_free(key);
    ERR_clear_error();
    return rc;
}
