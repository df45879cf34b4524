/* grow.c: the growing arrays' one reallocation rule (grow.h). */
#include <stdlib.h>
#include "base/grow.h"

void *vis_grow(void *a, size_t n, size_t first, size_t size)
{
    if (n != 0 && (n < first || (n & (n - 1)) != 0))
        return a;
    return realloc(a, (n ? n * 2 : first) * size);
}
