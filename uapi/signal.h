/*
 * uapi/signal.h - Linux's i386 signal ABI, byte for byte: numbers, sa_flags, the kernel's
 * struct sigaction (rt_sigaction), siginfo for faults, stack_t, sigcontext, ucontext and the
 * two frames the kernel pushes on the user stack to run a handler (sigframe for handlers
 * installed without SA_SIGINFO, rt_sigframe with it).
 *
 * Shared by the kernel (kernel/proc/signal.c, arch/x86/signal_frame.c) and the C library
 * (user/lib/signal.c). Every size and offset below is the one Linux's arch/x86 uses for a
 * 32-bit process, checked by the static assertions at the end; a program built for Linux
 * i386 (glibc's sigaction with its __restore_rt) finds what it expects.
 */
#ifndef UAPI_SIGNAL_H
#define UAPI_SIGNAL_H

#include <stdint.h>

#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGSTKFLT 16
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGURG 23
#define SIGXCPU 24
#define SIGXFSZ 25
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define SIGIO 29
#define SIGPWR 30
#define SIGSYS 31
#define NSIG_LINUX 64 /* signals are 1..64; sigset_t has a bit per signal, bit sig-1 */

#define SIG_DFL 0u
#define SIG_IGN 1u

/* sa_flags (include/uapi/asm-generic/signal-defs.h and x86's SA_RESTORER). */
#define SA_NOCLDSTOP 0x00000001u
#define SA_NOCLDWAIT 0x00000002u
#define SA_SIGINFO 0x00000004u
#define SA_UNSUPPORTED 0x00000400u /* never kept: lets a program probe for flag support */
#define SA_EXPOSE_TAGBITS 0x00000800u
#define SA_RESTORER 0x04000000u
#define SA_ONSTACK 0x08000000u
#define SA_RESTART 0x10000000u
#define SA_NODEFER 0x40000000u
#define SA_RESETHAND 0x80000000u

/* rt_sigprocmask's how. */
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

/* sigaltstack's ss_flags. */
#define SS_ONSTACK 1
#define SS_DISABLE 2
#define SS_AUTODISARM (1u << 31)
#define MINSIGSTKSZ 2048
#define SIGSTKSZ 8192

/* si_code values for the faults this kernel reports. */
#define SI_KERNEL 0x80
#define SI_USER 0    /* kill(2) */
#define SI_TKILL (-6) /* tkill(2), tgkill(2) */
#define CLD_EXITED 1  /* SIGCHLD: the child exited (si_status: its code) */
#define CLD_KILLED 2  /* ... was killed (si_status: the signal) */
#define CLD_DUMPED 3  /* ... was killed with a core dump */
#define ILL_ILLOPN 2
#define ILL_PRVOPC 5
#define ILL_BADSTK 8
#define FPE_INTDIV 1
#define FPE_FLTDIV 3
#define FPE_FLTOVF 4
#define FPE_FLTUND 5
#define FPE_FLTRES 6
#define FPE_FLTINV 7
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2
#define BUS_ADRALN 1
#define TRAP_BRKPT 1
#define TRAP_TRACE 2

/* The sigset the kernel's calls take (sigsetsize 8): bit sig-1 stands for sig. 4-byte
 * aligned as on i386, so the structures below have i386's layout on a 64-bit host too. */
typedef uint64_t kernel_sigset_t __attribute__((aligned(4)));
#define SIGSET_BIT(sig) ((kernel_sigset_t)1 << ((sig) - 1))

/* rt_sigaction's struct (the kernel's, not glibc's: the mask comes last, 8 bytes). */
struct kernel_sigaction {
    uint32_t handler;  /* SIG_DFL, SIG_IGN or the handler's address */
    uint32_t flags;    /* SA_* */
    uint32_t restorer; /* with SA_RESTORER: where the handler returns to */
    kernel_sigset_t mask; /* blocked while the handler runs */
} __attribute__((packed));

/* siginfo_t: 128 bytes; faults fill signo, errno (0), code and the address. */
struct kernel_siginfo {
    int32_t si_signo;
    int32_t si_errno;
    int32_t si_code;
    uint32_t si_addr; /* _sigfault._addr: where the fault was (0 for SI_KERNEL) */
    uint8_t rest[112];
};

/* stack_t (sigaltstack, uc_stack). */
struct kernel_stack {
    uint32_t ss_sp;
    int32_t ss_flags;
    uint32_t ss_size;
};

/* struct sigcontext of a 32-bit process: the registers at the moment of the signal. */
struct kernel_sigcontext {
    uint16_t gs, gsh, fs, fsh, es, esh, ds, dsh;
    uint32_t edi, esi, ebp, esp, ebx, edx, ecx, eax;
    uint32_t trapno, err, eip;
    uint16_t cs, csh;
    uint32_t eflags, esp_at_signal;
    uint16_t ss, ssh;
    uint32_t fpstate; /* pointer to saved FPU state, or 0 (this kernel saves none) */
    uint32_t oldmask; /* the low 32 bits of the mask to restore (sigframe only) */
    uint32_t cr2;     /* the faulting address of a page fault */
};

struct kernel_ucontext {
    uint32_t uc_flags;
    uint32_t uc_link;
    struct kernel_stack uc_stack;
    struct kernel_sigcontext uc_mcontext;
    kernel_sigset_t uc_sigmask;
};

/* The legacy i387 state area (struct _fpstate_32): never filled by this kernel, but it
 * is part of the old frame's layout, so extramask sits where Linux puts it. */
#define KERNEL_FPSTATE_32_SIZE 624

/* The frame for a handler without SA_SIGINFO; handler(sig) runs with ESP at pretcode. */
struct kernel_sigframe {
    uint32_t pretcode; /* the return address: sa_restorer, or retcode below */
    int32_t sig;
    struct kernel_sigcontext sc;
    uint8_t fpstate_unused[KERNEL_FPSTATE_32_SIZE];
    uint32_t extramask; /* the high 32 bits of the mask to restore */
    uint8_t retcode[8]; /* popl %eax; movl $__NR_sigreturn, %eax; int $0x80 */
};

/* The frame for an SA_SIGINFO handler: handler(sig, &info, &uc). */
struct kernel_rt_sigframe {
    uint32_t pretcode;
    int32_t sig;
    uint32_t pinfo; /* &info */
    uint32_t puc;   /* &uc */
    struct kernel_siginfo info;
    struct kernel_ucontext uc;
    uint8_t retcode[8]; /* movl $__NR_rt_sigreturn, %eax; int $0x80; (pad) */
};

_Static_assert(sizeof(struct kernel_sigaction) == 20, "i386 kernel sigaction");
_Static_assert(sizeof(struct kernel_siginfo) == 128, "siginfo is 128 bytes");
_Static_assert(sizeof(struct kernel_sigcontext) == 88, "i386 sigcontext");
_Static_assert(sizeof(struct kernel_ucontext) == 116, "i386 ucontext");
_Static_assert(sizeof(struct kernel_sigframe) == 732, "i386 sigframe");
_Static_assert(sizeof(struct kernel_rt_sigframe) == 268, "i386 rt_sigframe");

#endif
