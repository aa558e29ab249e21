/* rel_tls.c — a TLS-heavy library using initial-exec TLS, dlopen'ed before the preload (row 6):
 * it takes the static TLS surplus a late-loaded initial-exec library needs. */
__thread char rel_tls_block[REL_TLS_BYTES] __attribute__((tls_model("initial-exec")));
int rel_tls_touch(void) { rel_tls_block[0]++; return rel_tls_block[0]; }
