/*
 * lh_config.c — parses the LOOPHUNTER_* environment variables declared in lh_config.h.
 *
 * Runs once at start-up, possibly before main or inside the first hook: reads only the array it is
 * given, writes only into `cfg` and a message buffer on the stack (< 512 bytes), never allocates.
 * Every rejected value produces one message line and leaves the default in place.
 */
#include "lh_config.h"

#include <string.h>

#include "lh_buf.h"

#define PREFIX "LOOPHUNTER_"
#define PREFIX_LEN (sizeof(PREFIX) - 1)

typedef struct loader {
    lh_config_emit emit;
    void *ctx;
    int messages;
} loader;

static void say(loader *ld, lh_buf *line) {
    ld->messages++;
    if (ld->emit != NULL) ld->emit(ld->ctx, line->data);
}

/* Starts a message about LOOPHUNTER_<name>="<value>". */
static void begin_message(lh_buf *b, char *mem, size_t cap, const char *name, const char *value) {
    lh_buf_init(b, mem, cap);
    lh_buf_put(b, "loophunter: " PREFIX);
    lh_buf_put(b, name);
    if (value != NULL) {
        lh_buf_put(b, "=\"");
        lh_buf_put_clipped(b, value, 48);
        lh_buf_putc(b, '"');
    }
}

/* The value of LOOPHUNTER_<name> in envp, or NULL. The last definition wins, like getenv. */
static const char *lookup(char *const *envp, const char *name) {
    const char *found = NULL;
    size_t n = strlen(name);
    for (char *const *e = envp; e != NULL && *e != NULL; e++) {
        const char *s = *e;
        if (strncmp(s, PREFIX, PREFIX_LEN) == 0 && strncmp(s + PREFIX_LEN, name, n) == 0 &&
            s[PREFIX_LEN + n] == '=')
            found = s + PREFIX_LEN + n + 1;
    }
    return found;
}

static void parse_number(loader *ld, char *const *envp, const char *name, uint64_t *field,
                         uint64_t def, uint64_t lo, uint64_t hi) {
    *field = def;
    const char *v = lookup(envp, name);
    if (v == NULL) return;
    const char *problem = NULL;
    uint64_t value = 0;
    if (*v == '\0') {
        problem = "is empty";
    } else if (*v == '-') {
        problem = "is negative";
    } else {
        for (const char *p = v; *p != '\0' && problem == NULL; p++) {
            if (*p < '0' || *p > '9') {
                problem = "is not a whole number";
            } else if (value > (UINT64_MAX - 9) / 10) {
                problem = "is out of range";
            } else {
                value = value * 10 + (uint64_t)(*p - '0');
            }
        }
        if (problem == NULL && (value < lo || value > hi)) problem = "is out of range";
    }
    if (problem == NULL) {
        *field = value;
        return;
    }
    char mem[LH_CONFIG_MESSAGE_LEN];
    lh_buf b;
    begin_message(&b, mem, sizeof mem, name, *v == '\0' ? NULL : v);
    lh_buf_putc(&b, ' ');
    lh_buf_put(&b, problem);
    lh_buf_put(&b, "; using ");
    lh_buf_u64(&b, def);
    lh_buf_put(&b, " (allowed ");
    lh_buf_u64(&b, lo);
    lh_buf_put(&b, "..");
    lh_buf_u64(&b, hi);
    lh_buf_putc(&b, ')');
    say(ld, &b);
}

static bool equals_ignoring_case(const char *a, const char *b) {
    for (; *a != '\0' && *b != '\0'; a++, b++) {
        char ca = (*a >= 'A' && *a <= 'Z') ? (char)(*a + 32) : *a;
        if (ca != *b) return false;
    }
    return *a == *b;
}

static const char *const flag_on[] = {"1", "true", "yes", "on"};
static const char *const flag_off[] = {"0", "false", "no", "off"};

static void parse_flag(loader *ld, char *const *envp, const char *name, bool *field, bool def) {
    *field = def;
    const char *v = lookup(envp, name);
    if (v == NULL) return;
    const char *const *on = flag_on, *const *off = flag_off;
    for (size_t i = 0; i < LH_ARRAY_COUNT(flag_on); i++) {
        if (equals_ignoring_case(v, on[i])) {
            *field = true;
            return;
        }
        if (equals_ignoring_case(v, off[i])) {
            *field = false;
            return;
        }
    }
    char mem[LH_CONFIG_MESSAGE_LEN];
    lh_buf b;
    begin_message(&b, mem, sizeof mem, name, *v == '\0' ? NULL : v);
    lh_buf_put(&b, *v == '\0' ? " is empty" : " is not on/off");
    lh_buf_put(&b, " (use 1/0, true/false, yes/no or on/off); using ");
    lh_buf_put(&b, def ? "1" : "0");
    say(ld, &b);
}

static void set_text(char *field, size_t cap, const char *value) {
    size_t n = strlen(value);
    if (n >= cap) n = cap - 1;
    memcpy(field, value, n);
    field[n] = '\0';
}

/* Reads LOOPHUNTER_<name> into field when it is non-empty and fits `max_len`; else a message. */
static bool parse_text(loader *ld, char *const *envp, const char *name, char *field, size_t cap,
                       size_t max_len, const char *def_text) {
    const char *v = lookup(envp, name);
    if (v == NULL) return false;
    size_t n = strlen(v);
    if (n > 0 && n <= max_len) {
        set_text(field, cap, v);
        return true;
    }
    char mem[LH_CONFIG_MESSAGE_LEN];
    lh_buf b;
    begin_message(&b, mem, sizeof mem, name, n == 0 ? NULL : v);
    if (n == 0) {
        lh_buf_put(&b, " is empty");
    } else {
        lh_buf_put(&b, " is too long (");
        lh_buf_u64(&b, n);
        lh_buf_put(&b, " bytes, at most ");
        lh_buf_u64(&b, max_len);
        lh_buf_putc(&b, ')');
    }
    lh_buf_put(&b, "; using ");
    lh_buf_put_clipped(&b, def_text, 64);
    say(ld, &b);
    return false;
}

/* Calls fn for each comma-separated, space-trimmed, non-empty item of `list`. */
static void for_each_item(const char *list, void (*fn)(void *, const char *, size_t), void *arg) {
    const char *p = list;
    while (*p != '\0') {
        const char *end = strchr(p, ',');
        if (end == NULL) end = p + strlen(p);
        const char *a = p, *z = end;
        while (a < z && (*a == ' ' || *a == '\t')) a++;
        while (z > a && (z[-1] == ' ' || z[-1] == '\t')) z--;
        if (z > a) fn(arg, a, (size_t)(z - a));
        p = *end == ',' ? end + 1 : end;
    }
}

typedef struct list_state {
    loader *ld;
    lh_config *cfg;
    const char *name;
} list_state;

static void message_about_item(list_state *st, const char *item, size_t n, const char *what) {
    char mem[LH_CONFIG_MESSAGE_LEN];
    lh_buf b;
    begin_message(&b, mem, sizeof mem, st->name, NULL);
    lh_buf_put(&b, ": ");
    lh_buf_put(&b, what);
    lh_buf_put(&b, " \"");
    char item_text[64];
    size_t cut = n < sizeof item_text - 1 ? n : sizeof item_text - 1;
    memcpy(item_text, item, cut);
    item_text[cut] = '\0';
    lh_buf_put_clipped(&b, item_text, 48);
    lh_buf_put(&b, "\" ignored");
    say(st->ld, &b);
}

static void add_loop_lib(void *arg, const char *item, size_t n) {
    list_state *st = arg;
    lh_config *cfg = st->cfg;
    if (n >= sizeof cfg->loop_lib[0]) {
        message_about_item(st, item, n, "library name longer than 63 bytes,");
    } else if (cfg->loop_lib_count >= LH_CONFIG_MAX_LOOP_LIBS) {
        message_about_item(st, item, n, "more than 8 libraries,");
    } else {
        memcpy(cfg->loop_lib[cfg->loop_lib_count], item, n);
        cfg->loop_lib[cfg->loop_lib_count][n] = '\0';
        cfg->loop_lib_count++;
    }
}

static bool item_is(const char *item, size_t n, const char *name) {
    return strlen(name) == n && strncmp(name, item, n) == 0;
}

/* One item of LOOPHUNTER_HOOKS: a selectable family of lh_shared.h, `all` or `none`. */
static void add_family(void *arg, const char *item, size_t n) {
    list_state *st = arg;
    unsigned all = 0;
    for (unsigned i = 0; i < LH_FAMILY_COUNT; i++) {
        if (!lh_family_selectable[i]) continue;
        all |= 1u << i;
        if (item_is(item, n, lh_family_names[i])) {
            st->cfg->families |= 1u << i;
            return;
        }
    }
    if (item_is(item, n, "all")) {
        st->cfg->families |= all;
        return;
    }
    if (item_is(item, n, "none")) return;
    char known[160];
    lh_buf k;
    lh_buf_init(&k, known, sizeof known);
    lh_buf_put(&k, "unknown hook family (known: ");
    for (unsigned i = 0; i < LH_FAMILY_COUNT; i++) {
        if (!lh_family_selectable[i]) continue;
        lh_buf_put(&k, lh_family_names[i]);
        lh_buf_put(&k, ", ");
    }
    lh_buf_put(&k, "all, none)");
    message_about_item(st, item, n, known);
}

static void derive_lists(loader *ld, lh_config *cfg) {
    list_state st = {ld, cfg, "LOOP_LIBS"};
    cfg->loop_lib_count = 0;
    for_each_item(cfg->loop_libs, add_loop_lib, &st);
    st.name = "HOOKS";
    cfg->families = 0;
    for_each_item(cfg->hooks, add_family, &st);
}

/* Names the CLI reads, not the preload: not reported as unknown. */
static bool known_elsewhere(const char *suffix, size_t n) {
    static const char *const names[] = {"PRELOAD"};
    for (size_t i = 0; i < LH_ARRAY_COUNT(names); i++)
        if (strlen(names[i]) == n && strncmp(names[i], suffix, n) == 0) return true;
    return false;
}

static bool is_known(const char *suffix, size_t n) {
#define LH_KNOWN(name)                                                                              \
    if (sizeof(name) - 1 == n && strncmp(name, suffix, n) == 0) return true;
#define LH_KNOWN_NUMBER(field, name, def, lo, hi, help) LH_KNOWN(name)
#define LH_KNOWN_FLAG(field, name, def, help) LH_KNOWN(name)
#define LH_KNOWN_STRING(field, name, cap, def, help) LH_KNOWN(name)
    LH_CONFIG_NUMBERS(LH_KNOWN_NUMBER)
    LH_CONFIG_FLAGS(LH_KNOWN_FLAG)
    LH_CONFIG_STRINGS(LH_KNOWN_STRING)
#undef LH_KNOWN_NUMBER
#undef LH_KNOWN_FLAG
#undef LH_KNOWN_STRING
#undef LH_KNOWN
    return known_elsewhere(suffix, n);
}

static void report_unknown(loader *ld, char *const *envp) {
    for (char *const *e = envp; e != NULL && *e != NULL; e++) {
        const char *s = *e;
        if (strncmp(s, PREFIX, PREFIX_LEN) != 0) continue;
        const char *eq = strchr(s, '=');
        size_t n = eq != NULL ? (size_t)(eq - s) - PREFIX_LEN : strlen(s) - PREFIX_LEN;
        if (is_known(s + PREFIX_LEN, n)) continue;
        char mem[LH_CONFIG_MESSAGE_LEN], name[64];
        size_t cut = n < sizeof name - 1 ? n : sizeof name - 1;
        memcpy(name, s + PREFIX_LEN, cut);
        name[cut] = '\0';
        lh_buf b;
        begin_message(&b, mem, sizeof mem, "", NULL); /* "loophunter: LOOPHUNTER_" */
        lh_buf_put_clipped(&b, name, 48);
        lh_buf_put(&b, " is not a LoopHunter variable; ignored (see docs/configuration.md)");
        say(ld, &b);
    }
}

static void default_dir(char *field, size_t cap, unsigned uid) {
    lh_buf b;
    lh_buf_init(&b, field, cap);
    lh_buf_put(&b, "/tmp/loophunter-");
    lh_buf_u64(&b, uid);
}

int lh_config_load(lh_config *cfg, char *const *envp, unsigned uid, lh_config_emit emit, void *ctx) {
    loader ld = {emit, ctx, 0};
    memset(cfg, 0, sizeof *cfg);
    /* Every lookup below reads only LOOPHUNTER_* entries: gather them in one pass over the
     * environment (a desktop session's has ~100), so that ~40 lookups do not each walk all of it
     * in every process's start-up. More than fit: the whole environment is searched instead. */
    char *ours[129];
    size_t n_ours = 0;
    bool all_fit = true;
    for (char *const *e = envp; e != NULL && *e != NULL; e++) {
        if (strncmp(*e, PREFIX, PREFIX_LEN) != 0) continue;
        if (n_ours == LH_ARRAY_COUNT(ours) - 1) {
            all_fit = false;
            break;
        }
        ours[n_ours++] = *e;
    }
    ours[n_ours] = NULL;
    if (all_fit) envp = ours;
#define LH_LOAD_NUMBER(field, name, def, lo, hi, help)                                              \
    parse_number(&ld, envp, name, &cfg->field, def, lo, hi);
#define LH_LOAD_FLAG(field, name, def, help) parse_flag(&ld, envp, name, &cfg->field, def);
#define LH_LOAD_STRING(field, name, cap, def, help) set_text(cfg->field, cap, def);
    LH_CONFIG_NUMBERS(LH_LOAD_NUMBER)
    LH_CONFIG_FLAGS(LH_LOAD_FLAG)
    LH_CONFIG_STRINGS(LH_LOAD_STRING)
#undef LH_LOAD_NUMBER
#undef LH_LOAD_FLAG
#undef LH_LOAD_STRING

    /* Room is kept for "/<file name>" after the directory (report names are < 100 bytes). */
    default_dir(cfg->dir, sizeof cfg->dir, uid);
    parse_text(&ld, envp, "DIR", cfg->dir, sizeof cfg->dir, sizeof cfg->dir - 128, cfg->dir);
    parse_text(&ld, envp, "LOOP_LIBS", cfg->loop_libs, sizeof cfg->loop_libs,
               sizeof cfg->loop_libs - 1, cfg->loop_libs);
    parse_text(&ld, envp, "HOOKS", cfg->hooks, sizeof cfg->hooks, sizeof cfg->hooks - 1, cfg->hooks);
    derive_lists(&ld, cfg);

    /* The table's capacity is a power of two (index = hash & mask). */
    uint64_t slots = 1;
    while (slots < cfg->table_slots) slots <<= 1;
    cfg->table_slots = slots;

    report_unknown(&ld, envp);
    return ld.messages;
}

bool lh_config_disabled(char *const *envp) {
    const char *v = lookup(envp, "DISABLE");
    if (v == NULL) return false;
    for (size_t i = 0; i < LH_ARRAY_COUNT(flag_on); i++)
        if (equals_ignoring_case(v, flag_on[i])) return true;
    return false;
}

void lh_config_visit(const lh_config *cfg, lh_config_visit_fn fn, void *ctx) {
#define LH_VISIT_NUMBER(field, name, def, lo, hi, help) fn(ctx, PREFIX name, NULL, cfg->field, 0);
#define LH_VISIT_FLAG(field, name, def, help) fn(ctx, PREFIX name, NULL, cfg->field ? 1 : 0, 1);
#define LH_VISIT_STRING(field, name, cap, def, help) fn(ctx, PREFIX name, cfg->field, 0, 2);
    LH_CONFIG_NUMBERS(LH_VISIT_NUMBER)
    LH_CONFIG_FLAGS(LH_VISIT_FLAG)
    LH_CONFIG_STRINGS(LH_VISIT_STRING)
#undef LH_VISIT_NUMBER
#undef LH_VISIT_FLAG
#undef LH_VISIT_STRING
}

/* The whole-number variables, as data: for the loophunter command, which checks its options
 * against the same ranges (one table, lh_config.h). */
static const lh_config_number_info number_info[] = {
#define LH_INFO_NUMBER(field, name, def, lo, hi, help) {PREFIX name, def, lo, hi, help},
    LH_CONFIG_NUMBERS(LH_INFO_NUMBER)
#undef LH_INFO_NUMBER
};

size_t lh_config_number_count(void) { return LH_ARRAY_COUNT(number_info); }

const lh_config_number_info *lh_config_number_at(size_t index) {
    return index < LH_ARRAY_COUNT(number_info) ? &number_info[index] : NULL;
}
