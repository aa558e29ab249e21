/*
 * lh_writer.h — report files written by a thread of LoopHunter's (lh_writer.c), so that the host
 * thread that breached does not wait on the file system.
 */
#ifndef LH_WRITER_H
#define LH_WRITER_H

#include "lh_runtime.h"

/* Hands a composed report (file `name` in the report directory, `len` bytes of `text`) to the
 * writer thread. Returns false when the caller must write it itself: the writer is not running
 * (not started yet, a fork child, a sandbox, leaving), the report is larger than a queue slot, or
 * every slot is taken. Any thread, guard held; no lock, no allocation. */
bool lh_writer_submit(const char *name, const char *text, size_t len) LH_HIDDEN;

/* A report was written on a breaching thread because no writer ran: start one at the next
 * iteration boundary (a program that never breaches never gets the thread). */
void lh_writer_wanted(void) LH_HIDDEN;

/* At an iteration boundary of a loop thread (guard held, not inside the host's allocator): starts
 * the writer when it is wanted. One relaxed load otherwise. */
void lh_writer_tick(void) LH_HIDDEN;

/* Leaving (exit's summary, _exit, exec, a seccomp filter about to apply, an attach session's end):
 * no report is queued from now on, every queued one is written before this returns (on the calling
 * thread, or by the writer when it is writing it: waited for at most 2 s). Async-signal-safe. */
void lh_writer_drain(void) LH_HIDDEN;

/* An exec failed (the process runs on): the queue takes reports again. */
void lh_writer_reopen(void) LH_HIDDEN;

/* An attach session ends: drains, then stops and joins the writer thread (none is left); a later
 * session may start one again. */
void lh_writer_stop(void) LH_HIDDEN;

/* The child of a fork: the parent's queue is the parent's to write; the child never starts a
 * writer (only async-signal-safe calls are allowed there until exec) and writes its own reports. */
void lh_writer_after_fork(void) LH_HIDDEN;

/* The summary's `reports.writer` object. */
void lh_writer_summary(lh_json *j) LH_HIDDEN;

#endif
