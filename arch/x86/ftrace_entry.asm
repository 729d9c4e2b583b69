; ftrace_entry.asm - where a patched call site goes, and where a hijacked return comes back.
;
; gcc -pg -mfentry puts a 5-byte NOP as the first instruction of every traced function
; (before the frame is set up). Turning it into `call ftrace_caller` makes the function call
; us first thing. At that moment:
;     [esp]     the address after the call site (site + 5), inside the traced function
;     [esp + 4] the traced function's own return address, into its caller
;     ebp       still the caller's frame pointer
; ftrace_caller passes (site, caller's return address, where that return address is stored,
; ebp) to the C function in ftrace_trace_function, keeping every register the traced
; function may be using for its arguments.

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
    lea eax, [esp + 20]             ; where the traced function's return address is
    push eax
    push dword [esp + 24]           ; the caller's return address (parent ip)
    mov eax, [esp + 24]             ; the address after the call site
    sub eax, 5
    push eax                        ; the traced function (site) address
    call [ftrace_trace_function]
    add esp, 16
    pop edx
    pop ecx
    pop eax
    ret

; The function tracer's "off" target: returns at once.
global ftrace_stub
ftrace_stub:
    ret

; function_graph: a traced function's return address was replaced by this one. Its return
; value is in eax (and edx for 64-bit results): keep both. The C side checks the frame
; pointer, records the return, and gives back the real return address.
global return_to_handler
return_to_handler:
    push eax
    push edx
    push ebp                        ; after the traced function's epilogue: the caller's frame
    call ftrace_return_to_handler
    add esp, 4
    mov ecx, eax                    ; ecx is not preserved across a return: free to use
    pop edx
    pop eax
    jmp ecx
