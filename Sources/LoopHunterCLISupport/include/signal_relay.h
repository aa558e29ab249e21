/*
 * signal_relay.h — forwarding signals from `loophunter run` to the program it runs.
 *
 * A signal sent to loophunter by another process (kill, a CI timeout, a supervisor: si_code
 * SI_USER or SI_QUEUE) is sent on to the child. A signal the terminal generates (Ctrl-C, Ctrl-\,
 * a hangup: si_code SI_KERNEL) already reaches the child, which is in the same foreground process
 * group, so it is not sent twice; loophunter itself survives it and reports when the child ends.
 */
#ifndef LOOPHUNTER_SIGNAL_RELAY_H
#define LOOPHUNTER_SIGNAL_RELAY_H

#include <sys/types.h>

/* Installs the relay for SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 and SIGWINCH, except
 * those our parent set to ignored (they stay ignored), and unblocks them in the calling thread
 * (the program, spawned from it, inherits that). Returns 0, or -1 with errno set. */
int lh_relay_install(void);
/* The child to forward to (0: none yet; signals that arrive before are kept and sent on by
 * lh_relay_set_child). */
void lh_relay_set_child(pid_t pid);
/* Restores the default dispositions (after the child has ended). */
void lh_relay_uninstall(void);
/* Signals forwarded so far (for tests). */
int lh_relay_forwarded(void);

#endif
