; ftrace_entry.asm - where a patched call site goes, and where a hijacked return comes back.
;
; gcc -pg -mfentry puts a 5-byte NOP as the first instruction of every traced function
; (before the frame is set up). Turning it into `call ftrace_caller` makes the function call
; us first thing. At that moment:
;     [esp]     the address after the call site (site + 5), inside the traced function
;     [esp + 4] the traced function's own return address, into its caller
;     ebp       still the caller's frame pointer
;
; ftrace_caller saves the registers the traced function may be using for its arguments and
; the flags, turns interrupts off, and calls the C function in ftrace_trace_function with the
; address of what it pushed (struct ftrace_frame, arch/x86/ftrace_arch.h) in eax. popfd gives
; the traced code its interrupt flag back. 14 instructions with the call and the ret.

bits 32
section .text

extern ftrace_trace_function
extern ftrace_return_to_handler

global ftrace_caller
ftrace_caller:
    push eax
    push ecx
    push edx
    push ebp                        ; fp: the caller's frame pointer
    pushfd                          ; the traced code's interrupt flag
    cli                             ; the tracer runs with interrupts off on one CPU
    mov eax, esp                    ; struct ftrace_frame *
    call [ftrace_trace_function]
    popfd
    pop ebp
    pop edx
    pop ecx
    pop eax
    ret

; The function tracer's "off" target: returns at once.
global ftrace_stub
ftrace_stub:
    ret

; function_graph: a traced function's return address was replaced by this one. Its return
; value is in eax (and edx for 64-bit results): keep both. With interrupts off, the C side
; checks the frame pointer (ebp, after the traced function's epilogue: the caller's frame,
; passed in eax), records the return, and gives back the real return address.
global return_to_handler
return_to_handler:
    push eax
    push edx
    pushfd
    cli
    mov eax, ebp
    call ftrace_return_to_handler
    mov ecx, eax                    ; ecx is not preserved across a return: free to use
    popfd
    pop edx
    pop eax
    jmp ecx
