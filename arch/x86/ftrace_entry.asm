; ftrace_entry.asm - where a patched call site goes, and where a hijacked return comes back.
;
; gcc -pg -mfentry puts a 5-byte NOP as the first instruction of every traced function
; (before the frame is set up). Turning it into `call ftrace_caller` makes the function call
; us first thing. At that moment:
;     [esp]     the address after the call site (site + 5), inside the traced function
;     [esp + 4] the traced function's own return address, into its caller
;     ebp       still the caller's frame pointer
;
; ftrace_caller saves every register (the traced function may be using eax, ecx and edx for
; its arguments, and the tracer's C code may change them) and the flags, turns interrupts
; off, and calls the C function in ftrace_trace_function with the address of what it pushed
; (struct ftrace_frame, arch/x86/ftrace_arch.h) in eax. popfd gives the traced code its
; interrupt flag back. pushad and popad save and restore all eight registers in one
; instruction each: 8 instructions with the call and the ret, where pushing and popping the
; four that matter one by one, and four arguments, took 16 (docs/ftrace.md section 10).

bits 32
section .text

extern ftrace_trace_function
extern ftrace_return_to_handler

global ftrace_caller
ftrace_caller:
    pushad                          ; eax ecx edx ebx esp ebp esi edi: ebp is the caller's fp
    pushfd                          ; the traced code's interrupt flag
    cli                             ; the tracer runs with interrupts off, on one CPU
    mov eax, esp                    ; struct ftrace_frame *
    call [ftrace_trace_function]
    popfd
    popad
    ret

; The function tracer's "off" target: returns at once.
global ftrace_stub
ftrace_stub:
    ret

; function_graph: a traced function's return address was replaced by this one. Its return
; value is in eax (and edx for 64-bit results): popad gives both back. With interrupts off,
; the C side checks the frame pointer (ebp, after the traced function's epilogue: the
; caller's frame, passed in eax), records the return, and gives back the real return
; address, which goes into the slot reserved first, for the final ret.
global return_to_handler
return_to_handler:
    sub esp, 4                      ; the slot for the real return address
    pushad
    pushfd
    cli
    mov eax, ebp
    call ftrace_return_to_handler
    mov [esp + 36], eax             ; above the flags (4) and the eight registers (32)
    popfd
    popad
    ret
