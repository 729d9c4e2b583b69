/*
 * hist_table.c - a hist trigger's table (hist_table.h): the spec's parser, counting
 * records by key into a fixed open-addressing table, and Linux's printed histogram.
 *
 * One allocation holds the table: this header, the index (twice as many slots as entries,
 * each 0 or an entry's number + 1) and the entries. An entry is the sums (hitcount first,
 * then each val) as u64, the key bytes (u64 per integer key, HIST_STRING_KEY bytes per
 * string key, NUL-padded) and, with an .execname key, the task name seen first.
 */
#include "trace/events/hist_table.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"

enum hist_mod { MOD_NONE, MOD_HEX, MOD_SYM, MOD_EXECNAME, MOD_SYSCALL, MOD_LOG2, MODS };

static const char *const mod_names[MODS] = { "", "hex", "sym", "execname", "syscall", "log2" };

struct hist_field {
    const struct trace_event_field *field;
    enum hist_mod mod;
    bool string;
    uint16_t offset; /* keys: in the key bytes */
    uint16_t size;
};

/* A sort key: which sum (0: hitcount, 1..: vals) or which key (key >= 0), and order. */
struct hist_sort {
    int sum, key;
    bool descending;
};

struct hist_table {
    struct hist_field keys[HIST_MAX_KEYS], vals[HIST_MAX_VALS];
    unsigned nkeys, nvals, nsort;
    struct hist_sort sort[HIST_MAX_SORT];
    bool execname;
    enum hist_command command;
    uint32_t size, nslots, entries, key_bytes, stride, comm_at;
    uint64_t hits, drops;
    size_t bytes;
    uint32_t *slots;
    uint8_t *elts;
};

/* --- the spec ------------------------------------------------------------------------------ */

struct spec_parse {
    const char *text;
    size_t len;
    const struct trace_event_field *fields;
    unsigned nr_fields;
    struct hist_error *err;
};

static int refuse(struct spec_parse *p, const char *message, size_t pos)
{
    p->err->message = message;
    p->err->pos = pos;
    return -EINVAL;
}

static bool same(const char *a, size_t n, const char *b)
{
    return strlen(b) == n && strncmp(a, b, n) == 0;
}

/* The event's or the common field called text[s..e), or NULL. */
static const struct trace_event_field *find_field(struct spec_parse *p, size_t s, size_t e)
{
    char name[FS_NAME_MAX];
    if (e - s >= sizeof name)
        return 0;
    memcpy(name, p->text + s, e - s);
    name[e - s] = '\0';
    const struct trace_event_field *f = trace_field_find(p->fields, p->nr_fields, name);
    return f ? f : trace_field_find(trace_common_fields, TRACE_COMMON_FIELDS, name);
}

/* One key or val, text[s..e): FIELD[.MODIFIER]. */
static int parse_field(struct spec_parse *p, size_t s, size_t e, bool key, struct hist_field *out)
{
    size_t dot = s;
    while (dot < e && p->text[dot] != '.')
        dot++;
    const struct trace_event_field *f = find_field(p, s, dot);
    if (!f || f->kind == TRACE_FIELD_ARRAY)
        return refuse(p, "Couldn't find field", s);
    *out = (struct hist_field){ .field = f, .string = f->kind != TRACE_FIELD_INT };
    if (dot < e) {
        unsigned m = 1;
        while (m < MODS && !same(p->text + dot + 1, e - dot - 1, mod_names[m]))
            m++;
        bool ok = m < MODS && (key || m == MOD_HEX) && !out->string &&
                  (m != MOD_EXECNAME || strcmp(f->name, "common_pid") == 0);
        if (!ok)
            return refuse(p, "Invalid field modifier", dot + 1);
        out->mod = (enum hist_mod)m;
    }
    if (!key && out->string)
        return refuse(p, "String type can not be an operand in expression", s);
    out->size = out->string ? HIST_STRING_KEY : 8;
    return 0;
}

/* The comma-separated list of RHS text[s..e) into keys (key) or vals. */
static int parse_list(struct spec_parse *p, size_t s, size_t e, bool key, struct hist_table *t)
{
    while (s <= e) {
        size_t c = s;
        while (c < e && p->text[c] != ',')
            c++;
        if (c == s)
            return refuse(p, "Empty assignment", s);
        if (!key && same(p->text + s, c - s, "hitcount")) {
            s = c + 1;
            continue;
        }
        unsigned *n = key ? &t->nkeys : &t->nvals;
        if (*n == (key ? HIST_MAX_KEYS : HIST_MAX_VALS))
            return refuse(p, key ? "Too many keys" : "Too many vals", s);
        struct hist_field *hf = key ? &t->keys[*n] : &t->vals[*n];
        int r = parse_field(p, s, c, key, hf);
        if (r)
            return r;
        (*n)++;
        s = c + 1;
    }
    return 0;
}

/* sort=NAME[.descending|.ascending][,...], resolved once keys and vals are known. */
static int parse_sort(struct spec_parse *p, size_t s, size_t e, struct hist_table *t)
{
    while (s <= e) {
        size_t c = s;
        while (c < e && p->text[c] != ',')
            c++;
        if (c == s)
            return refuse(p, "Empty sort field", s);
        if (t->nsort == HIST_MAX_SORT)
            return refuse(p, "Too many sort fields (Max = 2)", s);
        size_t dot = s;
        while (dot < c && p->text[dot] != '.')
            dot++;
        struct hist_sort *so = &t->sort[t->nsort];
        *so = (struct hist_sort){ .sum = -1, .key = -1 };
        if (dot < c) {
            if (same(p->text + dot + 1, c - dot - 1, "descending"))
                so->descending = true;
            else if (!same(p->text + dot + 1, c - dot - 1, "ascending"))
                return refuse(p, "Invalid sort modifier", dot + 1);
        }
        if (same(p->text + s, dot - s, "hitcount"))
            so->sum = 0;
        for (unsigned i = 0; so->sum < 0 && i < t->nvals; i++)
            if (same(p->text + s, dot - s, t->vals[i].field->name))
                so->sum = (int)i + 1;
        for (unsigned i = 0; so->sum < 0 && so->key < 0 && i < t->nkeys; i++)
            if (same(p->text + s, dot - s, t->keys[i].field->name))
                so->key = (int)i;
        if (so->sum < 0 && so->key < 0)
            return refuse(p, "Sort field must be a key or a val", s);
        t->nsort++;
        s = c + 1;
    }
    return 0;
}

/* size=N: a power of two from N up, within Linux's bounds. */
static int parse_size(struct spec_parse *p, size_t s, size_t e, uint32_t *size)
{
    uint64_t v = 0;
    for (size_t i = s; i < e; i++) {
        if (p->text[i] < '0' || p->text[i] > '9' || v > HIST_MAX_SIZE)
            return refuse(p, "Invalid size", s);
        v = v * 10 + (uint64_t)(p->text[i] - '0');
    }
    uint64_t pow = 1;
    while (pow < v)
        pow <<= 1;
    if (s == e || v == 0 || pow < HIST_MIN_SIZE || pow > HIST_MAX_SIZE)
        return refuse(p, "Invalid size", s);
    *size = (uint32_t)pow;
    return 0;
}

/* Parses the whole spec into t's keys, vals, sort and size. */
static int parse_spec(struct spec_parse *p, struct hist_table *t)
{
    size_t s = 0, e = p->len, sort_s = 0, sort_e = 0;
    bool have_sort = false, have_keys = false;
    while (s < e && (p->text[s] == ' ' || p->text[s] == '\t' || p->text[s] == '\n'))
        s++;
    while (e > s && (p->text[e - 1] == ' ' || p->text[e - 1] == '\t' || p->text[e - 1] == '\n'))
        e--;
    t->size = HIST_DEFAULT_SIZE;
    while (s <= e) {
        size_t c = s, eq;
        while (c < e && p->text[c] != ':')
            c++;
        for (eq = s; eq < c && p->text[eq] != '='; eq++)
            ;
        if (eq == c) { /* a command: pause, cont, continue, clear */
            if (same(p->text + s, c - s, "pause"))
                t->command = HIST_PAUSE;
            else if (same(p->text + s, c - s, "cont") || same(p->text + s, c - s, "continue"))
                t->command = HIST_CONT;
            else if (same(p->text + s, c - s, "clear"))
                t->command = HIST_CLEAR;
            else
                return refuse(p, "Unknown hist parameter", s);
            s = c + 1;
            continue;
        }
        if (eq + 1 == c)
            return refuse(p, "Empty assignment", s);
        const char *name = p->text + s;
        size_t n = eq - s;
        int r;
        if (same(name, n, "keys") || same(name, n, "key")) {
            if (have_keys)
                return refuse(p, "Duplicate keys", s);
            have_keys = true;
            r = parse_list(p, eq + 1, c, true, t);
        } else if (same(name, n, "vals") || same(name, n, "values") || same(name, n, "val")) {
            r = parse_list(p, eq + 1, c, false, t);
        } else if (same(name, n, "sort")) {
            have_sort = true;
            sort_s = eq + 1;
            sort_e = c;
            r = 0;
        } else if (same(name, n, "size")) {
            r = parse_size(p, eq + 1, c, &t->size);
        } else {
            r = refuse(p, "Unknown hist parameter", s);
        }
        if (r)
            return r;
        s = c + 1;
    }
    if (!have_keys)
        return refuse(p, "Missing keys", 0);
    if (have_sort)
        return parse_sort(p, sort_s, sort_e, t);
    t->sort[0] = (struct hist_sort){ .sum = 0, .key = -1 };
    t->nsort = 1;
    return 0;
}

/* --- the table ----------------------------------------------------------------------------- */

/* Lays out entries for t's keys and vals: offsets, stride, and the bytes of it all. */
static void lay_out(struct hist_table *t)
{
    uint32_t off = 0;
    for (unsigned i = 0; i < t->nkeys; i++) {
        t->keys[i].offset = (uint16_t)off;
        off += t->keys[i].size;
        t->execname |= t->keys[i].mod == MOD_EXECNAME;
    }
    t->key_bytes = off;
    t->comm_at = 8 * (1 + t->nvals) + t->key_bytes;
    t->stride = (t->comm_at + (t->execname ? HIST_COMM_LEN : 0) + 7) & ~7u;
    t->nslots = 2 * t->size;
}

static size_t table_bytes(const struct hist_table *t)
{
    return sizeof *t + (size_t)t->nslots * 4 + (size_t)t->size * t->stride;
}

/* Points slots and elts into the allocation that starts with t. */
static void attach(struct hist_table *t)
{
    t->slots = (uint32_t *)(t + 1);
    t->elts = (uint8_t *)(t->slots + t->nslots);
}

int hist_create(const char *spec, size_t len, const struct trace_event_field *fields,
                unsigned nr_fields, size_t max_bytes, struct hist_table **out,
                struct hist_error *err)
{
    struct hist_table layout = { 0 };
    struct spec_parse p = { spec, len, fields, nr_fields, err };
    int r = parse_spec(&p, &layout);
    if (r)
        return r;
    lay_out(&layout);
    size_t bytes = table_bytes(&layout);
    if (bytes > max_bytes)
        return -ENOMEM;
    struct hist_table *t = kzalloc(bytes);
    if (!t)
        return -ENOMEM;
    *t = layout;
    t->bytes = bytes;
    attach(t);
    *out = t;
    return 0;
}

size_t hist_bytes(const struct hist_table *t) { return t->bytes; }

enum hist_command hist_command_of(const struct hist_table *t) { return t->command; }

static bool same_fields(const struct hist_field *a, const struct hist_field *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (a[i].field != b[i].field || a[i].mod != b[i].mod)
            return false;
    return true;
}

bool hist_same(const struct hist_table *a, const struct hist_table *b)
{
    if (a->nkeys != b->nkeys || a->nvals != b->nvals || a->nsort != b->nsort ||
        !same_fields(a->keys, b->keys, a->nkeys) || !same_fields(a->vals, b->vals, a->nvals))
        return false;
    for (unsigned i = 0; i < a->nsort; i++)
        if (a->sort[i].sum != b->sort[i].sum || a->sort[i].key != b->sort[i].key ||
            a->sort[i].descending != b->sort[i].descending)
            return false;
    return true;
}

void hist_clear(struct hist_table *t)
{
    memset(t->slots, 0, (size_t)t->nslots * 4);
    memset(t->elts, 0, (size_t)t->size * t->stride);
    t->entries = 0;
    t->hits = t->drops = 0;
}

void hist_free(struct hist_table *t) { kfree(t); }

struct hist_table *hist_alloc_like(const struct hist_table *t)
{
    struct hist_table *c = kzalloc(t->bytes);
    if (!c)
        return 0;
    *c = *t;
    attach(c);
    c->entries = 0;
    c->hits = c->drops = 0;
    return c;
}

uint32_t hist_copy_some(struct hist_table *dst, const struct hist_table *src, uint32_t from,
                        uint32_t n)
{
    if (from == 0) {
        dst->entries = src->entries;
        dst->hits = src->hits;
        dst->drops = src->drops;
    }
    uint32_t end = dst->entries - from > n ? from + n : dst->entries;
    memcpy(dst->elts + (size_t)from * dst->stride, src->elts + (size_t)from * src->stride,
           (size_t)(end - from) * src->stride);
    return end;
}

/* Entry i, its sums and its key bytes. */
static uint8_t *elt_at(const struct hist_table *t, uint32_t i)
{
    return t->elts + (size_t)i * t->stride;
}

static uint64_t *sums_of(uint8_t *elt) { return (uint64_t *)elt; }

static uint8_t *key_of(const struct hist_table *t, uint8_t *elt)
{
    return elt + 8 * (1 + t->nvals);
}

/* Linux's .log2: the exponent of the power of two at or above v. */
static uint64_t log2_up(uint64_t v)
{
    uint64_t e = 0;
    while (e < 64 && ((uint64_t)1 << e) < v)
        e++;
    return e;
}

/* FNV-1a over the key bytes. */
static uint32_t hash(const uint8_t *key, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ key[i]) * 16777619u;
    return h;
}

void hist_add(struct hist_table *t, const void *record, uint32_t length, const char *comm)
{
    uint8_t key[HIST_MAX_KEYS * HIST_STRING_KEY];
    memset(key, 0, t->key_bytes);
    for (unsigned i = 0; i < t->nkeys; i++) {
        const struct hist_field *k = &t->keys[i];
        if (k->string) {
            const char *s;
            uint32_t n;
            if (trace_field_read_string(k->field, record, length, &s, &n))
                memcpy(key + k->offset, s, n < HIST_STRING_KEY - 1 ? n : HIST_STRING_KEY - 1);
            continue;
        }
        int64_t v = 0;
        trace_field_read_int(k->field, record, length, &v);
        uint64_t u = (uint64_t)v;
        if (k->mod == MOD_LOG2)
            u = log2_up(u);
        memcpy(key + k->offset, &u, 8);
    }
    t->hits++;
    uint32_t slot = hash(key, t->key_bytes) & (t->nslots - 1);
    uint8_t *elt = 0;
    for (;;) {
        uint32_t at = t->slots[slot];
        if (at == 0)
            break;
        uint8_t *e = elt_at(t, at - 1);
        if (memcmp(key_of(t, e), key, t->key_bytes) == 0) {
            elt = e;
            break;
        }
        slot = (slot + 1) & (t->nslots - 1);
    }
    if (!elt) {
        if (t->entries == t->size) {
            t->drops++;
            return;
        }
        elt = elt_at(t, t->entries);
        memcpy(key_of(t, elt), key, t->key_bytes);
        if (t->execname && comm) {
            size_t n = strlen(comm);
            memcpy(elt + t->comm_at, comm, n < HIST_COMM_LEN - 1 ? n : HIST_COMM_LEN - 1);
        }
        t->slots[slot] = ++t->entries; /* the index has twice the slots: a free one is found */
    }
    uint64_t *sums = sums_of(elt);
    sums[0]++;
    for (unsigned i = 0; i < t->nvals; i++) {
        int64_t v = 0;
        trace_field_read_int(t->vals[i].field, record, length, &v);
        sums[1 + i] += (uint64_t)v;
    }
}

/* --- printing ------------------------------------------------------------------------------- */

static void print_field(struct fs_writer *out, const struct hist_field *f)
{
    fs_puts(out, f->field->name);
    if (f->mod != MOD_NONE)
        fs_printf(out, ".%s", mod_names[f->mod]);
}

void hist_print_spec(struct fs_writer *out, const struct hist_table *t)
{
    fs_puts(out, "hist:keys=");
    for (unsigned i = 0; i < t->nkeys; i++) {
        if (i)
            fs_puts(out, ",");
        print_field(out, &t->keys[i]);
    }
    fs_puts(out, ":vals=hitcount");
    for (unsigned i = 0; i < t->nvals; i++) {
        fs_puts(out, ",");
        print_field(out, &t->vals[i]);
    }
    fs_puts(out, ":sort=");
    for (unsigned i = 0; i < t->nsort; i++) {
        const struct hist_sort *so = &t->sort[i];
        if (i)
            fs_puts(out, ",");
        if (so->sum == 0)
            fs_puts(out, "hitcount");
        else if (so->sum > 0)
            print_field(out, &t->vals[so->sum - 1]);
        else
            print_field(out, &t->keys[so->key]);
        if (so->descending)
            fs_puts(out, ".descending");
    }
    fs_printf(out, ":size=%u", (unsigned)t->size);
}

/* Compares two values of a field: signed ones as signed. */
static int cmp_u64(uint64_t a, uint64_t b, bool is_signed)
{
    if (is_signed)
        return (int64_t)a < (int64_t)b ? -1 : (int64_t)a > (int64_t)b;
    return a < b ? -1 : a > b;
}

/* The order of entries a and b by the sort keys, then by key bytes (so that the output
 * does not depend on arrival order). */
static int compare(const struct hist_table *t, uint32_t a, uint32_t b)
{
    uint8_t *ea = elt_at(t, a), *eb = elt_at(t, b);
    for (unsigned i = 0; i < t->nsort; i++) {
        const struct hist_sort *so = &t->sort[i];
        int c;
        if (so->sum >= 0) {
            bool sg = so->sum > 0 && t->vals[so->sum - 1].field->is_signed;
            c = cmp_u64(sums_of(ea)[so->sum], sums_of(eb)[so->sum], sg);
        } else {
            const struct hist_field *k = &t->keys[so->key];
            const uint8_t *ka = key_of(t, ea) + k->offset, *kb = key_of(t, eb) + k->offset;
            if (k->string) {
                c = strncmp((const char *)ka, (const char *)kb, HIST_STRING_KEY);
            } else {
                uint64_t va, vb;
                memcpy(&va, ka, 8);
                memcpy(&vb, kb, 8);
                c = cmp_u64(va, vb, k->field->is_signed && k->mod != MOD_LOG2);
            }
        }
        if (c)
            return so->descending ? -c : c;
    }
    return memcmp(key_of(t, ea), key_of(t, eb), t->key_bytes);
}

/* Heapsort of order[0..n) by compare: in place, no allocation, O(n log n). */
static void sift(const struct hist_table *t, uint32_t *order, uint32_t root, uint32_t n)
{
    for (;;) {
        uint32_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && compare(t, order[child], order[child + 1]) < 0)
            child++;
        if (compare(t, order[root], order[child]) >= 0)
            return;
        uint32_t tmp = order[root];
        order[root] = order[child];
        order[child] = tmp;
        root = child;
    }
}

static void sort_entries(const struct hist_table *t, uint32_t *order, uint32_t n)
{
    for (uint32_t i = n / 2; i-- > 0;)
        sift(t, order, i, n);
    for (uint32_t end = n; end > 1; end--) {
        uint32_t tmp = order[0];
        order[0] = order[end - 1];
        order[end - 1] = tmp;
        sift(t, order, 0, end - 1);
    }
}

/* One entry's line, as Linux's hist_trigger_entry_print. */
static void print_entry(struct fs_writer *out, const struct hist_table *t, uint8_t *elt,
                        const struct hist_names *names)
{
    fs_puts(out, "{ ");
    for (unsigned i = 0; i < t->nkeys; i++) {
        const struct hist_field *k = &t->keys[i];
        const uint8_t *kb = key_of(t, elt) + k->offset;
        const char *name = k->field->name;
        if (i)
            fs_puts(out, ", ");
        if (k->string) {
            char s[HIST_STRING_KEY];
            memcpy(s, kb, HIST_STRING_KEY);
            s[HIST_STRING_KEY - 1] = '\0';
            fs_printf(out, "%s: %-50s", name, s);
            continue;
        }
        uint64_t v;
        memcpy(&v, kb, 8);
        unsigned long long u = (unsigned long long)v;
        const char *sym;
        switch (k->mod) {
        case MOD_HEX:
            fs_printf(out, "%s: %llx", name, u);
            break;
        case MOD_SYM: { /* no function: the address, as Linux's sprint_symbol_no_offset */
            char addr[24];
            sym = names && names->symbol ? names->symbol(v) : 0;
            if (!sym) {
                ksnprintf(addr, sizeof addr, "0x%llx", u);
                sym = addr;
            }
            fs_printf(out, "%s: [%llx] %-45s", name, u, sym);
            break;
        }
        case MOD_EXECNAME: {
            char comm[HIST_COMM_LEN];
            memcpy(comm, elt + t->comm_at, HIST_COMM_LEN);
            comm[HIST_COMM_LEN - 1] = '\0';
            fs_printf(out, "%s: %-16s[%10llu]", name, comm, u);
            break;
        }
        case MOD_SYSCALL:
            sym = names && names->syscall ? names->syscall(v) : 0;
            fs_printf(out, "%s: %-30s[%3llu]", name, sym ? sym : "unknown_syscall", u);
            break;
        case MOD_LOG2:
            fs_printf(out, "%s: ~ 2^%-2llu", name, u);
            break;
        default:
            fs_printf(out, "%s: %10llu", name, u);
            break;
        }
    }
    fs_printf(out, " } hitcount: %10llu", (unsigned long long)sums_of(elt)[0]);
    for (unsigned i = 0; i < t->nvals; i++)
        fs_printf(out, t->vals[i].mod == MOD_HEX ? "  %s: %10llx" : "  %s: %10llu",
                  t->vals[i].field->name, (unsigned long long)sums_of(elt)[1 + i]);
    fs_puts(out, "\n");
}

int hist_print_entries(struct fs_writer *out, const struct hist_table *t,
                       const struct hist_names *names)
{
    uint32_t *order = t->entries ? kmalloc(t->entries * sizeof *order) : 0;
    if (t->entries && !order)
        return -ENOMEM;
    for (uint32_t i = 0; i < t->entries; i++)
        order[i] = i;
    sort_entries(t, order, t->entries);
    for (uint32_t i = 0; i < t->entries; i++)
        print_entry(out, t, elt_at(t, order[i]), names);
    kfree(order);
    fs_printf(out, "\nTotals:\n    Hits: %llu\n    Entries: %u\n    Dropped: %llu\n",
              (unsigned long long)t->hits, (unsigned)t->entries, (unsigned long long)t->drops);
    return 0;
}
