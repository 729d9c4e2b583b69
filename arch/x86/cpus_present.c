/*
 * cpus_present.c - how many CPUs the machine was started with: arch_start_cpus
 * (arch/x86/smp_boot.c) warns when fewer came online, so that no CPU is left idle without
 * a word.
 *
 * The count comes from QEMU's firmware configuration device, fw_cfg (QEMU's
 * docs/specs/fw_cfg.rst): a 16-bit item number is written to the selector port, then the
 * item's bytes are read one by one from the data port. Item 0 holds the signature "QEMU",
 * item 5 (FW_CFG_NB_CPUS) the number of CPUs, 16 bits little-endian. A machine without
 * fw_cfg reads other bytes for the signature and counts as one CPU.
 */
#include "arch/x86/cpu.h"
#include "kernel/arch.h"

#define FW_CFG_SELECTOR_PORT 0x510
#define FW_CFG_DATA_PORT 0x511
#define FW_CFG_SIGNATURE 0x0000
#define FW_CFG_NB_CPUS 0x0005

/* Selects a fw_cfg item and reads its first len bytes into buf. */
static void fw_cfg_read(uint16_t item, uint8_t *buf, unsigned len)
{
    outw(FW_CFG_SELECTOR_PORT, item);
    for (unsigned i = 0; i < len; i++)
        buf[i] = inb(FW_CFG_DATA_PORT);
}

unsigned arch_cpus_present(void)
{
    uint8_t sig[4], count[2];
    fw_cfg_read(FW_CFG_SIGNATURE, sig, sizeof sig);
    if (sig[0] != 'Q' || sig[1] != 'E' || sig[2] != 'M' || sig[3] != 'U')
        return 1;
    fw_cfg_read(FW_CFG_NB_CPUS, count, sizeof count);
    unsigned n = count[0] | (unsigned)count[1] << 8;
    return n ? n : 1;
}
