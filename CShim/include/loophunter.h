/*
 * loophunter.h — the public C API of libloophunter.so (documented in docs/configuration.md).
 *
 * A program never needs these: LD_PRELOAD=libloophunter.so works on unmodified binaries. They exist
 * for event loops LoopHunter does not recognise. Call them through weak declarations (or dlsym) so
 * the program still runs without the preload:
 *
 *     #pragma weak loophunter_iteration_mark
 *     void loophunter_iteration_mark(void);
 *     ...
 *     if (loophunter_iteration_mark) loophunter_iteration_mark();
 */
#ifndef LOOPHUNTER_H
#define LOOPHUNTER_H

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the start of a new event-loop iteration on the calling thread: layout counts of this
 * thread restart from zero and the history gains one entry. Safe from any thread, async-signal-safe,
 * a no-op when LoopHunter is disabled. */
void loophunter_iteration_mark(void);

/* "0.1.0" — the version of the preload, whose reports use schema 1.x. */
const char *loophunter_version(void);

#ifdef __cplusplus
}
#endif
#endif
