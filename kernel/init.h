/*
 * init.h - start-up functions that subsystems register for themselves.
 *
 * INITCALL(fn) puts a pointer to fn in the .initcall section; kmain runs them all once the
 * memory allocators, interrupts and the timer work, in link order. A subsystem that needs
 * files in the tree or commands creates them in its initcall, so kmain never has to know it.
 */
#ifndef KERNEL_INIT_H
#define KERNEL_INIT_H

typedef void (*initcall_fn)(void);

#define INITCALL(fn)                                                           \
    static const initcall_fn initcall_##fn                                     \
        __attribute__((used, section(".initcall.1"), aligned(4))) = fn

/* Runs every registered initcall. */
void run_initcalls(void);

#endif
