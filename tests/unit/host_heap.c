/* host_heap.c - kmalloc/kfree for host tests of modules that allocate: the host's malloc. */
#include <stdlib.h>
#include <string.h>

#include "kernel/mm/heap.h"

void *kmalloc(size_t size) { return size ? malloc(size) : NULL; }

void *kzalloc(size_t size) { return size ? calloc(1, size) : NULL; }

void kfree(void *ptr) { free(ptr); }

/* The host's malloc keeps its overhead to itself: the charge is the size asked for. */
size_t kmalloc_cost_of_size(size_t size) { return size; }
