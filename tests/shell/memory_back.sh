# memory_back.sh - the memory check that usermode.check, hostile_mem.check and
# layout_1g.check share. Sourced; the script printed /proc/meminfo twice, before and after.
#   memory_back TEXT WHAT   adds to problems unless every page came back: MemFree after
#                           equals MemFree before, but for the pages the kernel heap took
#                           meanwhile (HeapTotal grows by a chunk when a peak of
#                           kmalloc needs it, and keeps them), and HeapUsed, what is
#                           allocated in that heap, is back where it was (a kernel object
#                           leaked shows there).
memory_back() {
    local free heap used
    mapfile -t free < <(grep '^MemFree:' <<< "$1" | awk '{print $2}')
    mapfile -t heap < <(grep '^HeapTotal:' <<< "$1" | awk '{print $2}')
    mapfile -t used < <(grep '^HeapUsed:' <<< "$1" | awk '{print $2}')
    if [ "${#free[@]}" -ne 2 ] || [ "${#heap[@]}" -ne 2 ] || [ "${#used[@]}" -ne 2 ]; then
        problems+=("$2: /proc/meminfo was not printed twice")
    elif [ $((free[0] - heap[1] + heap[0])) != "${free[1]}" ] || [ "${used[0]}" != "${used[1]}" ]; then
        problems+=("$2: MemFree ${free[*]}, HeapTotal ${heap[*]}, HeapUsed ${used[*]} kB before and after (pages leaked?)")
    fi
}
