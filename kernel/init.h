/*
 * init.h - start-up functions that subsystems register for themselves.
 *
 * INITCALL(level, fn) puts fn in the initcall table at a level; kmain runs the table once
 * the memory allocators, interrupts and the timer work, level by level, and within one
 * level in link order. A subsystem that needs files in the tree or commands creates them
 * in its initcall, so kmain never has to know it.
 *
 * The levels, in the order they run (as Linux's core/fs/device initcalls, fewer of them):
 *   arch    the architecture's own files (/proc/interrupts); needs nothing but the heap
 *           and the file tree.
 *   core    kernel services that later initcalls and every task use: IPC, its exit hook
 *           and its log context.
 *   fs      the kernel's own files in /proc and /dev, and their modes.
 *   device  drivers: PCI's files, the serial ports (COM2's stream, the serial log).
 *   trace   the tracing core's parts and the tracers. Tracers register in link order, and
 *           available_tracers lists the newest first: that order is what users see.
 *   late    what needs every earlier level done (as Linux's late_initcall): trace_init,
 *           which starts the boot tracer (ftrace=) and so needs every tracer registered.
 *           It runs before PCI enumeration and tasks_init, which kmain calls afterwards.
 * Link order is the order of the files on the linker's command line (the Makefile's
 * KERNEL_C), which moving a file changes: whatever must run before something else goes at
 * an earlier level, never only earlier in the link. tests/shell/initcalls checks the whole
 * sequence (the boot option initcall_debug prints it), so a change shows as a failed test.
 */
#ifndef KERNEL_INIT_H
#define KERNEL_INIT_H

typedef void (*initcall_fn)(void);

/* One entry of the table: the function and its level (by number and by name). */
struct initcall {
    initcall_fn fn;
    unsigned level;
    const char *level_name;
};

/* The level numbers; linker.ld sorts the sections .initcall.1 to .initcall.6 by name, so
 * they stay single digits. A level name not listed here is a compile error. */
#define INITCALL_LEVEL_arch 1
#define INITCALL_LEVEL_core 2
#define INITCALL_LEVEL_fs 3
#define INITCALL_LEVEL_device 4
#define INITCALL_LEVEL_trace 5
#define INITCALL_LEVEL_late 6

#define INITCALL(level, fn) INITCALL_AT_(level, INITCALL_LEVEL_##level, fn)
/* A second step, so that the level's number is expanded before it is made a string. */
#define INITCALL_AT_(level, number, fn) INITCALL_ENTRY_(level, number, fn)
#define INITCALL_ENTRY_(level, number, fn)                                     \
    static const struct initcall initcall_##fn                                 \
        __attribute__((used, section(".initcall." #number), aligned(4))) =     \
            { fn, number, #level }

/* Runs every registered initcall, level by level; with the boot option initcall_debug,
 * prints each one's level, name and cycles once it returns ("initcall: core ipc_init done
 * after 31669 cycles"). */
void run_initcalls(void);

#endif
