# memory_back.sh - the memory check that usermode.check, hostile_mem.check, highmem.check,
# dma_ports.check and layout_1g.check share. Sourced; the script printed /proc/meminfo
# twice, before and after.
#   memory_back TEXT WHAT   adds to problems unless every page came back: MemFree after
#                           equals MemFree before, but for the pages the kernel heap took
#                           meanwhile (HeapTotal grows by a chunk when a peak of
#                           kmalloc needs it, and keeps them), and HeapAllocs, the
#                           kernel's live allocations, is back where it was (a kernel
#                           object leaked shows there). HeapUsed, their bytes, may only
#                           have grown by what tables that grew keep (a hash's buckets,
#                           a heap's array, replaced by bigger ones and never shrunk):
#                           at most MAX_TABLE_GROWTH_KB.
MAX_TABLE_GROWTH_KB=4
memory_back() {
    local free heap used allocs
    mapfile -t free < <(grep '^MemFree:' <<< "$1" | awk '{print $2}')
    mapfile -t heap < <(grep '^HeapTotal:' <<< "$1" | awk '{print $2}')
    mapfile -t used < <(grep '^HeapUsed:' <<< "$1" | awk '{print $2}')
    mapfile -t allocs < <(grep '^HeapAllocs:' <<< "$1" | awk '{print $2}')
    if [ "${#free[@]}" -ne 2 ] || [ "${#heap[@]}" -ne 2 ] || [ "${#used[@]}" -ne 2 ] ||
        [ "${#allocs[@]}" -ne 2 ]; then
        problems+=("$2: /proc/meminfo was not printed twice")
    elif [ $((free[0] - heap[1] + heap[0])) != "${free[1]}" ] || [ "${allocs[0]}" != "${allocs[1]}" ] ||
        [ "${used[1]}" -lt "${used[0]}" ] || [ $((used[1] - used[0])) -gt "$MAX_TABLE_GROWTH_KB" ]; then
        problems+=("$2: MemFree ${free[*]}, HeapTotal ${heap[*]}, HeapUsed ${used[*]} kB, HeapAllocs ${allocs[*]} before and after (pages or objects leaked?)")
    fi
}
