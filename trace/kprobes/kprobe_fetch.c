/*
 * kprobe_fetch.c - a fetch arg's value at a probe hit: the base, then the reads of each
 * +OFFS(...), all through the site's fault-free reader.
 */
#include "trace/kprobes/kprobe_fetch.h"

/* The base's own value, before any read: a register, $stack, $retval, or (for the bases
 * that are memory) the address to read. *is_address says which. */
static enum kp_fetch_status base_value(const struct kp_fetch_arg *arg, const struct kp_site *site,
                                       uint32_t sym_addr, uint32_t *value, bool *is_address)
{
    *is_address = false;
    switch (arg->base) {
    case KP_FETCH_REG:
        if (arg->reg >= KP_NR_REGS || !(site->known_regs >> arg->reg & 1))
            return KP_FETCH_UNAVAILABLE;
        *value = site->regs[arg->reg];
        return KP_FETCH_OK;
    case KP_FETCH_STACKP:
    case KP_FETCH_STACK:
    case KP_FETCH_ARG:
        if (!(site->known_regs >> KP_REG_SP & 1))
            return KP_FETCH_UNAVAILABLE;
        *value = site->regs[KP_REG_SP];
        if (arg->base != KP_FETCH_STACKP) {
            *value += arg->index * 4u;  /* index <= 0xffff: no overflow beyond wrapping */
            *is_address = true;
        }
        return KP_FETCH_OK;
    case KP_FETCH_RETVAL:
        if (!site->has_retval)
            return KP_FETCH_UNAVAILABLE;
        *value = site->retval;
        return KP_FETCH_OK;
    case KP_FETCH_MEMORY:
        *value = arg->addr;
        *is_address = true;
        return KP_FETCH_OK;
    case KP_FETCH_SYMBOL:
        *value = sym_addr + (uint32_t)arg->offset;
        *is_address = true;
        return KP_FETCH_OK;
    default:
        return KP_FETCH_UNAVAILABLE;  /* $comm */
    }
}

/* Follows the chain up to the last read: *addr is where the last read would read, or,
 * when nothing is read at all (a plain register), *addr is the value and *direct is set. */
static enum kp_fetch_status last_address(const struct kp_fetch_arg *arg,
                                         const struct kp_site *site, uint32_t sym_addr,
                                         uint32_t *addr, bool *direct)
{
    uint32_t v;
    bool pending_read;
    enum kp_fetch_status st = base_value(arg, site, sym_addr, &v, &pending_read);
    if (st != KP_FETCH_OK)
        return st;
    for (unsigned i = 0; i < arg->nderef && i < KP_DEREF_MAX; i++) {
        if (pending_read && !site->read(site->ctx, v, &v, sizeof v))
            return KP_FETCH_FAULT;
        v += (uint32_t)arg->deref[i];
        pending_read = true;
    }
    *addr = v;
    *direct = !pending_read;
    return KP_FETCH_OK;
}

enum kp_fetch_status kp_fetch_value(const struct kp_fetch_arg *arg, const struct kp_site *site,
                                    uint32_t sym_addr, uint64_t *value)
{
    uint32_t addr;
    bool direct;
    enum kp_fetch_status st = last_address(arg, site, sym_addr, &addr, &direct);
    if (st != KP_FETCH_OK)
        return st;
    uint32_t size = kp_type_size(arg->type);
    uint64_t raw = 0;
    if (direct) {
        raw = addr;
    } else {
        uint8_t bytes[8] = { 0 };
        if (size == 0 || size > sizeof bytes || !site->read(site->ctx, addr, bytes, size))
            return KP_FETCH_FAULT;
        for (uint32_t i = 0; i < size; i++)
            raw |= (uint64_t)bytes[i] << (8 * i);  /* x86 is little-endian */
    }
    if (size < 8)
        raw &= (1ull << (8 * size)) - 1;
    bool is_signed = arg->type >= KP_TYPE_S8 && arg->type <= KP_TYPE_S64;
    if (is_signed && size < 8 && (raw >> (8 * size - 1) & 1))
        raw |= ~0ull << (8 * size);
    *value = raw;
    return KP_FETCH_OK;
}

enum kp_fetch_status kp_fetch_string_addr(const struct kp_fetch_arg *arg,
                                          const struct kp_site *site, uint32_t sym_addr,
                                          uint32_t *addr)
{
    bool direct;
    if (arg->base == KP_FETCH_COMM)
        return KP_FETCH_UNAVAILABLE;
    enum kp_fetch_status st = last_address(arg, site, sym_addr, addr, &direct);
    if (st == KP_FETCH_OK && direct)
        return KP_FETCH_UNAVAILABLE;  /* the parser refuses a string that is not memory */
    return st;
}

bool kp_fetch_possible(const struct kp_fetch_arg *arg, uint32_t known_regs, bool has_retval)
{
    switch (arg->base) {
    case KP_FETCH_REG:
        return arg->reg < KP_NR_REGS && (known_regs >> arg->reg & 1);
    case KP_FETCH_STACK:
    case KP_FETCH_STACKP:
    case KP_FETCH_ARG:
        return known_regs >> KP_REG_SP & 1;
    case KP_FETCH_RETVAL:
        return has_retval;
    default:
        return true;
    }
}
