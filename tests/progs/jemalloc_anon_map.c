/* jemalloc_anon_map.c: an allocator memtime cannot see, for t404. It maps
   its "heap" with anonymous mmap in 32 MiB chunks (as jemalloc does when
   nothing intercepts it) and touches one byte per page: 320 MiB, while
   malloc is barely used. memtime must warn that the heap is invisible. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define CHUNK (32u << 20)

int main(void)
{
   int i;
   size_t off;
   char* small = malloc(100);
   for (i = 0; i < 10; i++) {
      char* c = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (c == MAP_FAILED) { perror("mmap"); return 1; }
      for (off = 0; off < CHUNK; off += 4096) c[off] = 1;
   }
   free(small);
   puts("mapped");
   return 0;
}
