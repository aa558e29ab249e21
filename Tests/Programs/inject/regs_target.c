/*
 * regs_target.c — checks that an injected call leaves the waiting thread exactly as it was.
 *
 *   regs-target SECONDS [--spin]
 *
 * The main thread loops over raw_poll_round(): it sets every vector register (zmm0-31 and k0-7
 * with AVX-512, else ymm0-15 with AVX, else xmm0-15), the 128-byte red zone below rsp and every
 * general register the kernel keeps across a syscall to known patterns, executes a raw `syscall`
 * poll(NULL, 0, 50 ms), and records what it finds afterwards; errno is set before and checked
 * after. (The flags are not checked: the kernel here does not keep them across a poll that
 * sleeps; the trampoline saves and restores them anyway.) An injector catches the thread in that
 * poll (the only wait it makes), runs a function that clobbers all of those, and must restore
 * them. With --spin the poll has timeout 0 and the thread spins 2 ms between rounds: it is caught
 * entering the poll (syscall-entry stop) instead of blocked in it. At the end it prints the
 * number of rounds with any difference ("mismatched=0": all intact) and exits 0 (1 otherwise).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { NGPR = 9 };
uint64_t expect_gpr[NGPR], obs_gpr[NGPR + 3], red_pattern[16], obs_red[16], k_pattern[8], obs_k[8];
uint8_t vec_pattern[32 * 64] __attribute__((aligned(64))), obs_vec[32 * 64] __attribute__((aligned(64)));
int raw_level; /* 0 SSE, 1 AVX, 2 AVX-512 */
long raw_result;
int raw_timeout = 50;
int raw_poll_round(void);

#define IRP16 "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
#define IRP32 IRP16 ",16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"
__asm__(
    ".intel_syntax noprefix\n"
    ".text\n"
    ".globl raw_poll_round\n"
    ".type raw_poll_round, @function\n"
    "raw_poll_round:\n"
    "  push rbx\n  push rbp\n  push r12\n  push r13\n  push r14\n  push r15\n"
    "  mov eax, [rip + raw_level]\n"
    "  cmp eax, 2\n  je 2f\n  cmp eax, 1\n  je 1f\n"
    "  .irp i," IRP16 "\n  movdqu xmm\\i, [rip + vec_pattern + \\i * 64]\n  .endr\n  jmp 3f\n"
    "1:\n"
    "  .irp i," IRP16 "\n  vmovdqu ymm\\i, [rip + vec_pattern + \\i * 64]\n  .endr\n  jmp 3f\n"
    "2:\n"
    "  .irp i," IRP32 "\n  vmovdqu64 zmm\\i, [rip + vec_pattern + \\i * 64]\n  .endr\n"
    "  .irp i,0,1,2,3,4,5,6,7\n  kmovq k\\i, [rip + k_pattern + \\i * 8]\n  .endr\n"
    "3:\n"
    "  .irp i,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n"
    "  mov rax, [rip + red_pattern + (\\i - 1) * 8]\n  mov [rsp - \\i * 8], rax\n  .endr\n"
    "  mov rbx, [rip + expect_gpr + 0]\n  mov rbp, [rip + expect_gpr + 8]\n"
    "  mov r8, [rip + expect_gpr + 16]\n  mov r9, [rip + expect_gpr + 24]\n"
    "  mov r10, [rip + expect_gpr + 32]\n  mov r12, [rip + expect_gpr + 40]\n"
    "  mov r13, [rip + expect_gpr + 48]\n  mov r14, [rip + expect_gpr + 56]\n"
    "  mov r15, [rip + expect_gpr + 64]\n"
    "  xor edi, edi\n  xor esi, esi\n  mov edx, [rip + raw_timeout]\n  mov eax, 7\n" /* poll(NULL, 0, t) */
    "  syscall\n"
    "  mov [rip + raw_result], rax\n"
    "  mov [rip + obs_gpr + 0], rbx\n  mov [rip + obs_gpr + 8], rbp\n"
    "  mov [rip + obs_gpr + 16], r8\n  mov [rip + obs_gpr + 24], r9\n"
    "  mov [rip + obs_gpr + 32], r10\n  mov [rip + obs_gpr + 40], r12\n"
    "  mov [rip + obs_gpr + 48], r13\n  mov [rip + obs_gpr + 56], r14\n"
    "  mov [rip + obs_gpr + 64], r15\n  mov [rip + obs_gpr + 72], rdi\n"
    "  mov [rip + obs_gpr + 80], rsi\n  mov [rip + obs_gpr + 88], rdx\n"
    "  .irp i,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n"
    "  mov rcx, [rsp - \\i * 8]\n  mov [rip + obs_red + (\\i - 1) * 8], rcx\n  .endr\n"
    "  mov eax, [rip + raw_level]\n"
    "  cmp eax, 2\n  je 2f\n  cmp eax, 1\n  je 1f\n"
    "  .irp i," IRP16 "\n  movdqu [rip + obs_vec + \\i * 64], xmm\\i\n  .endr\n  jmp 3f\n"
    "1:\n"
    "  .irp i," IRP16 "\n  vmovdqu [rip + obs_vec + \\i * 64], ymm\\i\n  .endr\n  vzeroupper\n  jmp 3f\n"
    "2:\n"
    "  .irp i," IRP32 "\n  vmovdqu64 [rip + obs_vec + \\i * 64], zmm\\i\n  .endr\n"
    "  .irp i,0,1,2,3,4,5,6,7\n  kmovq [rip + obs_k + \\i * 8], k\\i\n  .endr\n  vzeroupper\n"
    "3:\n"
    "  xor eax, eax\n"
    "  pop r15\n  pop r14\n  pop r13\n  pop r12\n  pop rbp\n  pop rbx\n"
    "  ret\n"
    ".size raw_poll_round, . - raw_poll_round\n"
    ".att_syntax prefix\n");

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 3;
    int spin = argc > 2 && !strcmp(argv[2], "--spin");
    if (spin) raw_timeout = 0;
    __builtin_cpu_init();
    raw_level = __builtin_cpu_supports("avx512f") ? 2 : __builtin_cpu_supports("avx") ? 1 : 0;
    int nvec = raw_level == 2 ? 32 : 16, width = raw_level == 2 ? 64 : raw_level == 1 ? 32 : 16;
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < sizeof vec_pattern; i++)
        x = x * 6364136223846793005ULL + 1, vec_pattern[i] = (uint8_t)(x >> 56);
    for (int i = 0; i < NGPR; i++) x = x * 6364136223846793005ULL + 1, expect_gpr[i] = x;
    for (int i = 0; i < 16; i++) x = x * 6364136223846793005ULL + 1, red_pattern[i] = x;
    for (int i = 0; i < 8; i++) x = x * 6364136223846793005ULL + 1, k_pattern[i] = x;
    long rounds = 0, mismatched = 0;
    char first[256] = "";
    double end = now() + seconds;
    while (now() < end) {
        if (spin)
            for (double until = now() + 0.002; now() < until;) {}
        errno = 777;
        raw_poll_round();
        int saved_errno = errno;
        rounds++;
        const char *what = NULL;
        if (raw_result != 0) what = "poll result";
        else if (saved_errno != 777) what = "errno";
        else if (memcmp(obs_gpr, expect_gpr, sizeof expect_gpr) || obs_gpr[9] || obs_gpr[10] ||
                 obs_gpr[11] != (uint64_t)raw_timeout)
            what = "general registers";
        else if (memcmp(obs_red, red_pattern, sizeof red_pattern)) what = "red zone";
        else if (raw_level == 2 && memcmp(obs_k, k_pattern, sizeof k_pattern)) what = "mask registers";
        else
            for (int i = 0; i < nvec && !what; i++)
                if (memcmp(obs_vec + i * 64, vec_pattern + i * 64, (size_t)width)) what = "vector registers";
        if (what) {
            if (!mismatched) snprintf(first, sizeof first, " first=%s@round%ld", what, rounds);
            mismatched++;
        }
    }
    printf("regs: level=%s mismatched=%ld%s\n", raw_level == 2 ? "avx512" : raw_level == 1 ? "avx" : "sse",
           mismatched, first);
    fprintf(stderr, "regs: %ld rounds\n", rounds);
    return mismatched ? 1 : 0;
}
