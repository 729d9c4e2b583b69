/*
 * params.h - the kernel command line, parsed once at boot (kernel/lib/cmdline.h does the work).
 */
#ifndef KERNEL_PARAMS_H
#define KERNEL_PARAMS_H

/* The value of a command-line option ("" for a bare flag), or NULL when absent. */
const char *kernel_param(const char *key);

/* The command line as the loader passed it. */
const char *kernel_cmdline_text(void);

#endif
