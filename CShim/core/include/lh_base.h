/*
 * lh_base.h — definitions shared by every C file of LoopHunter's native side.
 *
 * Contract for all code under CShim/ (the core is linked into libloophunter.so, which runs inside
 * someone else's program): it may run before main, in any thread, inside the host's malloc or a
 * signal handler. So it never allocates through malloc (memory comes from mmap), never takes a lock
 * the host could hold, never uses stdio (diagnostics are raw write(2) to fd 2), preserves errno
 * where the host could observe it, and keeps no state on the stack larger than a few hundred bytes
 * (threads may have PTHREAD_STACK_MIN stacks; signal handlers may run on a SIGSTKSZ alt stack).
 *
 * Atomics: every atomic access names its memory order (lh_atomic.h), with the reason beside it
 * when it is stronger than relaxed.
 */
#ifndef LH_BASE_H
#define LH_BASE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lh_atomic.h"
#include "lh_shared.h"

#if defined(LH_PRELOAD_BUILD)
#define LH_HIDDEN __attribute__((visibility("hidden")))
#else
#define LH_HIDDEN
#endif
#define LH_EXPORT __attribute__((visibility("default")))
#define LH_LIKELY(x) __builtin_expect(!!(x), 1)
#define LH_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define LH_NOINLINE __attribute__((noinline))
#define LH_ARRAY_COUNT(a) (sizeof(a) / sizeof((a)[0]))
/* A large zero-initialised static table (64 KiB and more) that start-up does not touch: placed in
 * .lbss, which the linker puts after .bss, so that the small variables start-up does touch share
 * a few pages instead of sitting between the tables (each first touch of a page is a page fault:
 * issue 21, start-up). GCC on x86-64; elsewhere an ordinary static (clang would give the section
 * file contents). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define LH_LARGE_TABLE(name) __attribute__((section(".lbss." #name)))
#else
#define LH_LARGE_TABLE(name)
#endif

/* Nanoseconds on CLOCK_MONOTONIC / CLOCK_REALTIME (vDSO; async-signal-safe). */
uint64_t lh_now_ns(void) LH_HIDDEN;
uint64_t lh_wall_ns(void) LH_HIDDEN;

#endif
