/* inline_dlopen.c: dlopens the library named by argv[1] (inline_lib.c),
 * allocates 4321 bytes through its lib_alloc, and prints 4 KB through stdio
 * so that libc allocates its stdout buffer itself (a stack inside libc,
 * with helpers inlined there). For t589. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    void *h, *(*lib_alloc)(size_t);
    static void *volatile keep;
    if (argc < 2 || (h = dlopen(argv[1], RTLD_NOW)) == NULL)
        return 2;
    lib_alloc = (void *(*)(size_t))dlsym(h, "lib_alloc");
    if (lib_alloc == NULL)
        return 3;
    keep = lib_alloc(4321);
    printf("%d\n", keep != NULL);
    return 0;
}
