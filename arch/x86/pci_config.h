/*
 * pci_config.h - PCI configuration space through configuration mechanism #1.
 *
 * A PC reaches the 256 configuration bytes of every PCI function through two I/O ports: the
 * function and dword are selected by writing an address to 0xCF8, then the dword is read or
 * written at 0xCFC..0xCFF. drivers/pci calls only these functions.
 */
#ifndef ARCH_X86_PCI_CONFIG_H
#define ARCH_X86_PCI_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

/* Reads or writes the register at offset (< 256) of bus:dev.fn (dev < 32, fn < 8). 16-bit
 * accesses need an even offset and 32-bit ones a multiple of 4: the hardware selects a
 * dword and the byte lanes inside it, and an access cannot cross into the next dword. */
uint8_t pci_config_read8(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset);
uint16_t pci_config_read16(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset);
uint32_t pci_config_read32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset);
void pci_config_write8(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset, uint8_t value);
void pci_config_write16(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset, uint16_t value);
void pci_config_write32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset, uint32_t value);

/* Reads count dwords from offset on (a multiple of 4; offset + 4 * count <= 256) into out,
 * all under one hold of the configuration lock: a header snapshot costs one lock instead
 * of one per dword (enumeration reads 64 per function, issue 24). */
void pci_config_read_dwords(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset, uint32_t *out,
                            unsigned count);

/* The sizing probe of a BAR or ROM register (offset a multiple of 4), with no other access
 * between its steps: reads the register into *saved, writes value, reads back what stuck,
 * writes *saved back. Returns the value read back. */
uint32_t pci_config_probe32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset, uint32_t value,
                            uint32_t *saved);

/* A read-modify-write no other access can come between (Linux's pci_lock around
 * pci_check_and_mask_intx): reads the dword at offset (a multiple of 4) and, when update
 * returns true, writes *word to the 16-bit register at offset. Returns the dword read.
 * update runs under the configuration lock with interrupts off: it only computes. */
uint32_t pci_config_update16(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t offset,
                             bool (*update)(uint32_t dword, uint16_t *word));

#endif
