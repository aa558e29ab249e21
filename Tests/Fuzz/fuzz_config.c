/*
 * fuzz_config.c — libFuzzer harness of the env parser (CShim/core/lh_config.c, docs/reliability.md
 * row 25). The input is split at NUL bytes into an environment array ("NAME=value" strings, many
 * of them LOOPHUNTER_*: a leading byte below 0x80 picks a known variable name to prefix); each
 * array is parsed by lh_config_load, whose every message must be one bounded line, and whose
 * values must stay within the documented ranges. Built by scripts/build-fuzzers.sh with
 * -fsanitize=fuzzer,address,undefined.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lh_config.h"

static const char *names[] = {
#define NAME_NUMBER(field, name, def, lo, hi, help) "LOOPHUNTER_" name "=",
#define NAME_FLAG(field, name, def, help) "LOOPHUNTER_" name "=",
#define NAME_STRING(field, name, cap, def, help) "LOOPHUNTER_" name "=",
    LH_CONFIG_NUMBERS(NAME_NUMBER) LH_CONFIG_FLAGS(NAME_FLAG) LH_CONFIG_STRINGS(NAME_STRING)
    "LOOPHUNTER_", "LOOPHUNTER_UNKNOWN=", "", "PATH=", "LOOPHUNTER_THRESHOLD"};
#define NAME_COUNT (sizeof names / sizeof names[0])

static void emit(void *ctx, const char *line) {
    size_t n = strnlen(line, LH_CONFIG_MESSAGE_LEN + 1);
    if (n > LH_CONFIG_MESSAGE_LEN || strchr(line, '\n') != NULL) abort();
    (*(int *)ctx)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    enum { MAX_VARS = 64 };
    char *env[MAX_VARS + 1];
    char *store = malloc(size * 2 + MAX_VARS * 40 + 1);
    size_t used = 0, count = 0, i = 0;
    while (i < size && count < MAX_VARS) {
        const char *prefix = names[data[i] % NAME_COUNT];
        i++;
        char *var = store + used;
        size_t plen = strlen(prefix);
        memcpy(var, prefix, plen);
        used += plen;
        while (i < size && data[i] != 0) store[used++] = (char)data[i++];
        store[used++] = 0;
        i++;
        env[count++] = var;
    }
    env[count] = NULL;
    static lh_config cfg;
    int lines = 0;
    int n = lh_config_load(&cfg, env, 1000, emit, &lines);
    if (n < 0 || lines > n) abort();
#define CHECK_NUMBER(field, name, def, lo, hi, help) if (cfg.field < (lo) || cfg.field > (hi)) abort();
    LH_CONFIG_NUMBERS(CHECK_NUMBER)
#define CHECK_STRING(field, name, cap, def, help) if (strnlen(cfg.field, cap) >= (cap)) abort();
    LH_CONFIG_STRINGS(CHECK_STRING)
    if (cfg.loop_lib_count > LH_CONFIG_MAX_LOOP_LIBS) abort();
    free(store);
    return 0;
}
